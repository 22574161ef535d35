package tasks_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/tasks"
	"github.com/mcplab/mcplab/engine/trace"
)

// clock is a Wire on a virtual clock: After keeps one pending action, run
// in turn by next.
type clock struct {
	now     int64
	pending []func()
	at      []int64
	events  []trace.Event
}

func (c *clock) Emit(e trace.Event) { c.events = append(c.events, e) }
func (c *clock) After(ms int64, fn func()) {
	c.pending, c.at = append(c.pending, fn), append(c.at, c.now+ms)
}
func (c *clock) Now() int64 { return c.now }
func (c *clock) next() bool {
	if len(c.pending) == 0 {
		return false
	}
	fn := c.pending[0]
	c.now, c.pending, c.at = c.at[0], c.pending[1:], c.at[1:]
	fn()
	return true
}

// TestPoll: the client polls tasks/get every pollIntervalMs until it sees
// a terminal status (DOMAIN.md §6), and the simulation stops polling a
// task still working MaxIdlePolls intervals after the script's last step.
func TestPoll(t *testing.T) {
	for _, tc := range []struct {
		rule       string
		doneAfter  int // the poll whose reply is terminal, 0: never
		wantPolls  int
		wantLastAt int64
	}{
		{"a terminal status stops the loop", 3, 3, 300},
		{"a task still working is polled until the script has been over MaxIdlePolls intervals", 0, tasks.MaxIdlePolls, 100 * tasks.MaxIdlePolls},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			var store tasks.Store
			e := store.Create("t1", 0)
			e.Client.Status = trace.TaskWorking
			w := &clock{}
			asked := 0
			ask := func(e *tasks.Entry, method, note string, onAnswer func(tasks.Reply)) {
				asked++
				status := `{"taskId":"t1","status":"working"}`
				if asked == tc.doneAfter {
					status = `{"taskId":"t1","status":"completed"}`
				}
				onAnswer(tasks.Reply{Result: []byte(status)})
			}
			e.Poll(w, ask, 100, 0, false)
			for w.next() {
			}
			if asked != tc.wantPolls || e.Client.Polls != tc.wantPolls || w.now != tc.wantLastAt || len(w.events) != 1 {
				t.Errorf("%d polls (%d counted), last at %d ms, %d events; want %d polls, the last at %d ms, one event ending the loop", asked, e.Client.Polls, w.now, len(w.events), tc.wantPolls, tc.wantLastAt)
			}
		})
	}
}
