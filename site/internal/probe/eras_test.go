package probe

// Tests of the probe in both protocol eras (DOMAIN.md, "The two protocol
// eras") against real servers: the Go SDK v1.8.0 server serving only
// 2026-07-28 or only up to 2025-11-25 (site/testdata/probe/goserver -protocol),
// over stdio and Streamable HTTP, with a tool that honours cancellation and
// one that ignores it (-ignore-cancel); the TypeScript SDK 1.32.2 server
// (2025-11-25). Each run is bounded: the clean call and two cancelling
// situations, 3 steps of 60 ms.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/peertest"
)

// startGoHTTP starts the Go SDK server on Streamable HTTP with flags and
// returns its URL; the server is killed when the test ends.
func startGoHTTP(t *testing.T, flags ...string) string {
	t.Helper()
	cmd := exec.Command(goServer(t), append(flags, "-http", "127.0.0.1:0")...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url := strings.TrimSpace(strings.TrimPrefix(line, "listening "))
	if err != nil || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("the server said %q (%v)", line, err)
	}
	return url
}

// Rule (DOMAIN.md, "The two protocol eras"; §1 cancellation per transport
// and revision): with -protocol auto the probe speaks 2026-07-28 to a
// server that lists it in server/discover and falls back to initialize
// for one that does not, and judges each fairly. Over stdio the fence
// (server/discover under 2026-07-28, ping under 2025-11-25) and the tool's
// fastest completion convict the Go SDK, which writes a response after
// reading the cancellation whether its handler honours it or not. On
// Streamable HTTP under 2026-07-28 the probe cancels by closing the
// request's stream, after which it sees nothing: undecided, and -checks
// exits 0. The TypeScript SDK's honouring tool passes; its tool whose
// progress ignores the cancellation fails.
func TestProbeJudgesBothErasFairly(t *testing.T) {
	t.Parallel()
	bin := goServer(t)
	peertest.TypeScript(t)
	only := "cancel-after-progress,cancel-at-once"
	for _, c := range []struct {
		name     string
		http     []string // the Go SDK server's flags on Streamable HTTP; nil: stdio
		argv     []string // stdio: the server command
		tool     string
		revision string // the server line's words
		exit     int
		verdicts map[string]string
	}{
		{"Go SDK 2026-07-28 stdio, honours", nil, []string{bin, "-protocol", "2026-07-28"}, "work", "server/discover lists 2026-07-28", 3,
			map[string]string{"cancel-after-progress": "FAIL", "cancel-at-once": "FAIL"}},
		{"Go SDK 2026-07-28 stdio, ignores", nil, []string{bin, "-protocol", "2026-07-28", "-ignore-cancel"}, "work", "server/discover lists 2026-07-28", 3,
			map[string]string{"cancel-after-progress": "FAIL", "cancel-at-once": "FAIL"}},
		{"Go SDK 2026-07-28 HTTP, honours", []string{"-protocol", "2026-07-28"}, nil, "work", "server/discover lists 2026-07-28", 0,
			map[string]string{"cancel-after-progress": "undecided", "cancel-at-once": "undecided"}},
		{"Go SDK 2026-07-28 HTTP, ignores", []string{"-protocol", "2026-07-28", "-ignore-cancel"}, nil, "work", "server/discover lists 2026-07-28", 0,
			map[string]string{"cancel-after-progress": "undecided", "cancel-at-once": "undecided"}},
		{"Go SDK 2025-11-25 stdio, honours", nil, []string{bin, "-protocol", "2025-11-25"}, "work", "so initialize as the Go SDK client does: offered 2025-11-25, negotiated 2025-11-25", 3,
			map[string]string{"cancel-after-progress": "FAIL", "cancel-at-once": "FAIL"}},
		{"Go SDK 2025-11-25 stdio, ignores", nil, []string{bin, "-protocol", "2025-11-25", "-ignore-cancel"}, "work", "negotiated 2025-11-25", 3,
			map[string]string{"cancel-after-progress": "FAIL", "cancel-at-once": "FAIL"}},
		{"Go SDK 2025-11-25 HTTP, honours", []string{"-protocol", "2025-11-25"}, nil, "work", "negotiated 2025-11-25", 3,
			map[string]string{"cancel-after-progress": "FAIL", "cancel-at-once": "FAIL"}},
		{"Go SDK 2025-11-25 HTTP, ignores", []string{"-protocol", "2025-11-25", "-ignore-cancel"}, nil, "work", "negotiated 2025-11-25", 3,
			map[string]string{"cancel-after-progress": "FAIL", "cancel-at-once": "FAIL"}},
		{"TypeScript SDK 2025-11-25, honours", nil, []string{"node", peertest.Path("ts/server.mjs")}, "slow", "it answered server/discover with error -32601", 0,
			map[string]string{"cancel-after-progress": "pass", "cancel-at-once": "pass"}},
		{"TypeScript SDK 2025-11-25, ignores", nil, []string{"node", peertest.Path("ts/server.mjs")}, "leaky", "negotiated 2025-11-25", 3,
			map[string]string{"cancel-after-progress": "FAIL"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			args := []string{"-checks", "-tool", c.tool, "-args", probeToolArgs, "-only", only}
			if c.http != nil {
				args = append(args, startGoHTTP(t, c.http...))
			} else {
				args = append(append(args, "--"), c.argv...)
			}
			out, lines, err := probeRun(t, args...)
			if code := exitCode(err); err == nil && c.exit != 0 || err != nil && code != c.exit {
				t.Errorf("exit %d (%v), want %d", code, err, c.exit)
			}
			if !strings.Contains(out, c.revision) {
				t.Errorf("the server line does not say %q", c.revision)
			}
			peertest.WantVerdict(t, lines, "clean", "pass")
			for name, v := range c.verdicts {
				peertest.WantVerdict(t, lines, name, v)
			}
		})
	}
}

