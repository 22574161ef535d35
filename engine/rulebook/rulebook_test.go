package rulebook_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/rulebook"
	"github.com/mcplab/mcplab/engine/trace"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// docsFile is the generated reference in the repository.
var docsFile = filepath.Join("..", "..", "docs", "rules.md")

func build(t *testing.T) []checks.RuleEntry {
	t.Helper()
	entries, err := rulebook.Build(engine.Options{OpenLedger: sqlite.NewMemory})
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestDocsAreUpToDate: docs/rules.md is exactly what the rules'
// descriptions and the built-ins' runs give today (-update rewrites it).
func TestDocsAreUpToDate(t *testing.T) {
	got := []byte(rulebook.Markdown(build(t)))
	if *update {
		if err := os.MkdirAll(filepath.Dir(docsFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(docsFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(docsFile)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("docs/rules.md is out of date (%v): run go test ./engine/rulebook -update", err)
	}
}

// TestBuiltinsExerciseTheRules: the reference holds every rule once, in
// checks.Rules' order then message-valid; the correct built-in it names
// for a rule passes it and is not broken, the broken one fails it; the
// flagship lessons land where DOMAIN.md puts them (the broken
// respond-after-cancel twin fails no-message-after-cancel, the first
// lesson passes it), and the broken built-in named for a rule is one
// that fails fewest rules.
func TestBuiltinsExerciseTheRules(t *testing.T) {
	entries := build(t)
	if len(entries) != len(checks.Rules)+1 || entries[len(entries)-1].ID != "message-valid" {
		t.Fatalf("%d entries, want %d rules and message-valid last", len(entries), len(checks.Rules)+1)
	}
	exercised := 0
	for _, e := range entries {
		if p := e.Passer(); p != "" && (checks.BrokenScenario(p) || !contains(e.PassedBy, p)) {
			t.Errorf("%s: passer %s is broken or does not pass", e.ID, p)
		}
		if f := e.Failer(); f != "" && !contains(e.FailedBy, f) {
			t.Errorf("%s: failer %s does not fail", e.ID, f)
		}
		if len(e.PassedBy)+len(e.FailedBy)+len(e.UndecidedBy) > 0 {
			exercised++
		}
		if e.UndecidedMeaning() == "" {
			t.Errorf("%s: no meaning for undecided", e.ID)
		}
	}
	if exercised < len(entries)*3/4 {
		t.Errorf("only %d of %d rules are reported by any built-in", exercised, len(entries))
	}
	e := entryOf(t, entries, checks.NoMessageAfterCancel)
	if !contains(e.FailedBy, "broken-respond-after-cancel") || !contains(e.PassedBy, "a-cancel-then-complete") || !checks.BrokenScenario(e.Failer()) {
		t.Errorf("no-message-after-cancel: passed by %v, failed by %v", e.PassedBy, e.FailedBy)
	}
	md := rulebook.Markdown(entries)
	if !strings.Contains(md, "## no-message-after-cancel\n") || !strings.Contains(md, "(../engine/examples/broken-respond-after-cancel.json)") {
		t.Error("the Markdown lacks the rule's section or its failing built-in's link")
	}
}

func entryOf(t *testing.T, es []checks.RuleEntry, id trace.RuleID) checks.RuleEntry {
	t.Helper()
	for _, e := range es {
		if e.ID == id {
			return e
		}
	}
	t.Fatalf("no entry %s", id)
	return checks.RuleEntry{}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
