// Rules of DOMAIN.md §6, durable tasks are not requests.

package checks

import (
	"github.com/mcplab/mcplab/engine/trace"
)

// taskAckNotTerminal: a tasks/cancel acknowledgement leaves the task
// non-terminal until a worker observes it (DOMAIN.md §6, §12 statement 12):
// the client may call a task stopped only once the worker's status is
// terminal, and a worker status is never changed after it is terminal.
//
// Rule: taskAckNotTerminal.
func taskAckNotTerminal(v *view) (trace.Check, bool) {
	worker := map[string]string{} // task → latest worker status so far
	var bad, good []int
	seen := false
	for i, e := range v.ev {
		if e.TaskID == "" {
			continue
		}
		seen = true
		switch {
		case e.Actor == trace.ActorWorker && e.Type == trace.TypeStatus:
			if trace.Terminal(worker[e.TaskID]) && e.Status != worker[e.TaskID] {
				bad = append(bad, i)
			}
			worker[e.TaskID] = e.Status
		case e.Actor == trace.ActorClient && e.Type == trace.TypeStatus && (e.Status == trace.StatusStopped || trace.Terminal(e.Status)):
			if trace.Terminal(worker[e.TaskID]) {
				good = append(good, i)
			} else {
				bad = append(bad, i)
			}
		}
	}
	if !seen {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(TaskAckNotTerminal, "The client reported a task stopped while its worker was still "+trace.TaskWorking+" ("+seqList(bad)+"): the acknowledgement was taken as final.", bad...), true
	}
	return pass(TaskAckNotTerminal, "The client reported a task finished only after the worker reached a terminal status.", good...), true
}
