package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// verdicts maps a rule to "pass", "FAIL" or "?" (undecided).
type verdicts map[trace.RuleID]string

func verdictsOf(tr *trace.Trace) verdicts {
	out := verdicts{}
	for _, c := range tr.Checks {
		switch {
		case c.OK == nil:
			out[c.Rule] = "?"
		case *c.OK:
			out[c.Rule] = "pass"
		default:
			out[c.Rule] = "FAIL"
		}
	}
	return out
}

// TestFixtures proves each format people paste is read
// natively, detected from its content, with the observer its format
// implies (item 2), and judged fairly: the race seen by a client or on the
// wire is undecided, a server's own log or a message far beyond the round
// trip convicts, ids restart per session (item 3), and protocol,
// transport and causes are inferred (item 4). Fixtures follow the formats
// as public bug reports show them (vscode#244377, mcp-taskfile-server#134,
// Claude Desktop's mcp-server-NAME.log).
func TestFixtures(t *testing.T) {
	cases := []struct {
		file                string
		format, observer    string
		transport, protocol string
		want                verdicts
		requests            int
		cause               string // the cancelled request's cause, "" when none
	}{
		{"claude-desktop-race.log", FormatClaude, trace.ObserverClient, "stdio", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "?", checks.LateResponseIgnored: "pass", checks.OneResponsePerRequest: "pass", checks.InitializeNotCancelled: "pass"}, 3, trace.CauseIdleTimeout},
		{"claude-desktop-old-violation.log", FormatClaude, trace.ObserverClient, "stdio", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "FAIL", checks.LateResponseIgnored: "pass"}, 4, trace.CauseClient},
		{"claude-desktop-mcp-remote.log", FormatClaude, trace.ObserverClient, "stdio", "2025-11-25",
			verdicts{checks.OneResponsePerRequest: "pass"}, 4, ""},
		{"vscode-race.log", FormatVSCode, trace.ObserverClient, "", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "?", checks.ProgressIncreases: "pass"}, 2, trace.CauseClient},
		// VS Code's [error] lines for an unknown message ID or progress
		// token are the client dropping what it no longer waits for: the
		// result 10 ms after the cancellation is the race, but the log
		// shows the client ignored it; the progress 500 ms after convicts.
		{"vscode-late-ignored.log", FormatVSCode, trace.ObserverClient, "", "2025-11-25",
			verdicts{checks.LateResponseIgnored: "pass", checks.LateProgressIgnored: "pass", checks.NoMessageAfterCancel: "FAIL"}, 2, trace.CauseClient},
		{"vscode-old-clean.log", FormatVSCode, trace.ObserverClient, "", "2025-11-25",
			verdicts{checks.OneResponsePerRequest: "pass"}, 2, ""},
		{"stdio-tee-race.log", FormatTee, trace.ObserverWire, "stdio", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "?", checks.ProgressIncreases: "pass"}, 2, trace.CauseClient},
		// The tee as logging wrappers write it: each line after its time
		// (bare, or in brackets after a banner), with the wrapper's [INFO]
		// and [DEBUG] and the server's [STDERR] lines skipped; the times
		// give the round trip (a ping: 4 ms), so a result 900 ms after the
		// cancellation convicts, and one 60 ms after it, within the round
		// trip of initialize (111 ms), is the race.
		{"stdio-tee-timed.log", FormatTee, trace.ObserverWire, "stdio", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "FAIL", checks.ProgressIncreases: "pass"}, 3, trace.CauseClient},
		{"stdio-tee-bracketed.log", FormatTee, trace.ObserverWire, "stdio", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "?", checks.OneResponsePerRequest: "pass"}, 2, trace.CauseClient},
		{"inspector-cancel.har", FormatHAR, trace.ObserverClient, "streamable-http", "2025-11-25",
			verdicts{checks.HTTPCancelPostsNotification: "pass", checks.NoMessageAfterCancel: "?"}, 2, trace.CauseClient},
		{"http-dump-close-stream.txt", FormatSSE, trace.ObserverWire, "streamable-http", "2026-07-28",
			verdicts{checks.HTTPCancelClosesStream: "pass"}, 2, trace.CauseClient},
		{"jsonl-race.jsonl", FormatJSONL, trace.ObserverWire, "", "",
			verdicts{checks.NoMessageAfterCancel: "?"}, 2, trace.CauseClient},
		{"jsonl-race-client.jsonl", FormatJSONL, trace.ObserverClient, "stdio", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "?"}, 2, trace.CauseClient},
		{"jsonl-race-server.jsonl", FormatJSONL, trace.ObserverServer, "stdio", "",
			verdicts{checks.NoMessageAfterCancel: "FAIL"}, 2, trace.CauseClient},
		// Server-side SDK debug logs (rank 3): the Python SDK's reads and
		// sse_starlette's chunks show the server wrote a result after it
		// read the cancellation; the C# SDK's trace lines show it honoured
		// one; the Java SDK logs only its reads (nothing sent is judged).
		{"python-sse-violation.log", FormatPython, trace.ObserverServer, "", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "FAIL", checks.ProgressTokenKnown: "pass"}, 2, trace.CauseClient},
		{"csharp-server-cancel.log", FormatCSharp, trace.ObserverServer, "", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "pass", checks.OneResponsePerRequest: "pass"}, 2, trace.CauseIdleTimeout},
		// Real captures of the TypeScript SDK 1.32.2 (site/testdata/probe/ts/
		// peers.mjs, kept so the verdicts stay pinned without Node): the
		// client's maxTotalTimeout, enforced late and silently, then the
		// late result dropped; an HTTP cancel whose stream's progress a HAR
		// cannot order against the cancellation's POST.
		{"ts-sdk-max-timeout-claude.log", FormatClaude, trace.ObserverClient, "stdio", "2025-11-25",
			verdicts{checks.AbandonTellsServer: "FAIL", checks.OneResponsePerRequest: "pass"}, 2, ""},
		{"ts-sdk-http-cancel.har", FormatHAR, trace.ObserverClient, "streamable-http", "2025-11-25",
			verdicts{checks.NoMessageAfterCancel: "?", checks.HTTPCancelPostsNotification: "pass"}, 2, trace.CauseClient},
		{"java-server-reads.log", FormatJava, trace.ObserverServer, "", "",
			verdicts{checks.NoMessageAfterCancel: "?", checks.CancellationNeverAnswered: "?"}, 2, trace.CauseClient},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := Sniff(data); got != c.format {
				t.Fatalf("Sniff = %q, want %q", got, c.format)
			}
			tr, err := Import(data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			src := tr.Source
			if src.Format != c.format || src.Observer != c.observer || src.Transport != c.transport || src.Protocol != c.protocol {
				t.Errorf("source %+v, want format %s observer %s transport %q protocol %q", src, c.format, c.observer, c.transport, c.protocol)
			}
			got := verdictsOf(tr)
			for rule, want := range c.want {
				if got[rule] != want {
					t.Errorf("%s = %q, want %q (all: %v)\n%s", rule, got[rule], want, got, detail(tr, rule))
				}
			}
			if len(tr.Requests) != c.requests {
				t.Errorf("%d requests, want %d: %+v", len(tr.Requests), c.requests, tr.Requests)
			}
			cause := ""
			for _, r := range tr.Requests {
				if r.Cause != nil {
					cause = *r.Cause
				}
			}
			if cause != c.cause {
				t.Errorf("cause %q, want %q", cause, c.cause)
			}
			if src.Note == "" {
				t.Errorf("no source note says what was inferred")
			}
		})
	}
}