// Rule (SCENARIO.md, "The wire of each revision"): what the probe writes
// under 2026-07-28 is that revision's wire: server/discover first, every
// request with params._meta naming the revision, no initialize, no ping;
// `mcplab run` reads the revision from the transcript, finds every
// message valid (message-valid) and, on Streamable HTTP, the stream close
// the probe cancelled with (http-cancel-closes-stream).
func TestProbe2026TranscriptIsThatRevisionsWire(t *testing.T) {
	t.Parallel()
	url := startGoHTTP(t, "-protocol", "2026-07-28")
	out, _, err := probeRun(t, "-protocol", "2026-07-28", "-tool", "work", "-args", probeToolArgs, "-only", "cancel-after-progress", url)
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	file := transcriptOf(t, out, "cancel-after-progress")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{`"protocol":"2026-07-28"`, `"method":"server/discover"`, `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`, `"type":"close-stream"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the transcript lacks %s:\n%s", want, text)
		}
	}
	for _, absent := range []string{`"method":"initialize"`, `"method":"ping"`, `"method":"notifications/cancelled"`} {
		if strings.Contains(text, absent) {
			t.Errorf("the transcript holds %s, which 2026-07-28 on Streamable HTTP does not send", absent)
		}
	}
	var e bytes.Buffer
	err = judgeFile(file, &e)
	for _, want := range []string{"pass  " + string(schema.Rule), "pass  " + string(checks.HTTPCancelClosesStream)} {
		if !strings.Contains(e.String(), want) {
			t.Errorf("run -checks on the transcript (%v) lacks %q:\n%s", err, want, e.String())
		}
	}
}

// Rule (the probe's evidence, "before the tool could have finished"): a
// response is early only against the fastest completion the probe saw. A
// server whose first call took 1,030 ms and whose later calls take
// 180 ms answered a call cancelled at 170 ms at 181 ms: completion won
// the race, so the probe does not convict it; against the warm-up's
// 1,030 ms alone it would have (the response came 849 ms "early").
func TestProbeEarlyOnlyAgainstTheFastestCompletion(t *testing.T) {
	start := time.Unix(1000, 0)
	m := cancelMark{id: "7", sentAt: start, at: start.Add(170 * time.Millisecond), fence: start.Add(200 * time.Millisecond)}
	at := start.Add(181 * time.Millisecond)
	for _, c := range []struct {
		name     string
		quickest time.Duration
		want     bool
	}{
		{"only the slow warm-up seen", 0, true},
		{"a completion of 180 ms seen", 180 * time.Millisecond, false},
	} {
		p := &prober{warm: warmup{done: 1030 * time.Millisecond}, quickest: c.quickest}
		if got, why := p.proven(m, at, true); got != c.want {
			t.Errorf("%s: proven = %v (%s), want %v", c.name, got, why, c.want)
		}
	}
}

// Rule (a situation's verdict): a situation whose deciding rule the
// engine leaves undecided is undecided, however many other checks pass; a
// failed check fails it; a situation without a deciding rule passes when
// one check passes.
func TestProbeVerdictFollowsTheDecidingRule(t *testing.T) {
	yes, no := true, false
	pass := func(rule trace.RuleID) trace.Check { return trace.Check{Rule: rule, OK: &yes} }
	open := func(rule trace.RuleID) trace.Check { return trace.Check{Rule: rule} }
	for _, c := range []struct {
		name    string
		cs      []trace.Check
		decides trace.RuleID
		want    string
	}{
		{"deciding rule undecided, others pass", []trace.Check{pass(checks.ProgressIncreases), open(checks.NoMessageAfterCancel)}, checks.NoMessageAfterCancel, "undecided"},
		{"deciding rule passes", []trace.Check{pass(checks.NoMessageAfterCancel), open(checks.ProgressTokenKnown)}, checks.NoMessageAfterCancel, "pass"},
		{"a check fails", []trace.Check{open(checks.NoMessageAfterCancel), {Rule: checks.ProgressIncreases, OK: &no}}, checks.NoMessageAfterCancel, "FAIL"},
		{"no deciding rule, one passes", []trace.Check{pass(checks.ProgressIncreases), open(checks.ProgressTokenKnown)}, "", "pass"},
		{"nothing passes", []trace.Check{open(checks.ProgressTokenKnown)}, "", "undecided"},
	} {
		if got := verdictOf(c.cs, "", nil, c.decides); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// Rule: without -args, a tool whose inputSchema requires arguments is not
// called with none; the warm-up is skipped saying so, with an -args value
// built from the schema (a default where it gives one, else a value of the
// property's type), and the probe exits 2 (bad input: nothing was tested).
func TestProbeWantsArgsTheToolRequires(t *testing.T) {
	t.Parallel()
	_, lines, err := probeRun(t, "-protocol", "2025-11-25", "--", "node", peertest.Path("fault.mjs"), "needargs")
	if exitCode(err) != 2 {
		t.Errorf("err = %v (exit %d), want exit 2", err, exitCode(err))
	}
	peertest.WantVerdict(t, lines, "clean", "skipped", `tool "t" requires city, days`, `try -args '{"city":"","days":3}'`)
	peertest.WantVerdict(t, lines, "cancel-at-once", "skipped", "the warm-up did not complete")
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"n":{"type":"integer"},"on":{"type":["null","boolean"]},"mode":{"enum":["fast","slow"]}},"required":["on","n","mode"]}`, `{"mode":"fast","n":1,"on":false}`},
		{`{"type":"object","properties":{"q":{"type":"string","examples":["weather"]}},"required":["q"]}`, `{"q":"weather"}`},
		{`{"type":"object","required":["x"]}`, `{"x":null}`},
	} {
		if got := suggestArgs(json.RawMessage(c.schema)); got != c.want {
			t.Errorf("suggestArgs(%s) = %s, want %s", c.schema, got, c.want)
		}
	}
}

