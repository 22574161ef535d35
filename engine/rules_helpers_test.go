package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// ---- running a scenario --------------------------------------------------

// run decodes and runs a scenario and returns its trace, after proving that
// the run is deterministic (entry.RunJSON twice gives the same bytes, and
// Run plus Encode gives those bytes too) and that the trace's invariants hold.
func run(t *testing.T, in string) *trace.Trace {
	t.Helper()
	first, err := entry.RunJSON([]byte(in), entry.Document{})
	if err != nil {
		t.Fatalf("entry.RunJSON: %v", err)
	}
	second, err := entry.RunJSON([]byte(in), entry.Document{})
	if err != nil || !bytes.Equal(first, second) {
		t.Fatalf("two runs of the same scenario differ (err %v): the engine is not deterministic", err)
	}
	s, err := scenario.Decode([]byte(in))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	tr, err := engine.Run(s)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	enc, err := engine.Encode(tr)
	if err != nil || !bytes.Equal(enc, first) {
		t.Fatalf("Encode(Run(s)) differs from entry.RunJSON (err %v)", err)
	}
	checkInvariants(t, tr)
	return tr
}

// checkInvariants verifies what must hold for every trace, whatever the
// scenario (SCENARIO.md, Trace; DOMAIN.md §1):
//   - event seqs are 0..n-1 and times never decrease; endMs is the last time;
//   - every network deliver or drop has exactly one earlier origin (send,
//     close-stream, keepalive or a 2025-11-25 priming event) with the same wire number, sentAt equal to
//     the origin's time, the same message, and took the direction's latency
//     (at least that, behind a buffering proxy);
//   - once the server marked a request cancelled it puts nothing more on the
//     wire for it, and it sends at most one final response per request,
//     unless server.policy.respondAfterCancel;
//   - requests[].state is cancelled exactly when the server recorded the
//     cancellation (listen streams aside), and requests[].response is the
//     final message the server sent for it.
func checkInvariants(t *testing.T, tr *trace.Trace) {
	t.Helper()
	s := tr.Scenario
	type origin struct {
		e         trace.Event
		delivered bool
	}
	buffering := proxyBuffers(t, s)
	origins := map[int]*origin{}
	cancelled := map[string]int{} // request id → seq of the server's cancelled status
	retired := false              // a 404 for a retired session was seen
	finals := map[string]json.RawMessage{}
	eventIDs := map[string]bool{} // SSE event ids sent: a send repeating one is a replay after Last-Event-ID
	for i, e := range tr.Events {
		if e.Seq != i {
			t.Fatalf("events[%d].seq = %d", i, e.Seq)
		}
		if i > 0 && e.At < tr.Events[i-1].At {
			t.Fatalf("events[%d] at %d is before events[%d] at %d", i, e.At, i-1, tr.Events[i-1].At)
		}
		switch e.Type {
		case trace.TypeSend, trace.TypeCloseStream, trace.TypeKeepalive, trace.TypePrime:
			if e.Wire <= 0 {
				t.Fatalf("events[%d] (%s) has no wire number", i, e.Type)
			}
			if _, dup := origins[e.Wire]; dup {
				t.Fatalf("events[%d]: wire %d has two origins", i, e.Wire)
			}
			origins[e.Wire] = &origin{e: e}
		case trace.TypeDeliver, trace.TypeDrop:
			if e.Actor != trace.ActorNetwork {
				break // a bounded buffer dropping a message the server never sent
			}
			o := origins[e.Wire]
			if o == nil {
				t.Fatalf("events[%d] (%s of wire %d) has no earlier send, close-stream or keepalive", i, e.Type, e.Wire)
			}
			if o.delivered {
				t.Fatalf("events[%d]: wire %d arrives twice", i, e.Wire)
			}
			o.delivered = true
			if e.SentAt == nil || *e.SentAt != o.e.At {
				t.Fatalf("events[%d]: sentAt %v, but wire %d left at %d", i, e.SentAt, e.Wire, o.e.At)
			}
			if !bytes.Equal(e.Message, o.e.Message) || e.From != o.e.From || e.To != o.e.To {
				t.Fatalf("events[%d]: wire %d arrives as %s→%s %s, sent as %s→%s %s", i, e.Wire, e.From, e.To, e.Message, o.e.From, o.e.To, o.e.Message)
			}
			lat := s.LatencyMs.Up
			if e.To == trace.ActorClient {
				lat = s.LatencyMs.Down
			}
			if took := e.At - *e.SentAt; took < lat || (took != lat && !buffering) {
				t.Fatalf("events[%d]: wire %d took %d ms to the %s, latency is %d (buffering proxy: %v)", i, e.Wire, took, e.To, lat, buffering)
			}
		case trace.TypeStatus:
			if e.Actor == trace.ActorServer && e.Status == trace.StateCancelled {
				if _, dup := cancelled[idText(e.ID)]; dup {
					t.Fatalf("events[%d]: request %s cancelled twice at the server (one terminal state)", i, e.ID)
				}
				cancelled[idText(e.ID)] = i
			}
		}
		// After a retired session's 404 the client re-issues what was in
		// flight under the same id: the request's life starts again.
		if e.Status == "404" {
			retired = true
		}
		if retired && e.Type == trace.TypeSend && e.From == trace.ActorClient && e.ID != nil {
			delete(cancelled, e.ID.Raw())
		}
		serverWire := (e.Type == trace.TypeSend || e.Type == trace.TypeKeepalive) && e.From == trace.ActorServer
		if serverWire && e.ID == nil && s.Server.Policy.RouteByIDOnly && isFinal(e.Message) && e.Note != "The server sends a raw message." {
			// routeByIdOnly: a request's answer goes out on the stream of
			// the duplicate that took over its id's route.
			var m struct{ ID json.RawMessage }
			if json.Unmarshal(e.Message, &m) == nil {
				finals[string(m.ID)] = e.Message
			}
		}
		if serverWire && e.ID != nil {
			if c, ok := cancelled[e.ID.Raw()]; ok && !s.Server.Policy.RespondAfterCancel {
				t.Fatalf("events[%d]: the server sent %s for request %s after cancelling it (events[%d])", i, e.Type, e.ID, c)
			}
			replay := e.EventID != "" && eventIDs[e.EventID]
			eventIDs[e.EventID] = true
			if isFinal(e.Message) && !replay {
				if _, dup := finals[e.ID.Raw()]; dup && !s.Server.Policy.RespondAfterCancel {
					t.Fatalf("events[%d]: a second final response for request %s", i, e.ID)
				}
				finals[e.ID.Raw()] = e.Message
			}
		}
	}
	if n := len(tr.Events); n > 0 && tr.EndMs != tr.Events[n-1].At {
		t.Fatalf("endMs = %d, last event at %d", tr.EndMs, tr.Events[n-1].At)
	}
	for _, r := range tr.Requests {
		// A listen stream the server tears down itself, or whose transport
		// breaks, ends cancelled without a cancellation to observe.
		if _, ok := cancelled[r.ID.Raw()]; r.Method != "subscriptions/listen" && ok != (r.State == trace.StateCancelled) {
			t.Fatalf("request %s: state %s, but server cancelled status event present = %v", r.ID, r.State, ok)
		}
		if !bytes.Equal(r.Response, finals[r.ID.Raw()]) {
			t.Fatalf("request %s: requests[].response is %s, but the final message the server put on the wire is %q (SCENARIO.md: response is what the server put on the wire, null if nothing)", r.ID, r.Response, finals[r.ID.Raw()])
		}
	}
	rules := map[trace.RuleID]bool{}
	for _, c := range tr.Checks {
		if rules[c.Rule] {
			t.Fatalf("check %s listed twice", c.Rule)
		}
		rules[c.Rule] = true
	}
}

