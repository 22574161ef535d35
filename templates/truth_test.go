package templates

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// sweepValues are the values a control takes in TestPagesNeverContradictTheirRun:
// every option of a select, both states of a checkbox, and for a number or
// a slider its bounds, its current value, the middle of its range and a
// few steps around the current value (one less and more, half, double),
// so an edit a reader makes by dragging or typing is among them.
func sweepValues(c control) []string {
	switch c.Kind {
	case controlSelect:
		var out []string
		for _, o := range c.Options {
			out = append(out, o.Value)
		}
		return out
	case controlCheckbox:
		return []string{"true", "false"}
	}
	cur, err := strconv.ParseInt(c.Value, 10, 64)
	if err != nil {
		cur = c.Min
	}
	var out []string
	for _, v := range []int64{c.Min, c.Max, cur, c.Min + (c.Max-c.Min)/2, cur / 2, cur * 2, cur + 1, cur - 1} {
		v = min(max(v, c.Min), c.Max)
		if s := strconv.FormatInt(v, 10); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// outcomeWords are the outcomes a headline may name, and the outcome a
// request of the run must have for the words to be true.
var outcomeWords = []struct {
	words string
	want  trace.Outcome
}{
	{"cancellation wins", trace.OutcomeCancellationWins},
	{"completion wins", trace.OutcomeCompletionWins},
}

// contradictions lists what the page of tr (its view v) says that tr
// contradicts: a green headline over a failing check; a green headline
// over a skipped step that does not name the skipped steps, or any
// headline that does not say how many steps could not happen; "charged
// twice" anywhere in the headline or the cards with fewer than two
// executions, "charged once" with more than one; a retry of a call the
// client already has the result of; a
// headline naming an outcome no request of the run has; a title that
// names one (or a charge) the run contradicts with no word on the page
// that the title is the original's; "the failure this page shows" on a
// page whose built-in does not fail on purpose (builtInIntended false:
// its own run passes, a reader broke it); a card coloured against
// the headline (green under a failing one, red or orange under a passing
// one).
func contradictions(tr *trace.Trace, v View, builtInIntended bool) []string {
	var out []string
	has := func(o trace.Outcome) bool {
		for _, r := range tr.Requests {
			if r.Outcome == o {
				return true
			}
		}
		return false
	}
	passing := v.Verdict.Key == "good" || v.Verdict.Key == "none"
	if passing && v.Fail > 0 {
		out = append(out, fmt.Sprintf("a %s headline %q over %d failing checks", v.Verdict.Key, v.Verdict.Text, v.Fail))
	}
	text := v.Verdict.Text
	if n := len(tr.Skipped); n > 0 {
		// Honest time: the headline says how many scripted steps could
		// not happen; a green one that does not is the contradiction.
		count := strconv.Itoa(n) + " scripted step"
		switch {
		case passing && !strings.Contains(text, count):
			out = append(out, fmt.Sprintf("a %s headline %q over %d skipped steps (the first: %s)", v.Verdict.Key, text, n, tr.Skipped[0].Reason))
		case !strings.Contains(text, count) && !strings.Contains(v.Verdict.Skipped, count):
			out = append(out, fmt.Sprintf("the %s headline %q does not say %d steps could not happen", v.Verdict.Key, text, n))
		}
	}
	// Every word of the headline and the cards, but the note that the
	// title's claim is the original's (it quotes the claim on purpose).
	words := []string{text, v.Verdict.Detail, v.Verdict.Skipped}
	for _, c := range v.Cards {
		words = append(words, c.Text, c.Detail)
	}
	if n := tr.Ledger.Executions; n < 2 {
		for _, w := range words {
			if strings.Contains(w, "charged twice") {
				out = append(out, fmt.Sprintf("%q with %d ledger executions", w, n))
			}
		}
	}
	answered := map[string]bool{}
	for _, r := range tr.Requests {
		answered[r.ID.String()] = r.ClientOutcome == trace.OutcomeResult
	}
	for _, r := range tr.Requests {
		if r.RetryOf != nil && answered[r.RetryOf.String()] {
			// A call that got its answer is never retried (SCENARIO.md,
			// client.policy.retry): the engine skips such a retry step.
			out = append(out, fmt.Sprintf("request %s retries request %s, which the client already has the result of", r.ID, r.RetryOf))
		}
	}
	if n := tr.Ledger.Executions; strings.Contains(text, "charged once") && n != 1 {
		out = append(out, fmt.Sprintf("%q with %d ledger executions", text, n))
	}
	title := ""
	if tr.Scenario != nil {
		title = strings.ToLower(tr.Scenario.Title)
	}
	for _, w := range outcomeWords {
		if strings.Contains(text, w.words) && !has(w.want) {
			out = append(out, fmt.Sprintf("the headline %q names %s, which no request has", text, w.want))
		}
		if strings.Contains(title, w.words) && !has(w.want) && v.Verdict.Edited == "" {
			out = append(out, fmt.Sprintf("the title %q names %s, which no request has, and nothing says the title is the original's", title, w.want))
		}
	}
	if n := tr.Ledger.Executions; (strings.Contains(title, "charges once") || strings.Contains(title, "charged once")) && n > 1 && v.Verdict.Edited == "" {
		out = append(out, fmt.Sprintf("the title %q over %d executions, and nothing says the title is the original's", title, n))
	}
	if (strings.Contains(title, "charges twice") || strings.Contains(title, "charged twice")) && tr.Ledger.Executions < 2 && v.Verdict.Edited == "" {
		out = append(out, fmt.Sprintf("the title %q over %d executions, and nothing says the title is the original's", title, tr.Ledger.Executions))
	}
	if v.Verdict.Intended() && !builtInIntended {
		out = append(out, fmt.Sprintf("%q over %q, a page that is not broken on purpose", v.Verdict.Label(), text))
	}
	for _, c := range v.Cards {
		switch colour := cardColour(c.Class()); {
		case passing && (colour == "red" || colour == "orange"):
			out = append(out, fmt.Sprintf("a %s card %q (%s) under the %s headline %q", colour, c.Text, c.Who, v.Verdict.Key, text))
		case !passing && v.Verdict.Key != "undecided" && colour == "green":
			out = append(out, fmt.Sprintf("a green card %q (%s) under the %s headline %q", c.Text, c.Who, v.Verdict.Key, text))
		}
	}
	return out
}

// cardColour is the colour app.css gives a card's class: green for a
// result the client got, red for a failure, orange for the cancellation
// hue, grey for the neutral tones.
func cardColour(class string) string {
	switch strings.TrimPrefix(class, "outcome-") {
	case "completed", "completion-wins", "task-completed":
		return "green"
	case "failed", "task-failed":
		return "red"
	case "cancellation-wins", "cancelled", "task-cancelled":
		return "orange"
	}
	return "grey"
}

// TestPagesNeverContradictTheirRun is the property a page keeps under
// every edit its controls allow: over every built-in scenario, each
// control swept across its range (sweepValues) one at a time, the
// headline, its label, the title's claim and the cards never say what the
// run on screen contradicts (contradictions). An edit the scenario's
// rules refuse (a located error on the page, not a headline) is left out;
// the test fails if most are, or if no run skips a step or retries a call
// (the properties of honest time and of the retry policy would go
// untested).
func TestPagesNeverContradictTheirRun(t *testing.T) {
	opts := engine.Options{OpenLedger: sqlite.NewMemory}
	runs, refused, skipping, retrying := 0, 0, 0, 0
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			res, err := entry.Run(ex.JSON, entry.Document{Options: opts})
			if err != nil {
				t.Fatal(err)
			}
			builtIn := NewView(res.Trace).Verdict
			intended := builtIn.Intended()
			if fails := builtIn.Key == "bad" || intended; fails != intended {
				t.Errorf("as built: %q over %q: a built-in that fails fails on purpose", builtIn.Label(), builtIn.Text)
			}
			check := func(what string, tr *trace.Trace) {
				if len(tr.Skipped) > 0 {
					skipping++
				}
				if slices.ContainsFunc(tr.Requests, func(r trace.Request) bool { return r.RetryOf != nil }) {
					retrying++
				}
				for _, c := range contradictions(tr, NewView(tr), intended) {
					t.Errorf("%s: %s", what, c)
				}
			}
			check("as built", res.Trace)
			for _, g := range NewControls(res.Trace.Scenario, res.Trace.EndMs) {
				for _, c := range g.Controls {
					for _, val := range sweepValues(c) {
						edited, err := scenario.Edit(ex.JSON, c.Path, c.ValueKind, val, val == "true")
						if err != nil {
							refused++
							continue
						}
						r, err := entry.Run(edited, entry.Document{Options: opts})
						if err != nil {
							refused++
							continue
						}
						runs++
						check(c.Label+" = "+val, r.Trace)
					}
				}
			}
		})
	}
	if runs < 1000 || refused > runs/4 {
		t.Errorf("%d edited runs, %d edits refused: the sweep does not cover the pages' controls", runs, refused)
	}
	if skipping == 0 || retrying == 0 {
		t.Errorf("%d runs skip a step, %d retry a call: the sweep never tests the skipped-step or the retry property", skipping, retrying)
	}
	t.Logf("%d edited runs, %d edits refused, %d runs skip a step, %d retry a call", runs, refused, skipping, retrying)
}