func detail(tr *trace.Trace, rule trace.RuleID) string {
	for _, c := range tr.Checks {
		if c.Rule == rule {
			return c.Detail
		}
	}
	return "(absent) note: " + tr.Source.Note
}

// TestVSCodeZone: VS Code's local times are read as UTC unless a zone is
// given, and the note says so; a zone moves every time alike.
func TestVSCodeZone(t *testing.T) {
	data, err := os.ReadFile("testdata/vscode-race.log")
	if err != nil {
		t.Fatal(err)
	}
	utc, err := Import(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(utc.Source.Note, "read as UTC") {
		t.Errorf("note %q does not say the times were read as UTC", utc.Source.Note)
	}
	paris := time.FixedZone("+01:00", 3600)
	tr, err := Import(data, Options{Zone: paris})
	if err != nil {
		t.Fatal(err)
	}
	if tr.EndMs != utc.EndMs || !strings.Contains(tr.Source.Note, "+01:00") {
		t.Errorf("end %d vs %d ms, note %q", tr.EndMs, utc.EndMs, tr.Source.Note)
	}
}

// TestUnknownFormatSaysWhatIsKnown: an unknown format
// names the known formats and quotes the first line.
func TestUnknownFormatSaysWhatIsKnown(t *testing.T) {
	_, err := Import([]byte("\n2025-11-26 nothing we know\n"), Options{})
	if err == nil {
		t.Fatal("imported an unknown format")
	}
	for _, want := range []string{"line 2", "Claude Desktop", "VS Code", "HAR", "[STDIN]", "JSON Lines", `"2025-11-26 nothing we know"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestMaxTimeoutGiven: a client's maximum timeout, which
// no log states, can be given so max-timeout-enforced judges the
// transcript: the Claude Desktop client gave up on request 2 exactly 60 s
// after sending it, so a 60 s maximum holds and a 30 s one is broken.
func TestMaxTimeoutGiven(t *testing.T) {
	data, err := os.ReadFile("testdata/claude-desktop-race.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		max  int64
		want string
	}{{60_000, "pass"}, {30_000, "FAIL"}, {0, ""}} {
		tr, err := Import(data, Options{MaxTimeoutMs: c.max})
		if err != nil {
			t.Fatal(err)
		}
		if got := verdictsOf(tr)[checks.MaxTimeoutEnforced]; got != c.want {
			t.Errorf("maximum %d ms: %s = %q, want %q (%s)", c.max, checks.MaxTimeoutEnforced, got, c.want, detail(tr, checks.MaxTimeoutEnforced))
		}
	}
}

// TestSilentAbandon (rule abandon-tells-server): a client
// that drops a late response for a request it never cancelled abandoned it
// without telling the server; one that cancelled first passes.
func TestSilentAbandon(t *testing.T) {
	const head = `2025-11-26T10:00:00.000Z [s] [info] Message from client: {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}
`
	const tail = `2025-11-26T10:01:01.000Z [s] [info] Message from server: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}
2025-11-26T10:01:01.000Z [s] [error] Received a response for an unknown message ID: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}
`
	const cancel = `2025-11-26T10:01:00.000Z [s] [info] Message from client: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"MCP error -32001: Request timed out"}}
