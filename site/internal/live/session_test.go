package live

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/peertest"
)

// TestSessionRecordsUntilStopped: a Session between a real Go SDK client
// and server (Streamable HTTP) records into DIR/proxy.jsonl as messages
// pass, says where on its log with the faults it injects, and when its
// context ends writes the transcript whole: it imports as the wire's
// view (ObserverWire) and names the proxy, and counts the records Run returns. A second session
// into the same DIR never replaces the first's file (proxy-2.jsonl), and
// one that nothing crosses reports no records.
func TestSessionRecordsUntilStopped(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newServer(nil) }, nil))
	defer upstream.Close()
	target, _ := url.Parse(upstream.URL + "/mcp")
	dir := filepath.Join(t.TempDir(), "made-at-start")
	run := func(call bool) (string, int, string) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var log peertest.Buffer
		urls := make(chan string, 1)
		sctx, stop := context.WithCancel(ctx)
		s := &Session{Target: target, Listener: ln, Log: &log, Dir: dir, Name: "proxy", Ready: func(u string) { urls <- u }}
		type result struct {
			path string
			n    int
			err  error
		}
		done := make(chan result, 1)
		go func() { p, n, err := s.Run(sctx); done <- result{p, n, err} }()
		self := <-urls
		if call {
			client := mcp.NewClient(&mcp.Implementation{Name: "lab-client", Version: "v0.0.1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: self, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}
			params.SetProgressToken("tok-1")
			if _, err := cs.CallTool(ctx, params); err != nil {
				t.Fatalf("CallTool through the session: %v", err)
			}
			cs.Close()
		}
		stop()
		r := <-done
		if r.err != nil {
			t.Fatalf("Run: %v\n%s", r.err, log.String())
		}
		return r.path, r.n, log.String()
	}
	path, n, log := run(true)
	if want := filepath.Join(dir, "proxy.jsonl"); path != want || n == 0 {
		t.Fatalf("Run = %s, %d records; want %s and some records\n%s", path, n, want, log)
	}
	if !strings.Contains(log, "(faults: none)") || !strings.Contains(log, "mcplab proxy: recording to "+path) {
		t.Errorf("the log does not say where it records and which faults:\n%s", log)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transcript.Import(data, transcript.Options{})
	if err != nil {
		t.Fatalf("the transcript does not import: %v", err)
	}
	if tr.Source == nil || tr.Source.Observer != trace.ObserverWire || !bytes.Contains(data, []byte(`"proxy":"mcplab proxy"`)) {
		t.Errorf("the transcript is not the wire's view named by the proxy: %+v\n%.200s", tr.Source, data)
	}
	if lines := bytes.Count(data, []byte("\n")); lines != n+1 {
		t.Errorf("%d lines, want the header and %d records", lines, n)
	}
	path2, n2, log2 := run(false)
	if want := filepath.Join(dir, "proxy-2.jsonl"); path2 != want || n2 != 0 || !strings.Contains(log2, "nothing crossed the proxy") {
		t.Errorf("a second, idle session = %s, %d records; want %s, none, and said so\n%s", path2, n2, want, log2)
	}
}
