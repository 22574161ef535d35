package checks_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// imported marks tr as a transcript recorded by observer.
func imported(tr *trace.Trace, observer string) *trace.Trace {
	tr.Source = &trace.Source{Format: "jsonl", Observer: observer, Transport: trace.TransportHTTP}
	return tr
}

// TestDecisionRulesFromEvents: the rules of the client's decisions read
// only events (and the summaries an import may lack), so they judge a
// hand-written or imported trace, and say undecided where a one-sided log
// cannot tell.
func TestDecisionRulesFromEvents(t *testing.T) {
	http := `"transport":"streamable-http"`
	tests := []struct {
		name string
		rule trace.RuleID
		tr   *trace.Trace
		want string
	}{
		{"progress reset an idle clock with no maximum", checks.MaximumBoundsProgress,
			build(mustScenario(t, ""), request(0, 500, 0, nil), send(0, client, "7", req7), act(100, client, trace.TypeActivity, "7")), "false"},
		{"an import does not record the client's timeouts", checks.MaximumBoundsProgress,
			imported(build(nil, nil, send(0, client, "7", req7), act(100, client, trace.TypeActivity, "7")), trace.ObserverClient), "null"},
		{"a call cancelled and still awaited at the end of a simulation", checks.CallOutcomeKnown,
			build(mustScenario(t, ""), nil, send(0, client, "7", req7), send(300, client, "7", cancel7), act(300, client, trace.TypeAwait, "7")), "false"},
		{"the same at the end of an imported log, which may simply stop", checks.CallOutcomeKnown,
			imported(build(nil, nil, send(0, client, "7", req7), send(300, client, "7", cancel7), act(300, client, trace.TypeAwait, "7")), trace.ObserverClient), "null"},
		{"a call whose answer arrives after the client kept waiting ends in its result", checks.CallOutcomeKnown,
			build(mustScenario(t, ""), nil, send(0, client, "7", req7), send(300, client, "7", cancel7), act(300, client, trace.TypeAwait, "7"), act(320, client, trace.TypeAccept, "7")), "true"},
		{"2025: a call stream closed by a proxy and never resumed is lost", checks.CallOutcomeKnown,
			build(mustScenario(t, `"protocol":"2025-11-25",`+http), nil, send(0, client, "7", req7), closeStream(200, trace.ActorProxy, "7")), "false"},
		{"2026: a closed stream ends the call, and the client knows it failed", checks.CallOutcomeKnown,
			build(mustScenario(t, http), nil, send(0, client, "7", req7), closeStream(200, trace.ActorNetwork, "7")), "true"},
		{"a silent abandonment", checks.AbandonTellsServer,
			build(mustScenario(t, ""), nil, send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), act(500, client, trace.TypeAbandon, "7")), "false"},
		{"a timeout followed by its cancellation", checks.AbandonTellsServer,
			build(mustScenario(t, ""), nil, send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), send(500, client, "7", cancel7)), "true"},
		{"a close held until the stream spoke", checks.CancelNotBlocked,
			build(mustScenario(t, http), nil, send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), act(500, client, trace.TypeBlocked, "7"), closeStream(2010, client, "7")), "false"},
		{"a close at the timeout", checks.CancelNotBlocked,
			build(mustScenario(t, http), nil, send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), closeStream(500, client, "7")), "true"},
		{"stdio: a cancellation is a message, never held by a stream", checks.CancelNotBlocked,
			build(mustScenario(t, ""), nil, send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), send(500, client, "7", cancel7)), absent},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, tt.rule); got != tt.want {
				t.Errorf("%s: ok=%s, want %s", tt.rule, got, tt.want)
			}
		})
	}
}
