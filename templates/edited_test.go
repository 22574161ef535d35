package templates

import (
	"strings"
	"testing"
)

// Rule (every word on a page is computed from the run on screen or marked
// as the original's): once edited, a scenario page's heading, document
// title (the embed snippet's title), note, summary and "Try it" labels say
// the scenario was edited and name the edited run's headline, never the
// title's claim alone; an edit the title still holds for says it too.
func TestEditedWordsNameTheRunOnScreen(t *testing.T) {
	tests := []struct {
		rule, name string
		edits      [][2]string
		heading    string
		note       string
	}{
		// The cancel at 325 ms: the handler finished at 320 ms, the answer
		// is on its way down.
		{"the cancel after the completion: completion wins, not the title's cancellation",
			"a-cancel-then-complete", [][2]string{{"steps[2].at", "325"}},
			"Edited from “A: cancellation wins (stdio)”: this run shows completion wins",
			"You edited this scenario: this run shows completion wins: the server answered before it learned of the cancel."},
		{"an edit the title still holds for is still an edit",
			"a-cancel-then-complete", [][2]string{{"steps[2].at", "250"}},
			"Edited from “A: cancellation wins (stdio)”: this run shows cancellation wins", ""},
		// At 420 ms the client has its answer: the step cannot happen, and
		// the run's headline says so, so the heading does too.
		{"a step that cannot happen is what the run shows",
			"a-cancel-then-complete", [][2]string{{"steps[2].at", "420"}},
			"Edited from “A: cancellation wins (stdio)”: this run shows 1 scripted step could not happen", ""},
		{"the keyed twin deduplicating by JSON-RPC id charges twice",
			"flagship-with-idempotency-key", [][2]string{{"server.policy.dedupeBy", `"rpc-id"`}},
			"", "this run shows charged twice: 2 executions for one intent."},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			tr := runEdited(t, tt.name, tt.edits...)
			v := NewView(tr)
			w := NewEditedWords(tr.Scenario.Title, v.Verdict.Text)
			if tt.heading != "" && w.Heading != tt.heading {
				t.Errorf("heading %q, want %q", w.Heading, tt.heading)
			}
			if !strings.HasPrefix(w.Heading, "Edited from “"+tr.Scenario.Title+"”: this run shows ") {
				t.Errorf("heading %q does not say it is edited from %q and what the run shows", w.Heading, tr.Scenario.Title)
			}
			if w.Title != w.Heading+" · mcplab" {
				t.Errorf("document title %q, want the heading %q with the site's name", w.Title, w.Heading)
			}
			if tt.note != "" && !strings.Contains(w.Note, tt.note) {
				t.Errorf("note %q, want it to contain %q", w.Note, tt.note)
			}
			if !strings.Contains(w.Note, v.Verdict.Text) {
				t.Errorf("note %q does not name the run's headline %q", w.Note, v.Verdict.Text)
			}
			if !strings.Contains(w.Summary, "original") || !strings.Contains(w.Try, "original") {
				t.Errorf("summary label %q, Try it label %q: want both to say they describe the original", w.Summary, w.Try)
			}
		})
	}
	if w := NewEditedWords("A", ""); w.Heading != "Edited from “A”" || !strings.HasPrefix(w.Note, "You edited this scenario.") {
		t.Errorf("no run on screen yet: heading %q, note %q; want only that it is edited", w.Heading, w.Note)
	}
}
