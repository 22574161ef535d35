package transcript

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestPyBytes proves the Python bytes literal of "Received JSON: b'...'"
// is decoded as Python wrote it: escaped quotes and backslashes, \x bytes
// (UTF-8 of non-ASCII text), \r\n, either quote; an unterminated literal
// (a truncated line) is refused.
func TestPyBytes(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{`b'{"a":"it\'s"}' tail`, `{"a":"it's"}`, true},
		{`b'{"a":"\\\\n"}'`, `{"a":"\\n"}`, true},
		{`b'\xe2\x80\x99'`, "\u2019", true},
		{`b'data: {}\r\n\r\n'`, "data: {}\r\n\r\n", true},
		{`b"{'single':1}"`, `{'single':1}`, true},
		{`b'{"cut":`, "", false},
		{`'{}'`, "", false},
	}
	for _, c := range cases {
		got, ok := pyBytes(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("pyBytes(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestSDKLogSideAndZone proves a C# SDK trace log written by a client is
// the client's (its endpoint name says "Client"), and that a time with an
// offset is read in it while a time without one is read in Options.Zone.
func TestSDKLogSideAndZone(t *testing.T) {
	const log = "2025-11-25T13:00:00.000+02:00 trce: ModelContextProtocol.Client.McpClient[0]\n" +
		"      Client (vscode 1.0) sending message. Message: '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}'.\n" +
		"2025-11-25T13:00:00.250+02:00 trce: ModelContextProtocol.Client.StdioClientTransport[0]\n" +
		"      Client (stdio) (x) transport received message. Message: '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}'.\n"
	tr, err := Import([]byte(log), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source.Format != FormatCSharp || tr.Source.Observer != trace.ObserverClient {
		t.Fatalf("source %+v, want a C# log observed by the client", tr.Source)
	}
	if n := len(tr.Requests); n != 1 || tr.Requests[0].EndedAt == nil || *tr.Requests[0].EndedAt != 250 {
		t.Fatalf("requests %+v, want one answered at 250 ms", tr.Requests)
	}
	oslo := time.FixedZone("CET", 3600)
	const java = "2025-11-25 13:00:00.100 DEBUG x - Received JSON message: {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}\n"
	for _, z := range []*time.Location{nil, oslo} {
		es, _, _, err := parse([]byte(java), Options{Zone: z})
		if err != nil {
			t.Fatal(err)
		}
		want := time.Date(2025, 11, 25, 13, 0, 0, 100e6, time.UTC)
		if z != nil {
			want = time.Date(2025, 11, 25, 13, 0, 0, 100e6, oslo)
		}
		if es[0].at != want.UnixMilli() {
			t.Errorf("zone %v: at %d, want %d", z, es[0].at, want.UnixMilli())
		}
	}
}

// TestPythonLogWithoutWritesPassesNothing proves the rule of a log that
// records only what its side read (DOMAIN.md: a rule cannot hold for want
// of a message the log never records) for the Python SDK's log of a stdio
// server, which has "Received JSON" lines and no "chunk" line: the server
// read a cancellation and the log shows nothing it sent after, which
// proves nothing, so no-message-after-cancel is undecided, not a pass.
// With one "chunk" line (the SSE transport logs what it writes) the same
// rule is decided.
func TestPythonLogWithoutWritesPassesNothing(t *testing.T) {
	const read = "2025-06-09 23:52:01,%03d - mcp.server.lowlevel - DEBUG - Received JSON: b'%s'\n"
	log := fmt.Sprintf(read, 100, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`) +
		fmt.Sprintf(read, 200, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	rule := func(tr *trace.Trace) trace.Check {
		for _, c := range tr.Checks {
			if c.Rule == "no-message-after-cancel" {
				return c
			}
		}
		t.Fatalf("no no-message-after-cancel check among %+v", tr.Checks)
		return trace.Check{}
	}
	tr, err := Import([]byte(log), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := rule(tr); c.OK != nil || !strings.HasPrefix(c.Detail, "Undecided: this log records only the messages the server read") {
		t.Errorf("a Python log without writes: no-message-after-cancel %v %q, want undecided for want of the server's writes", c.OK, c.Detail)
	}
	if !strings.Contains(tr.Source.Note, "no \"chunk\" line") {
		t.Errorf("the source note %q does not say the log holds nothing the server wrote", tr.Source.Note)
	}
	withChunk := fmt.Sprintf(read, 100, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`) +
		"2025-06-09 23:52:01,150 - sse_starlette.sse - DEBUG - chunk: b'event: message\\r\\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\\r\\n\\r\\n'\n" +
		fmt.Sprintf(read, 200, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	tr, err = Import([]byte(withChunk), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := rule(tr); c.OK == nil {
		t.Errorf("a Python log with a chunk line: no-message-after-cancel undecided (%q), want it decided", c.Detail)
	}
}
