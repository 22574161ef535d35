package review_test

import (
	"errors"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/review"
)

// TestEveryBuiltInDecidesEveryCard reviews every built-in scenario with a
// call: each failure card is at-risk, mitigated or not-applicable (never
// not-evaluated), says why, and links a derived run of the review, so the
// reader can open the run the card rests on (DOMAIN.md §11; the statuses
// of review.Card).
func TestEveryBuiltInDecidesEveryCard(t *testing.T) {
	reviewed := 0
	for _, ex := range examples.All() {
		rep, err := review.Review(ex.JSON, opts)
		if errors.Is(err, review.ErrNoCall) {
			continue
		}
		if err != nil {
			t.Errorf("%s: review: %v", ex.Name, err)
			continue
		}
		reviewed++
		runs := map[string]string{}
		for _, run := range rep.Runs {
			runs[run.ID] = run.Link
		}
		for _, c := range rep.FailureCards {
			switch c.Status {
			case review.AtRisk, review.Mitigated, review.NotApplicable:
			default:
				t.Errorf("%s: card %s is %s: %s", ex.Name, c.ID, c.Status, c.Why)
			}
			if c.Why == "" {
				t.Errorf("%s: card %s (%s) says no why", ex.Name, c.ID, c.Status)
			}
			if c.Link == "" || runs[c.Run] != c.Link {
				t.Errorf("%s: card %s links %q (run %q), not a derived run of the review", ex.Name, c.ID, c.Link, c.Run)
			}
		}
	}
	if reviewed < 10 {
		t.Errorf("reviewed %d built-ins with a call, want every one (at least 10)", reviewed)
	}
}
