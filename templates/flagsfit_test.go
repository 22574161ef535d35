package templates

import (
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
)

// Rule (a label is kept: none runs off its chart): in both layouts of
// every built-in's timeline, the words of every check flag lie inside the
// chart, 4 units from either edge, by the same width estimate that places
// every label (textWidth).
func TestFlagWordsStayInTheChart(t *testing.T) {
	for _, ex := range examples.All() {
		tr := runEdited(t, ex.Name)
		for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
			for _, fl := range tl.Flags {
				if fl.Text == "" {
					continue
				}
				lo, hi := fl.TextX, fl.TextX+fl.TextW
				if fl.EndPos {
					lo, hi = fl.TextX-fl.TextW, fl.TextX
				}
				if lo < 4-0.01 || hi > tl.Width-4+0.01 {
					t.Errorf("%s %stimeline: flag %q spans %.1f..%.1f of %.0f", ex.Name, tl.IDPrefix, fl.Text, lo, hi, tl.Width)
				}
			}
		}
	}
}
