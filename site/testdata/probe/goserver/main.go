// Command goserver is a Go SDK (github.com/modelcontextprotocol/go-sdk
// v1.8.0) MCP server the probe tests drive (site/probe_test.go): over stdio
// by default, or over Streamable HTTP with -http ADDR, when it prints
// "listening http://HOST:PORT/mcp" on standard output.
//
// Tool "work" takes {"steps": N, "intervalMs": MS} (defaults 4 and 100): it
// reports progress every intervalMs when given a progress token and returns
// at once with the context's error when the request is cancelled (the
// handler honours cancellation; what the SDK writes after that is what the
// probe judges). Tool "quick" answers at once.
//
// -protocol 2026-07-28 serves only the stateless revision (over Streamable
// HTTP a stateless handler, which the SDK requires for it); -protocol
// 2025-11-25 only the revisions up to 2025-11-25 (a client's server/discover
// is answered with an error); the default serves every revision the SDK
// knows (stateful over HTTP, where it then speaks 2025-11-25).
// -ignore-cancel makes "work" run to its end whatever the context says.
// -first-delay-ms MS makes the first call of "work" take MS longer (a lazy
// set-up): a correct server whose first call is slow.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type workArgs struct {
	Steps      int `json:"steps,omitempty"`
	IntervalMs int `json:"intervalMs,omitempty"`
}

// serverFlags are the command line's choices of behaviour.
type serverFlags struct {
	protocol     string
	ignoreCancel bool
	firstDelay   time.Duration
}

func newServer(f serverFlags) *mcp.Server {
	var opts *mcp.ServerOptions
	switch f.protocol {
	case "2026-07-28":
		opts = &mcp.ServerOptions{SupportedProtocolVersions: []string{"2026-07-28"}}
	case "2025-11-25":
		var old []string
		for _, v := range mcp.SupportedProtocolVersions() {
			if v <= "2025-11-25" {
				old = append(old, v)
			}
		}
		opts = &mcp.ServerOptions{SupportedProtocolVersions: old}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "probe-go", Version: "0.0.1"}, opts)
	var first sync.Once
	mcp.AddTool(s, &mcp.Tool{Name: "work", Description: "progress every intervalMs; honours cancellation unless -ignore-cancel"},
		func(ctx context.Context, req *mcp.CallToolRequest, a workArgs) (*mcp.CallToolResult, any, error) {
			first.Do(func() { time.Sleep(f.firstDelay) })
			if f.ignoreCancel {
				ctx = context.WithoutCancel(ctx)
			}
			steps, interval := a.Steps, a.IntervalMs
			if steps <= 0 {
				steps = 4
			}
			if interval <= 0 {
				interval = 100
			}
			token := req.Params.GetProgressToken()
			for i := 1; i <= steps; i++ {
				select {
				case <-ctx.Done():
					return nil, nil, ctx.Err()
				case <-time.After(time.Duration(interval) * time.Millisecond):
				}
				if token != nil {
					req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: float64(steps)})
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("done after %d steps", steps)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "quick", Description: "answers at once"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "quick"}}}, nil, nil
		})
	return s
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this address (e.g. 127.0.0.1:0) instead of stdio")
	var f serverFlags
	flag.StringVar(&f.protocol, "protocol", "", "serve only 2026-07-28 or only up to 2025-11-25 (default: every revision)")
	flag.BoolVar(&f.ignoreCancel, "ignore-cancel", false, "the work tool runs to its end when cancelled")
	delay := flag.Int("first-delay-ms", 0, "the first work call takes this much longer (ms)")
	flag.Parse()
	f.firstDelay = time.Duration(*delay) * time.Millisecond
	s := newServer(f)
	if *addr == "" {
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening http://%s/mcp\n", ln.Addr())
	os.Stdout.Sync()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: f.protocol == "2026-07-28"})
	log.Fatal(http.Serve(ln, h))
}
