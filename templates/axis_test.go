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
