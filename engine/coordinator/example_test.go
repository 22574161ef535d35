package coordinator_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
)

// The reference timeline of DOMAIN.md §2: idle 500 ms, maximum 2000 ms,
// progress at 400, 800 and 1200 ms. Alive at 1500; if progress stops at
// 1200 the idle deadline is due at 1700; at 2000 both are due and the
// maximum wins, even with progress at 1999.
func ExampleDeadlines() {
	d := coordinator.NewDeadlines(0, 500, 2000, false)
	for _, at := range []int64{400, 800, 1200} {
		d.Activity(at)
	}
	for _, now := range []int64{1500, 1699, 1700, 2000} {
		if cause, due := d.Due(now); due {
			fmt.Printf("at %d: due, %s\n", now, cause)
		} else {
			fmt.Printf("at %d: alive\n", now)
		}
	}
	next, _ := d.Next()
	fmt.Println("next deadline:", next)

	d.Activity(1600)
	d.Activity(1999)
	cause, due := d.Due(2000)
	fmt.Printf("progress at 1999, at 2000: due=%v %s (%s)\n", due, cause, cause.Reason())
	// Output:
	// at 1500: alive
	// at 1699: alive
	// at 1700: due, idle-timeout
	// at 2000: due, max-timeout
	// next deadline: 1700
	// progress at 1999, at 2000: due=true max-timeout (maximum timeout)
}

// The cancel/complete race (DOMAIN.md §1): whichever comes first wins.
func ExampleRequest() {
	var cancelWins coordinator.Request
	cancelWins.Cancel(300)
	resp, sent := cancelWins.Complete(320, []byte(`{"result":{}}`), false)
	fmt.Println(cancelWins.State(), resp == nil, sent)

	var completeWins coordinator.Request
	completeWins.Complete(100, []byte(`{"result":{}}`), false)
	fmt.Println(completeWins.State(), completeWins.Cancel(300))
	// Output:
	// cancelled true false
	// completed false
}