// Rule (SCENARIO.md, "Live": -json): -json prints the peer and one object
// per situation with its verdict in lower case, its checks (ok null when
// undecided) and its transcript.
func TestProbeJSON(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	err := runArgs(context.Background(), []string{"-json", "-out", t.TempDir(), "-only", "cancel-at-once", "--", "node", peertest.Path("fault.mjs"), "ok"}, &out, &errb)
	if err != nil {
		t.Fatalf("err = %v\n%s", err, errb.String())
	}
	var got probeJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not the JSON object: %v\n%s", err, out.String())
	}
	if got.Peer.Protocol != "2025-11-25" || got.Peer.Server != "fault-ok 0" || len(got.Situations) != 2 {
		t.Fatalf("peer %+v, %d situations; want 2025-11-25, fault-ok 0, 2", got.Peer, len(got.Situations))
	}
	s := got.Situations[1]
	if s.Name != "cancel-at-once" || s.Verdict != "pass" || s.Transport != "stdio" || s.Transcript == "" || len(s.Checks) == 0 {
		t.Errorf("situation %+v", s)
	}
	if !strings.Contains(errb.String(), "cancel-at-once") {
		t.Errorf("the situation lines did not go to standard error")
	}
}

// Rule (2026-07-28 schema, UnsupportedProtocolVersionError): a server that
// answers server/discover with -32022 names the revisions it supports in
// error.data.supported, and the probe's fallback says which; any other
// error is named by its code and message.
func TestProbeDiscoverErrorNamesTheSupportedRevisions(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"unsupported","data":{"requested":"2026-07-28","supported":["2025-11-25","2025-06-18"]}}}`,
			`UnsupportedProtocolVersion (-32022): it supports ["2025-11-25" "2025-06-18"]`},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`, "error -32601 (Method not found)"},
	} {
		m, err := jsonrpc.Parse(json.RawMessage(c.msg))
		if err != nil {
			t.Fatal(err)
		}
		if got := discoverError(m); got != c.want {
			t.Errorf("discoverError(%s) = %q, want %q", c.msg, got, c.want)
		}
	}
}

