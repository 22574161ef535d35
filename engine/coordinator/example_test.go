package coordinator_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/scenario"
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

// The two halves of one request on 2026-07-28 Streamable HTTP: the client's
// idle deadline fires and it cancels by closing the stream; the server sees
// the close, observes the cancellation, and its later completion is
// suppressed.
func ExampleClient() {
	c := coordinator.NewClient(coordinator.NewDeadlines(0, 500, 0, false), true)
	cause, _, due := c.Timeout(500, true)
	signal, _, _ := c.Cancel(500, "1", "tools/call", string(cause), nil, coordinator.Transport{HTTP: true, CloseStream: true})
	fmt.Println(due, cause, signal, c.Outcome, c.Reading)

	var s coordinator.Server
	s.Arrived, s.Writing = true, true
	_, cancel := s.SeesClose("1", coordinator.Policy{}, false)
	e, cancelled := s.ObserveCancel(510, "1", string(cause), "stream close", "")
	fmt.Println(cancel, cancelled, e.Status, s.Writing)
	e, send := s.Finish(600, "1", []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), false, 0, false, coordinator.Policy{})
	fmt.Println(send, e.Type, s.Sent == nil)
	// Output:
	// true idle-timeout close-stream abandoned false
	// true true cancelled false
	// false suppress true
}

// A scripted completion for request 7 before the request reached the
// server cannot happen: it is skipped, with why, never dropped silently.
func ExampleStepSkip() {
	id := scenario.NewIntID(7)
	st := scenario.Step{At: 5, Do: scenario.VerbComplete, ID: &id}
	var c coordinator.Client
	var s coordinator.Server // not arrived
	halves := func(scenario.ID) (*coordinator.Client, *coordinator.Server) { return &c, &s }
	e, skip, ok := coordinator.StepSkip(3, st, halves, false, true, "")
	fmt.Println(ok, e.Type, e.Actor, *e.Step)
	fmt.Println(skip.Reason)
	// Output:
	// true skip server 3
	// Request 7 has not reached the server yet: the server cannot complete it.
}