// TestEditedTitleSaysItIsTheOriginals: an edit that moves the run away
// from what the scenario's title claims keeps the title, so the headline
// says the title is the original's and what this run shows; an unedited
// run, or an edit the title still holds for, says nothing of the kind.
func TestEditedTitleSaysItIsTheOriginals(t *testing.T) {
	tests := []struct {
		name  string
		edits [][2]string
		want  string
	}{
		{"a-cancel-then-complete", nil, ""},
		{"a-cancel-then-complete", [][2]string{{"steps[2].at", "250"}}, ""},
		// Lesson A with the cancel at 420 ms: the completion at 320 ms
		// came first.
		{"a-cancel-then-complete", [][2]string{{"steps[2].at", "420"}}, "Edited: the title's “cancellation wins” is the original run's; this run shows completion wins: the answer came before the client cancelled."},
		{"flagship-with-idempotency-key", nil, ""},
		// The keyed twin deduplicating by JSON-RPC id charges twice.
		{"flagship-with-idempotency-key", [][2]string{{"server.policy.dedupeBy", `"rpc-id"`}}, "Edited: the title's “charges once” is the original run's; this run shows charged twice: 2 executions for one intent."},
	}
	for _, tt := range tests {
		tr := runEdited(t, tt.name, tt.edits...)
		v := NewView(tr)
		if v.Verdict.Edited != tt.want {
			t.Errorf("%s %v: edited %q, want %q", tt.name, tt.edits, v.Verdict.Edited, tt.want)
		}
		html := renderString(t, Output(tr))
		if got := strings.Contains(html, `class="verdict-edited"`); got != (tt.want != "") {
			t.Errorf("%s %v: the headline shows the edited note: %v, want %v", tt.name, tt.edits, got, tt.want != "")
		}
	}
}

