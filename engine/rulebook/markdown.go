package rulebook

import (
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
)

// examplesDir is where docs/rules.md finds a built-in scenario's file.
const examplesDir = "../engine/examples/"

// Markdown renders the reference as docs/rules.md: an index table, then a
// section per rule (what it checks, its source with its citations of
// docs/domain.md linked (MarkdownCitations), the correct built-in that
// passes it, the broken one that fails it, every built-in that exercises
// it, and what undecided means for it). Built-ins link their files,
// relative to docs/. Deterministic: the entries' order.
func Markdown(entries []checks.RuleEntry) string {
	var b strings.Builder
	b.WriteString("# Rules\n\n")
	b.WriteString("Every rule a trace's `checks` can name. This file is generated from the rules' descriptions in `engine/checks` (`checks.Rules`) and from running every built-in scenario; `go test ./engine/rulebook -update` rewrites it, and that test fails while it is out of date. The site serves the same reference at `/rules/`. Each source cites the lab's domain notes, [domain.md](domain.md), by section, and the MCP specification.\n\n")
	b.WriteString("| rule | checks | passes | fails |\n|---|---|---|---|\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", e.ID, e.ID, cell(e.Checks), orDash(e.Passer()), orDash(e.Failer()))
	}
	for _, e := range entries {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", e.ID, e.Checks)
		fmt.Fprintf(&b, "- **Source:** %s.\n", MarkdownCitations(e.Source))
		fmt.Fprintf(&b, "- **Passed by** (a correct built-in): %s.\n", example(e.Passer(), "no correct built-in passes it yet"))
		fmt.Fprintf(&b, "- **Failed by** (a broken built-in): %s.\n", example(e.Failer(), "no built-in fails it yet"))
		fmt.Fprintf(&b, "- **Undecided** means: %s\n", e.UndecidedMeaning())
		fmt.Fprintf(&b, "- Built-ins that report it: %d pass, %d fail, %d undecided.%s\n", len(e.PassedBy), len(e.FailedBy), len(e.UndecidedBy), listed(e))
	}
	return b.String()
}

func listed(e checks.RuleEntry) string {
	var parts []string
	for _, l := range []struct {
		what  string
		names []string
	}{{"Fail", e.FailedBy}, {"Undecided", e.UndecidedBy}} {
		if len(l.names) > 0 {
			parts = append(parts, l.what+": "+strings.Join(links(l.names), ", ")+".")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}

func links(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = example(n, "")
	}
	return out
}

func example(name, none string) string {
	if name == "" {
		return none
	}
	return fmt.Sprintf("[`%s`](%s%s.json)", name, examplesDir, name)
}

func orDash(name string) string {
	if name == "" {
		return "–"
	}
	return "`" + name + "`"
}

func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
