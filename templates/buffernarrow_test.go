package templates

import (
	"strings"
	"testing"
)

// Rule (a chart on a phone has a phone layout, its labels kept): the
// buffer chart's narrow layout is the timeline's narrow frame wide; every
// fact of its header (the wide one's, word for word) and every legend item
// ends inside it by the labels' width estimate, the rows it wraps into
// pushing the plot down; its marks are the wide chart's, on its own time
// axis; the page draws both layouts, the narrow one under its own ids. The
// wide chart's 1,000 units scrolled in a phone's box and cut its header
// off after "capacity 3".
func TestNarrowBufferChartFitsAPhone(t *testing.T) {
	legendText := [5]float64{30 + textWidth("depth"), 30 + textWidth("capacity"),
		10 + textWidth("newer progress replaced the buffered one"), 10 + textWidth("dropped"),
		8 + textWidth("final response reaches the client")}
	for _, tt := range []struct {
		name  string
		edits [][2]string
	}{
		{"reference: six facts", nil},
		{"unbounded: five facts", [][2]string{{"buffer.capacity", "0"}, {"consumer.drainEveryMs", "1000"}}},
		{"drop-newest: final dropped", [][2]string{{"buffer.policy", `"drop-newest"`}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := runEdited(t, "buffer-reference-coalesce", tt.edits...)
			v := NewView(tr)
			wide, narrow := newBufferCharts(tr, v.Timeline.DomainMs), newNarrowBufferCharts(tr, v.Timeline.DomainMs)
			if len(wide) != 1 || len(narrow) != 1 {
				t.Fatalf("%d wide and %d narrow charts, want 1 each", len(wide), len(narrow))
			}
			w, c := wide[0], narrow[0]
			if c.Width != narrowFrame.width || c.IDPrefix != narrowFrame.idPrefix || !c.Narrow {
				t.Fatalf("narrow chart %v units wide, prefix %q; want %v, %q", c.Width, c.IDPrefix, narrowFrame.width, narrowFrame.idPrefix)
			}
			if len(c.Flags) != len(w.Flags) {
				t.Fatalf("narrow header %+v, wide %+v: want the same facts", c.Flags, w.Flags)
			}
			rows := map[float64]bool{}
			for i, f := range c.Flags {
				if f.Text != w.Flags[i].Text {
					t.Errorf("fact %d is %q narrow, %q wide", i, f.Text, w.Flags[i].Text)
				}
				if end := f.X + textWidth(f.Text); end > c.Width-4 {
					t.Errorf("fact %q ends at %.0f of %.0f units", f.Text, end, c.Width)
				}
				rows[f.Y] = true
			}
			if len(rows) < 2 || w.Flags[len(w.Flags)-1].Y != w.Flags[0].Y {
				t.Errorf("header in %d rows narrow, wide from y %v to %v: want the wide one in one row, the narrow in more", len(rows), w.Flags[0].Y, w.Flags[len(w.Flags)-1].Y)
			}
			if last := c.Flags[len(c.Flags)-1].Y; c.MarkRow1 <= last+8 || c.PlotTop <= c.MarkRow2 {
				t.Errorf("header's last row at %v, marks at %v and %v, plot at %v: want each below the one before", last, c.MarkRow1, c.MarkRow2, c.PlotTop)
			}
			for i, p := range c.Legend {
				if end := c.PlotLeft + p.X + legendText[i]; end > c.Width-4 {
					t.Errorf("legend item %d ends at %.0f of %.0f units", i, end, c.Width)
				}
				if y := c.PlotBottom + 36 + p.Y; y > c.Height-4 {
					t.Errorf("legend item %d at y %.0f of %.0f units", i, y, c.Height)
				}
			}
			if len(c.Marks) != len(w.Marks) {
				t.Fatalf("%d marks narrow, %d wide", len(c.Marks), len(w.Marks))
			}
			for i, m := range c.Marks {
				if m.Seq != w.Marks[i].Seq || m.X < c.PlotLeft || m.X > c.PlotRight {
					t.Errorf("mark %d: seq %d at x %.0f, want seq %d within %v..%v", i, m.Seq, m.X, w.Marks[i].Seq, c.PlotLeft, c.PlotRight)
				}
			}
			last := c.XTicks[len(c.XTicks)-1]
			if len(c.XTicks) > int(narrowFrame.maxTicks)+1 || last.X+textWidth(last.Label)/2 > c.Width-2 {
				t.Errorf("%d time ticks, the last %q at %.0f: want at most %d inside %v units", len(c.XTicks), last.Label, last.X, narrowFrame.maxTicks+1, c.Width)
			}
			html := renderString(t, Output(tr))
			for _, want := range []string{`id="buffer-chart-0"`, `id="narrow-buffer-chart-0"`, `class="chart buffer-chart buffer-chart-narrow"`} {
				if !strings.Contains(html, want) {
					t.Errorf("the output lacks %s", want)
				}
			}
		})
	}
}
