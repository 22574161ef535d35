package live

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bridgeDir holds mcp-remote, pinned by its lockfile.
var bridgeDir = filepath.Join("testdata", "mcpremote")

var (
	bridgeOnce sync.Once
	bridgeErr  error
)

// bridge installs mcp-remote from its lockfile with npm ci (once per test
// binary, unless node_modules holds it already) and returns its entry
// point. A missing node or npm fails the test with what to install.
func bridge(t *testing.T) string {
	t.Helper()
	entry := filepath.Join(bridgeDir, "node_modules", "mcp-remote", "dist", "proxy.js")
	bridgeOnce.Do(func() {
		for _, tool := range []string{"node", "npm"} {
			if _, err := exec.LookPath(tool); err != nil {
				bridgeErr = errors.New(tool + " is missing: the mcp-remote test runs the real bridge from " + bridgeDir + "'s lockfile; install Node.js and npm")
				return
			}
		}
		if _, err := os.Stat(entry); err == nil {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", "--ignore-scripts")
		cmd.Dir = bridgeDir
		if out, err := cmd.CombinedOutput(); err != nil {
			bridgeErr = errors.New("npm ci in " + bridgeDir + ": " + err.Error() + "\n" + string(out))
		}
	})
	if bridgeErr != nil {
		t.Fatal(bridgeErr)
	}
	return entry
}

// TestProxyMcpRemote: a real client path through the proxy (SCENARIO.md,
// Live: proxy): the Go SDK client launches mcp-remote 0.15.1 as its stdio
// server, the bridge speaks Streamable HTTP to the proxy, the proxy to a
// Go SDK server. Without faults the call completes with its three progress
// notifications, each before the server wrote the result, and no rule
// fails on the proxy's transcript; with buffer=final the bridge hands on
// what the proxy held: all three arrive after the result was written, and
// proxy-forwards-promptly fails.
func TestProxyMcpRemote(t *testing.T) {
	t.Parallel()
	entry := bridge(t)
	cases := []struct {
		rule, faults string
		held         bool
	}{
		{"no fault: progress as the server wrote it", "", false},
		{"buffer=final: the bridge gets the held burst", "buffer=final", true},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			t.Parallel()
			f, err := ParseFaults(c.faults)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			finals := make(chan time.Time, 1)
			// The server asks intermediaries not to buffer its streams
			// (serverSide adds X-Accel-Buffering: no), so a proxy that holds
			// them is at fault.
			upstream := httptest.NewServer(&serverSide{h: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newServer(finals) }, nil)})
			defer upstream.Close()
			target, _ := url.Parse(upstream.URL + "/mcp")
			rec := NewRecorder(Header{Observer: trace.ObserverWire, Transport: scenario.TransportHTTP, Proxy: "mcplab proxy -faults " + c.faults})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			pctx, stop := context.WithCancel(ctx)
			served := make(chan error, 1)
			go func() { served <- (&HTTPProxy{Target: target, Faults: f, Rec: rec}).Serve(pctx, ln) }()
			defer func() { stop(); <-served }()

			cmd := exec.CommandContext(ctx, "node", entry, "http://"+ln.Addr().String()+"/mcp", "--transport", "http-only", "--allow-http", "--silent")
			cmd.Env = append(os.Environ(), "MCP_REMOTE_CONFIG_DIR="+t.TempDir())
			var mu sync.Mutex
			var progressAt []time.Time
			client := mcp.NewClient(&mcp.Implementation{Name: "lab-client", Version: "v0.0.1"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					progressAt = append(progressAt, time.Now())
					mu.Unlock()
				},
			})
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connect through mcp-remote: %v", err)
			}
			params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}
			params.SetProgressToken("tok-1")
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				t.Fatalf("CallTool through mcp-remote and the proxy: %v", err)
			}
			if len(res.Content) != 1 {
				t.Errorf("result %+v, want the tool's one text", res.Content)
			}
			// The bridge may hand on the last progress just after the
			// result: wait briefly for all three.
			deadline := time.Now().Add(2 * time.Second)
			for {
				mu.Lock()
				n := len(progressAt)
				mu.Unlock()
				if n >= 3 || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			cs.Close()
			finalAt := <-finals
			mu.Lock()
			defer mu.Unlock()
			if len(progressAt) != 3 {
				t.Fatalf("the client got %d progress notifications, want 3", len(progressAt))
			}
			for i, at := range progressAt {
				if held := !at.Before(finalAt); held != c.held {
					t.Errorf("progress %d reached the client %v relative to the result's write; held=%v, want %v", i+1, at.Sub(finalAt), held, c.held)
				}
			}
			tr := judge(t, rec)
			want := "pass"
			if c.held {
				want = "fail"
			}
			if v := verdictOf(tr, checks.ProxyForwardsPromptly); v != want && !(want == "pass" && v == "absent") {
				t.Errorf("proxy-forwards-promptly %s, want %s", v, want)
			}
			if !c.held {
				for _, ch := range tr.Checks {
					if ch.OK != nil && !*ch.OK {
						t.Errorf("%s fails on a clean pass-through: %s", ch.Rule, ch.Detail)
					}
				}
			}
		})
	}
}
