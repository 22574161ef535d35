package scenario

import "testing"

// TestUnready proves the runner's guard: a step naming a request never sent
// is skipped with its index and id, a ledger verb without a ledger is
// skipped, and a retry may name its own new id.
func TestUnready(t *testing.T) {
	id, of := NewStringID("a"), NewStringID("b")
	none := func(ID) bool { return false }
	if got := (Step{Do: VerbCancel, ID: &id}).Unready(3, none, true); got != `steps[3]: request "a" has not been sent; step skipped.` {
		t.Errorf("cancel of an unsent id: %q", got)
	}
	if got := (Step{Do: VerbRetry, ID: &id, Of: &of}).Unready(0, func(x ID) bool { return x.Raw() == of.Raw() }, true); got != "" {
		t.Errorf("retry under a new id: %q, want it to run", got)
	}
	if got := (Step{Do: VerbRace}).Unready(1, none, false); got != "steps[1]: race needs the scenario's ledger, and it has none; step skipped." {
		t.Errorf("race without a ledger: %q", got)
	}
}
