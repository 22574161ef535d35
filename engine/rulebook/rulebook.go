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
	"strings"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/trace"
)

// Entry is one rule of the reference and the built-ins that exercise it,
// each list in the order the built-ins were added (examples.All: by
// name), but FailedBy, most focused first (Book.Entries).
type Entry struct {
	checks.Rule
	// PassedBy, FailedBy and UndecidedBy name the built-in scenarios
	// whose run reports the rule with ok true, false and null.
	PassedBy, FailedBy, UndecidedBy []string
}

// Rules is every rule of the reference in order: checks.Rules, then
// message-valid (schema.Description).
func Rules() []checks.Rule {
	return append(append([]checks.Rule{}, checks.Rules...), schema.Description)
}

// Broken reports whether the built-in scenario name shows a failure on
// purpose: its name starts with "broken-" (the lab's convention for the
// known-broken twin of a lesson).
func Broken(name string) bool { return strings.HasPrefix(name, "broken-") }

// Passer is the first correct built-in (not Broken) that passes the rule,
// "" when none does.
func (e Entry) Passer() string {
	for _, n := range e.PassedBy {
		if !Broken(n) {
			return n
		}
	}
	return ""
}

// Failer is the first broken built-in that fails the rule, else the first
// built-in that fails it, "" when none does.
func (e Entry) Failer() string {
	for _, n := range e.FailedBy {
		if Broken(n) {
			return n
		}
	}
	if len(e.FailedBy) > 0 {
		return e.FailedBy[0]
	}
	return ""
}

// Book collects the verdicts of built-in runs, rule by rule.
type Book struct {
	entries []Entry
	index   map[string]int
	// failing counts the rules each built-in fails.
	failing map[string]int
}

// New returns a Book holding every rule of Rules and no verdict yet.
func New() *Book {
	b := &Book{index: map[string]int{}, failing: map[string]int{}}
	for i, r := range Rules() {
		b.entries = append(b.entries, Entry{Rule: r})
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
func (b *Book) Entries() []Entry {
	out := append([]Entry{}, b.entries...)
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
func Build(opts engine.Options) ([]Entry, error) {
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

// UndecidedMeaning is what an undecided verdict means for e, in a
// sentence: its own Undecided, or that the trace always decides it.
func (e Entry) UndecidedMeaning() string {
	if e.Rule.Undecided != "" {
		return e.Rule.Undecided
	}
	return "Never undecided: once its subject occurs in a trace, the trace decides it."
}
