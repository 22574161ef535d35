// Command mcpgoclient is a mark3labs/mcp-go v1.2.1 MCP client run by
// `mcplab probe-client` (site/probeclient_test.go), as the conformance
// suite runs clients:
//
//	mcpgoclient MODE [URL]
//
// MCPLAB_TRANSPORT says stdio (launch MCPLAB_SERVER_COMMAND, a JSON array)
// or streamable-http (the URL, the last argument). MODE is "plain" (no
// deadline) or "timeout" (a context deadline of 300 ms on the call). It
// calls the first tool listed with a progress token, keeps its session
// 800 ms, lists the tools again and closes.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgoclient:", err)
		os.Exit(1)
	}
}

func run() error {
	mode := "plain"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	ctx := context.Background()
	var c *client.Client
	var err error
	if os.Getenv("MCPLAB_TRANSPORT") == "streamable-http" {
		if c, err = client.NewStreamableHttpClient(os.Args[len(os.Args)-1]); err == nil {
			err = c.Start(ctx)
		}
	} else {
		var argv []string
		if jerr := json.Unmarshal([]byte(os.Getenv("MCPLAB_SERVER_COMMAND")), &argv); jerr != nil || len(argv) == 0 {
			return fmt.Errorf("MCPLAB_SERVER_COMMAND: want a JSON array of strings: %v", jerr)
		}
		c, err = client.NewStdioMCPClient(argv[0], nil, argv[1:]...)
	}
	if err != nil {
		return err
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "mcplab-mcp-go-client", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) == 0 {
		return fmt.Errorf("tools/list: %v", err)
	}
	callCtx, cancel := ctx, context.CancelFunc(func() {})
	if mode == "timeout" {
		callCtx, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
	}
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tools.Tools[0].Name
	req.Params.Arguments = map[string]any{}
	req.Params.Meta = &mcp.Meta{ProgressToken: "p1"}
	start := time.Now()
	if _, err := c.CallTool(callCtx, req); err != nil {
		fmt.Printf("%s: gave up after %v: %v\n", mode, time.Since(start).Round(time.Millisecond), err)
	} else {
		fmt.Printf("%s: result after %v\n", mode, time.Since(start).Round(time.Millisecond))
	}
	time.Sleep(800 * time.Millisecond)
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		fmt.Printf("%s: tools/list failed: %v\n", mode, err)
	}
	return nil
}
