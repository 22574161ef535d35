package tasks

import (
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Wire is what the client's task loop needs of the runner: emit an event,
// schedule fn ms from now, and the current virtual time (ms).
type Wire interface {
	Emit(e trace.Event)
	After(ms int64, fn func())
	Now() int64
}

// Ask sends one tasks/* request with method and note about task e from the
// client; once the server's reply reaches the client, onAnswer runs with it.
type Ask func(e *Entry, method, note string, onAnswer func(Reply))

// Poll polls e with tasks/get every intervalMs until the client sees a
// terminal status (DOMAIN.md §6); NextPoll bounds it by the script's last
// step at lastStepAt (ms), past which the simulation stops polling. Each
// poll's note names the interval as the Task of the revision does
// (is2025: pollInterval; else pollIntervalMs).
func (e *Entry) Poll(w Wire, ask Ask, intervalMs, lastStepAt int64, is2025 bool) {
	if !e.Client.Polling() {
		return
	}
	at, ok := NextPoll(w.Now(), intervalMs, lastStepAt)
	if !ok {
		w.Emit(e.Client.StopPolling(e.ID))
		return
	}
	w.After(at-w.Now(), func() {
		if !e.Client.Polling() {
			return
		}
		e.Client.Polls++
		ask(e, "tasks/get", PollNote(is2025), func(r Reply) {
			if ev, terminal := e.Client.Polled(e.ID, r); terminal {
				w.Emit(ev)
				return
			}
			e.Poll(w, ask, intervalMs, lastStepAt, is2025)
		})
	})
}

// Step runs task verb st.Do on task st.TaskID (Missing when the server has
// not created it): task-get and task-cancel are the client asking (the
// reply read by StatusOf and Client.Cancelled, under is2025 and policy
// treatTaskAckAsFinal, ackIsFinal); checkpoint and finish-task are the
// worker's moves (Task.Work).
func (s *Store) Step(w Wire, ask Ask, st scenario.Step, is2025, ackIsFinal bool) {
	t := s.Get(st.TaskID)
	switch {
	case t == nil:
		w.Emit(Missing(st.TaskID, st.Do))
	case st.Do == scenario.VerbTaskGet:
		ask(t, "tasks/get", AskNote("tasks/get", t.ID), func(r Reply) {
			t.Client.Status = StatusOf(r.Result)
		})
	case st.Do == scenario.VerbTaskCancel:
		ask(t, "tasks/cancel", AskNote("tasks/cancel", t.ID), func(r Reply) {
			if e, ok := t.Client.Cancelled(t.ID, r, is2025, ackIsFinal); ok {
				w.Emit(e)
			}
		})
	default: // checkpoint, finish-task
		w.Emit(t.Work(w.Now(), st.Do, st.Result))
	}
}
