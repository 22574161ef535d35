package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormats proves each format imports into events in order, with the
// side inferred from who sends the requests, and JSON Lines times in ms.
func TestFormats(t *testing.T) {
	sdk := `write: {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}
read: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}
`
	tr, err := Import([]byte(sdk), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source.Format != FormatGoSDK || tr.Source.Side != "client" || tr.Source.Clock != "order" || len(tr.Events) != 2 || tr.Requests[0].State != "completed" {
		t.Fatalf("go-sdk import: %+v %+v %+v", tr.Source, tr.Events, tr.Requests)
	}
	jsonl := `{"t": 1000, "from": "client", "message": {"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}}
{"t": "1970-01-01T00:00:01.250Z", "from": "server", "message": {"jsonrpc":"2.0","id":"a","result":{}}}
`
	tr, err = Import([]byte(jsonl), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source.Format != FormatJSONL || tr.Source.Clock != "ms" || tr.EndMs != 250 || len(tr.Events) != 4 {
		t.Fatalf("jsonl import: %+v end %d, %d events", tr.Source, tr.EndMs, len(tr.Events))
	}
	both := `client write: {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}
server read: {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}
`
	if tr, err = Import([]byte(both), Options{}); err != nil || tr.Source.Side != "" {
		t.Fatalf("two-sided import: %v %+v", err, tr.Source)
	}
}

// TestBadTranscripts proves malformed transcripts give located errors.
func TestBadTranscripts(t *testing.T) {
	cases := []struct {
		name, in string
		line     int
	}{
		{"unknown format", "hello there\n", 1},
		{"truncated line", "write: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}\nread: {\"jsonrpc\":\"2.0\",\"id\":1,\"res\n", 2},
		{"not json lines", "{\"t\":1,\"from\":\"client\",\"message\":{}}\n{nope}\n", 2},
		{"bad sender", "{\"t\":1,\"from\":\"proxy\",\"message\":{}}\n", 1},
		{"bad time", "{\"t\":\"yesterday\",\"from\":\"client\",\"message\":{}}\n", 1},
		{"empty", "\n\n", 0},
		{"huge", strings.Repeat("x", MaxBytes+1), 0},
		{"a scenario on one line", `{"mcplab":1,"steps":[]}`, 1},
		{"a scenario over lines", "\n{\n  \"mcplab\": 1,\n  \"steps\": []\n}\n", 2},
	}
	for _, c := range cases {
		_, err := Import([]byte(c.in), Options{})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrTranscript) || e.Line != c.line {
			t.Errorf("%s: err = %v, want ErrTranscript at line %d", c.name, err, c.line)
		}
	}
	// A one-sided log where nobody sends a request needs the side said.
	if _, err := Import([]byte(`read: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}`), Options{}); !errors.Is(err, ErrTranscript) {
		t.Errorf("side not inferable: err = %v", err)
	}
}

// FuzzImport: any input imports or fails with ErrTranscript, never panics.
func FuzzImport(f *testing.F) {
	f.Add([]byte("write: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}\n"))
	f.Add([]byte("{\"t\":1,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}}\n"))
	for _, name := range []string{"claude-desktop-race.log", "claude-desktop-mcp-remote.log", "vscode-race.log", "stdio-tee-race.log", "inspector-cancel.har", "http-dump-close-stream.txt", "jsonl-race-client.jsonl"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("POST /mcp HTTP/1.1\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\nHTTP/1.1 200 OK\n"))
	f.Add([]byte("2025-01-01T00:00:00Z [a] [info] Message from server: {\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Import(data, Options{}); err != nil && !errors.Is(err, ErrTranscript) {
			t.Fatalf("error %v is not ErrTranscript", err)
		}
	})
}

// TestRedact proves redaction removes argument values and result text
// but keeps the protocol story (ids, methods, tool names, progress, times).
func TestRedact(t *testing.T) {
	tr, err := Import([]byte(`{"t":0,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"charge","arguments":{"card":"4111-1111","cents":1200},"_meta":{"progressToken":"p"}}}}
{"t":5,"from":"server","message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"message":"charging 4111"}}}
{"t":9,"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"charged card 4111-1111"}]}}}
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ToScenario(tr)
	if err != nil {
		t.Fatal(err)
	}
	red, err := Redact(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(red)
	for _, secret := range []string{"4111", "1200"} {
		if strings.Contains(s, secret) {
			t.Errorf("redacted scenario still holds %q:\n%s", secret, s)
		}
	}
	for _, kept := range []string{`"charge"`, `"tools/call"`, `"progressToken": "p"`, `"progress": 1`, `"at": 9`} {
		if !strings.Contains(s, kept) {
			t.Errorf("redacted scenario lost %s:\n%s", kept, s)
		}
	}
}

// TestLogPrefixAndTimeOrder: lines written through the log package carry a
// date and time, which become the events' times; JSON Lines whose times go
// backwards are refused at the offending line.
func TestLogPrefixAndTimeOrder(t *testing.T) {
	logged := "2025/01/02 10:00:00.000000 write: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}\n" +
		"2025/01/02 10:00:00.250000 read: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
	tr, err := Import([]byte(logged), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source.Clock != "ms" || tr.EndMs != 250 || tr.Requests[0].ClientOutcome != "result" {
		t.Fatalf("log-prefixed import: clock %s, end %d, outcome %s; want ms, 250, result", tr.Source.Clock, tr.EndMs, tr.Requests[0].ClientOutcome)
	}
	back := "{\"t\":10,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}}\n{\"t\":5,\"from\":\"server\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}\n"
	var e *Error
	if _, err := Import([]byte(back), Options{}); !errors.As(err, &e) || e.Line != 2 {
		t.Fatalf("time going backwards: err = %v, want an error at line 2", err)
	}
}
