package templates

import (
	"strings"
	"testing"
)

// Rule (a chart on a phone has a phone layout, its labels kept): the
// ledger race's narrow layout is the timeline's narrow frame wide; every
// description (the wide one's, word for word, its key included) is drawn
// in lines that end inside it by the labels' width estimate, and each row
// is as tall as its lines, so no two rows' text meet; the page draws both
// layouts, the narrow one under its own ids. Many requests (nine on the
// inventory practice page) narrow the columns, never the descriptions'
// room. The wide diagram's 1000 units
// scrolled in a phone's box and cut the keys off.
func TestNarrowRaceDiagramFitsAPhone(t *testing.T) {
	for _, name := range []string{"ledger-keyed-race", "ledger-reopen-defensive-copy", "practice-reserve-inventory"} {
		t.Run(name, func(t *testing.T) {
			tr := runEdited(t, name)
			w, c := newRaceDiagram(tr), newNarrowRaceDiagram(tr)
			if w == nil || c == nil {
				t.Fatalf("race diagrams %v, %v: want both", w, c)
			}
			if c.Width != narrowFrame.width || c.IDPrefix != narrowFrame.idPrefix || len(c.Rows) != len(w.Rows) {
				t.Fatalf("narrow diagram %v units, prefix %q, %d rows; want %v, %q, %d", c.Width, c.IDPrefix, len(c.Rows), narrowFrame.width, narrowFrame.idPrefix, len(w.Rows))
			}
			if last := c.Columns[len(c.Columns)-1]; last.X+textWidth(last.Label)/2 > c.TextX-4 || c.Width-c.TextX < 120 {
				t.Errorf("%d columns, the last at %.0f labelled %q, descriptions from %.0f of %v units: want the columns left of the descriptions and room for them", len(c.Columns), last.X, last.Label, c.TextX, c.Width)
			}
			keys := 0
			for i, r := range c.Rows {
				if got := strings.Join(r.Lines, " "); got != w.Rows[i].Text {
					t.Errorf("row %d reads %q narrow, %q wide", i, got, w.Rows[i].Text)
				}
				if strings.Contains(r.Text, `key "`) {
					keys++
				}
				for _, l := range r.Lines {
					if end := c.TextX + textWidth(l); end > c.Width-4 {
						t.Errorf("row %d line %q ends at %.0f of %.0f units", i, l, end, c.Width)
					}
				}
				bottom := r.Y + float64(len(r.Lines)-1)*raceLineH
				if i+1 < len(c.Rows) && c.Rows[i+1].Y < bottom+raceLineH {
					t.Errorf("row %d's last line at %.0f, row %d at %.0f: want a line's height between", i, bottom, i+1, c.Rows[i+1].Y)
				}
				if bottom > c.Height-10 {
					t.Errorf("row %d ends at %.0f of %.0f units", i, bottom, c.Height)
				}
			}
			if keys == 0 {
				t.Errorf("no row names a key: want the keyed race's keys drawn")
			}
			html := renderString(t, Output(tr))
			for _, want := range []string{`id="ledger-race"`, `id="narrow-ledger-race"`, `class="chart ledger-race ledger-race-narrow"`} {
				if !strings.Contains(html, want) {
					t.Errorf("the output lacks %s", want)
				}
			}
		})
	}
}