`
	for _, c := range []struct{ in, want string }{{head + tail, "FAIL"}, {head + cancel + tail, "pass"}} {
		tr, err := Import([]byte(c.in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := verdictsOf(tr)[checks.AbandonTellsServer]; got != c.want {
			t.Errorf("%s = %q, want %q (%s)", checks.AbandonTellsServer, got, c.want, detail(tr, checks.AbandonTellsServer))
		}
	}
}

// TestFenceFromTheClient (rule no-message-after-cancel, a client's view
// over stdio): a ping the client sent after its cancellation and the server
// answered before the late result proves the server had read the
// cancellation (it reads its input in order), so the result convicts even
// within the round trip; without that ping the same timing is undecided.
func TestFenceFromTheClient(t *testing.T) {
	const head = `{"observer":"client","transport":"stdio"}
{"t":0,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}
{"t":50,"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}}
{"t":100,"from":"client","message":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}}
{"t":200,"from":"client","message":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}}
`
	const fence = `{"t":201,"from":"client","message":{"jsonrpc":"2.0","id":3,"method":"ping"}}
{"t":203,"from":"server","message":{"jsonrpc":"2.0","id":3,"result":{}}}
`
	const late = `{"t":210,"from":"server","message":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}}
`
	for _, c := range []struct{ in, want string }{{head + fence + late, "FAIL"}, {head + late, "?"}} {
		tr, err := Import([]byte(c.in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := verdictsOf(tr)[checks.NoMessageAfterCancel]; got != c.want {
			t.Errorf("%s = %q, want %q (%s)", checks.NoMessageAfterCancel, got, c.want, detail(tr, checks.NoMessageAfterCancel))
		}
	}
}

// TestJavaClientLogFailsNothingForWantOfItsWrites proves the rule of a log
// that records only what its side read (a rule neither holds nor fails for
// want of a message the log never records) for a Java SDK client's debug
// log: the client read the server's progress under the token of its own
// tools/call, which it sent and so never logged; progress-token-known is
// undecided, not a failure for an invented token. The side is inferred
// from the roots/list the client read (a server's request, though it ends
// in "/list").
func TestJavaClientLogFailsNothingForWantOfItsWrites(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "java-client-reads.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []string{"", string(trace.ActorClient)} {
		tr, err := Import(data, Options{Side: side})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Source.Observer != trace.ObserverClient {
			t.Errorf("side %q: observer %q, want client (it read the server's roots/list)", side, tr.Source.Observer)
		}
		javaClientUndecided(t, tr)
	}
}

func javaClientUndecided(t *testing.T, tr *trace.Trace) {
	t.Helper()
	got := verdictsOf(tr)
	if got[checks.ProgressTokenKnown] != "?" {
		t.Errorf("progress-token-known = %q, want undecided: the token's request is one the client sent, which its log never records\n%s", got[checks.ProgressTokenKnown], detail(tr, checks.ProgressTokenKnown))
	}
	if d := detail(tr, checks.ProgressTokenKnown); !strings.Contains(d, "cannot fail for want of a message the client sent") {
		t.Errorf("progress-token-known says %q, not why it is undecided", d)
	}
	for rule, v := range got {
		if v != "?" {
			t.Errorf("%s = %q on a log of only what the client read, want undecided\n%s", rule, v, detail(tr, rule))
		}
	}
}

// TestWholeSecondTimesSaySo: a Go SDK log written with the log package's
// default flags has times in whole seconds; the source note says so, and
// the inferred round trip carries a second of doubt, not the "1 ms of
// clock resolution" a log with microseconds has (a whole-second log
// was passed off as exact to the millisecond).
func TestWholeSecondTimesSaySo(t *testing.T) {
	lines := []string{
		`write: {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`read: {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`,
		`write: {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"work"}}`,
		`read: {"jsonrpc":"2.0","id":2,"result":{"content":[]}}`,
	}
	for _, c := range []struct {
		name     string
		times    []string
		latency  int64
		wholeSec bool
	}{
		{"whole seconds", []string{"2025/06/09 23:52:01", "2025/06/09 23:52:01", "2025/06/09 23:52:01", "2025/06/09 23:52:02"}, 1000, true},
		{"microseconds", []string{"2025/06/09 23:52:01.694123", "2025/06/09 23:52:01.699871", "2025/06/09 23:52:01.700100", "2025/06/09 23:52:02.400000"}, 6, false},
	} {
		var b strings.Builder
		for i, l := range lines {
			b.WriteString(c.times[i] + " " + l + "\n")
		}
		tr, err := Import([]byte(b.String()), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if tr.Source.LatencyMs != c.latency {
			t.Errorf("%s: round trip %d ms, want %d (note: %s)", c.name, tr.Source.LatencyMs, c.latency, tr.Source.Note)
		}
		if says := strings.Contains(tr.Source.Note, "times are whole seconds"); says != c.wholeSec {
			t.Errorf("%s: the note says whole seconds: %v, want %v (%s)", c.name, says, c.wholeSec, tr.Source.Note)
		}
	}
}

