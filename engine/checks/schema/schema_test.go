package schema_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
)

// eras are the four wires every built-in runs on.
var eras = []struct{ protocol, transport string }{
	{scenario.Protocol20260728, scenario.TransportStdio},
	{scenario.Protocol20260728, scenario.TransportHTTP},
	{scenario.Protocol20251125, scenario.TransportStdio},
	{scenario.Protocol20251125, scenario.TransportHTTP},
}

// variant is ex with its protocol and transport set; ok is false when
// the scenario exists only on its own transport or revision (a buffer, a
// proxy, a disconnect, keep-alives are Streamable HTTP's; end-session is
// 2025-11-25's) and the variant is another.
func variant(t *testing.T, ex examples.Example, protocol, transport string) (examples.Example, bool) {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(ex.JSON, &doc); err != nil {
		t.Fatalf("%s: %v", ex.Name, err)
	}
	own, ownProtocol := scenario.TransportStdio, scenario.Protocol20260728
	if v, ok := doc["transport"]; ok {
		_ = json.Unmarshal(v, &own)
	}
	if v, ok := doc["protocol"]; ok {
		_ = json.Unmarshal(v, &ownProtocol)
	}
	doc["protocol"], _ = json.Marshal(protocol)
	doc["transport"], _ = json.Marshal(transport)
	ex.JSON, _ = json.Marshal(doc)
	if _, err := scenario.Decode(ex.JSON); err != nil {
		if transport != own || protocol != ownProtocol {
			return ex, false
		}
		t.Fatalf("%s as %s on %s: %v", ex.Name, protocol, transport, err)
	}
	return ex, true
}

// TestEveryBuiltInIsValidInBothEras proves SCENARIO.md "The wire of each
// revision": every message of every built-in scenario, run in both
// revisions on both transports, is valid against that revision's official
// schema (a failure names the scenario, the event and the pointer).
func TestEveryBuiltInIsValidInBothEras(t *testing.T) {
	all := examples.All()
	if len(all) < 40 {
		t.Fatalf("only %d built-ins", len(all))
	}
	for _, ex := range all {
		for _, era := range eras {
			t.Run(ex.Name+"/"+era.protocol+"/"+era.transport, func(t *testing.T) {
				v, ok := variant(t, ex, era.protocol, era.transport)
				if !ok {
					return // only on its own transport, which another case runs
				}
				c := schema.Check(examplestest.RunExample(t, v))
				if c.OK == nil || !*c.OK {
					t.Errorf("%s: %s", c.Rule, c.Detail)
				}
			})
		}
	}
}

