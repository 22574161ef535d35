package engine_test

import (
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/scenario"
)

// Scenario A of the course's lab on stdio (DOMAIN.md §12, statements 1 and
// 3): the client cancels at 300 ms, the handler completes at 320 ms. The
// cancellation wins: notifications/cancelled goes on the wire, nothing
// answers it, and the final response is suppressed.
func ExampleRun() {
	s, err := scenario.Decode([]byte(`{
	  "mcplab": 1,
	  "latencyMs": {"up": 10, "down": 10},
	  "steps": [
	    {"at": 0,   "do": "call", "id": 7, "name": "crunch"},
	    {"at": 300, "do": "cancel", "id": 7, "reason": "User closed the operation"},
	    {"at": 320, "do": "complete", "id": 7}
	  ]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := engine.Run(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range tr.Events {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("at %d: %s %s %s", e.At, e.Actor, e.Type, e.Message)))
	}
	r := tr.Requests[0]
	resp := "null"
	if r.Response != nil {
		resp = string(r.Response)
	}
	fmt.Printf("request %s: state %s, response %s, client %s\n", r.ID, r.State, resp, r.ClientOutcome)
	for _, c := range tr.Checks {
		fmt.Printf("%s: %v\n", c.Rule, *c.OK)
	}
	// Output:
	// at 0: client send {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcplab-client","version":"1.0.0"}}}}
	// at 10: network deliver {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcplab-client","version":"1.0.0"}}}}
	// at 10: server start
	// at 300: client send {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"User closed the operation"}}
	// at 310: network deliver {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"User closed the operation"}}
	// at 310: server status
	// at 320: server suppress {"jsonrpc":"2.0","id":7,"result":{"content":[],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcplab-server","version":"1.0.0"}}}}
	// request 7: state cancelled, response null, client abandoned
	// no-message-after-cancel: true
	// cancellation-never-answered: true
	// work-stops-after-cancel: true
	// call-outcome-known: true
}
