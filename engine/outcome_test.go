package engine_test

import (
	"reflect"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestRunnerDecidesOutcomes: the runner's summary carries each request's
// outcome and the intervals of its states (DOMAIN.md §1, both orders of
// the race), so no view decides them: a cancel before the completion
// wins; a cancel after the answer arrived sends nothing, and completion
// wins; a completion with no cancel is completed.
func TestRunnerDecidesOutcomes(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   trace.Outcome
		client []trace.StateChange
		server []trace.StateChange
	}{
		{"the cancel reaches the server first: cancellation wins",
			sc(stdio, call7, `{"at":300,"do":"cancel","id":7}`, `{"at":320,"do":"complete","id":7}`),
			trace.OutcomeCancellationWins,
			[]trace.StateChange{{At: 0, State: trace.ClientWaiting}, {At: 300, State: trace.ClientCancelled}},
			[]trace.StateChange{{At: 10, State: trace.StateInProgress}, {At: 310, State: trace.StateCancelled}}},
		{"the cancel comes after the answer: completion wins, nothing sent",
			sc(stdio, call7, `{"at":300,"do":"complete","id":7}`, `{"at":420,"do":"cancel","id":7}`),
			trace.OutcomeCompletionWins,
			[]trace.StateChange{{At: 0, State: trace.ClientWaiting}, {At: 310, State: trace.ClientResult}},
			[]trace.StateChange{{At: 10, State: trace.StateInProgress}, {At: 300, State: trace.StateCompleted}}},
		{"no cancel: completed",
			sc(stdio, call7, `{"at":300,"do":"complete","id":7}`),
			trace.OutcomeCompleted,
			[]trace.StateChange{{At: 0, State: trace.ClientWaiting}, {At: 310, State: trace.ClientResult}},
			[]trace.StateChange{{At: 10, State: trace.StateInProgress}, {At: 300, State: trace.StateCompleted}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := run(t, tt.in)
			r := tr.Requests[0]
			if r.Outcome != tt.want {
				t.Errorf("outcome %q, want %q", r.Outcome, tt.want)
			}
			if !reflect.DeepEqual(r.ClientStates, tt.client) {
				t.Errorf("clientStates %v, want %v", r.ClientStates, tt.client)
			}
			if !reflect.DeepEqual(r.ServerStates, tt.server) {
				t.Errorf("serverStates %v, want %v", r.ServerStates, tt.server)
			}
		})
	}
}
