package tasks_test

import (
	"encoding/json"
	"testing"

	"github.com/mcplab/mcplab/engine/tasks"
	"github.com/mcplab/mcplab/engine/trace"
)

// DOMAIN.md §6: under 2025-11-25 tasks/cancel cancels a working task before
// the reply (the reply is the Task) and fails with -32602 for a terminal
// one; under 2026-07-28 it only acknowledges and the task stays working.
func TestServeCancelByProtocol(t *testing.T) {
	a := tasks.New("t-1", 0)
	r := a.Serve(10, "tasks/cancel", true, 500)
	if r.Code != 0 || tasks.StatusOf(r.Result) != trace.TaskCancelled || a.Status() != trace.TaskCancelled {
		t.Fatalf("2025 cancel of a working task: %+v, task %s; want the Task, cancelled", r, a.Status())
	}
	if r := a.Serve(20, "tasks/cancel", true, 500); r.Code != -32602 || r.Result != nil {
		t.Fatalf("2025 cancel of a terminal task: %+v; want -32602", r)
	}
	b := tasks.New("t-2", 0)
	r = b.Serve(10, "tasks/cancel", false, 500)
	if string(r.Result) != `{"resultType":"complete"}` || b.Status() != trace.TaskWorking || !b.CancelRequested() {
		t.Fatalf("2026 cancel: %s, task %s (flag %v); want the acknowledgement, still working, flag set", r.Result, b.Status(), b.CancelRequested())
	}
	if got := tasks.StatusOf(b.Serve(11, "tasks/get", false, 500).Result); got != trace.TaskWorking {
		t.Fatalf("tasks/get after the acknowledgement: %q; want working", got)
	}
	if ok, _ := b.FinishAt(30, nil); !ok || b.Status() != trace.TaskCompleted {
		t.Fatalf("a finish before any checkpoint: ok %v, %s; want completed", ok, b.Status())
	}
	if cancelled, _ := b.CheckpointAt(40); cancelled {
		t.Fatal("a checkpoint after completion cancelled the task; terminal statuses never change")
	}
}

// Each revision's task wire (the 2025-11-25 schema's CreateTaskResult,
// Task and CallToolRequestParams; the 2026-07-28 tasks extension): the
// handle, a tasks/get answer of a completed task, and the tools/call that
// asks for the task.
func TestTaskWireByRevision(t *testing.T) {
	done := tasks.New("t-9", 0)
	done.Finish(40, json.RawMessage(`{"content":[]}`))
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"render","arguments":{}}}`
	cases := []struct {
		rule string
		got  func() string
		want string
	}{
		{"2026-07-28: the handle is resultType task with the Task, whose interval is pollIntervalMs",
			func() string { w := tasks.New("t-9", 0); return string(w.CreateResult(250, false)) },
			`{"resultType":"task","task":{"taskId":"t-9","status":"working","createdAt":"1970-01-01T00:00:00.000Z","lastUpdatedAt":"1970-01-01T00:00:00.000Z","ttl":null,"pollIntervalMs":250}}`},
		{"2025-11-25: CreateTaskResult has no resultType, and the Task names its interval pollInterval",
			func() string { w := tasks.New("t-9", 0); return string(w.CreateResult(250, true)) },
			`{"task":{"taskId":"t-9","status":"working","createdAt":"1970-01-01T00:00:00.000Z","lastUpdatedAt":"1970-01-01T00:00:00.000Z","ttl":null,"pollInterval":250}}`},
		{"2026-07-28: a completed Task carries its result",
			func() string { return string(done.Serve(50, "tasks/get", false, 250).Result) },
			`{"taskId":"t-9","status":"completed","createdAt":"1970-01-01T00:00:00.000Z","lastUpdatedAt":"1970-01-01T00:00:00.040Z","ttl":null,"pollIntervalMs":250,"result":{"content":[]}}`},
		{"2025-11-25: the Task has no result member (tasks/result fetches it)",
			func() string { return string(done.Serve(50, "tasks/get", true, 250).Result) },
			`{"taskId":"t-9","status":"completed","createdAt":"1970-01-01T00:00:00.000Z","lastUpdatedAt":"1970-01-01T00:00:00.040Z","ttl":null,"pollInterval":250}`},
		{"2025-11-25: a task-augmented tools/call names params.task",
			func() string { return string(tasks.Call(json.RawMessage(call), "t-9", true)) },
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"render","arguments":{},"task":{}}}`},
		{"2026-07-28: the server decides on a task, the call names none",
			func() string { return string(tasks.Call(json.RawMessage(call), "t-9", false)) }, call},
		{"2025-11-25: a call without a task is not augmented",
			func() string { return string(tasks.Call(json.RawMessage(call), "", true)) }, call},
		{"2025-11-25: the handle's note names the task member, not resultType",
			func() string { return tasks.HandleNote("1", true) }, `The server answers request 1 with a task handle (CreateTaskResult: the Task in its task member).`},
		{"2026-07-28: the handle's note names resultType task",
			func() string { return tasks.HandleNote("1", false) }, `The server answers request 1 with a task handle (resultType "task").`},
		{"2025-11-25: a poll's note names the Task's pollInterval",
			func() string { return tasks.PollNote(true) }, `The client polls the task at its pollInterval.`},
	}
	for _, c := range cases {
		if got := c.got(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.rule, got, c.want)
		}
	}
}
