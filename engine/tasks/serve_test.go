package tasks_test

import (
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

// CreateTaskResult wraps the Task under resultType "task".
func TestCreateResultShape(t *testing.T) {
	task := tasks.New("t-9", 0)
	got := string(task.CreateResult(250))
	if want := `{"resultType":"task","task":{"taskId":"t-9","status":"working","createdAt":"1970-01-01T00:00:00.000Z","lastUpdatedAt":"1970-01-01T00:00:00.000Z","ttl":null,"pollIntervalMs":250}}`; got != want {
		t.Fatalf("CreateResult = %s; want %s", got, want)
	}
}
