package templates

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
)

// markRowsUsed returns the most label rows any lane of tl uses: a mark in
// row r sits (r+1)·0.85·rowH off its lane line.
func markRowsUsed(tl timeline) int {
	laneY := map[string]float64{}
	for _, l := range tl.Lanes {
		laneY[l.Actor] = l.Y
	}
	most := 0
	for _, m := range tl.Marks {
		most = max(most, int(math.Round(math.Abs(m.Y-laneY[m.Actor])/(rowH*0.85))))
	}
	return most
}

// TestMarkRowsBound: no lane stacks more than maxMarkRows rows of mark
// labels, however long the run (a bound on rows), and the bound
// never costs a built-in scenario a label: each fits with rows to spare.
func TestMarkRowsBound(t *testing.T) {
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
			if n := markRowsUsed(tl); n >= maxMarkRows {
				t.Errorf("%s (%q frame): %d rows of mark labels, want fewer than maxMarkRows (%d)", ex.Name, tl.IDPrefix, n, maxMarkRows)
			}
		}
	}
	tr := busyTrace(60000)
	tl := newTimeline(tr)
	if n := markRowsUsed(tl); n != maxMarkRows {
		t.Errorf("60,000 marks on one lane use %d rows, want the bound %d", n, maxMarkRows)
	}
	labelled := 0
	for _, m := range tl.Marks {
		if m.Label != "" {
			labelled++
		}
	}
	if labelled == 0 || labelled == len(tl.Marks) {
		t.Errorf("%d of %d marks keep their label past the bound; want some but not all", labelled, len(tl.Marks))
	}
}

// laneRows returns the label rows the marks of actor use in tl, and how
// many of them keep a label.
func laneRows(tl timeline, actor string) (rows, labelled int) {
	var laneY float64
	for _, l := range tl.Lanes {
		if l.Actor == actor {
			laneY = l.Y
		}
	}
	for _, m := range tl.Marks {
		if m.Actor != actor {
			continue
		}
		rows = max(rows, int(math.Round(math.Abs(m.Y-laneY)/(rowH*0.85))))
		if m.Label != "" {
			labelled++
		}
	}
	return rows, labelled
}

// TestNarrowLabelsOnceWhereRowsStack: on a phone (the narrow frame), a
// lane whose alike marks would stack a row each shows their words once
// and draws the repeats as glyphs (their titles keep the label), when
// that takes fewer rows: scenario C's idle resets every
// 400 ms and its maximum timeout fit in 3 rows, not 4; the task page's
// accepted polls in 4, not 5; a lane that would gain nothing (the task
// page's server starts, 4 rows either way) keeps every label, and so does
// a lane whose marks are mostly repeats (the buffer page's server: its
// enqueue and coalesce dots every 50 ms keep all 13 labels in 7 rows, not
// 5 in 4 with 8 bare dots), and so does the wide frame.
func TestNarrowLabelsOnceWhereRowsStack(t *testing.T) {
	for _, c := range []struct {
		name, actor    string
		rows, labelled int // narrow frame
	}{
		{"c-progress-then-maximum", "client", 3, 3},
		{"task-cancel-ack-not-final", "client", 4, 3},
		{"task-cancel-ack-not-final", "server", 4, 5},
		{"buffer-reference-coalesce", "server", 7, 13},
	} {
		t.Run(c.name+"/"+c.actor, func(t *testing.T) {
			tr := runEdited(t, c.name)
			tl := newNarrowTimeline(tr)
			rows, labelled := laneRows(tl, c.actor)
			if rows != c.rows || labelled != c.labelled {
				t.Errorf("narrow %s lane: %d rows, %d labels, want %d rows, %d labels", c.actor, rows, labelled, c.rows, c.labelled)
			}
			for _, m := range tl.Marks {
				if m.Actor == c.actor && m.Label == "" && !strings.Contains(m.Title, m.Type) {
					t.Errorf("the glyph at %d ms lost its label and its title does not say what it is: %q", m.At, m.Title)
				}
			}
			wide := newTimeline(tr)
			if _, n := laneRows(wide, c.actor); n != countMarks(wide, c.actor) {
				t.Errorf("the wide frame left %d of %d %s marks unlabelled", countMarks(wide, c.actor)-n, countMarks(wide, c.actor), c.actor)
			}
		})
	}
}

func countMarks(tl timeline, actor string) int {
	n := 0
	for _, m := range tl.Marks {
		if m.Actor == actor && m.Glyph != glyphKeepalive {
			n++
		}
	}
	return n
}

