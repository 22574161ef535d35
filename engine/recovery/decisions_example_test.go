package recovery_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/recovery"
)

// A client that received event 2 on a stream resumes it with
// Last-Event-ID 2; the broken one of modelcontextprotocol/inspector#723
// (omitLastEventId) sends none although it holds the same position.
func ExampleSentLastEventID() {
	var correct, broken recovery.Cursor
	correct.Received("2")
	broken.Received("2")
	fmt.Printf("%q %q\n", recovery.SentLastEventID(&correct, false, false), recovery.SentLastEventID(&broken, false, true))
	// Output:
	// "2" ""
}

// One client during an outage (herd.outageMs 4,000 ms): with no backoff it
// asks every 250 ms; with the reference backoff five times, the last soon after the outage.
func ExampleRunHerd_outage() {
	for _, strategy := range []string{"none", "reference"} {
		r := recovery.RunHerd(recovery.HerdConfig{Clients: 1, Strategy: strategy, BaseMs: 250, CapMs: 8000, CapacityPerSecond: 100, MaxAttempts: 20, BucketMs: 100, OutageMs: 4000})
		fmt.Println(strategy, r.Attempts, "attempts, back at", *r.AllReconnectedAtMs)
	}
	// Output:
	// none 16 attempts, back at 4000
	// reference 5 attempts, back at 5511
}
