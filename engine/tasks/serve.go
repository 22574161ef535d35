package tasks

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// CreateResult is the CreateTaskResult a server answers a task-augmented
// call with in its revision: {"resultType":"task","task":<Task>} under
// 2026-07-28, {"task":<Task>} under 2025-11-25 (is2025), whose results
// have no resultType (see Wire).
func (t *Task) CreateResult(pollIntervalMs int64, is2025 bool) json.RawMessage {
	if is2025 {
		b, _ := json.Marshal(struct {
			Task json.RawMessage `json:"task"`
		}{t.Wire(pollIntervalMs, true)})
		return b
	}
	b, _ := json.Marshal(struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
	}{jsonrpc.ResultTask, t.Wire(pollIntervalMs, false)})
	return b
}

// Call is a client's tools/call msg for durable task task ("" for none)
// as its revision writes it: under 2025-11-25 (is2025) a task-augmented
// request names the task in params.task (schema TaskMetadata; {}: the
// client asks for no ttl); under 2026-07-28 the server decides to answer
// with a task and the request carries nothing of it. msg unchanged
// otherwise.
func Call(msg json.RawMessage, task string, is2025 bool) json.RawMessage {
	if task == "" || !is2025 {
		return msg
	}
	return jsonrpc.WithParam(msg, "task", json.RawMessage(`{}`))
}

// StatusOf reads the status of a Task object a server sent, "" when it
// has none (an acknowledgement, an error).
func StatusOf(task json.RawMessage) string {
	var s struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(task, &s)
	return s.Status
}

// Reply is the server's answer to a tasks/* request: Result, or when Code
// is not 0 a JSON-RPC error (Code, Message). When Note is not "", the
// request also changed or confirmed the task: a status event by Actor
// (trace.Actor*) with Status ("" when none) and Note.
type Reply struct {
	Result  json.RawMessage
	Code    int
	Message string
	Actor   trace.Actor
	Status  string
	Note    string
}

// Serve is the server's handling at now of method ("tasks/get" or
// "tasks/cancel") for t (DOMAIN.md §6). tasks/get returns the Task (Wire,
// in the revision's shape).
// tasks/cancel under 2025-11-25 (is2025) cancels a task that is not
// terminal before replying with the Task, and fails with -32602 for a
// terminal one; under 2026-07-28 it records the intent and acknowledges
// it with {"resultType":"complete"}, the task staying as it is.
func (t *Task) Serve(now int64, method string, is2025 bool, pollIntervalMs int64) Reply {
	switch {
	case method == "tasks/get":
		return Reply{Result: t.Wire(pollIntervalMs, is2025)}
	case is2025 && trace.Terminal(t.status):
		return Reply{Code: -32602, Message: "task " + t.ID + " is already " + t.status,
			Actor: trace.ActorServer, Note: "Under 2025-11-25 cancelling a terminal task fails with -32602."}
	case is2025:
		t.Set(now, trace.TaskCancelled)
		return Reply{Result: t.Wire(pollIntervalMs, true), Actor: trace.ActorWorker, Status: trace.TaskCancelled,
			Note: "Under 2025-11-25 a valid tasks/cancel moves task " + t.ID + " to cancelled before the reply, and the reply is the Task."}
	}
	t.RequestCancel()
	return Reply{Result: json.RawMessage(`{"resultType":"complete"}`), Actor: trace.ActorServer, Status: t.status,
		Note: "The server records the cancellation intent for task " + t.ID + " and acknowledges it; the task stays " + t.status + " until a worker checkpoint observes the flag."}
}

// CheckpointAt is a worker checkpoint at now (Checkpoint) with the note
// that says what it observed: cancelled is true when it cancelled t. A
// checkpoint that finds t cancelled stops the work in both revisions
// (DOMAIN.md §6): under 2025-11-25 tasks/cancel cancels the task before
// the worker knows, and its next checkpoint is where the work stops.
func (t *Task) CheckpointAt(now int64) (cancelled bool, note string) {
	stopped, wasStopped := t.Stopped()
	if t.Checkpoint(now) {
		return true, "A worker checkpoint observes the cancellation flag: task " + t.ID + " becomes cancelled."
	}
	head := "Worker checkpoint for task " + t.ID + ": "
	switch {
	case wasStopped:
		return false, head + "the worker already stopped its work at " + strconv.FormatInt(stopped, 10) + " ms, when a checkpoint found the task cancelled; nothing runs."
	case t.status == trace.TaskCancelled:
		return false, head + "the task is already cancelled, so the worker stops its work."
	case trace.Terminal(t.status):
		return false, head + "the task is already " + t.status + "; its work is over."
	}
	return false, head + "no cancellation was requested; work continues."
}

// FinishAt is the worker finishing t at now with result (Finish; nil is
// {"content":[]}), with its note; ok is false when t was already terminal
// and nothing changed.
func (t *Task) FinishAt(now int64, result json.RawMessage) (ok bool, note string) {
	if result == nil {
		result = json.RawMessage(`{"content":[]}`)
	}
	note = "The worker finishes task " + t.ID + ": completed."
	if t.cancelRequested {
		note = "The worker finishes task " + t.ID + " before any checkpoint saw the cancellation: it ends completed even though the cancel was acknowledged."
	}
	return t.Finish(now, result), note
}

// UnchangedNote says that t's terminal status did not change, and when a
// checkpoint had stopped its worker, since when.
func (t *Task) UnchangedNote() string {
	if at, ok := t.Stopped(); ok {
		return "Task " + t.ID + " is already cancelled and its worker stopped its work at " + strconv.FormatInt(at, 10) + " ms; terminal statuses never change."
	}
	return "Task " + t.ID + " is already " + t.status + "; terminal statuses never change."
}

// Params are the params of a tasks/* request about t: {"taskId":<id>}.
func (t *Task) Params() json.RawMessage {
	b, _ := json.Marshal(map[string]string{"taskId": t.ID}) // a string map always encodes
	return b
}