// TestValidate proves the rule judges a message by its method's definition
// and names the first failing JSON Pointer.
func TestValidate(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, c := range []struct {
		name, rev, msg, method string
		pointer                string // "" with ok: valid
		ok                     bool
	}{
		{"2026 tools/call with _meta is valid", "2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x",` + meta + `}}`, "", "", true},
		{"2026 tools/call without _meta is not", "2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`, "", "/params", false},
		{"2026 _meta without clientCapabilities", "2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, "", "/params/_meta", false},
		{"2025 tools/call without _meta is valid", "2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`, "", "", true},
		{"2026 result without resultType", "2026-07-28", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, "tools/call", "/result", false},
		{"2026 tools/list result without ttlMs", "2026-07-28", `{"jsonrpc":"2.0","id":1,"result":{"tools":[],"resultType":"complete","cacheScope":"private"}}`, "tools/list", "/result", false},
		{"2026 cacheScope outside its enum", "2026-07-28", `{"jsonrpc":"2.0","id":1,"result":{"tools":[],"resultType":"complete","ttlMs":0,"cacheScope":"shared"}}`, "tools/list", "/result/cacheScope", false},
		{"2025 result without resultType is valid", "2025-11-25", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, "tools/call", "", true},
		{"progress value not a number", "2025-11-25", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":"1"}}`, "", "/params/progress", false},
		{"2026 extension request needs _meta", "2026-07-28", `{"jsonrpc":"2.0","id":"t","method":"tasks/get","params":{"taskId":"a"}}`, "", "/params", false},
		{"2025 initialize", "2025-11-25", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, "", "", true},
		{"2026 HeaderMismatchError", "2026-07-28", `{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch"}}`, "tools/call", "", true},
		{"2026 UnsupportedProtocolVersionError with requested and supported", "2026-07-28", `{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"requested":"2099-01-01","supported":["2026-07-28"]}}}`, "tools/call", "", true},
		{"2026 UnsupportedProtocolVersionError without data.supported", "2026-07-28", `{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"requested":"2099-01-01"}}}`, "tools/call", "/error/data", false},
		{"2025 initialize without clientInfo", "2025-11-25", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`, "", "/params", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := schema.Validate(c.rev, json.RawMessage(c.msg), c.method)
			if c.ok {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			var p *schema.Problem
			if !errors.As(err, &p) {
				t.Fatalf("want a *Problem, got %v", err)
			}
			if p.Pointer != c.pointer {
				t.Errorf("pointer %q, want %q (%v)", p.Pointer, c.pointer, p)
			}
		})
	}
}

// TestCheckFailsAndLeavesOut proves the rule fails a trace with an
// invalid message naming its event, and leaves out raw sends.
func TestCheckFailsAndLeavesOut(t *testing.T) {
	tr := examplestest.Run(t, "a-cancel-then-complete")
	if c := schema.Check(tr); c.OK == nil || !*c.OK {
		t.Fatalf("the built-in fails: %s", c.Detail)
	}
	// Strip the first request's _meta: the rule names that event.
	for i := range tr.Events {
		if tr.Events[i].Type == trace.TypeSend && strings.Contains(string(tr.Events[i].Message), `"method":"tools/call"`) {
			tr.Events[i].Message = json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{}}}`)
			c := schema.Check(tr)
			if c.OK == nil || *c.OK || len(c.Events) != 1 || c.Events[0] != tr.Events[i].Seq || !strings.Contains(c.Detail, "at /params") {
				t.Errorf("got %+v, want a failure at event %d naming /params", c, tr.Events[i].Seq)
			}
			break
		}
	}
	// A raw send is left out.
	raw := `{"mcplab":1,"steps":[{"at":0,"do":"call","id":7,"name":"crunch"},{"at":5,"do":"send","message":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"id":7}}}},{"at":10,"do":"send","message":{"jsonrpc":"2.0","id":9,"method":"tools/call"}},{"at":50,"do":"complete","id":7}]}`
	s, err := scenario.Decode([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	tr, err = engine.Run(s)
	if err != nil {
		t.Fatal(err)
	}
	if c := schema.Check(tr); c.OK == nil || !*c.OK || !strings.Contains(c.Detail, "left out") {
		t.Errorf("raw sends: %+v", c)
	}
}

// TestEraMixing proves SCENARIO.md "The wire of each revision" for the
// methods themselves: a request or notification whose method only the
// other revision's schema defines is invalid at /method, naming both
// revisions; a method the revision defines, one its extension owns (the
// tasks extension's under 2026-07-28) and a vendor's that neither defines
// are not convicted of it.
func TestEraMixing(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, c := range []struct {
		name, rev, msg string
		other          string // the revision Foreign names; "" for none
	}{
		{"subscriptions/listen is 2026-07-28's only", "2025-11-25", `{"jsonrpc":"2.0","id":"sub-1","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}`, "2026-07-28"},
		{"its acknowledgement is 2026-07-28's only", "2025-11-25", `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{}}}`, "2026-07-28"},
		{"server/discover is 2026-07-28's only", "2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, "2026-07-28"},
		{"initialize is 2025-11-25's only", "2026-07-28", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"},` + meta + `}}`, "2025-11-25"},
		{"ping is 2025-11-25's only", "2026-07-28", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{` + meta + `}}`, "2025-11-25"},
		{"notifications/initialized is 2025-11-25's only", "2026-07-28", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "2025-11-25"},
		{"resources/subscribe is 2025-11-25's only", "2026-07-28", `{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"file:///a",` + meta + `}}`, "2025-11-25"},
		{"resources/subscribe under its own revision", "2025-11-25", `{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"file:///a"}}`, ""},
		{"the tasks extension's tasks/get under 2026-07-28", "2026-07-28", `{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{"taskId":"a",` + meta + `}}`, ""},
		{"a vendor request under 2025-11-25", "2025-11-25", `{"jsonrpc":"2.0","id":6,"method":"acme/frobnicate","params":{}}`, ""},
		{"a vendor notification under 2026-07-28", "2026-07-28", `{"jsonrpc":"2.0","method":"notifications/acme/tick"}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal([]byte(c.msg), &m)
			if got := schema.Foreign(c.rev, m.Method); got != c.other {
				t.Errorf("Foreign(%s, %s) = %q, want %q", c.rev, m.Method, got, c.other)
			}
			err := schema.Validate(c.rev, json.RawMessage(c.msg), "")
			if c.other == "" {
				if err != nil {
					t.Errorf("want no era mixing, got %v", err)
				}
				return
			}
			var p *schema.Problem
			want := m.Method + " is a " + c.other + " method; " + c.rev + " has none"
			if !errors.As(err, &p) || p.Pointer != "/method" || p.Reason != want {
				t.Errorf("got %v, want a Problem at /method: %s", err, want)
			}
		})
	}
}

