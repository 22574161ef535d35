// Package tasks is the life of one durable task (DOMAIN.md §6; the tasks
// extension io.modelcontextprotocol/tasks), as small values in the style of
// package coordinator: the server's record (Task: status, cancel flag,
// checkpoints, result, history) and what the client knows of it (Client:
// the last status seen, polling).
//
// Rules:
//   - a task's state lives apart from any request or connection: closing
//     the HTTP stream that created it never deletes it;
//   - a task starts working; completed, failed and cancelled are terminal
//     (trace.Terminal) and never change again;
//   - under 2026-07-28 tasks/cancel only records the intent (the cancel
//     flag); the task stays working until a worker checkpoint observes the
//     flag and cancels it, and a task that finishes first ends completed;
//   - under 2025-11-25 tasks/cancel cancels a task that is not terminal at
//     once, and fails with -32602 for a terminal one;
//   - each revision has its own task wire: 2026-07-28's tasks extension
//     marks the handle resultType "task" and names the interval
//     pollIntervalMs; 2025-11-25's schema asks for the task in the call's
//     params.task, has no resultType, and names the interval pollInterval
//     (Call, CreateResult, Wire);
//   - the client polls tasks/get every poll interval (default
//     DefaultPollIntervalMs) until it sees a terminal status; a simulation
//     stops polling once the script has ended and MaxIdlePolls intervals
//     passed with nothing else to do.
//
// Every method is handed the virtual time (ms); nothing here reads a clock.
// The moves that the trace tells return their event (trace.Event, without
// its request id) with its note; the runner schedules and emits them. A
// server's tasks live in a Store.
package tasks

import (
	"encoding/json"
	"time"

	"github.com/mcplab/mcplab/engine/trace"
)

// DefaultPollIntervalMs is the tasks/get polling interval (ms) a server asks
// for when the scenario does not say.
const DefaultPollIntervalMs = 500

// MaxIdlePolls is how many poll intervals past the script's last step a
// simulated client keeps polling a task that does not end.
const MaxIdlePolls = 10

// Task is one durable task at the server. Its state lives apart from any
// request or connection: closing the stream that created it never deletes
// it.
type Task struct {
	ID              string
	status          string
	cancelRequested bool
	// stoppedAt is when a worker checkpoint found the task cancelled and
	// the worker stopped its work (ms); -1 while the work runs.
	stoppedAt int64
	result    json.RawMessage
	history   [][2]any // [at ms, status]
}

// New returns task id, working since now.
func New(id string, now int64) Task {
	return Task{ID: id, status: trace.TaskWorking, stoppedAt: -1, history: [][2]any{{now, trace.TaskWorking}}}
}

// Status returns the task's status (a trace.Task* value).
func (t *Task) Status() string { return t.status }

// CancelRequested reports whether tasks/cancel recorded the intent.
func (t *Task) CancelRequested() bool { return t.cancelRequested }

// Set moves the task to status at now and reports whether it did: false
// when the task is already terminal (terminal statuses never change).
func (t *Task) Set(now int64, status string) bool {
	if trace.Terminal(t.status) {
		return false
	}
	t.status = status
	t.history = append(t.history, [2]any{now, status})
	return true
}

// RequestCancel records the cancellation intent (2026-07-28 tasks/cancel):
// the status does not change.
func (t *Task) RequestCancel() { t.cancelRequested = true }

// Checkpoint is a worker checkpoint at now: it cancels a working task whose
// cancel flag is set and reports whether it did. A checkpoint that finds
// its task cancelled, by itself or before it (a 2025-11-25 tasks/cancel),
// stops the worker's work (Stopped).
func (t *Task) Checkpoint(now int64) bool {
	cancelled := t.cancelRequested && t.status == trace.TaskWorking && t.Set(now, trace.TaskCancelled)
	if t.status == trace.TaskCancelled && t.stoppedAt < 0 {
		t.stoppedAt = now
	}
	return cancelled
}

// Stopped is when a worker checkpoint found the task cancelled and the
// worker stopped its work (ms), and false while the work runs.
func (t *Task) Stopped() (int64, bool) { return t.stoppedAt, t.stoppedAt >= 0 }

// Finish completes the task at now with result and reports whether it did
// (false: already terminal, the result is not kept).
func (t *Task) Finish(now int64, result json.RawMessage) bool {
	if trace.Terminal(t.status) {
		return false
	}
	t.result = result
	return t.Set(now, trace.TaskCompleted)
}

// Wire returns the Task object a server puts on the wire in its revision
// (is2025: 2025-11-25's schema Task; else the 2026-07-28 tasks
// extension's): {"taskId","status","createdAt","lastUpdatedAt","ttl",
// <interval>,"result"?}. The polling interval (ms) is "pollIntervalMs"
// under 2026-07-28 and "pollInterval" under 2025-11-25; the result rides
// on the Task only under 2026-07-28 (2025-11-25's Task has none: its
// client fetches it with tasks/result). createdAt and lastUpdatedAt (ISO
// 8601, which the 2025-11-25 schema's Task requires) are the virtual times
// of its first and last status as instants from the Unix epoch; ttl is
// null (kept for as long as the run lasts).
func (t *Task) Wire(pollIntervalMs int64, is2025 bool) json.RawMessage {
	w := wireTask{TaskID: t.ID, Status: t.status, CreatedAt: instant(t.history[0][0]), LastUpdatedAt: instant(t.history[len(t.history)-1][0])}
	if is2025 {
		w.PollInterval = &pollIntervalMs
	} else {
		w.PollIntervalMs, w.Result = &pollIntervalMs, t.result
	}
	b, _ := json.Marshal(w)
	return b
}

// wireTask is a Task object on the wire: exactly one of PollIntervalMs
// (2026-07-28) and PollInterval (2025-11-25) is set.
type wireTask struct {
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTL            *int64          `json:"ttl"`
	PollIntervalMs *int64          `json:"pollIntervalMs,omitempty"`
	PollInterval   *int64          `json:"pollInterval,omitempty"`
	Result         json.RawMessage `json:"result,omitempty"`
}

// instant writes virtual time at (ms, an int64 in a history entry) as an
// ISO 8601 instant from the Unix epoch: 250 is 1970-01-01T00:00:00.250Z.
func instant(at any) string {
	ms, _ := at.(int64)
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

// Summary is the task's trace summary.
func (t *Task) Summary() trace.Task {
	return trace.Task{TaskID: t.ID, Status: t.status, CancelRequested: t.cancelRequested, History: t.history}
}

// Client is what the client knows of one task: the last status it saw
// ("" before the first), whether it stopped polling, how often it polled.
type Client struct {
	Status  string
	Stopped bool
	Polls   int
}

// Polling reports whether the client still polls: it has not stopped and
// has not seen a terminal status.
func (c Client) Polling() bool { return !c.Stopped && !trace.Terminal(c.Status) }

// NextPoll returns when the client polls next, after a poll (or the
// handle) at now, and false when the simulation stops polling because the
// script ended at lastStepAt and MaxIdlePolls intervals have passed.
func NextPoll(now, intervalMs, lastStepAt int64) (int64, bool) {
	at := now + intervalMs
	return at, at <= lastStepAt+MaxIdlePolls*intervalMs
}
