package transcript_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/transcript"
)

// A server's own log, in the lab's JSON Lines format: the server read a
// cancellation for request 1 and then answered it anyway. Sniff names the
// format; Import turns the log into a trace that the same checks judge
// (DOMAIN.md §1: no response after a valid cancellation).
func ExampleImport() {
	log := []byte(`{"observer": "server", "transport": "stdio"}
{"t": 0, "from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow"}}}
{"t": 40, "from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "user pressed stop"}}}
{"t": 90, "from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"content": []}}}
`)
	fmt.Println(transcript.Sniff(log))
	tr, err := transcript.Import(log, transcript.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range tr.Checks {
		if c.Rule == "no-message-after-cancel" && c.OK != nil {
			fmt.Println(c.Rule, "holds:", *c.OK)
		}
	}
	// Output:
	// jsonl
	// no-message-after-cancel holds: false
}
