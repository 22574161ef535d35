package sim_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/sim"
)

// Actions run by virtual time, and at equal times in the order they were
// scheduled (SCENARIO.md's whole determinism rule); a stopped timer never
// runs, and background housekeeping never keeps the run alive.
func ExampleQueue() {
	var q sim.Queue
	say := func(s string) func() { return func() { fmt.Printf("%4d %s\n", q.Now(), s) } }
	q.Schedule(300, say("cancel"))
	q.Schedule(0, say("call"))
	q.Schedule(300, say("complete (same time: after the cancel step)"))
	late := q.Schedule(2000, say("timeout"))
	q.ScheduleBackground(100, say("keep-alive"))
	q.ScheduleBackground(5000, say("keep-alive that never runs"))
	q.Schedule(320, func() {
		fmt.Printf("%4d response arrives; stop the timeout: %v\n", q.Now(), q.Stop(late))
	})
	if err := q.Run(100); err != nil {
		fmt.Println(err)
	}
	// Output:
	//    0 call
	//  100 keep-alive
	//  300 cancel
	//  300 complete (same time: after the cancel step)
	//  320 response arrives; stop the timeout: true
}