// TestRoundTripFromFastestExchange proves the import's round trip without
// a ping is the fastest answered exchange, not initialize, whose answer
// includes the server's start-up: a stdio log whose initialize took
// 1,091 ms and whose tools/list took 5 ms gives 5 ms (plus the clock's
// 1 ms); with initialize the only exchange, initialize it is.
func TestRoundTripFromFastestExchange(t *testing.T) {
	initialize := []string{
		`2025/06/09 23:52:00.000000 write: {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`2025/06/09 23:52:01.091000 read: {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`,
	}
	list := []string{
		`2025/06/09 23:52:01.100000 write: {"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`2025/06/09 23:52:01.105000 read: {"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`,
	}
	for _, c := range []struct {
		name    string
		lines   []string
		latency int64
		from    string
	}{
		{"tools/list answered in 5 ms", append(append([]string{}, initialize...), list...), 6, "tools/list (id 2"},
		{"initialize alone", initialize, 1092, "initialize (id 1"},
	} {
		tr, err := Import([]byte(strings.Join(c.lines, "\n")+"\n"), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if tr.Source.LatencyMs != c.latency || !strings.Contains(tr.Source.Note, "the fastest answered exchange, "+c.from) {
			t.Errorf("%s: round trip %d ms (%s), want %d from %s", c.name, tr.Source.LatencyMs, tr.Source.Note, c.latency, c.from)
		}
	}
}

// TestEveryMessageAfterAcceptedCancellation: a client's log convicts every
// message the server sent for a request after it accepted the
// cancellation. An answer saying the request was cancelled (the Python
// SDK's "Request cancelled", 4 ms after the cancellation) proves the server
// had read it: that answer and all four progress notifications after it
// are convicted, though three came within the round trip (31 ms), where
// only the fourth would be without that proof. Without the answer the
// three are the legitimate race.
func TestEveryMessageAfterAcceptedCancellation(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "claude-desktop-python-ack.log"))
	if err != nil {
		t.Fatal(err)
	}
	var silent []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "Request cancelled") {
			silent = append(silent, l)
		}
	}
	cases := []struct {
		rule      trace.RuleID
		log       string
		convicted int
	}{
		{"an answer saying cancelled proves acceptance: it and all that follow", string(data), 5},
		{"without it, only what came beyond the round trip", strings.Join(silent, "\n"), 1},
	}
	for _, c := range cases {
		t.Run(string(c.rule), func(t *testing.T) {
			tr, err := Import([]byte(c.log), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, ch := range tr.Checks {
				if ch.Rule != checks.NoMessageAfterCancel {
					continue
				}
				if ch.OK == nil || *ch.OK || len(ch.Events) != c.convicted {
					t.Errorf("%s convicts %v (%s), want %d messages", ch.Rule, ch.Events, ch.Detail, c.convicted)
				}
				return
			}
			t.Errorf("%s not judged", checks.NoMessageAfterCancel)
		})
	}
}
