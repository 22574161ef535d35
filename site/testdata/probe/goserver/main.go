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
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type workArgs struct {
	Steps      int `json:"steps,omitempty"`
	IntervalMs int `json:"intervalMs,omitempty"`
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "probe-go", Version: "0.0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "work", Description: "progress every intervalMs; honours cancellation"},
		func(ctx context.Context, req *mcp.CallToolRequest, a workArgs) (*mcp.CallToolResult, any, error) {
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
	flag.Parse()
	s := newServer()
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
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	log.Fatal(http.Serve(ln, h))
}
