package templates

import (
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// sessionBand is one session of an imported transcript that holds several
// (trace.Event.Session: a bridge's second initialize, another
// Mcp-Session-Id), drawn as a labelled band behind the lanes over the time
// its events span, so sessions whose request ids repeat are seen apart.
type sessionBand struct {
	Label    string
	From, To int64   // the first and last event's time (ms)
	X, W     float64 // the band's left edge and width
	Y, H     float64 // from the grid's top to the axis
	LabelY   float64 // baseline of the label, just above the axis
}

// sessionBands lays out the sessions of tr's events in order of first
// appearance (none when no event names a session) and returns them with
// summary extended to name each and its span.
func sessionBands(tr *trace.Trace, xOf func(int64) float64, t timeline) ([]sessionBand, string) {
	index := map[string]int{}
	var out []sessionBand
	for _, e := range tr.Events {
		if e.Session == "" {
			continue
		}
		i, ok := index[e.Session]
		if !ok {
			i = len(out)
			index[e.Session] = i
			out = append(out, sessionBand{Label: e.Session, From: e.At, To: e.At})
		}
		out[i].From, out[i].To = min(out[i].From, e.At), max(out[i].To, e.At)
	}
	if len(out) == 0 {
		return nil, t.Summary
	}
	var names []string
	for i := range out {
		s := &out[i]
		x1, x2 := xOf(s.From)-4, xOf(s.To)+4
		s.X, s.W = x1, max(x2-x1, 8)
		s.Y, s.H = t.GridY1, t.AxisY-t.GridY1
		// A band that starts inside the one before (concurrent sessions)
		// puts its label a row higher, so the two labels do not overlap.
		s.LabelY = t.AxisY - 5
		if i > 0 && s.From <= out[i-1].To && out[i-1].LabelY == s.LabelY {
			s.LabelY -= rowH
		}
		names = append(names, fmt.Sprintf("%s (%d to %d)", s.Label, s.From, s.To))
	}
	summary := strings.TrimSuffix(t.Summary, " The event table below lists every event.")
	return out, summary + fmt.Sprintf(" %d sessions, drawn as bands: %s.", len(out), strings.Join(names, ", ")) + " The event table below lists every event."
}
