package checks_test

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestNoUnsafeRetry proves no-unsafe-retry (DOMAIN.md §5: an unsafe
// mutation is never retried automatically; §12 statement 6: a new
// JSON-RPC id alone runs the mutation again). An unsafe retry fails
// however many effects ran, and its detail tells what the ledger shows: a
// double charge only when the effect ran again, otherwise that no attempt
// (or only one) committed this time. A keyed retry passes.
func TestNoUnsafeRetry(t *testing.T) {
	retry := func(class string, executions int) *trace.Trace {
		tr := build(nil, []trace.Request{
			{ID: *id(`7`), Method: "tools/call", State: trace.StateCancelled, RetryClass: class},
			{ID: *id(`"7-r1"`), Method: "tools/call", State: trace.StateCompleted, RetryClass: class, RetryOf: id(`7`)},
		}, act(0, client, trace.TypeSend, "7"))
		tr.Ledger.Executions = executions
		return tr
	}
	tests := []struct {
		name, want string
		tr         *trace.Trace
		says       string // a phrase the detail holds
		never      string // a phrase it must not hold
	}{
		{"an unsafe retry that charged twice", "false", retry(trace.RetryUnsafe, 2), "the effect ran again: the ledger counts 2 executions", "no double charge"},
		{"an unsafe retry where no attempt committed is still unsafe", "false", retry(trace.RetryUnsafe, 0), "no attempt committed its side effect, so no double charge happened this time", "ran again"},
		{"an unsafe retry where one attempt committed", "false", retry(trace.RetryUnsafe, 1), "only one attempt committed its side effect (1 execution)", "ran again"},
		{"a retry of a safe read", "true", retry(trace.RetrySafe, 1), "", "ran again"},
	}
	for _, tt := range tests {
		t.Run(string(checks.NoUnsafeRetry)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, checks.NoUnsafeRetry); got != tt.want {
				t.Fatalf("%s: ok=%s, want %s", checks.NoUnsafeRetry, got, tt.want)
			}
			for _, c := range checks.Evaluate(tt.tr) {
				if c.Rule != checks.NoUnsafeRetry {
					continue
				}
				if !strings.Contains(c.Detail, tt.says) {
					t.Errorf("detail %q does not say %q", c.Detail, tt.says)
				}
				if strings.Contains(c.Detail, tt.never) {
					t.Errorf("detail %q says %q, which is false here", c.Detail, tt.never)
				}
			}
		})
	}
}
