package explore

import (
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// classLetters label the classes in Markdown, one character each; a class
// past them is drawn '*', an unknown grid point '?'.
const classLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// markdownRegions bounds the regions Markdown lists per class (the JSON
// has up to MaxRegions, and a map draws them all).
const markdownRegions = 8

// letter is class i's label.
func letter(i int) string {
	if i >= 0 && i < len(classLetters) {
		return classLetters[i : i+1]
	}
	return "*"
}

// Markdown renders the report for a pull request or a terminal: the
// window, the classes with their regions (and, for two dimensions, a text
// map of them), and each counterexample with its link. A link that is not
// absolute (no Options.LinkBase) is written as code, to paste into
// `mcplab run`.
func Markdown(rep *Report) string {
	var b strings.Builder
	b.WriteString("# Exploration")
	if rep.Title != "" {
		b.WriteString(": " + rep.Title)
	}
	b.WriteString("\n\n")
	var dims []string
	for _, v := range rep.Vary {
		dims = append(dims, "`"+v.Path+"` from "+itoa(v.From)+" to "+itoa(v.To)+" by "+itoa(v.ByMs))
	}
	b.WriteString("Varying " + strings.Join(dims, ", ") + ": " + thousands(rep.Points) + " grid points, " + thousands(int64(rep.Runs)) + " runs")
	if rep.Exhaustive {
		b.WriteString(". Exhaustive: every grid point's class is known, run or filled from the corners of its box.\n\n")
	} else {
		b.WriteString(" (maxRuns " + thousands(int64(rep.MaxRuns)) + "). Not exhaustive: " + thousands(rep.Unknown) + " grid points are unknown; raise maxRuns or narrow the window.\n\n")
	}
	b.WriteString("## Outcome classes\n\n| | class | grid points | smallest values |\n|---|---|---|---|\n")
	for i, c := range rep.Classes {
		b.WriteString("| " + letter(i) + " | " + strings.ReplaceAll(c.Key, "|", "\\|") + " | " + thousands(c.Count) + " | " + values(c.Example.Values) + " |\n")
	}
	b.WriteString("\n")
	for i, c := range rep.Classes {
		b.WriteString("**" + letter(i) + "** holds ")
		var rs []string
		for k, r := range c.Regions {
			if k == markdownRegions {
				break
			}
			rs = append(rs, region(r))
		}
		b.WriteString(strings.Join(rs, "; "))
		switch more := len(c.Regions) - len(rs) + max(c.RegionsLeftOff, 0); {
		case more > 0:
			b.WriteString("; and " + strconv.Itoa(more) + " more regions")
		case c.RegionsLeftOff < 0:
			b.WriteString("; and more regions, not kept")
		}
		b.WriteString(". Example: " + link(c.Example.Link) + "\n\n")
	}
	if g := rep.Grid; g != nil && len(g.Values) == 2 {
		b.WriteString("## Map\n\nRows: `" + rep.Vary[0].Path + "`; columns: `" + rep.Vary[1].Path + "` from " + itoa(g.Values[1][0]) + " to " + itoa(g.Values[1][len(g.Values[1])-1]) + "; one letter per class, ? unknown")
		if len(g.Values[0]) < int(rep.Vary[0].Points()) || len(g.Values[1]) < int(rep.Vary[1].Points()) {
			b.WriteString(" (sampled)")
		}
		b.WriteString(".\n\n```text\n")
		w := len(g.Values[1])
		pad := 0
		for _, v := range g.Values[0] {
			pad = max(pad, len(itoa(v)))
		}
		for r, v := range g.Values[0] {
			s := itoa(v)
			b.WriteString(strings.Repeat(" ", pad-len(s)) + s + " ")
			for _, c := range g.Cells[r*w : (r+1)*w] {
				if c < 0 {
					b.WriteByte('?')
				} else {
					b.WriteString(letter(c))
				}
			}
			b.WriteByte('\n')
		}
		b.WriteString("```\n\n")
	}
	b.WriteString("## Counterexamples\n\n")
	if len(rep.Counterexamples) == 0 {
		what := "in this window, at this resolution"
		if !rep.Exhaustive {
			what = "among the grid points whose class is known"
		}
		b.WriteString("No violation anywhere " + what + ": " + strconv.Itoa(len(rep.Rules)) + " rules hold at every grid point.\n")
	}
	for _, c := range rep.Counterexamples {
		n := int64(0)
		for _, r := range rep.Rules {
			if r.Rule == c.Rule {
				n = r.Violations
			}
		}
		b.WriteString("- **" + string(c.Rule) + "** fails at " + thousands(n) + " grid points; the smallest: " + values(c.Values) + ": " + link(c.Link) + "\n")
	}
	if !rep.Evaluates(checks.MessageValid) {
		b.WriteString("\n" + NotExploredLine + "\n")
	}
	return b.String()
}

// NotExploredLine is what `mcplab explore` says under its counterexamples
// (its Markdown; on stderr with -json) when the report's rules leave out
// message-valid: the explorer's runs do not link the JSON Schema validator
// (package checks/schema), so that rule is judged on one run only.
const NotExploredLine = "Not in these rules: `message-valid` is judged by `mcplab run -checks`, one run at a time."

// Evaluates reports whether rule is among the rules the exploration's runs
// evaluated (Report.Rules).
func (r *Report) Evaluates(rule trace.RuleID) bool {
	for _, x := range r.Rules {
		if x.Rule == rule {
			return true
		}
	}
	return false
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// values writes a point as "`steps[2].at` = 309, `latencyMs.up` = 10".
func values(vs Values) string {
	var s []string
	for _, v := range vs {
		s = append(s, "`"+v.Path+"` = "+itoa(v.Value))
	}
	return strings.Join(s, ", ")
}

// region writes a region as "`steps[2].at` 0..309 × `latencyMs.up` 10".
func region(r Region) string {
	var s []string
	for _, v := range r {
		if v.From == v.To {
			s = append(s, "`"+v.Path+"` "+itoa(v.From))
		} else {
			s = append(s, "`"+v.Path+"` "+itoa(v.From)+".."+itoa(v.To))
		}
	}
	return strings.Join(s, " × ")
}

// link writes an absolute link as a Markdown link, any other as code.
func link(l string) string {
	if strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") {
		return "[open the run](" + l + ")"
	}
	return "`" + l + "`"
}
