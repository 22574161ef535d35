package templates

// Label geometry of the timeline: the network band's rows of arrow labels,
// lane offsets, tick steps, the legend and the accessible summary.

import (
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// geometry holds what label layout needs to know of the final picture
// before the y positions are fixed: lane order, rows of marks per lane, the
// network band's height, and the time scale.
type geometry struct {
	f         frame
	netIdx    int
	laneIndex map[string]int
	rows      []int // rows of marks per lane, >= 1
	bandRows  int   // rows of the network band, odd
	xOf       func(int64) float64
}

// rel is the y of lane i relative to the network lane's centre: lanes above
// are negative and stack their marks upward, lanes below are positive and
// stack downward.
func (g geometry) rel(i int) float64 {
	d := float64(g.bandRows)*rowH/2 + laneGap
	switch {
	case i < g.netIdx:
		y := -d
		for j := i + 1; j < g.netIdx; j++ {
			y -= float64(g.rows[j])*rowH + laneGap
		}
		return y
	case i > g.netIdx:
		y := d
		for j := g.netIdx + 1; j < i; j++ {
			y += float64(g.rows[j])*rowH + laneGap
		}
		return y
	}
	return 0
}

// line is an arrow's tail and head, y relative to the network lane's
// centre; a stub ends on the network lane below its tail.
func (g geometry) line(a Arrow) (x1, y1, x2, y2 float64) {
	x1, y1 = g.xOf(a.SentAt), g.rel(g.laneIndex[a.From])
	switch {
	case a.Delivered:
		return x1, y1, g.xOf(a.At), g.rel(g.laneIndex[a.To])
	case a.Dropped:
		return x1, y1, g.xOf(a.At), 0
	}
	return x1, y1, x1, 0
}

// layoutLabels assigns each labelled arrow a row offset (in rows from the
// network lane) so that no two labels overlap, or returns nil when they do
// not fit. With force, it never fails: each label takes the row where it
// overlaps the fewest others.
func (g geometry) layoutLabels(arrows []Arrow, force bool) []int {
	half := g.bandRows / 2
	rows := make([][][2]float64, g.bandRows)
	out := make([]int, len(arrows))
	for i, a := range arrows {
		if a.Label == "" {
			continue
		}
		x1, y1, x2, y2 := g.line(a)
		span := func(off int) (lo, hi float64) {
			x := g.f.labelX(x1, y1, x2, y2, float64(off)*rowH, a.LabelW)
			return x - a.LabelW/2 - labelPad, x + a.LabelW/2 + labelPad
		}
		// An undelivered arrow ends on the network lane, where its end
		// glyph sits: its label goes on the sender's side of the band.
		side := 0
		if !a.Delivered {
			side = 1
			if y1 < 0 {
				side = -1
			}
		}
		best, bestN := side, -1
		for _, off := range offsets(half) {
			if side != 0 && off*side <= 0 {
				continue
			}
			lo, hi := span(off)
			n := 0
			for _, iv := range rows[off+half] {
				if lo < iv[1] && iv[0] < hi {
					n++
				}
			}
			if bestN < 0 || n < bestN {
				best, bestN = off, n
			}
			if n == 0 {
				break
			}
		}
		if bestN > 0 && !force {
			return nil
		}
		lo, hi := span(best)
		rows[best+half] = append(rows[best+half], [2]float64{lo, hi})
		out[i] = best
	}
	return out
}

// offsets lists row offsets from the centre outward: 0, -1, 1, -2, 2, ...
func offsets(half int) []int {
	out := []int{0}
	for k := 1; k <= half; k++ {
		out = append(out, -k, k)
	}
	return out
}

// labelX is the x where a label of width w centred at height y sits on the
// line (x1,y1)-(x2,y2), kept inside the drawing with its background.
func (f frame) labelX(x1, y1, x2, y2, y, w float64) float64 {
	x := x1
	if y2 != y1 {
		t := (y - y1) / (y2 - y1)
		t = min(1, max(0, t))
		x = x1 + (x2-x1)*t
	}
	return min(f.width-w/2-labelPad-2, max(f.labelMinX+w/2, x))
}

// overlaps reports whether [lo,hi] meets any interval of occ (pairs).
func overlaps(occ [][2]float64, lo, hi float64) bool {
	for _, iv := range occ {
		if lo < iv[1] && iv[0] < hi {
			return true
		}
	}
	return false
}

// niceStep returns a 1-2-5 tick step giving at most 10 ticks up to maxMs.
func niceStep(maxMs int64) int64 { return niceStepN(maxMs, 10) }

// niceStepN returns a 1-2-5 tick step giving at most n ticks up to maxMs.
func niceStepN(maxMs, n int64) int64 {
	if maxMs <= 0 {
		return 100
	}
	for p := int64(1); ; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if s := m * p; maxMs/s < n {
				return s
			}
		}
	}
}

