package templates

// Label geometry of the timeline: the network band's rows of arrow labels,
// lane offsets, mark rows, the legend and the accessible summary.

import (
	"fmt"
	"math"
	"slices"
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
func (g geometry) line(a arrow) (x1, y1, x2, y2 float64) {
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
// network lane) so that no two labels overlap and no label covers another
// arrow (on a phone the task page's labels stacked over the
// arrows), or returns nil when a label finds no row free of labels that
// more rows would give it. Each row is kept as its right end, as mark rows
// are (markRows): arrows come in the order they were sent, so a label fits
// a row when it starts at or right of the row's end. A label that covers
// another arrow in every row is replaced by a key number ("3", listed under
// the legend: arrowKeys) where that fits, or drawn without words (its
// title keeps them). With force, it never fails: a label that fits no row
// takes its key number the same way. Arrows within bundleW units of a
// label's own arrow count as its bundle (a request and its answer 1 ms
// apart), not as arrows it covers. The cover test looks at the arrows sent
// within the label's width of it, so placing one costs bandRows times
// those; past coverCheckArrows arrows it is skipped (a long run's labels
// are dropped by rows anyway).
//
// It returns each arrow's row offset and how its label is drawn: labelWords,
// labelShort (shortened on the arrow), labelKey or labelNone.
func (g geometry) layoutLabels(arrows []arrow, force bool) ([]int, []int) {
	b := g.newLabelBand(arrows)
	out := make([]int, len(arrows))
	mode := make([]int, len(arrows))
	shorts := make([]string, len(arrows))
	keys := 0
	for i, a := range arrows {
		if a.Label == "" {
			continue
		}
		// An undelivered arrow ends on the network lane, where its end
		// glyph sits: its label goes on the sender's side of the band.
		side := 0
		if !a.Delivered {
			side = 1
			if b.lines[i][1] < 0 {
				side = -1
			}
		}
		try := func(w float64) (row int, ok, clear bool) { return b.try(i, side, w) }
		w := a.LabelW
		row, ok, clear := try(w)
		if !ok && clear && !force {
			return nil, nil // more rows would give it room
		}
		if !ok {
			// Fewer words: the label without its method's leading
			// segments (fitLabel, never cut at an ellipsis), then its
			// short form; then a key number in place of the words; or
			// none.
			for _, short := range shorterLabels(a) {
				w = textWidth(short)
				if row, ok, _ = try(w); ok {
					mode[i], shorts[i] = labelShort, short
					break
				}
			}
		}
		if !ok {
			mode[i], w = labelNone, keyW
			if keys < maxKeys {
				if row, ok, _ = try(w); ok {
					mode[i] = labelKey
					keys++
				}
			}
		}
		if mode[i] == labelNone {
			continue
		}
		_, hi := b.span(i, row, w)
		b.ends[row+b.half] = max(b.ends[row+b.half], hi)
		out[i] = row
	}
	for i, sh := range shorts {
		if sh != "" {
			arrows[i].Label, arrows[i].LabelW = sh, textWidth(sh)
		}
	}
	return out, mode
}

// labelBand is the network band while layoutLabels fills it: the arrows'
// lines relative to the band's centre, and where each row's labels end so
// far.
type labelBand struct {
	g       geometry
	half    int       // rows above (and below) the centre row
	ends    []float64 // x where each row's last label ends, by row + half
	offs    []int     // the rows in the order they are tried
	check   bool      // whether labels avoid covering arrows (coverCheckArrows)
	lines   [][4]float64
	maxSpan float64 // the widest arrow's horizontal extent
}

func (g geometry) newLabelBand(arrows []arrow) *labelBand {
	half := g.bandRows / 2
	ends := make([]float64, g.bandRows)
	for i := range ends {
		ends[i] = math.Inf(-1)
	}
	offs := offsets(half)
	check := len(arrows) <= coverCheckArrows
	lines := make([][4]float64, len(arrows))
	maxSpan := 0.0
	for i, a := range arrows {
		x1, y1, x2, y2 := g.line(a)
		lines[i] = [4]float64{x1, y1, x2, y2}
		maxSpan = max(maxSpan, math.Abs(x2-x1))
	}
	return &labelBand{g: g, half: half, ends: ends, offs: offs, check: check, lines: lines, maxSpan: maxSpan}
}

// covers reports whether [lo, hi] at height y meets an arrow other than i
// and its bundle.
func (b *labelBand) covers(i int, y, lo, hi float64) bool {
	check, lines, maxSpan := b.check, b.lines, b.maxSpan
	if !check {
		return false
	}
	own := xAtY(lines[i], y)
	hit := func(j int) bool {
		x := xAtY(lines[j], y)
		return !math.IsNaN(x) && x > lo-1 && x < hi+1 && math.Abs(x-own) > bundleW
	}
	for j := i - 1; j >= 0 && lines[j][0] >= lo-maxSpan-1; j-- {
		if hit(j) {
			return true
		}
	}
	for j := i + 1; j < len(lines) && lines[j][0] <= hi+1; j++ {
		if hit(j) {
			return true
		}
	}
	return false
}

// span is where a label of width w on arrow i's line, in row off, starts
// and ends, padding included.
func (b *labelBand) span(i, off int, w float64) (lo, hi float64) {
	x1, y1, x2, y2 := b.lines[i][0], b.lines[i][1], b.lines[i][2], b.lines[i][3]
	x := b.g.f.labelX(x1, y1, x2, y2, float64(off)*rowH, w)
	return x - w/2 - labelPad, x + w/2 + labelPad
}

// try places arrow i's label of width w in the first row (on its side of
// the band, when side is not 0) free of labels and arrows; clear says
// some row is free of arrows.
func (b *labelBand) try(i, side int, w float64) (row int, ok, clear bool) {
	for _, off := range b.offs {
		if side != 0 && off*side <= 0 {
			continue
		}
		lo, hi := b.span(i, off, w)
		if b.covers(i, float64(off)*rowH, lo, hi) {
			continue
		}
		clear = true
		if b.ends[off+b.half] <= lo {
			return off, true, true
		}
	}
	return 0, false, clear
}

// shorterLabels are the fewer words an arrow's label may take, longest
// first: the label without its method's leading segments (fitLabel, never
// cut at an ellipsis), then its short form.
func shorterLabels(a arrow) []string {
	var cands []string
	for n := len([]rune(a.Label)) - 1; n >= minLabelChars; n-- {
		short := fitLabel(a.Label, float64(n)*charW)
		if !strings.HasSuffix(short, "…") && !slices.Contains(cands, short) {
			cands = append(cands, short)
		}
	}
	if a.Short != "" {
		cands = append(cands, a.Short)
	}
	return cands
}

// How an arrow's label is drawn (layoutLabels).
const (
	labelWords = iota // its words
	labelKey          // a key number, its words under the legend
	labelNone         // nothing (its title keeps the words)
	labelShort        // fewer words (fitLabel), already set on the arrow
)

// minLabelChars is the fewest characters a shortened arrow label keeps
// (with its ellipsis); shorter, a key number says more.
const minLabelChars = 10

// maxKeys bounds the key numbers of one timeline: 99, so a key is at most
// two digits (keyW).
const maxKeys = 99

// Bounds of the cover test (layoutLabels).
const (
	bundleW          = 3.0  // arrows this close to a label's own (SVG units) are its bundle
	keyW             = 14.6 // width of a key number of two digits
	coverCheckArrows = 2000 // arrows at most for the cover test; longer runs skip it
)

// xAtY is the x where the line (x1,y1)-(x2,y2) crosses height y, NaN when
// it does not reach it.
func xAtY(l [4]float64, y float64) float64 {
	x1, y1, x2, y2 := l[0], l[1], l[2], l[3]
	if y < min(y1, y2)-0.5 || y > max(y1, y2)+0.5 {
		return math.NaN()
	}
	if y2 == y1 {
		return x1
	}
	return x1 + (x2-x1)*(y-y1)/(y2-y1)
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

// maxMarkRows bounds the rows of mark labels on one lane: 12 rows (216 SVG
// units) above or below the lane line. The built-in scenarios use at most
// 10 (practice-reserve-inventory, narrow); a long run (60,000 marks) would otherwise stack thousands of rows
// and draw an SVG over 100,000 units tall. Past the bound a mark takes the
// row that frees first, without its label when that row is still busy (its
// tooltip keeps the label).
const maxMarkRows = 12

// markRows are the label rows of one lane, each kept as its right end (the
// largest x any label in it reaches). Marks arrive in time order, so a
// label fits in a row when it starts at or right of the row's end; placing
// one costs at most maxMarkRows comparisons, so a lane's layout is linear
// in its marks.
type markRows []float64

// place returns the row for a label spanning [lo, hi]: the first row whose
// end is at or left of lo (free true), else a new row while there are
// fewer than maxMarkRows, else the row that ends first (free false).
func (r markRows) place(lo, hi float64) (row int, free bool) {
	best := -1
	for i, end := range r {
		if end <= lo {
			return i, true
		}
		if best < 0 || end < r[best] {
			best = i
		}
	}
	if len(r) < maxMarkRows {
		return len(r), true
	}
	return best, false
}

// take records a label ending at hi in row (len(*r) opens a new row).
func (r *markRows) take(row int, hi float64) {
	if row == len(*r) {
		*r = append(*r, hi)
		return
	}
	(*r)[row] = max((*r)[row], hi)
}

// fitMark sets where m's label starts (right of its glyph, or left of it
// when the frame has no room on the right, shortened where neither side
// has room) and returns the x span the glyph and label occupy.
func (f frame) fitMark(m *mark) (lo, hi float64) {
	w := textWidth(m.Label)
	lo, hi = m.X-glyphR-2, m.X+glyphR+4+w
	m.LabelX = m.X + glyphR + 4
	if hi > f.width-4 && m.Label != "" {
		// No room on the right: draw it to the left of the glyph, and
		// where neither side has room (a long label mid-way across a
		// narrow frame), on the roomier side, shortened.
		right, left := f.width-4-m.LabelX, m.X-glyphR-4-2
		if w > left && right > left {
			m.Label = fitLabel(m.Label, right)
			hi = m.LabelX + textWidth(m.Label)
		} else {
			m.Label = fitLabel(m.Label, left)
			w = textWidth(m.Label)
			lo, hi = m.X-glyphR-4-w, m.X+glyphR+2
			m.LabelX, m.LabelEnd = m.X-glyphR-4, true
		}
	}
	return lo, hi
}

// legendOrder fixes the order of legend entries.
var legendOrder = []legendItem{
	{Kind: kindRequest, Text: "request"},
	{Kind: kindResult, Text: "result"},
	{Kind: kindError, Text: "error response"},
	{Kind: kindProgress, Text: "progress"},
	{Kind: kindCancel, Text: "notifications/cancelled"},
	{Kind: kindClose, Text: "stream closed (cancel signal on HTTP)"},
	{Kind: kindStreamDrop, Text: "stream dropped (not a cancel)"},
	{Kind: kindNotification, Text: "notification"},
	{Kind: kindKeepalive, Text: "keep-alive"},
	{Kind: kindRaw, Text: "malformed / raw message"},
	{Glyph: glyphStart, Text: "handler starts"},
	{Glyph: glyphStatus, Text: "state change"},
	{Glyph: glyphIgnore, Text: "ignored"},
	{Glyph: glyphSuppress, Text: "response suppressed"},
	{Glyph: glyphTimeout, Text: "timeout"},
	{Glyph: glyphError, Text: "error"},
	{Glyph: glyphKeepalive, Text: "keep-alive"},
	{Glyph: glyphActivity, Text: "activity (resets idle clock)"},
	{Glyph: glyphAccept, Text: "response accepted"},
	{Glyph: glyphLost, Text: "lost in transit"},
	{Glyph: glyphClose, Text: "stream closed"},
	{Glyph: glyphHold, Text: "proxy holds the message"},
	{Glyph: glyphFlush, Text: "proxy flushes what it held"},
	{Glyph: glyphSkip, Text: "scripted step that could not happen"},
	{Glyph: glyphOther, Text: "other event"},
	{Glyph: glyphIdleWindow, Text: "idle window (to its deadline)"},
	{Glyph: glyphMaxDeadline, Text: "maximum deadline"},
	{Glyph: glyphViolation, Text: "a check fails here"},
}

// legend lists the legend items of the arrow kinds and glyphs present, plus
// the glyphs named in extra (the deadlines and flags), from y down.
func (f frame) legend(arrows []arrow, marks []mark, y float64, extra ...string) []legendItem {
	kinds := map[string]bool{}
	for _, g := range extra {
		kinds["g:"+g] = true
	}
	for _, a := range arrows {
		kinds["k:"+a.Kind] = true
		if a.Dropped {
			kinds["g:"+glyphLost] = true
		}
	}
	for _, m := range marks {
		kinds["g:"+m.Glyph] = true
	}
	var out []legendItem
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

func summary(tr *trace.Trace, t timeline) string {
	var b strings.Builder
	unit := "ms"
	if untimed(tr) {
		unit = "steps (the transcript has no timestamps)"
	}
	fmt.Fprintf(&b, "Timeline of %d events over %d %s: %d wire messages", len(tr.Events), tr.EndMs, unit, len(t.Arrows))
	var ms []string
	for _, m := range t.Marks {
		if m.Label != "" {
			ms = append(ms, fmt.Sprintf("%s at %d ms on the %s", m.Label, m.At, m.Actor))
		}
	}
	if len(ms) > 0 {
		b.WriteString("; marks: " + strings.Join(ms, ", "))
	}
	for _, d := range t.Deadlines {
		var parts []string
		if d.IdleMs > 0 {
			parts = append(parts, d.IdleLabel.Text)
		}
		if d.MaxMs > 0 {
			parts = append(parts, fmt.Sprintf("max %s ms (deadline at %d ms)", trace.Thousands(d.MaxMs), d.MaxAt))
		}
		fmt.Fprintf(&b, "; request %s deadlines: %s", d.ID, strings.Join(parts, ", "))
	}
	for _, n := range t.Notes {
		b.WriteString("; " + n.Text)
	}
	for _, f := range t.Flags {
		fmt.Fprintf(&b, "; ✗ at %d ms a check fails (%s)", f.At, strings.Join(strings.Fields(f.Rules), ", "))
	}
	b.WriteString(". The event table below lists every event.")
	return b.String()
}

// untimed reports whether tr is an imported transcript without timestamps
// (trace.Source Clock "order"): its times are step numbers, not ms.
func untimed(tr *trace.Trace) bool { return tr.Source != nil && tr.Source.Clock == "order" }
