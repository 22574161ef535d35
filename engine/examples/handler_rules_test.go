package examples_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestHandlerRulesOnTheEngine proves, for every server switch of the
// handlers (SCENARIO.md, "Handlers: the server decides when work ends";
// DOMAIN.md §11 cancel-swallowed, resource-leaked-on-cancel,
// notifications-held, respond-after-cancel, cross-wired-response), that
// the rule it breaks
// passes on the correct built-in, fails on its broken- twin (the one
// switch turned), and does not flag a legitimate case: the ordinary race,
// in which the cancellation reaches the server after the handler finished.
func TestHandlerRulesOnTheEngine(t *testing.T) {
	const race = `{"mcplab":1,"latencyMs":{"up":10,"down":10},"ledger":{},"server":{"handlers":{"charge_account":{"workMs":100,"checkpointEveryMs":30}}},"steps":[{"at":0,"do":"call","id":5,"name":"charge_account","arguments":{"account":"a","cents":5,"idempotencyKey":"k-5"}},{"at":105,"do":"cancel","id":5}]}`
	tests := []struct {
		rule                  trace.RuleID
		correct, broken       string
		legit, legitWant, why string
	}{
		{"work-stops-after-cancel", "handler-cancel-not-swallowed", "broken-handler-swallows-cancel",
			race, absent, "the race: the charge committed at 110 ms, the cancellation arrived at 115 ms and was ignored, so no handler ran on after a cancellation"},
		{"work-stops-after-cancel", "handler-checkpoints-often", "broken-handler-swallows-cancel",
			"handler-checks-only-at-the-end", "true", "a loop without an await wastes 620 ms but stops at its one checkpoint, the end, before any side effect: waste, not a broken rule"},
		{"resources-released", "handler-releases-lock", "broken-handler-keeps-lock",
			`{"mcplab":1,"latencyMs":{"up":10,"down":10},"server":{"handlers":{"export_report":{"workMs":300,"holds":"db-lock"}}},"steps":[{"at":0,"do":"call","id":1,"name":"export_report"},{"at":20,"do":"call","id":2,"name":"export_report"},{"at":100,"do":"cancel","id":2}]}`, "true",
			"a call cancelled while it waits for the lock never held it: only the holder releases, at its end"},
		{"notifications-not-held", "handler-progress-streams", "broken-hold-notifications",
			`{"mcplab":1,"latencyMs":{"up":10,"down":10},"server":{"handlers":{"crunch":{"workMs":600,"progressEveryMs":100}}},"steps":[{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p-7"},{"at":250,"do":"cancel","id":7}]}`, "true",
			"progress stops with the cancellation: the handler made none after it, nothing was held"},
		{"responses-routed-by-request", "responses-routed-by-request", "broken-route-by-id-only",
			`{"mcplab":1,"transport":"streamable-http","latencyMs":{"up":10,"down":10},"server":{"handlers":{"lookup":{"workMs":50}}},"steps":[{"at":0,"do":"call","id":1,"name":"lookup"},{"at":100,"do":"send","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup"}}}]}`, absent,
			"an id used again after its request was answered is no duplicate: nothing is in flight under it"},
		{"no-message-after-cancel", "handler-cancel-propagates", "broken-handler-answers-after-cancel",
			race, absent, "the race: the response left before the cancellation arrived, so the server never accepted it"},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.correct, func(t *testing.T) {
			if got := ruleVerdict(t, examplestest.Get(t, tt.correct), tt.rule); got != "true" {
				t.Errorf("%s: the correct built-in %s gives ok=%s, want true", tt.rule, tt.correct, got)
			}
			if got := ruleVerdict(t, examplestest.Get(t, tt.broken), tt.rule); got != "false" {
				t.Errorf("%s: the broken twin %s gives ok=%s, want false", tt.rule, tt.broken, got)
			}
			legit := examples.Example{Name: "the legitimate case", JSON: []byte(tt.legit)}
			if tt.legit[0] != '{' {
				legit = examplestest.Get(t, tt.legit)
			}
			if got := ruleVerdict(t, legit, tt.rule); got != tt.legitWant {
				t.Errorf("%s: legitimate case (%s) gives ok=%s, want %s", tt.rule, tt.why, got, tt.legitWant)
			}
		})
	}
}

// TestHandlerWastedWork pins requests[].wastedWorkMs, the number the
// checkpoint lessons exist to show (DOMAIN.md §1: the work between a
// cancellation's arrival and the checkpoint that observes it): 0 for a
// handler that awaits, the time to its next checkpoint for one that
// checks every 50 or 100 ms, the rest of the work for a loop without an
// await and for a handler that swallows the cancellation.
func TestHandlerWastedWork(t *testing.T) {
	for name, want := range map[string]int64{
		"handler-cancel-propagates":      0,
		"handler-cancel-not-swallowed":   50,
		"broken-handler-swallows-cancel": 550,
		"handler-checkpoints-often":      20,
		"handler-checks-only-at-the-end": 620,
	} {
		tr := examplestest.Run(t, name)
		if got := tr.Requests[0].WastedWorkMs; got != want {
			t.Errorf("%s: wastedWorkMs %d, want %d", name, got, want)
		}
	}
	if tr := examplestest.Run(t, "broken-handler-swallows-cancel"); tr.Ledger.Executions != 1 {
		t.Errorf("broken-handler-swallows-cancel: %d executions, want 1: the swallowed cancellation lets the charge commit", tr.Ledger.Executions)
	}
	if tr := examplestest.Run(t, "handler-cancel-not-swallowed"); tr.Ledger.Executions != 0 {
		t.Errorf("handler-cancel-not-swallowed: %d executions, want 0: the checkpoint comes before the side effect", tr.Ledger.Executions)
	}
}
