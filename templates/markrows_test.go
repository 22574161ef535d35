package templates

import (
	"math"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
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
// labels, however long the run (issue 11: a bound on rows), and the bound
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
