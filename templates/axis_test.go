package templates

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestUntimedAxis: an imported transcript without timestamps (Source Clock
// "order", transcript.Import) is drawn in steps, so its axis says "step"
// and never "time (ms)" while the page says it has no timestamps (issue
// 13); a timed trace keeps "time (ms)".
func TestUntimedAxis(t *testing.T) {
	for _, c := range []struct {
		clock, unit, not string
	}{{"order", "step", "time (ms)"}, {"ms", "time (ms)", ">step<"}} {
		tr := loadTrace(t, smallTrace)
		tr.Source = &trace.Source{Format: "jsonl", Clock: c.clock}
		tl := newTimeline(tr)
		if tl.AxisUnit != c.unit {
			t.Errorf("clock %q: axis unit %q, want %q", c.clock, tl.AxisUnit, c.unit)
		}
		svg := renderString(t, timelineSVG(tl))
		if !strings.Contains(svg, ">"+c.unit+"<") || strings.Contains(svg, c.not) {
			t.Errorf("clock %q: the rendered axis does not say %q alone", c.clock, c.unit)
		}
	}
}

// Rule (a chart draws every label whole): the time axis's labels stay
// inside the chart, in the wide layout and in the narrow one, whose margin
// right of the plot (16 units) is narrower than half of a five-digit label
// ("10000", 36.5 units): that label's centre moves left, its tick does not.
func TestAxisLabelsStayInsideTheChart(t *testing.T) {
	tr := loadTrace(t, smallTrace)
	tr.Events[len(tr.Events)-1].At = 9500 // the axis runs to 10000 ms
	for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
		last := tl.Ticks[len(tl.Ticks)-1]
		if last.Label != "10000" {
			t.Fatalf("%stimeline: last tick %q, want 10000", tl.IDPrefix, last.Label)
		}
		for _, tk := range tl.Ticks {
			half := textWidth(tk.Label) / 2
			if tk.LabelX-half < 0 || tk.LabelX+half > tl.Width {
				t.Errorf("%stimeline: label %q spans %.1f..%.1f, outside 0..%.1f", tl.IDPrefix, tk.Label, tk.LabelX-half, tk.LabelX+half, tl.Width)
			}
			if tk.X != tl.PlotLeft+float64(tk.Ms)*(tl.PlotRight-tl.PlotLeft)/float64(tl.DomainMs) {
				t.Errorf("%stimeline: tick %q moved to x %.1f; only its label may move", tl.IDPrefix, tk.Label, tk.X)
			}
		}
		if tl.IDPrefix != "" && last.LabelX >= last.X {
			t.Errorf("narrow timeline: label 10000 centred at %.1f, its tick at %.1f: it would be cut at the edge (%.1f)", last.LabelX, last.X, tl.Width)
		}
	}
}