// Rule (2026-07-28 basic/transports/streamable-http, "Request Metadata"):
// every POST of the stateless revision carries MCP-Protocol-Version
// (matching params._meta), Mcp-Method and, for tools/call, Mcp-Name; no
// Mcp-Session-Id, no initialize, no ping; a server that answers 400 with
// HeaderMismatch would say otherwise.
func TestProbe2026HeadersOnEveryPOST(t *testing.T) {
	t.Parallel()
	type seen struct{ method, version, mcpMethod, name, session, meta string }
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		mu.Lock()
		got = append(got, seen{m.Method, r.Header.Get("MCP-Protocol-Version"), r.Header.Get("Mcp-Method"), r.Header.Get("Mcp-Name"), r.Header.Get("Mcp-Session-Id"), string(m.Params.Meta[jsonrpc.MetaProtocolVersion])})
		mu.Unlock()
		result := `{"resultType":"complete"}`
		switch m.Method {
		case jsonrpc.MethodDiscover:
			result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"stateless","version":"1"}}}`
		case "tools/list":
			result = `{"resultType":"complete","tools":[{"name":"quick","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			result = `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}))
	defer srv.Close()
	out, _, err := probeRun(t, "-only", "cancel-at-once", srv.URL)
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(out, "server: stateless 1 over Streamable HTTP") {
		t.Errorf("the server line does not name the server from server/discover's _meta")
	}
	mu.Lock()
	defer mu.Unlock()
	calls := 0
	for _, g := range got {
		if g.method == "initialize" || g.method == "ping" {
			t.Errorf("the probe sent %s under 2026-07-28", g.method)
		}
		if g.version != "2026-07-28" || g.meta != `"2026-07-28"` || g.mcpMethod != g.method || g.session != "" {
			t.Errorf("%s: MCP-Protocol-Version %q, _meta version %s, Mcp-Method %q, Mcp-Session-Id %q", g.method, g.version, g.meta, g.mcpMethod, g.session)
		}
		if g.method == "tools/call" {
			calls++
			if g.name != "quick" {
				t.Errorf("tools/call: Mcp-Name %q, want quick", g.name)
			}
		}
	}
	if calls == 0 {
		t.Errorf("no tools/call reached the server: %+v", got)
	}
}

// Rule message-valid (SCENARIO.md, "The wire of each revision"): a server
// whose tools/call result lacks the content CallToolResult requires fails
// the situation, and -checks exits 3 naming the rule.
func TestProbeJudgesMessageValidity(t *testing.T) {
	t.Parallel()
	_, lines, err := probeRun(t, "-checks", "-only", "cancel-at-once", "--", "node", peertest.Path("fault.mjs"), "nocontent")
	if exitCode(err) != 3 || !strings.Contains(err.Error(), "clean ("+string(schema.Rule)+")") {
		t.Errorf("err = %v, want exit 3 naming clean (%s)", err, schema.Rule)
	}
	peertest.WantVerdict(t, lines, "clean", "FAIL")
}

// lazyServer is a correct Streamable HTTP server (2025-11-25) whose first
// tools/call takes 850 ms longer than the rest (a lazy set-up). A call
// completes after 180 ms unless the server has read its cancellation
// first, in which case it sends nothing for it. Its response then takes
// 40 ms to leave (a slow link), and it answers a ping only once every
// response it committed to has left: a cancellation that arrives in those
// 40 ms finds the call complete, and its response reaches the client after
// the cancellation but before the fence's answer (sent 30 ms after it).
func lazyServer(t *testing.T) string {
	var (
		mu        sync.Mutex
		cancelled = map[string]bool{}
		committed = map[string]bool{}
		first     = true
		wire      sync.Mutex // held while a committed response leaves
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		answer := func(result string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
		}
		switch m.Method {
		case "notifications/cancelled":
			mu.Lock()
			if !committed[string(m.Params.RequestID)] {
				cancelled[string(m.Params.RequestID)] = true
			}
			mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
		case "initialize":
			answer(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"lazy","version":"1"}}`)
		case "tools/list":
			answer(`{"tools":[{"name":"lazy","inputSchema":{"type":"object"}}]}`)
		case "ping":
			wire.Lock()
			wire.Unlock()
			time.Sleep(30 * time.Millisecond) // well after the response on the other connection
			answer(`{}`)
		case "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			mu.Lock()
			delete(committed, string(m.ID)) // ids restart with each situation's session
			delete(cancelled, string(m.ID))
			work := 180 * time.Millisecond
			if first {
				first, work = false, work+850*time.Millisecond
			}
			mu.Unlock()
			for end := time.Now().Add(work); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
				mu.Lock()
				c := cancelled[string(m.ID)]
				mu.Unlock()
				if c {
					return // honoured: nothing more for this request
				}
			}
			wire.Lock()
			defer wire.Unlock()
			mu.Lock()
			c := cancelled[string(m.ID)]
			committed[string(m.ID)] = !c
			mu.Unlock()
			if c {
				return
			}
			time.Sleep(40 * time.Millisecond)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n", m.ID)
			w.(http.Flusher).Flush()
		default:
			if m.ID != nil {
				answer(`{}`)
				return
			}
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Rule (the probe's evidence against the fastest completion, over one
// shared server): the warm-up's call took 1,070 ms, the later ones 220 ms;
// in the race sweep the responses that arrive after a cancellation the
// server read too late came at the later calls' speed, so completion won
// and nothing is convicted; -checks exits 0.
func TestProbeLazyFirstCallOverHTTPIsNotConvicted(t *testing.T) {
	t.Parallel()
	_, lines, err := probeRun(t, "-protocol", "2025-11-25", "-checks", "-only", "race-sweep", lazyServer(t))
	if err != nil {
		t.Errorf("err = %v, want none (exit 0)", err)
	}
	peertest.WantVerdict(t, lines, "clean", "pass")
	if l := lines["race-sweep"]; strings.Contains(l, "FAIL") || strings.Contains(l, "MESSAGE AFTER") || !strings.Contains(l, "race, undecided") {
		t.Errorf("race-sweep: want no conviction and at least one race: %s", l)
	}
}

// Rule (the probe's evidence, "after the fence"): on stdio a message read
// after the fence's answer was written after it (one pipe, in order); on
// Streamable HTTP the fence's answer and the call's stream are different
// responses, so a result read 47 µs after the fence's answer proves
// nothing (the transcript's judge leaves it undecided too), while one read
// 50 ms after it does.
func TestProbeFenceAcrossHTTPStreamsNeedsAMargin(t *testing.T) {
	start := time.Unix(1000, 0)
	m := cancelMark{id: "11", sentAt: start, at: start.Add(600 * time.Millisecond), fence: start.Add(601 * time.Millisecond)}
	for _, c := range []struct {
		name  string
		url   string
		after time.Duration
		want  bool
	}{
		{"stdio, 47 µs after the fence", "", 47 * time.Microsecond, true},
		{"streamable-http, 47 µs after the fence", "http://127.0.0.1:1/mcp", 47 * time.Microsecond, false},
		{"streamable-http, 50 ms after the fence", "http://127.0.0.1:1/mcp", 50 * time.Millisecond, true},
	} {
		p := &prober{url: c.url, warm: warmup{done: 500 * time.Millisecond}, quickest: 500 * time.Millisecond}
		got, why := p.proven(m, m.fence.Add(c.after), true)
		if got != c.want || (got && why != fenceWhy) {
			t.Errorf("%s: proven = %v (%q), want %v by the fence", c.name, got, why, c.want)
		}
	}
}