// TestFailureStoriesAreTheFailingBuiltIns: failureStories names exactly
// the built-ins not titled "Broken" whose own run fails, so every page
// whose failure is its story says "the failure this page shows" and no
// other does.
func TestFailureStoriesAreTheFailingBuiltIns(t *testing.T) {
	var failing []string
	for _, ex := range examples.All() {
		if strings.HasPrefix(ex.Title, "Broken") {
			continue
		}
		v := NewView(runEdited(t, ex.Name))
		if v.Fail > 0 {
			failing = append(failing, ex.Title)
		}
		if v.Fail > 0 != v.Verdict.Intended() {
			t.Errorf("%s: %d failing checks, verdict %s", ex.Name, v.Fail, v.Verdict.Key)
		}
	}
	slices.Sort(failing)
	stories := slices.Sorted(slices.Values(failureStories))
	if !slices.Equal(failing, stories) {
		t.Errorf("the failing built-ins not titled Broken are\n%q\nfailureStories lists\n%q", failing, stories)
	}
}

// TestCardsTakeTheHeadlinesJudgement: a card is coloured by the judgement
// its headline makes (judgeCards). Lesson A passes: its "cancellation
// wins" card is neutral, not the orange of a warning under a green
// headline. C with the maximum reset by progress fails on the request
// that outlived it: its card is red, not a green "completed". The flagship
// fails on the whole run (no-unsafe-retry names no event): the retry's
// completed card is red.
func TestCardsTakeTheHeadlinesJudgement(t *testing.T) {
	tests := []struct {
		name  string
		edits [][2]string
		card  int
		want  string
	}{
		{"a-cancel-then-complete", nil, 0, "outcome-neutral"},
		{"a-cancel-then-complete", [][2]string{{"steps[2].at", "420"}}, 0, "outcome-completion-wins"},
		{"c-progress-then-maximum", [][2]string{{"client.policy.progressResetsMax", "true"}}, 0, "outcome-failed"},
		{"flagship-retry-charges-twice", nil, 1, "outcome-failed"},
	}
	for _, tt := range tests {
		v := NewView(runEdited(t, tt.name, tt.edits...))
		if len(v.Cards) <= tt.card {
			t.Fatalf("%s %v: %d cards", tt.name, tt.edits, len(v.Cards))
		}
		if c := v.Cards[tt.card]; c.Class() != tt.want {
			t.Errorf("%s %v: card %d %q (%s) is %s, want %s under the %s headline %q", tt.name, tt.edits, tt.card, c.Text, c.Who, c.Class(), tt.want, v.Verdict.Key, v.Verdict.Text)
		}
	}
}
