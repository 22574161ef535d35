package handler_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/handler"
	"github.com/mcplab/mcplab/engine/scenario"
)

// A handler that works 800 ms and checks for a cancellation every 100 ms
// starts at 10 ms; a cancellation reaches the server at 260 ms. It
// notices at its checkpoint at 310 ms, 50 ms of wasted work; one that
// swallows the cancellation works on to 810 ms.
func ExampleWork_Observes() {
	w := handler.New(scenario.Handler{WorkMs: 800, CheckpointEveryMs: 100})
	w.Begin(10)
	fmt.Println(w.Observes(260, false))
	fmt.Println(w.Observes(260, true))
	// Output:
	// 310 true
	// 810 false
}

// Progress every 100 ms of a 300 ms handler: two updates, at 100 and
// 200 ms of work; never one at the completion.
func ExampleProgress() {
	every, n := handler.Progress(scenario.Handler{WorkMs: 300, ProgressEveryMs: 100})
	fmt.Println(every, n)
	// Output: 100 2
}

// A lock of capacity 1: the second handler waits, and the first release
// hands the lock to it.
func ExamplePool() {
	p := handler.NewPool[string](nil)
	fmt.Println(p.Acquire("db-lock", "call 1"), p.Acquire("db-lock", "call 2"))
	fmt.Println(p.Release("db-lock"))
	// Output:
	// true false
	// call 2 true
}
