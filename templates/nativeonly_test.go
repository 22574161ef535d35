package templates

import (
	"context"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule message-valid (SCENARIO.md, "The wire of each revision") is judged
// by the JSON Schema validator, which the browser's pages do not link: a
// page's tally counts the checks it shows, so it says, beside the tally,
// that message-valid is left out and where it is judged, rather than let
// "All 7 checks that apply pass" stand for the 8 `mcplab run -checks`
// reports. A run whose checks hold message-valid (the command line's)
// counts it and says nothing of it.
func TestTallySaysMessageValidIsLeftOut(t *testing.T) {
	ok := true
	base := runEdited(t, "a-cancel-then-complete")
	withRule := *base
	withRule.Checks = append(append([]trace.Check{}, base.Checks...), trace.Check{Rule: checks.MessageValid, OK: &ok})
	for _, tc := range []struct {
		name     string
		tr       *trace.Trace
		wantLine bool
		wantPass int
	}{
		{"the browser's run: message-valid left out", base, true, len(base.Checks)},
		{"the command line's run: message-valid judged", &withRule, false, len(base.Checks) + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewView(tc.tr)
			if v.Pass != tc.wantPass {
				t.Errorf("tally counts %d passes, want %d", v.Pass, tc.wantPass)
			}
			var b strings.Builder
			if err := outputHeadline(v).Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			has := strings.Contains(html, `id="check-native-only"`)
			if has != tc.wantLine {
				t.Fatalf("the headline has the line on message-valid: %v, want %v; html %.400q", has, tc.wantLine, html)
			}
			if !tc.wantLine {
				return
			}
			for _, want := range []string{`href="/rules/message-valid/"`, "<code>mcplab run -checks</code> on the command line, not in the browser"} {
				if !strings.Contains(html, want) {
					t.Errorf("the line on message-valid lacks %q: %.600q", want, html[strings.Index(html, `id="check-native-only"`):])
				}
			}
			if tally, line := strings.Index(html, `id="check-tally"`), strings.Index(html, `id="check-native-only"`); line < tally {
				t.Errorf("the line on message-valid comes at %d, before the tally at %d", line, tally)
			}
		})
	}
}

// The index's cards count the checks their scenario pages count, so they
// leave message-valid out as well: the index says so once, above the
// cards, never once per card, and says nothing when every card's run
// judged it.
func TestIndexSaysMessageValidIsLeftOutOnce(t *testing.T) {
	ok := true
	a, b := runEdited(t, "a-cancel-then-complete"), runEdited(t, "b-complete-then-cancel")
	judged := func(tr *trace.Trace) *trace.Trace {
		c := *tr
		c.Checks = append(append([]trace.Check{}, tr.Checks...), trace.Check{Rule: checks.MessageValid, OK: &ok})
		return &c
	}
	for _, tc := range []struct {
		name     string
		runs     []*trace.Trace
		wantLine int
	}{
		{"the browser's runs: said once for two cards", []*trace.Trace{a, b}, 1},
		{"the command line's runs: message-valid counted, nothing said", []*trace.Trace{judged(a), judged(b)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var entries []IndexEntry
			for _, tr := range tc.runs {
				entries = append(entries, NewIndexEntry(tr.Scenario.Title, tr.Scenario.Title, "", "s/x/", tr))
			}
			html := renderString(t, IndexPage("./", entries))
			if n := strings.Count(html, "check-native-only"); n != tc.wantLine {
				t.Fatalf("the index says message-valid is left out %d times, want %d", n, tc.wantLine)
			}
			if tc.wantLine == 0 {
				return
			}
			line := html[strings.Index(html, `id="index-native-only"`):]
			for _, want := range []string{`href="./rules/message-valid/"`, "<code>mcplab run -checks</code> on the command line, not in the browser"} {
				if !strings.Contains(line, want) {
					t.Errorf("the index's line on message-valid lacks %q: %.500q", want, line)
				}
			}
			if strings.Index(html, `id="index-native-only"`) > strings.Index(html, `class="scenario-card"`) {
				t.Error("the line on message-valid comes after the first card, not above the cards")
			}
		})
	}
}

// The explorer's page lists the rules its runs evaluate, which leave out
// message-valid as a scenario page's tally does: it says so under the
// counterexamples, and says nothing for a report whose rules hold it.
func TestExploreSaysMessageValidIsLeftOut(t *testing.T) {
	rep, err := explore.Explore(examplestest.Get(t, "a-cancel-then-complete").JSON, explore.Options{Vary: []scenario.Vary{{Path: "steps[2].at", From: 0, To: 600, ByMs: 100}}})
	if err != nil {
		t.Fatal(err)
	}
	withRule := *rep
	withRule.Rules = append(append([]explore.Rule{}, rep.Rules...), explore.Rule{Rule: checks.MessageValid})
	for _, tc := range []struct {
		name     string
		rep      *explore.Report
		wantLine bool
	}{
		{"the browser's runs: message-valid left out", rep, true},
		{"a report whose rules hold message-valid", &withRule, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			html := renderString(t, ExploreOutput(ExploreOut{Report: tc.rep, LinkBase: "../playground/"}))
			i := strings.Index(html, `id="explore-native-only"`)
			if (i >= 0) != tc.wantLine {
				t.Fatalf("the output has the line on message-valid: %v, want %v", i >= 0, tc.wantLine)
			}
			if !tc.wantLine {
				return
			}
			for _, want := range []string{`href="/rules/message-valid/"`, "<code>mcplab run -checks</code> on the command line, not in the browser"} {
				if !strings.Contains(html[i:], want) {
					t.Errorf("the line on message-valid lacks %q: %.500q", want, html[i:])
				}
			}
			if i < strings.Index(html, "<h3>Counterexamples</h3>") {
				t.Error("the line on message-valid comes before the counterexamples")
			}
		})
	}
}