// proxyBuffers reports whether the scenario puts a buffering proxy in front
// of the client (SCENARIO.md proxy.buffering), which may hold a message
// past its latency. Read from the JSON so this helper needs no Go field.
func proxyBuffers(t *testing.T, s *scenario.Scenario) bool {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Proxy *struct {
			Buffering bool `json:"buffering"`
		} `json:"proxy"`
	}
	_ = json.Unmarshal(b, &m)
	return m.Proxy != nil && m.Proxy.Buffering
}

func idText(id *scenario.ID) string {
	if id == nil {
		return ""
	}
	return id.Raw()
}

// isFinal reports whether msg is a JSON-RPC response (result or error).
func isFinal(msg json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return false
	}
	_, method := m["method"]
	_, result := m["result"]
	_, e := m["error"]
	return !method && (result || e)
}

// ---- reading a trace -----------------------------------------------------

// ev selects events: zero fields match anything; id "" matches any request.
type ev struct {
	actor      trace.Actor
	typ        trace.EventType
	id, method string
	at         int64 // -1: any time
}

func (q ev) match(e trace.Event) bool {
	return (q.actor == "" || e.Actor == q.actor) &&
		(q.typ == "" || e.Type == q.typ) &&
		(q.id == "" || idText(e.ID) == q.id) &&
		(q.method == "" || method(e.Message) == q.method) &&
		(q.at < 0 || e.At == q.at)
}

func find(tr *trace.Trace, q ev) []trace.Event {
	var out []trace.Event
	for _, e := range tr.Events {
		if q.match(e) {
			out = append(out, e)
		}
	}
	return out
}

func any_(typ trace.EventType) ev { return ev{typ: typ, at: -1} }

func method(msg json.RawMessage) string {
	var m struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(msg, &m)
	return m.Method
}

func req(t *testing.T, tr *trace.Trace, id string) trace.Request {
	t.Helper()
	for _, r := range tr.Requests {
		if r.ID.Raw() == id {
			return r
		}
	}
	t.Fatalf("no request %s in requests[]", id)
	return trace.Request{}
}

func str(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}

