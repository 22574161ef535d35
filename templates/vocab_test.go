package templates

import (
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestTablesAreKeyedByTheOwnersWords: the page's tables keyed by the
// project's vocabulary hold only words their owners define, so a renamed
// or removed rule or verb cannot leave a headline or a slider's help
// behind: every ruleHeadlines and scriptedRules key is a rule id package
// checks describes (checks.Rules, or message-valid, which checks/schema
// describes), and every stepHelp key is a verb scenario.Verbs admits. The
// values the domain fixes are checked on the way: the ledger's race rows
// name trace's event types, and ledgerRule is one-execution-per-key.
func TestTablesAreKeyedByTheOwnersWords(t *testing.T) {
	known := func(id trace.RuleID) bool {
		_, ok := checks.RuleByID(id)
		return ok || id == checks.MessageValid
	}
	for id := range ruleHeadlines {
		if !known(id) {
			t.Errorf("ruleHeadlines has %q, which checks does not describe", id)
		}
	}
	for id := range scriptedRules {
		if !known(id) {
			t.Errorf("scriptedRules has %q, which checks does not describe", id)
		}
	}
	if len(ruleHeadlines) < 30 || len(scriptedRules) != 4 {
		t.Errorf("%d headlines, %d scripted rules: the tables are not read whole", len(ruleHeadlines), len(scriptedRules))
	}
	for verb := range stepHelp {
		if _, ok := scenario.Verbs[verb]; !ok {
			t.Errorf("stepHelp has %q, which scenario.Verbs does not admit", verb)
		}
	}
	if stepHelp[scenario.VerbCancel] == "" || len(stepHelp) != 14 {
		t.Errorf("stepHelp holds %d verbs (cancel: %q), want the 14 whose time a slider moves", len(stepHelp), stepHelp[scenario.VerbCancel])
	}
	for _, c := range []struct{ got, want string }{
		{ledgerEffect, "effect"}, {ledgerReplay, "replay"}, {ledgerReject, "reject"}, {ledgerLock, "lock"},
		{ledgerWait, "wait"}, {ledgerCheck, "check"}, {ledgerReopen, "reopen"}, {ledgerRule, "one-execution-per-key"},
	} {
		if c.got != c.want {
			t.Errorf("ledger row word %q, want %q (SCENARIO.md's event type or rule id)", c.got, c.want)
		}
	}
}
