package checks

import "strings"

// RuleEntry is one rule of the rules reference (package rulebook builds
// them) and the built-ins that exercise it,
// each list in the order the built-ins were added (examples.All: by
// name), but FailedBy, most focused first (rulebook.Book.Entries).
type RuleEntry struct {
	Rule
	// PassedBy, FailedBy and UndecidedBy name the built-in scenarios
	// whose run reports the rule with ok true, false and null.
	PassedBy, FailedBy, UndecidedBy []string
}

// BrokenScenario reports whether the built-in scenario name shows a failure on
// purpose: its name starts with "broken-" (the lab's convention for the
// known-broken twin of a lesson).
func BrokenScenario(name string) bool { return strings.HasPrefix(name, "broken-") }

// Passer is the first correct built-in (not BrokenScenario) that passes the rule,
// "" when none does.
func (e RuleEntry) Passer() string {
	for _, n := range e.PassedBy {
		if !BrokenScenario(n) {
			return n
		}
	}
	return ""
}

// Failer is the first broken built-in that fails the rule, else the first
// built-in that fails it, "" when none does.
func (e RuleEntry) Failer() string {
	for _, n := range e.FailedBy {
		if BrokenScenario(n) {
			return n
		}
	}
	if len(e.FailedBy) > 0 {
		return e.FailedBy[0]
	}
	return ""
}

// UndecidedMeaning is what an undecided verdict means for e, in a
// sentence: its own Undecided, or that the trace always decides it.
func (e RuleEntry) UndecidedMeaning() string {
	if e.Rule.Undecided != "" {
		return e.Rule.Undecided
	}
	return "Never undecided: once its subject occurs in a trace, the trace decides it."
}