// summary is requests[i] in the words of SCENARIO.md.
func summary(r trace.Request) string {
	ended := "<null>"
	if r.EndedAt != nil {
		ended = fmt.Sprint(*r.EndedAt)
	}
	resp := "<null>"
	if r.Response != nil {
		resp = string(r.Response)
	}
	return fmt.Sprintf("state=%s cause=%s reason=%s signal=%s clientOutcome=%s endedAt=%s response=%s",
		r.State, str(r.Cause), str(r.Reason), str(r.Signal), r.ClientOutcome, ended, resp)
}

// wantSummary compares the parts of requests[id] that are given (want
// holds "key=value" pairs as summary writes them).
func wantSummary(t *testing.T, tr *trace.Trace, id string, want ...string) {
	t.Helper()
	got := " " + summary(req(t, tr, id)) + " "
	for _, w := range want {
		if !strings.Contains(got, " "+w+" ") {
			t.Errorf("request %s: want %s; got %s", id, w, strings.TrimSpace(got))
		}
	}
}

// check returns the rule's check: present, and ok ("true", "false", "null").
func check(tr *trace.Trace, rule trace.RuleID) (string, bool) {
	for _, c := range tr.Checks {
		if c.Rule == rule {
			if c.OK == nil {
				return "null", true
			}
			return fmt.Sprint(*c.OK), true
		}
	}
	return "", false
}

func wantCheck(t *testing.T, tr *trace.Trace, rule trace.RuleID, ok string) {
	t.Helper()
	got, present := check(tr, rule)
	if !present {
		t.Errorf("check %s absent, want ok=%s (checks: %s)", rule, ok, checkList(tr))
		return
	}
	if got != ok {
		t.Errorf("check %s ok=%s, want %s (checks: %s)", rule, got, ok, checkList(tr))
	}
}

func checkList(tr *trace.Trace) string {
	var s []string
	for _, c := range tr.Checks {
		ok := "null"
		if c.OK != nil {
			ok = fmt.Sprint(*c.OK)
		}
		s = append(s, string(c.Rule)+"="+ok)
	}
	return strings.Join(s, " ")
}

func wantCount(t *testing.T, tr *trace.Trace, q ev, n int, what string) []trace.Event {
	t.Helper()
	got := find(tr, q)
	if len(got) != n {
		t.Errorf("%s: %d matching events, want %d", what, len(got), n)
	}
	return got
}

// logOnFailure logs the trace's events when the test has failed.
func logOnFailure(t *testing.T, tr *trace.Trace) {
	t.Helper()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("trace:\n%s", dump(tr))
		}
	})
}

func dump(tr *trace.Trace) string {
	var b strings.Builder
	for _, e := range tr.Events {
		fmt.Fprintf(&b, "  #%d %d %s %s id=%s wire=%d %s %s\n", e.Seq, e.At, e.Actor, e.Type, idText(e.ID), e.Wire, e.Message, e.Note)
	}
	return b.String()
}

// compact returns s as compact JSON.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// ---- the rules -----------------------------------------------------------

// sc builds a scenario: top-level members (may be empty) and steps.
func sc(members string, steps ...string) string {
	if members != "" {
		members += ","
	}
	return `{"mcplab":1,` + members + `"steps":[` + strings.Join(steps, ",") + `]}`
}

const (
	stdio     = `"transport":"stdio","latencyMs":{"up":10,"down":10}`
	http2026  = `"transport":"streamable-http","protocol":"2026-07-28","latencyMs":{"up":10,"down":10}`
	http2025  = `"transport":"streamable-http","protocol":"2025-11-25","latencyMs":{"up":10,"down":10}`
	timeouts  = `"client":{"idleTimeoutMs":500,"maxTimeoutMs":2000}`
	call7     = `{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p-7"}`
	cancel300 = `{"at":300,"do":"cancel","id":7,"reason":"User closed the operation"}`
	done320   = `{"at":320,"do":"complete","id":7,"result":{"content":[]}}`
	// result7 is request 7's empty result as 2026-07-28 writes it
	// (resultType and serverInfo on every result).
	result7 = `{"jsonrpc":"2.0","id":7,"result":{"content":[],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcplab-server","version":"1.0.0"}}}}`
	// result7of2025 is the same result as 2025-11-25 writes it (no
	// resultType: that revision's Result has none).
	result7of2025 = `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`
)

func progressAt(at int64, v float64) string {
	return fmt.Sprintf(`{"at":%d,"do":"progress","id":7,"progress":%v}`, at, v)
}

func sendAt(at int64, msg string) string {
	return fmt.Sprintf(`{"at":%d,"do":"send","message":%s}`, at, msg)
}

// The reference timelines of DOMAIN.md §2, on stdio with no latency so the
// client sees each progress when the server sends it.
var (
	refFlowing = sc(`"latencyMs":{"up":0,"down":0},`+timeouts, call7,
		progressAt(400, 1), progressAt(800, 2), progressAt(1200, 3), progressAt(1600, 4), progressAt(1999, 5), `{"at":2500,"do":"complete","id":7}`)
	refStops = sc(`"latencyMs":{"up":0,"down":0},`+timeouts, call7,
		progressAt(400, 1), progressAt(800, 2), progressAt(1200, 3), `{"at":2500,"do":"complete","id":7}`)
)
