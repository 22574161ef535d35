package ledger_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
)

// Two connections race the same keyed charge. Atomic (BEGIN IMMEDIATE):
// one locks, the other waits, then replays. Check-then-act: both see the
// key missing and the effect runs twice.
func Example() {
	for _, atomic := range []bool{true, false} {
		store, _ := sqlite.OpenMemory(fmt.Sprintf("/example-race-%v", atomic))
		a, _ := store.Connect()
		b, _ := store.Connect()
		in, _ := ledger.Prepare("charge_account", []byte(`{"account":"acct-9","cents":1200,"idempotencyKey":"k-1"}`), []byte(`1`))
		steps, _ := ledger.Race([]ledger.Conn{a, b}, []ledger.Intent{in, in}, 0, atomic, true)
		for _, s := range steps {
			fmt.Print(phase[s.Phase], s.Conn+1, " ")
			if s.Phase == ledger.Decided && s.Outcome.Replayed {
				fmt.Print("(replay) ")
			}
		}
		n, _ := a.Executions()
		fmt.Println("executions:", n)
		a.Close()
		b.Close()
		store.Close()
	}
	// Output:
	// lock1 wait2 decided1 lock2 decided2 (replay) executions: 1
	// check1 check2 decided1 effect-twice2 executions: 2
}

var phase = map[ledger.Phase]string{ledger.Lock: "lock", ledger.Wait: "wait", ledger.Check: "check", ledger.Decided: "decided", ledger.EffectTwice: "effect-twice", ledger.Failed: "failed"}

// A server's ledger under the reference policy: the first keyed charge
// runs the effect, a retry under the same key replays it, and the trace
// summary reads one execution and one record.
func ExampleServer_Call() {
	s, _ := ledger.OpenServer(func() (ledger.Store, error) { return sqlite.OpenMemory("/example-server-call") }, 1, true, false)
	defer s.Close()
	s.Policy = ledger.Policy{Atomic: true, Fingerprint: true}
	args := []byte(`{"account":"acct-9","cents":1200,"idempotencyKey":"k-1"}`)
	for _, id := range []string{`1`, `2`} {
		r := s.Call(0, ledger.Call{Tool: "charge_account", Args: args, RPCID: id})
		_, failed := r.Response(id)
		fmt.Println(r.Event().Type, failed)
	}
	sum := s.Trace()
	fmt.Println(sum.Executions, len(sum.Records))
	// Output:
	// effect false
	// replay false
	// 1 1
}
