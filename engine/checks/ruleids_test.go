package checks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestRuleIDsAreTheStableIDs: the ids SCENARIO.md fixes (Trace: checks[],
// and "Rules these add") are the constants' values, Rules describes each
// (message-valid is described by package checks/schema, which judges it),
// and a check of each encodes and reads back as that id.
func TestRuleIDsAreTheStableIDs(t *testing.T) {
	tests := []struct {
		id   trace.RuleID
		want string
	}{
		{checks.NoMessageAfterCancel, "no-message-after-cancel"},
		{checks.HTTPCancelClosesStream, "http-cancel-closes-stream"},
		{checks.ProgressIncreases, "progress-increases"},
		{checks.NoProgressAfterFinal, "no-progress-after-final"},
		{checks.MaxTimeoutEnforced, "max-timeout-enforced"},
		{checks.LateResponseIgnored, "late-response-ignored"},
		{checks.ServerCancelOnlyForListen, "server-cancel-only-for-listen"},
		{checks.OneExecutionPerKey, "one-execution-per-key"},
		{checks.KeyReuseRejected, "key-reuse-rejected"},
		{checks.DefensiveCopy, "defensive-copy"},
		{checks.BufferWithinCapacity, "buffer-within-capacity"},
		{checks.FinalNeverDropped, "final-never-dropped"},
		{checks.NoLastEventID, "no-last-event-id"},
		{checks.TaskAckNotTerminal, "task-ack-not-terminal"},
		{checks.WorkStopsAfterCancel, "work-stops-after-cancel"},
		{checks.MaximumBoundsProgress, "maximum-bounds-progress"},
		{checks.CallOutcomeKnown, "call-outcome-known"},
		{checks.AbandonTellsServer, "abandon-tells-server"},
		{checks.CancelNotBlocked, "cancel-not-blocked"},
		{checks.BackoffGrows, "backoff-grows"},
		{checks.RefetchAfterReconnect, "refetch-after-reconnect"},
		{checks.ResponsesRoutedByReq, "responses-routed-by-request"},
		{checks.ResourcesReleased, "resources-released"},
		{checks.ResumeReplaysMissed, "resume-replays-missed"},
		{checks.SessionRecovered, "session-recovered"},
		{checks.InitializedBeforeRequests, "initialized-before-requests"},
		{checks.MessageValid, "message-valid"},
	}
	tr := &trace.Trace{Mcplab: 1, Events: []trace.Event{}}
	for _, tt := range tests {
		if string(tt.id) != tt.want {
			t.Errorf("%s: the constant is %q", tt.want, tt.id)
		}
		if _, ok := checks.RuleByID(tt.id); !ok && tt.id != checks.MessageValid {
			t.Errorf("%s: checks.Rules does not describe it", tt.want)
		}
		yes := true
		tr.Checks = append(tr.Checks, trace.Check{Rule: tt.id, OK: &yes, Detail: "holds"})
	}
	out, err := trace.Encode(tr, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		if want := `"rule": "` + tt.want + `"`; !strings.Contains(string(out), want) {
			t.Errorf("Encode writes no %s", want)
		}
	}
	var back trace.Trace
	if err := json.Unmarshal(out, &back); err != nil || len(back.Checks) != len(tests) {
		t.Fatalf("read back %d checks (%v), want %d", len(back.Checks), err, len(tests))
	}
	for i, c := range back.Checks {
		if c.Rule != tests[i].id {
			t.Errorf("check %d read back as %q, want %q", i, c.Rule, tests[i].id)
		}
	}
}
