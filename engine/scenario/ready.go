package scenario

import "fmt"

// Unready says why a runner skips st, steps[i], or "" when it can run it.
// Decode guarantees every id a step names was sent by an earlier step at
// or before its time, and refuses the ledger verbs (race, reopen-ledger,
// mutate-result) without a ledger; this guard keeps a future gap there
// from becoming a panic. sent reports whether request id was sent;
// hasLedger whether the run has the scenario's ledger open.
func (st Step) Unready(i int, sent func(id ID) bool, hasLedger bool) string {
	for _, id := range []*ID{st.ID, st.Of, st.Listen} {
		if id != nil && st.Do != VerbCall && st.Do != VerbListen && !(st.Do == VerbRetry && id == st.ID) && !sent(*id) {
			return fmt.Sprintf("steps[%d]: request %s has not been sent; step skipped.", i, id)
		}
	}
	if !hasLedger && (st.Do == VerbRace || st.Do == VerbReopenLedger || st.Do == VerbMutateResult) {
		return fmt.Sprintf("steps[%d]: %s needs the scenario's ledger, and it has none; step skipped.", i, st.Do)
	}
	return ""
}