// TestCheckEraMixingInTranscripts proves the rule judges imported
// transcripts fairly on the eras: a 2025-11-25 client's
// subscriptions/listen and a 2026-07-28 client's ping fail, naming the
// event; a vendor method passes; and a server/discover before initialize
// under 2025-11-25, the discovery probe of a client that falls back to
// the handshake (DOMAIN.md, "The two protocol eras"), is left out, while
// one after the handshake fails.
func TestCheckEraMixingInTranscripts(t *testing.T) {
	const (
		init25   = `write: {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n" + `read: {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}` + "\n" + `write: {"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
		meta     = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		disc26   = `write: {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}` + "\n" + `read: {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"public","supportedVersions":["2026-07-28"],"capabilities":{}}}` + "\n"
		probe    = `write: {"jsonrpc":"2.0","id":0,"method":"server/discover","params":{` + meta + `}}` + "\n" + `read: {"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}` + "\n"
		notFound = `read: {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}` + "\n"
	)
	for _, c := range []struct {
		name, log, rev string
		ok             bool
		says           string // in the detail
	}{
		{"subscriptions/listen under 2025-11-25 fails", init25 + `write: {"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}` + "\n" + notFound,
			"2025-11-25", false, "at /method: subscriptions/listen is a 2026-07-28 method; 2025-11-25 has none"},
		{"ping under 2026-07-28 fails", disc26 + `write: {"jsonrpc":"2.0","id":2,"method":"ping","params":{` + meta + `}}` + "\n" + notFound,
			"2026-07-28", false, "at /method: ping is a 2025-11-25 method; 2026-07-28 has none"},
		{"a vendor method passes", init25 + `write: {"jsonrpc":"2.0","id":2,"method":"acme/frobnicate","params":{}}` + "\n" + `read: {"jsonrpc":"2.0","id":2,"result":{}}` + "\n",
			"2025-11-25", true, "are valid against the 2025-11-25 schema"},
		{"a discovery probe before initialize is left out", probe + init25,
			"2025-11-25", true, "1 left out with its answer: the client's server/discover before initialize"},
		{"a discovery probe's answer in the 2026 shape is left out with it", strings.Replace(probe, `"error":{"code":-32601,"message":"Method not found"}`, `"result":{"resultType":"complete","supportedVersions":["2025-11-25"],"capabilities":{}}`, 1) + init25,
			"2025-11-25", true, "All 3 messages are valid against the 2025-11-25 schema (1 left out with its answer"},
		{"server/discover after initialize fails", init25 + `write: {"jsonrpc":"2.0","id":2,"method":"server/discover","params":{}}` + "\n" + notFound,
			"2025-11-25", false, "at /method: server/discover is a 2026-07-28 method; 2025-11-25 has none"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := transcript.Import([]byte(c.log), transcript.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Source == nil || tr.Source.Protocol != c.rev {
				t.Fatalf("imported as %+v, want protocol %s", tr.Source, c.rev)
			}
			ch := schema.Check(tr)
			if ch.OK == nil || *ch.OK != c.ok || !strings.Contains(ch.Detail, c.says) {
				t.Fatalf("%s: ok %v, %q; want ok %v saying %q", ch.Rule, ch.OK != nil && *ch.OK, ch.Detail, c.ok, c.says)
			}
			if !c.ok && (len(ch.Events) != 1 || !strings.Contains(ch.Detail, "Event "+strconv.Itoa(ch.Events[0])+" (client send")) {
				t.Errorf("events %v, detail %q: want the offending client send named", ch.Events, ch.Detail)
			}
		})
	}
}

// TestForeignResultMember proves the era rule on results: a member only
// the other revision's Result definition names is invalid at that member
// (resultType under 2025-11-25, where CreateTaskResult is {"task"} and a
// tasks/get result the Task), though the 2025-11-25 Result's
// additionalProperties alone would let it pass; the same results are
// valid without it, and under 2026-07-28 resultType is its own.
func TestForeignResultMember(t *testing.T) {
	const task25 = `"taskId":"t","status":"working","createdAt":"1970-01-01T00:00:00.010Z","lastUpdatedAt":"1970-01-01T00:00:00.010Z","ttl":null,"pollInterval":300`
	for _, c := range []struct {
		name, rev, method, msg string
		bad                    string // the failing member; "" for valid
	}{
		{"a 2025-11-25 task handle with resultType", "2025-11-25", "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","task":{` + task25 + `}}}`, "resultType"},
		{"a 2025-11-25 task handle as its schema has it", "2025-11-25", "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"task":{` + task25 + `}}}`, ""},
		{"a 2025-11-25 tasks/cancel acknowledgement with resultType", "2025-11-25", "tasks/cancel", `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"}}`, "resultType"},
		{"a 2025-11-25 tasks/get result, the Task", "2025-11-25", "tasks/get", `{"jsonrpc":"2.0","id":2,"result":{` + task25 + `}}`, ""},
		{"a 2025-11-25 tools/call result with resultType complete", "2025-11-25", "tools/call", `{"jsonrpc":"2.0","id":3,"result":{"content":[],"resultType":"complete"}}`, "resultType"},
		{"resultType is 2026-07-28's own", "2026-07-28", "tools/call", `{"jsonrpc":"2.0","id":3,"result":{"content":[],"resultType":"complete"}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := schema.Validate(c.rev, json.RawMessage(c.msg), c.method)
			if c.bad == "" {
				if err != nil {
					t.Errorf("want valid, got %v", err)
				}
				return
			}
			var p *schema.Problem
			want := c.bad + " is a member of 2026-07-28's Result; " + c.rev + "'s has none"
			if !errors.As(err, &p) || p.Pointer != "/result/"+c.bad || p.Reason != want {
				t.Errorf("got %v, want a Problem at /result/%s: %s", err, c.bad, want)
			}
		})
	}
}

// Rule message-valid's reference entry (Description) says where the rule
// is judged in terms a reader can act on: the command that judges it
// (mcplab run -checks), and that the browser's pages leave it out, never
// a build no user can open.
func TestDescriptionNamesWhereItIsJudged(t *testing.T) {
	u := schema.Description.Undecided
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"names the command that judges it", "mcplab run -checks", true},
		{"says the browser leaves it out", "not in the browser", true},
		{"names no build a user cannot open", "native build", false},
	} {
		if strings.Contains(u, tc.text) != tc.want {
			t.Errorf("%s: Undecided %q contains %q: %v, want %v", tc.name, u, tc.text, !tc.want, tc.want)
		}
	}
}

// A recorder on the path (mcplab proxy) logs the server's send of the
// discovery probe's answer before the client's initialize, and its
// delivery once the client has it, which may be after: the delivery is the
// same answer, left out with it (DOMAIN.md, "The two protocol eras"), not
// a 2026-07-28 result convicted under 2025-11-25.
func TestProbeAnswerDeliveredAfterInitializeIsLeftOut(t *testing.T) {
	const answer = `{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"public","supportedVersions":["2026-07-28"],"capabilities":{}}}`
	msg := func(s string) []byte { return []byte(s) }
	tr := &trace.Trace{Source: &trace.Source{Protocol: "2025-11-25"}, Events: []trace.Event{
		{Type: trace.TypeSend, Actor: trace.ActorClient, Message: msg(`{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}`)},
		{Type: trace.TypeSend, Actor: trace.ActorServer, Message: msg(answer)},
		{Type: trace.TypeSend, Actor: trace.ActorClient, Message: msg(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)},
		{Type: trace.TypeDeliver, Actor: trace.ActorNetwork, Message: msg(answer)},
	}}
	ch := schema.Check(tr)
	if ch.OK == nil || !*ch.OK {
		t.Fatalf("ok %v, %q: want the probe's late-logged delivery left out with its answer", ch.OK != nil && *ch.OK, ch.Detail)
	}
}
