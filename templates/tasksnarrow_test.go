package templates

import (
	"strings"
	"testing"
)

// Rule (a chart on a phone has a phone layout, its labels kept): the task
// lanes' narrow layout is the timeline's narrow frame wide, its time axis
// starts right of the longest row name ("client sees") and ends at the
// frame's right; every worker mark keeps its label, each label inside the
// width and none overlapping another on its row; a disagreement's words
// end inside it too (shortened, the title keeping them); the marks are the wide
// layout's; the page draws both layouts, the narrow one under its own ids.
// The wide lanes' 1000 units scrolled in a phone's box.
func TestNarrowTaskLanesFitAPhone(t *testing.T) {
	for _, name := range []string{"task-cancel-ack-not-final", "broken-task-ack-as-final"} {
		t.Run(name, func(t *testing.T) {
			tr := runEdited(t, name)
			v := NewView(tr)
			w, c := newTaskLanes(tr, v.Timeline.DomainMs), newNarrowTaskLanes(tr, v.Timeline.DomainMs)
			if w == nil || c == nil || c.Width != narrowFrame.width || c.IDPrefix != narrowFrame.idPrefix || len(c.Tasks) != len(w.Tasks) {
				t.Fatalf("narrow lanes %+v, want %v units wide with the wide one's tasks", c, narrowFrame.width)
			}
			if name := 10 + textWidth("client sees"); c.PlotLeft < name || c.PlotRight > c.Width-10 {
				t.Errorf("time axis %v..%v, row names end at %.0f, width %v", c.PlotLeft, c.PlotRight, name, c.Width)
			}
			for i, lane := range c.Tasks {
				if len(lane.Marks) != len(w.Tasks[i].Marks) {
					t.Fatalf("task %s: %d marks narrow, %d wide", lane.TaskID, len(lane.Marks), len(w.Tasks[i].Marks))
				}
				for _, d := range lane.Disagree {
					if end := d.X1 + 2 + textWidth(d.Label); d.Label != "" && end > c.Width-2 {
						t.Errorf("task %s: disagreement %q ends at %.0f of %v units", lane.TaskID, d.Label, end, c.Width)
					}
				}
				var spans [][3]float64 // label row y, from, to
				for j, m := range lane.Marks {
					if m.X < c.PlotLeft || m.X > c.PlotRight || m.Seq != w.Tasks[i].Marks[j].Seq {
						t.Errorf("mark %d (seq %d) at x %.0f, want seq %d within %v..%v", j, m.Seq, m.X, w.Tasks[i].Marks[j].Seq, c.PlotLeft, c.PlotRight)
					}
					if m.OnClient || m.Label == "" {
						continue
					}
					if !m.LabelShow {
						t.Errorf("task %s: the %s label %q is hidden", lane.TaskID, m.Kind, m.Label)
					}
					lo, hi := m.X+3, m.X+3+textWidth(m.Label)
					if m.LabelEnd {
						lo, hi = m.X-3-textWidth(m.Label), m.X-3
					}
					if lo < 0 || hi > c.Width-2 {
						t.Errorf("task %s: label %q spans %.0f..%.0f of %v units", lane.TaskID, m.Label, lo, hi, c.Width)
					}
					for _, s := range spans {
						if s[0] == m.LabelY && lo < s[2] && s[1] < hi {
							t.Errorf("task %s: label %q overlaps another on its row", lane.TaskID, m.Label)
						}
					}
					spans = append(spans, [3]float64{m.LabelY, lo, hi})
				}
			}
			html := renderString(t, Output(tr))
			for _, want := range []string{`id="task-lanes"`, `id="narrow-task-lanes"`, `class="chart task-lanes task-lanes-narrow"`, `id="narrow-task-`} {
				if !strings.Contains(html, want) {
					t.Errorf("the output lacks %s", want)
				}
			}
		})
	}
}
