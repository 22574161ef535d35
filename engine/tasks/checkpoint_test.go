package tasks_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/tasks"
)

// DOMAIN.md §6: a worker checkpoint that finds its task cancelled stops
// the work, in both revisions. Under 2026-07-28 the checkpoint that
// observes the flag cancels the task and stops there; under 2025-11-25
// tasks/cancel has already cancelled the task, and the worker's next
// checkpoint is where the work stops. A later checkpoint finds the work
// already stopped, and a late finish says when it stopped.
func TestCheckpointStopsTheWorkOfACancelledTask(t *testing.T) {
	for _, tc := range []struct {
		era     string
		is2025  bool
		stopAt  int64
		first   string // note of the checkpoint at 600 ms
		second  string // note of the checkpoint at 900 ms
		finish  string // note of the finish at 1200 ms
		cancels bool   // whether the first checkpoint cancels the task
	}{
		{"2026-07-28", false, 600,
			"A worker checkpoint observes the cancellation flag: task t-1 becomes cancelled.",
			"Worker checkpoint for task t-1: the worker already stopped its work at 600 ms, when a checkpoint found the task cancelled; nothing runs.",
			"Task t-1 is already cancelled and its worker stopped its work at 600 ms; terminal statuses never change.", true},
		{"2025-11-25", true, 600,
			"Worker checkpoint for task t-1: the task is already cancelled, so the worker stops its work.",
			"Worker checkpoint for task t-1: the worker already stopped its work at 600 ms, when a checkpoint found the task cancelled; nothing runs.",
			"Task t-1 is already cancelled and its worker stopped its work at 600 ms; terminal statuses never change.", false},
	} {
		t.Run(tc.era, func(t *testing.T) {
			task := tasks.New("t-1", 0)
			task.Serve(410, "tasks/cancel", tc.is2025, 300)
			if at, ok := task.Stopped(); ok {
				t.Fatalf("the work stopped at %d ms before any checkpoint; a worker learns of the cancellation only at a checkpoint", at)
			}
			if cancelled, note := task.CheckpointAt(600); cancelled != tc.cancels || note != tc.first {
				t.Errorf("checkpoint at 600: cancelled %v, %q; want %v, %q", cancelled, note, tc.cancels, tc.first)
			}
			if at, ok := task.Stopped(); !ok || at != tc.stopAt {
				t.Errorf("Stopped() = %d, %v; want %d, true", at, ok, tc.stopAt)
			}
			if _, note := task.CheckpointAt(900); note != tc.second {
				t.Errorf("checkpoint at 900: %q; want %q", note, tc.second)
			}
			if ok, _ := task.FinishAt(1200, nil); ok {
				t.Error("a finish after the task was cancelled completed it; terminal statuses never change")
			}
			if note := task.UnchangedNote(); note != tc.finish {
				t.Errorf("finish at 1200: %q; want %q", note, tc.finish)
			}
		})
	}
}
