package templates

import (
	"strings"
	"testing"
)

// Rule (a chart on a phone has a phone layout, its labels kept): the herd
// chart's narrow layout is the timeline's narrow frame wide, its plot
// reaches the last client's return (7,518 ms of the reference herd, not
// the 3,000 ms the wide chart showed in a phone's box), and every text it
// draws (title, two header lines, the last time tick, each legend row)
// ends inside it by the labels' width estimate; the page draws both
// layouts, the narrow one under its own ids.
func TestNarrowHerdChartFitsAPhone(t *testing.T) {
	tr := runEdited(t, "herd-reference-backoff")
	c := newNarrowHerdChart(tr.Herd)
	if c == nil || c.Width != narrowFrame.width || c.IDPrefix != narrowFrame.idPrefix {
		t.Fatalf("narrow herd chart %+v, want one %v units wide", c, narrowFrame.width)
	}
	if c.AllBackMs != 7518 || c.DomainMs < c.AllBackMs {
		t.Errorf("the plot ends at %d ms, the herd is back at %d ms: want the whole return (7,518 ms)", c.DomainMs, c.AllBackMs)
	}
	texts := []float64{10 + textWidth("strategy "+c.Strategy), 10 + textWidth(c.Header), 10 + textWidth(c.Header2),
		10 + 20 + textWidth("second boundary (capacity is per second)"), 10 + 20 + textWidth("attempts per "+i64(c.BucketMs)+" ms")}
	last := c.XTicks[len(c.XTicks)-1]
	texts = append(texts, last.X+textWidth(last.Label)/2)
	for i, end := range texts {
		if end > c.Width-4 {
			t.Errorf("text %d ends at %.0f of %.0f units", i, end, c.Width)
		}
	}
	if c.Header2 == "" || !strings.Contains(c.Header+c.Header2, "all back at 7,518 ms") {
		t.Errorf("header %q / %q, want the herd's return on its own line", c.Header, c.Header2)
	}
	html := renderString(t, Output(tr))
	for _, id := range []string{`id="herd-chart"`, `id="narrow-herd-chart"`, `class="chart herd-chart herd-chart-narrow"`} {
		if !strings.Contains(html, id) {
			t.Errorf("the output lacks %s", id)
		}
	}
}
