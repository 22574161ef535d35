package coordinator_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/scenario"
)

// TestRetryTokenAndDeadlines proves what a retry takes over (DOMAIN.md
// §2–3, §5): a progress token of its own, "<token>-<id>", none when the
// request had none; the retried request's clocks unless the step sets its
// own; and no clock at all under client.policy.timeouts "none".
func TestRetryTokenAndDeadlines(t *testing.T) {
	tok := scenario.NewStringID("p")
	if got := coordinator.RetryToken(&tok, scenario.NewStringID("8")); got == nil || got.Raw() != `"p-8"` {
		t.Errorf("RetryToken: %v, want \"p-8\"", got)
	}
	if got := coordinator.RetryToken(nil, scenario.NewStringID("8")); got != nil {
		t.Errorf("RetryToken of no token: %v, want nil", got)
	}
	c := &scenario.Client{IdleTimeoutMs: 500, MaxTimeoutMs: 2000}
	orig := coordinator.NewDeadlines(0, 300, 900, false)
	stepIdle := int64(100)
	for _, tc := range []struct {
		name      string
		inherit   *coordinator.Deadlines
		st        scenario.Step
		none      bool
		idle, max int64
	}{
		{"new call: the client's", nil, scenario.Step{}, false, 500, 2000},
		{"retry: the retried request's", &orig, scenario.Step{}, false, 300, 900},
		{"the step's own idle wins", &orig, scenario.Step{IdleTimeoutMs: &stepIdle}, false, 100, 900},
		{"timeouts none", nil, scenario.Step{}, true, 0, 0},
	} {
		cc := *c
		if tc.none {
			cc.Policy.Timeouts = scenario.TimeoutsNone
		}
		d := coordinator.CallDeadlines(10, &cc, tc.inherit, tc.st)
		if d.IdleMs != tc.idle || d.MaxMs != tc.max {
			t.Errorf("%s: idle %d, max %d; want %d, %d", tc.name, d.IdleMs, d.MaxMs, tc.idle, tc.max)
		}
	}
}
