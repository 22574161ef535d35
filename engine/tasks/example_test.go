package tasks_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/tasks"
)

// Under 2026-07-28 a cancel is only an intent: the task stays working until
// a checkpoint observes the flag; a finish after that changes nothing.
func Example() {
	t := tasks.New("task-1", 0)
	t.RequestCancel()
	fmt.Println(t.Status(), t.CancelRequested())
	fmt.Println("checkpoint cancels:", t.Checkpoint(300), t.Status())
	fmt.Println("finish changes it:", t.Finish(400, nil), t.Status())
	c := tasks.Client{Status: t.Status()}
	fmt.Println("client polls:", c.Polling())
	fmt.Printf("%s\n", t.Wire(tasks.DefaultPollIntervalMs, false))
	fmt.Println(t.Summary().History)
	// Output:
	// working true
	// checkpoint cancels: true cancelled
	// finish changes it: false cancelled
	// client polls: false
	// {"taskId":"task-1","status":"cancelled","createdAt":"1970-01-01T00:00:00.000Z","lastUpdatedAt":"1970-01-01T00:00:00.300Z","ttl":null,"pollIntervalMs":500}
	// [[0 working] [300 cancelled]]
}

// The client reads a 2026-07-28 tasks/cancel acknowledgement as intent
// received, not stopped: it keeps polling until a poll sees a terminal
// status.
func ExampleClient_Cancelled() {
	t := tasks.New("task-1", 0)
	c := tasks.Client{Status: t.Status()}
	e, _ := c.Cancelled(t.ID, t.Serve(100, "tasks/cancel", false, 500), false, false)
	fmt.Println(e.Status, c.Polling())
	fmt.Println(t.Work(300, "checkpoint", nil).Note)
	e, terminal := c.Polled(t.ID, t.Serve(500, "tasks/get", false, 500))
	fmt.Println(terminal, c.Polling(), e.Note)
	// Output:
	// working true
	// A worker checkpoint observes the cancellation flag: task task-1 becomes cancelled.
	// true false The client sees task task-1 cancelled: a terminal status, so it stops polling.
}

// A server's store keeps its tasks in creation order and numbers the
// client's tasks/* requests.
func ExampleStore() {
	var s tasks.Store
	s.Create("a", 0)
	s.Create("b", 10).Finish(20, nil)
	fmt.Println(s.Get("b").Status(), s.Get("c") == nil, s.RequestID("tasks/get"), s.RequestID("tasks/cancel"))
	for _, t := range s.Summary() {
		fmt.Println(t.TaskID, t.Status)
	}
	fmt.Println(tasks.Interval(0), tasks.Interval(250))
	// Output:
	// completed true tasks/get-1 tasks/cancel-2
	// a working
	// b completed
	// 500 250
}
