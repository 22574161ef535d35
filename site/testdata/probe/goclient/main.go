// Command goclient is a Go SDK (github.com/modelcontextprotocol/go-sdk
// v1.8.0) MCP client run by `mcplab probe-client` (site/probeclient_test.go)
// as the conformance suite runs clients:
//
//	goclient MODE [URL]
//
// MCPLAB_TRANSPORT says stdio (launch MCPLAB_SERVER_COMMAND, a JSON array)
// or streamable-http (the URL, the last argument). The SDK speaks
// 2026-07-28 first (server/discover) and falls back to 2025-11-25
// (initialize) when the server refuses it. MODE is how the host bounds
// its call: "plain" (no deadline) or "timeout" (a context deadline of 300
// ms, which the SDK turns into its cancellation). It calls the first tool
// listed with a progress token, keeps its session 800 ms, lists the tools
// again and closes. In the situations about its session's streams
// (listen-*, session-retired) it keeps the SDK's own reconnect retries
// (5); in those about its listen stream it keeps its session 3.5 s and
// lists nothing again, so whatever it refetches after a reconnect is the
// SDK's own doing.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		os.Exit(1)
	}
}

func run() error {
	mode := "plain"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	situation := os.Getenv("MCPLAB_SITUATION")
	listening := strings.HasPrefix(situation, "listen-")
	var t mcp.Transport
	if os.Getenv("MCPLAB_TRANSPORT") == "streamable-http" {
		retries := -1
		if listening || situation == "session-retired" {
			retries = 0 // the SDK's default
		}
		t = &mcp.StreamableClientTransport{Endpoint: os.Args[len(os.Args)-1], MaxRetries: retries}
	} else {
		var argv []string
		if err := json.Unmarshal([]byte(os.Getenv("MCPLAB_SERVER_COMMAND")), &argv); err != nil || len(argv) == 0 {
			return fmt.Errorf("MCPLAB_SERVER_COMMAND: want a JSON array of strings: %v", err)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stderr = os.Stderr
		t = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "mcplab-go-client", Version: "1.0.0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {},
	})
	ctx := context.Background()
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) == 0 {
		return fmt.Errorf("tools/list: %v", err)
	}
	callCtx, cancel := ctx, context.CancelFunc(func() {})
	if mode == "timeout" {
		callCtx, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
	}
	defer cancel()
	start := time.Now()
	params := &mcp.CallToolParams{Name: tools.Tools[0].Name, Arguments: map[string]any{}}
	params.SetProgressToken("p1")
	if _, err := cs.CallTool(callCtx, params); err != nil {
		fmt.Printf("%s: gave up after %v: %v\n", mode, time.Since(start).Round(time.Millisecond), err)
	} else {
		fmt.Printf("%s: result after %v\n", mode, time.Since(start).Round(time.Millisecond))
	}
	if listening {
		time.Sleep(3500 * time.Millisecond)
		return nil
	}
	time.Sleep(800 * time.Millisecond)
	if _, err := cs.ListTools(ctx, nil); err != nil {
		fmt.Printf("%s: tools/list failed: %v\n", mode, err)
	}
	return nil
}
