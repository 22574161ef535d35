package coordinator_test

import (
	"slices"
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
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

// TestAlarm proves the deadline timer (DOMAIN.md §2): it rings at the
// idle deadline, activity re-arming it moves the ring, and a request that
// ended rings no more.
func TestAlarm(t *testing.T) {
	var q sim.Queue
	c := coordinator.NewClient(coordinator.NewDeadlines(0, 500, 0, false), true)
	var a coordinator.Alarm
	var rang []int64
	a.Set(&q, &c, func() { rang = append(rang, q.Now()) })
	a.Arm()
	q.Schedule(300, func() { c.Deadlines.Activity(q.Now()); a.Arm() }) // progress at 300 ms
	if err := q.Run(100); err != nil {
		t.Fatal(err)
	}
	if want := []int64{800}; !slices.Equal(rang, want) {
		t.Errorf("rang at %v, want %v (500 ms after the activity at 300)", rang, want)
	}
	c.End(900, "result", "")
	a.Arm()
	var never coordinator.Alarm
	never.Arm() // never Set: a no-op, not a panic
	never.Stop()
	if err := q.Run(100); err != nil || len(rang) != 1 {
		t.Errorf("an ended request's alarm rang again: %v (err %v)", rang, err)
	}
}
