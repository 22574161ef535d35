package sqlite_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
)

// The safe decision of DOMAIN.md §4 on a real SQLite database: a keyed
// charge, then its retry under the same key (a new JSON-RPC id) replays
// the stored result, so the side effect ran once and one record holds it.
func ExampleNewMemory() {
	store, err := sqlite.NewMemory()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	c, _ := store.Connect()
	defer c.Close()
	args := []byte(`{"account":"acct-9","cents":1200,"idempotencyKey":"k-1"}`)
	for i, id := range []string{`1`, `2`} {
		in, _ := ledger.Prepare("charge_account", args, []byte(id))
		out, err := ledger.Apply(c, int64(100*i), in, true)
		fmt.Println("call", id, "replayed", out.Replayed, string(out.Result), err)
	}
	n, _ := c.Executions()
	records, _ := c.Records()
	fmt.Println("executions:", n, "records:", len(records), records[0].Key)
	// Output:
	// call 1 replayed false {"account":"acct-9","cents":1200,"receipt":"charge-001","rpcId":1} <nil>
	// call 2 replayed true {"account":"acct-9","cents":1200,"receipt":"charge-001","rpcId":1} <nil>
	// executions: 1 records: 1 k-1
}
