// Package rulebook is the rules reference: every rule a trace's checks
// can name (checks.Rules, and schema.Description for message-valid), each
// with the built-in scenarios that pass it, fail it and leave it
// undecided. Those lists are found by running the built-ins and reading
// their checks, never written by hand, so they stay true as the rules and
// the built-ins change.
//
// The site renders a page per rule (/rules/<id>/) and an index (/rules/)
// from Entries; Markdown writes docs/rules.md from the same entries, and a
// test keeps that file up to date. The package is pure: deterministic, no
// clock, no I/O but the ledger store the caller's engine.Options opens.
package rulebook

import (
	"fmt"
	"sort"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rules is every rule of the reference in order: checks.Rules, then
// message-valid (schema.Description).
func Rules() []checks.Rule {
	return append(append([]checks.Rule{}, checks.Rules...), schema.Description)
}

// Book collects the verdicts of built-in runs, rule by rule.
type Book struct {
	entries []checks.RuleEntry
	index   map[trace.RuleID]int
	// failing counts the rules each built-in fails.
	failing map[string]int
}

// New returns a Book holding every rule of Rules and no verdict yet.
func New() *Book {
	b := &Book{index: map[trace.RuleID]int{}, failing: map[string]int{}}
	for i, r := range Rules() {
		b.entries = append(b.entries, checks.RuleEntry{Rule: r})
		b.index[r.ID] = i
	}
	return b
}

// Add records the checks of tr, the run of the built-in called name, and
// judges message-valid on it (schema.Check) when tr's checks do not hold
// it yet, as the native command does. A rule the reference does not
// describe is an error: a rule without its description is a bug.
func (b *Book) Add(name string, tr *trace.Trace) error {
	cs := tr.Checks
	has := false
	for _, c := range cs {
		has = has || c.Rule == schema.Rule
	}
	if !has {
		cs = append(append([]trace.Check{}, cs...), schema.Check(tr))
	}
	for _, c := range cs {
		i, ok := b.index[c.Rule]
		if !ok {
			return fmt.Errorf("rulebook: built-in %s reports rule %q, which checks.Rules does not describe", name, c.Rule)
		}
		e := &b.entries[i]
		switch {
		case c.OK == nil:
			e.UndecidedBy = appendOnce(e.UndecidedBy, name)
		case *c.OK:
			e.PassedBy = appendOnce(e.PassedBy, name)
		default:
			e.FailedBy = appendOnce(e.FailedBy, name)
			b.failing[name]++
		}
	}
	return nil
}

func appendOnce(xs []string, x string) []string {
	if len(xs) > 0 && xs[len(xs)-1] == x {
		return xs
	}
	return append(xs, x)
}

// Entries returns the reference, in Rules order. Each FailedBy lists the
// built-ins that fail fewest rules first (ties by name), so the broken
// built-in a page names for a rule is the one most about it.
func (b *Book) Entries() []checks.RuleEntry {
	out := append([]checks.RuleEntry{}, b.entries...)
	for i := range out {
		f := append([]string{}, out[i].FailedBy...)
		sort.SliceStable(f, func(x, y int) bool { return b.failing[f[x]] < b.failing[f[y]] })
		out[i].FailedBy = f
	}
	return out
}

// Build runs every built-in scenario (examples.All, through entry.Run with
// opts, which must open a ledger for the ledger lessons) and returns the
// reference. The error names the built-in that failed to run.
func Build(opts engine.Options) ([]checks.RuleEntry, error) {
	b := New()
	for _, ex := range examples.All() {
		res, err := entry.Run(ex.JSON, entry.Document{Options: opts})
		if err != nil {
			return nil, fmt.Errorf("rulebook: built-in %s: %w", ex.Name, err)
		}
		if err := b.Add(ex.Name, res.Trace); err != nil {
			return nil, err
		}
	}
	return b.Entries(), nil
}
