package site

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcplab/mcplab/site/internal/peertest"
)

// TestProxyUsage: bad -faults, -listen and server arguments are usage
// errors (exit 2) naming what is wrong, before anything listens or starts.
func TestProxyUsage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown fault", []string{"-faults", "buffer=final,jitter=5", "http://127.0.0.1:1/mcp"}, `bad -faults: item 2 "jitter=5": unknown fault "jitter"`},
		{"bad buffer", []string{"-faults", "buffer=lots", "http://127.0.0.1:1/mcp"}, `item 1 "buffer=lots": buffer takes final or a number of bytes`},
		{"every interface", []string{"-listen", ":8080", "http://127.0.0.1:1/mcp"}, `-listen ":8080" listens on every interface: name the host`},
		{"no server", nil, "proxy needs a server"},
		{"not http", []string{"ftp://example.com/mcp"}, "want the server's http:// or https:// URL"},
		{"flags after the URL", []string{"http://127.0.0.1:1/mcp", "-faults", "latency=5"}, "flags go before the URL"},
		{"a stream fault on stdio", []string{"-faults", "drop-stream=100", "--", "cat"}, "drop-stream needs Streamable HTTP"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		err := proxyMain(context.Background(), c.args, strings.NewReader(""), &out, &errOut, nil)
		if code := exitCode(err); code != 2 || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: mcplab proxy %q: exit %d, %v; want 2 and %q", c.name, c.args, code, err, c.want)
		}
	}
}

// TestProxyCommandJudgesOnExit: `mcplab proxy -out DIR URL` between a real
// Go SDK client and server writes DIR/proxy.jsonl when it is stopped (the
// signal's context ends), prints its path and the verdicts on stderr, and
// `mcplab run -checks` judges the file: no rule fails on a clean session.
func TestProxyCommandJudgesOnExit(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	server := mcp.NewServer(&mcp.Implementation{Name: "lab-server", Version: "v0.0.1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		if token := req.Params.GetProgressToken(); token != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 2})
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Accel-Buffering", "no")
		h.ServeHTTP(w, r)
	}))
	defer upstream.Close()
	dir := t.TempDir()
	urls := make(chan string, 1)
	pctx, stop := context.WithCancel(ctx)
	var errOut peertest.Buffer
	done := make(chan error, 1)
	go func() {
		done <- proxyMain(pctx, []string{"-listen", "127.0.0.1:0", "-out", dir, upstream.URL + "/mcp"}, strings.NewReader(""), &bytes.Buffer{}, &errOut, func(u string) { urls <- u })
	}()
	var self string
	select {
	case self = <-urls:
	case err := <-done:
		t.Fatalf("the proxy ended before listening: %v", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "lab-client", Version: "v0.0.1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: self}, nil)
	if err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "work", Arguments: map[string]any{}}
	params.SetProgressToken("tok-1")
	if _, err := cs.CallTool(ctx, params); err != nil {
		t.Fatalf("CallTool through mcplab proxy: %v", err)
	}
	cs.Close()
	stop()
	if err := <-done; err != nil {
		t.Fatalf("mcplab proxy: %v\n%s", err, errOut.String())
	}
	file := filepath.Join(dir, "proxy.jsonl")
	said := errOut.String()
	for _, want := range []string{"mcplab proxy: " + self + " → " + upstream.URL + "/mcp (faults: none)", "mcplab proxy: transcript " + file, "pass  sse-headers", "checks: "} {
		if !strings.Contains(said, want) {
			t.Errorf("stderr does not say %q:\n%s", want, said)
		}
	}
	if strings.Contains(said, "FAIL") {
		t.Errorf("a rule fails on a clean session:\n%s", said)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	var out, runErr bytes.Buffer
	if err := run([]string{"run", "-checks", file}, &out, &runErr); err != nil {
		t.Errorf("mcplab run -checks %s: %v\n%s", file, err, runErr.String())
	}
	if !strings.Contains(out.String(), `"proxy"`) && !strings.Contains(out.String(), "intermediary") {
		t.Errorf("the trace does not say an intermediary recorded it")
	}
}