// TestActivityMarkNamesOnlyAnIdleClockThatExists (scenario A's
// timeline said "idle reset" for a request without an idle timeout):
// accepted progress is labelled "idle reset" only for a request with an
// idle timeout (C: idle 400 ms) and "activity" otherwise (A: no timeouts).
func TestActivityMarkNamesOnlyAnIdleClockThatExists(t *testing.T) {
	for name, want := range map[string]string{"a-cancel-then-complete": "activity", "c-progress-then-maximum": "idle reset"} {
		tr := examplestest.RunExample(t, examplestest.Get(t, name))
		n := 0
		for _, m := range newTimeline(tr).Marks {
			if m.Glyph != glyphActivity || m.Label == "" {
				continue
			}
			n++
			if m.Label != want {
				t.Errorf("%s: activity mark labelled %q, want %q", name, m.Label, want)
			}
		}
		if n == 0 {
			t.Errorf("%s: no labelled activity mark", name)
		}
	}
}

// TestOutcomeCardListsFewIDs (a link of 2,000 calls listed every id in
// the outcome card, pushing the timeline far down): requests that share an
// outcome are listed whole up to maxListedIDs, past it as the first three,
// the last and the count.
func TestOutcomeCardListsFewIDs(t *testing.T) {
	rows := func(n int) []requestRow {
		out := make([]requestRow, n)
		for i := range out {
			out[i] = requestRow{ID: strconv.Itoa(i), Method: "tools/call", Outcome: outcome{ID: strconv.Itoa(i), Key: "completed"}}
		}
		return out
	}
	for n, want := range map[int]string{
		3:    "Requests 0, 1, 2",
		6:    "Requests 0, 1, 2, 3, 4, 5",
		7:    "Requests 0, 1, 2, … 6 (7)",
		2000: "Requests 0, 1, 2, … 1999 (2,000)",
	} {
		cards := groupOutcomes(rows(n))
		if len(cards) != 1 || cards[0].Who != want {
			t.Errorf("%d requests with one outcome: %d cards, the first says %q; want one saying %q", n, len(cards), cards[0].Who, want)
		}
		if n == 2000 && !strings.HasPrefix(cards[0].Detail, "2,000 requests, all ") {
			t.Errorf("2,000 requests: detail %q, want it to start \"2,000 requests, all \"", cards[0].Detail)
		}
	}
}

// TestViolationNoteIsWholeOnAPhone (the flagship's note at 390 px read
// "✗ breaks no-unsafe-retry (no single event: see th…"): a check that fails
// at no single event is named whole, with where to look, in both frames.
func TestViolationNoteIsWholeOnAPhone(t *testing.T) {
	tr := examplestest.RunExample(t, examplestest.Get(t, "flagship-retry-charges-twice"))
	for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
		found := false
		for _, n := range tl.Notes {
			if strings.HasPrefix(n.Text, "✗ breaks no-unsafe-retry") {
				found = true
				if strings.HasSuffix(n.Text, "…") || !strings.HasSuffix(n.Text, "see the checks)") {
					t.Errorf("%q frame: note %q is cut or does not say where to look", tl.IDPrefix, n.Text)
				}
			}
		}
		if !found {
			t.Errorf("%q frame: no note names no-unsafe-retry", tl.IDPrefix)
		}
	}
}

// TestActivityMarkPastManyRequests: the activity mark's words come from
// the engine's event (restarts), not from a lookup among the requests, so
// the fortieth request of a run reads like the first: "activity" when it
// has no idle clock, "idle reset" when its own call sets one (the views
// once looked at the first 32 requests only and said "idle reset" past
// them).
func TestActivityMarkPastManyRequests(t *testing.T) {
	for _, tt := range []struct {
		name, idle, want string
	}{
		{"no idle clock: activity resets nothing (DOMAIN.md §2)", "", "activity"},
		{"its own idle timeout: the progress resets it", `,"idleTimeoutMs":5000`, "idle reset"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var steps []string
			for i := 1; i < 40; i++ {
				steps = append(steps, `{"at":0,"do":"call","id":`+strconv.Itoa(i)+`,"name":"t"}`)
			}
			steps = append(steps, `{"at":0,"do":"call","id":40,"name":"t","progressToken":"p"`+tt.idle+`}`, `{"at":100,"do":"progress","id":40,"progress":1}`)
			s, err := scenario.Decode([]byte(`{"mcplab":1,"steps":[` + strings.Join(steps, ",") + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := engine.Run(s)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range newTimeline(tr).Marks {
				if m.Glyph == glyphActivity {
					n++
					if words := strings.TrimSuffix(m.Label, " (40)"); words != tt.want {
						t.Errorf("request 40's activity mark reads %q, want %q", m.Label, tt.want)
					}
				}
			}
			if n != 1 {
				t.Errorf("%d activity marks, want 1 (request 40's progress)", n)
			}
		})
	}
}
