package live

import (
	"context"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProxySessionsKeptApart: two clients hold sessions open through the
// proxy at once, and each calls the slow tool with the same request id
// and progress token. Every recorded line names its exchange's
// Mcp-Session-Id (the initialize too, once its answer names the session),
// so the importer keeps the sessions' requests apart: two tools/call
// requests, and the correct server passes progress-increases and
// no-progress-after-final (one request per id and session, DOMAIN.md).
func TestProxySessionsKeptApart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newServer(nil) }, nil))
	defer upstream.Close()
	target, _ := url.Parse(upstream.URL + "/mcp")
	rec := NewRecorder(Header{Observer: trace.ObserverWire, Transport: scenario.TransportHTTP, Proxy: "mcplab proxy"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- (&HTTPProxy{Target: target, Rec: rec}).Serve(pctx, ln) }()
	connect := func() *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: "lab-client", Version: "v0.0.1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	a, b := connect(), connect() // both open before either calls
	for _, cs := range []*mcp.ClientSession{a, b} {
		params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}
		params.SetProgressToken("tok-1")
		if _, err := cs.CallTool(ctx, params); err != nil {
			t.Fatal(err)
		}
	}
	a.Close()
	b.Close()
	stop()
	<-served
	tr := judge(t, rec)
	// The calls' sessions: each call's events name the Mcp-Session-Id
	// the server gave (a sessionless server/discover before them has
	// none to name).
	sessions := map[string]bool{}
	for _, e := range tr.Events {
		if e.Type == trace.TypeSend && strings.Contains(string(e.Message), `"tools/call"`) {
			sessions[e.Session] = true
		}
	}
	calls := 0
	for _, r := range tr.Requests {
		if r.Method == "tools/call" {
			calls++
		}
	}
	if len(sessions) != 2 || sessions[""] || strings.HasPrefix(strings.Join(slices.Collect(maps.Keys(sessions)), ","), "session ") || calls != 2 {
		t.Errorf("the calls' sessions %v, %d tools/call requests; want two Mcp-Session-Ids, 2 requests\n%s", sessions, calls, rec.Bytes())
	}
	for _, rule := range []trace.RuleID{checks.ProgressIncreases, checks.NoProgressAfterFinal} {
		if v := verdictOf(tr, rule); v != "pass" {
			t.Errorf("%s %s, want pass (each session's request is its own)", rule, v)

		}
	}
}