// legendOrder fixes the order of legend entries.
var legendOrder = []LegendItem{
	{Kind: KindRequest, Text: "request"},
	{Kind: KindResult, Text: "result"},
	{Kind: KindError, Text: "error response"},
	{Kind: KindProgress, Text: "progress"},
	{Kind: KindCancel, Text: "notifications/cancelled"},
	{Kind: KindClose, Text: "stream closed (cancel signal on HTTP)"},
	{Kind: KindNotification, Text: "notification"},
	{Kind: KindKeepalive, Text: "keep-alive"},
	{Kind: KindRaw, Text: "malformed / raw message"},
	{Glyph: GlyphStart, Text: "handler starts"},
	{Glyph: GlyphStatus, Text: "state change"},
	{Glyph: GlyphIgnore, Text: "ignored"},
	{Glyph: GlyphSuppress, Text: "response suppressed"},
	{Glyph: GlyphTimeout, Text: "timeout"},
	{Glyph: GlyphError, Text: "error"},
	{Glyph: GlyphKeepalive, Text: "keep-alive"},
	{Glyph: GlyphActivity, Text: "idle clock reset"},
	{Glyph: GlyphAccept, Text: "response accepted"},
	{Glyph: GlyphLost, Text: "lost in transit"},
	{Glyph: GlyphClose, Text: "stream closed"},
	{Glyph: GlyphHold, Text: "proxy holds the message"},
	{Glyph: GlyphFlush, Text: "proxy flushes what it held"},
	{Glyph: GlyphOther, Text: "other event"},
}

func (f frame) legend(arrows []Arrow, marks []Mark, y float64) []LegendItem {
	kinds := map[string]bool{}
	for _, a := range arrows {
		kinds["k:"+a.Kind] = true
		if a.Dropped {
			kinds["g:"+GlyphLost] = true
		}
	}
	for _, m := range marks {
		kinds["g:"+m.Glyph] = true
	}
	var out []LegendItem
	// The legend starts under the plot; a narrow frame has no room to
	// spare for the lane-name gutter, so its legend starts at the edge.
	left := f.left
	if f.width < svgWidth {
		left = 8
	}
	x := left
	for _, it := range legendOrder {
		if (it.Kind != "" && !kinds["k:"+it.Kind]) || (it.Glyph != "" && !kinds["g:"+it.Glyph]) {
			continue
		}
		w := 34 + textWidth(it.Text) + 18
		if x+w > f.width && x > left {
			x, y = left, y+rowH+4
		}
		it.X, it.Y = x, y
		out = append(out, it)
		x += w
	}
	return out
}

func summary(tr *trace.Trace, t Timeline) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Timeline of %d events over %d ms: %d wire messages", len(tr.Events), tr.EndMs, len(t.Arrows))
	var ms []string
	for _, m := range t.Marks {
		if m.Label != "" {
			ms = append(ms, fmt.Sprintf("%s at %d ms on the %s", m.Label, m.At, m.Actor))
		}
	}
	if len(ms) > 0 {
		b.WriteString("; marks: " + strings.Join(ms, ", "))
	}
	b.WriteString(". The event table below lists every event.")
	return b.String()
}
