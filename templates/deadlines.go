package templates

// Deadlines and violations drawn on the timeline ("time drawn as
// time"): each request's idle windows and its maximum deadline in rows
// above the client lane, and a flag at every event a failed check names.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// Geometry of the deadline rows and the violation strip, in SVG units.
const (
	deadlineRowH    = 32.0 // one request's deadlines: the idle sub-row, then the max sub-row
	idleBarH        = 8.0  // height of an idle window's bar
	flagRowH        = 18.0 // one row of violation flags
	maxDeadlineRows = 4    // request rows at most (16 requests of practice-reserve-inventory pack into 1)
	maxFlagRows     = 3    // flag rows at most; past that a flag keeps its line and ring, its words go to the title
)

// deadline is one request's client-side deadlines, as the trace's request
// summary states them (trace.Request IdleTimeoutMs and MaxTimeoutMs,
// DOMAIN.md §2): the idle windows, each from the send or the last reset
// (an activity event of the request) to the next reset, the request's end
// or the idle expiry, whichever comes first; and the maximum deadline at
// send + max, which no reset moves.
type deadline struct {
	ID     string // the request's id as JSON text
	IdleMs int64  // 0 = no idle timeout
	MaxMs  int64  // 0 = no maximum
	// Row is the request's deadline row (0 at the top); Y is the centre of
	// its idle sub-row, MaxY that of its max sub-row.
	Row     int
	Y, MaxY float64
	Windows []idleWindow
	// MaxAt is send + max (ms); MaxX1 and MaxX2 are the line's ends (the
	// send and the deadline, or the domain's end when the deadline falls
	// after it: MaxBeyond).
	MaxAt        int64
	MaxX1, MaxX2 float64
	MaxBeyond    bool
	MaxTitle     string
	IdleLabel    deadlineLabel
	MaxLabel     deadlineLabel
	lo, hi       float64 // x extent, labels included (row packing)
	endMs        int64
	sentAt       int64
	resets       []int64
	resetReasons []string
}

// idleWindow is one stretch of a request's idle clock: From (the send or a
// reset) until Until (the next reset, the request's end or the expiry),
// with its deadline at Expiry = From + idle. Expired says the window ran
// its full length (the idle timeout fired, or would have).
type idleWindow struct {
	From, Until, Expiry int64
	X1, X2, XExpiry     float64
	Expired             bool
	// Last says no reset followed: the expiry tick is drawn (dashed past
	// the request's end when it never came).
	Last  bool
	Title string
}

// deadlineLabel is the words of a deadline ("idle 500 ms"), anchored at X
// (its start, or its end when End), beside the bar or line, or above it
// (Above) when neither side of it has room, as in the narrow frame.
type deadlineLabel struct {
	Text  string
	X, W  float64
	End   bool
	Above bool
}

// violationFlag marks one event a failed check names: a ring at the event,
// a dashed line up to the flag row and, unless the same rules were already
// flagged at an earlier event, the rules in words ("✗ max-timeout-enforced").
type violationFlag struct {
	Seq   int
	At    int64
	Rules string // space-separated rule names
	X, Y  float64
	// FlagY is the centre of the flag's row in the strip above the lanes;
	// a flag without words has no row and draws only its ring.
	FlagY  float64
	row    int
	Text   string // "" when the words sit at an earlier flag or found no free row
	Title  string
	TextX  float64
	TextW  float64
	EndPos bool // the text ends at TextX (drawn leftward)
}

// violationNote is a failed check that names no event: said in words in
// the flag strip, so the picture never looks clean while a rule broke.
type violationNote struct {
	Text string
	Y    float64
}

// newDeadlines lists the deadlines of tr's requests that have an idle or a
// maximum timeout, windows and lines placed on the x scale; rows and y are
// set by packDeadlines.
func newDeadlines(tr *trace.Trace, f frame, xOf func(int64) float64, domainMs int64) []deadline {
	var out []deadline
	index := map[string]int{}
	for _, r := range tr.Requests {
		if r.IdleTimeoutMs <= 0 && r.MaxTimeoutMs <= 0 {
			continue
		}
		d := deadline{ID: r.ID.Raw(), IdleMs: r.IdleTimeoutMs, MaxMs: r.MaxTimeoutMs, sentAt: r.SentAt, endMs: tr.EndMs}
		if r.EndedAt != nil {
			d.endMs = *r.EndedAt
		}
		index[d.ID] = len(out)
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil
	}
	for _, e := range tr.Events {
		if e.Type != trace.TypeActivity || e.ID == nil {
			continue
		}
		if i, ok := index[e.ID.Raw()]; ok {
			out[i].resets = append(out[i].resets, e.At)
			out[i].resetReasons = append(out[i].resetReasons, e.Note)
		}
	}
	clip := func(ms int64) float64 { return xOf(min(ms, domainMs)) }
	for i := range out {
		d := &out[i]
		d.lo, d.hi = xOf(d.sentAt), xOf(d.sentAt)
		if d.IdleMs > 0 {
			d.windows(clip)
			d.IdleLabel = deadlineLabel{Text: "idle " + trace.Thousands(d.IdleMs) + " ms"}
			last := d.Windows[len(d.Windows)-1]
			d.placeLabel(&d.IdleLabel, f, xOf(d.sentAt), max(last.X2, last.XExpiry))
		}
		if d.MaxMs > 0 {
			d.MaxAt = d.sentAt + d.MaxMs
			d.MaxX1, d.MaxX2 = xOf(d.sentAt), clip(d.MaxAt)
			d.MaxBeyond = d.MaxAt > domainMs
			d.MaxTitle = fmt.Sprintf("Maximum deadline of request %s: sent at %d ms + max %d ms = %d ms. No progress moves it.", d.ID, d.sentAt, d.MaxMs, d.MaxAt)
			if s := tr.Scenario; s != nil && s.Client.Policy.ProgressResetsMax {
				// The broken client moves its own deadline with each
				// progress; the rule, and the line, keep the configured one.
				d.MaxTitle = fmt.Sprintf("Configured maximum deadline of request %s: sent at %d ms + max %d ms = %d ms. This client lets progress move it (progressResetsMax, broken); the rule holds the request to this one.", d.ID, d.sentAt, d.MaxMs, d.MaxAt)
			}
			text := "max " + trace.Thousands(d.MaxMs) + " ms"
			if d.MaxBeyond {
				text += " →"
				d.MaxTitle += " It falls after the run's last event."
			}
			d.MaxLabel = deadlineLabel{Text: text}
			d.placeLabel(&d.MaxLabel, f, d.MaxX1, d.MaxX2)
		}
	}
	return out
}

// windows splits the request's life into idle windows at its resets.
func (d *deadline) windows(clip func(int64) float64) {
	from := d.sentAt
	for k := 0; ; k++ {
		var next int64 = -1
		reason := ""
		for k < len(d.resets) && d.resets[k] < from {
			k++
		}
		if k < len(d.resets) {
			next, reason = d.resets[k], d.resetReasons[k]
		}
		expiry := from + d.IdleMs
		w := idleWindow{From: from, Expiry: expiry}
		if next == from {
			continue // a reset at the window's own start moves nothing
		}
		switch {
		case next >= 0 && next < expiry && next < d.endMs:
			w.Until = next
		case expiry <= d.endMs:
			w.Until, w.Expired, w.Last = expiry, true, true
		default:
			w.Until, w.Last = d.endMs, true
		}
		w.X1, w.X2, w.XExpiry = clip(w.From), clip(w.Until), clip(w.Expiry)
		w.Title = fmt.Sprintf("Idle window of request %s: from %d ms, deadline %d ms (idle %d ms).", d.ID, w.From, w.Expiry, d.IdleMs)
		switch {
		case !w.Last:
			w.Title += fmt.Sprintf(" Reset at %d ms, before the deadline: %s", w.Until, reason)
		case w.Expired:
			w.Title += " Nothing reset it: the idle deadline was reached."
		default:
			w.Title += fmt.Sprintf(" The request ended at %d ms, before it.", w.Until)
		}
		d.Windows = append(d.Windows, w)
		d.hi = max(d.hi, w.X2, w.XExpiry)
		if w.Last {
			return
		}
		from = next
	}
}

// placeLabel puts a deadline's words left of its start when the frame has
// room there, else right of its end, else over its start on a background;
// it widens the deadline's extent to include them.
func (d *deadline) placeLabel(l *deadlineLabel, f frame, start, end float64) {
	l.W = textWidth(l.Text)
	switch {
	case start-6-l.W >= 4:
		l.X, l.End = start-6, true
		d.lo = min(d.lo, l.X-l.W)
	case end+6+l.W <= f.width-4:
		l.X = end + 6
		d.hi = max(d.hi, l.X+l.W)
	default:
		l.X, l.Above = max(4, min(start, f.width-4-l.W)), true
		d.hi = max(d.hi, l.X+l.W)
	}
	d.hi = max(d.hi, end)
}

// packDeadlines assigns each deadline a row, sharing a row when the
// extents do not meet (markRows), and returns the rows used. Past
// maxDeadlineRows the remaining deadlines are dropped (the requests table
// still lists their timeouts).
func packDeadlines(ds []deadline) ([]deadline, int) {
	var rows markRows
	out := ds[:0]
	for _, d := range ds {
		row, free := rows.place(d.lo-4, d.hi)
		if !free || row >= maxDeadlineRows {
			continue
		}
		rows.take(row, d.hi)
		d.Row = row
		out = append(out, d)
	}
	return out, len(rows)
}

// deadlineRowHeight is the height of one deadline row: deadlineRowH, or
// with a line of words above each sub-row when a label sits above its bar.
func deadlineRowHeight(ds []deadline) float64 {
	for _, d := range ds {
		if d.IdleLabel.Above || d.MaxLabel.Above {
			return deadlineRowH + 2*aboveH
		}
	}
	return deadlineRowH
}

// aboveH is the height of a line of words above a deadline's bar or line.
const aboveH = 13.0

// setDeadlineY places the deadline rows, each h tall, from y0 down.
func setDeadlineY(ds []deadline, y0, h float64) {
	pad := 0.0
	if h > deadlineRowH {
		pad = aboveH
	}
	for i := range ds {
		ds[i].Y = y0 + float64(ds[i].Row)*h + 9 + pad
		ds[i].MaxY = ds[i].Y + 14 + pad
	}
}

// failedEvents maps each event seq a failed check names to its rules, in
// the checks' order, and lists the failed checks that name no event.
func failedEvents(tr *trace.Trace) (map[int][]string, []string) {
	bySeq := map[int][]string{}
	var loose []string
	for _, c := range tr.Checks {
		if c.OK == nil || *c.OK {
			continue
		}
		if len(c.Events) == 0 {
			loose = append(loose, string(c.Rule))
		}
		for _, seq := range c.Events {
			if !slices.Contains(bySeq[seq], string(c.Rule)) {
				bySeq[seq] = append(bySeq[seq], string(c.Rule))
			}
		}
	}
	return bySeq, loose
}

// flagFontRatio is the timeline labels' 12 px over the check flags' 14
// px (site/static/app.css, .timeline .violation-flag): a flag's words are
// that much wider than textWidth's estimate.
const flagFontRatio = 12.0 / 14.0

// flagTextWidth estimates the width of a check flag's words.
func flagTextWidth(s string) float64 { return textWidth(s) / flagFontRatio }

// newFlags places a flag at every drawn event a failed check names: x and
// y of the mark, or of the arrow's end the event is (tail for a send,
// head for a delivery or loss). The rules' words go on the first flag
// that names them, in rows packed left to right (at most maxFlagRows).
// It returns the flags and the rows used.
func newFlags(bySeq map[int][]string, t *timeline, f frame) ([]violationFlag, int) {
	if len(bySeq) == 0 {
		return nil, 0
	}
	var flags []violationFlag
	add := func(seq int, at int64, x, y float64) {
		if rules, ok := bySeq[seq]; ok && seq >= 0 {
			flags = append(flags, violationFlag{Seq: seq, At: at, Rules: strings.Join(rules, " "), X: x, Y: y})
		}
	}
	for _, a := range t.Arrows {
		add(a.SendSeq, a.SentAt, a.X1, a.Y1)
		if a.Delivered {
			add(a.DeliverSeq, a.At, a.X2, a.Y2)
		} else if a.Dropped {
			add(a.DropSeq, a.At, a.X2, a.Y2)
		}
	}
	for _, m := range t.Marks {
		add(m.Seq, m.At, m.X, m.Y)
	}
	slices.SortStableFunc(flags, func(a, b violationFlag) int {
		if a.At != b.At {
			return int(a.At - b.At)
		}
		return a.Seq - b.Seq
	})
	said := map[string]bool{}
	var rows markRows
	for i := range flags {
		fl := &flags[i]
		var fresh []string
		for _, r := range strings.Fields(fl.Rules) {
			if !said[r] {
				fresh = append(fresh, r)
			}
		}
		fl.Title = fmt.Sprintf("✗ At %d ms (event #%d) this breaks %s.", fl.At, fl.Seq, strings.Join(strings.Fields(fl.Rules), ", "))
		if len(fresh) == 0 {
			continue
		}
		text := "✗ breaks " + strings.Join(fresh, ", ")
		w := flagTextWidth(text)
		lo, hi, x, end := fl.X-3, fl.X+4+w, fl.X+4, false
		if hi > f.width-4 {
			text = fitLabel(text, max(f.width-f.labelMinX, fl.X-4-4)*flagFontRatio)
			w = flagTextWidth(text)
			lo, hi, x, end = fl.X-4-w, fl.X+3, fl.X-4, true
		}
		if lo < 4 {
			// Neither side of the flag holds the words: they start at the
			// chart's left edge, cut with an ellipsis only if wider than
			// the chart (the flag's title and the checks table keep them
			// whole), rather than run off the chart.
			text = clipText(text, (f.width-8)*flagFontRatio)
			w = flagTextWidth(text)
			lo, hi, x, end = 4, 4+w, 4, false
		}
		row, free := rows.place(lo, hi)
		if !free || row >= maxFlagRows {
			continue
		}
		rows.take(row, hi)
		for _, r := range fresh {
			said[r] = true
		}
		fl.Text, fl.TextX, fl.TextW, fl.EndPos = text, x, w, end
		fl.row = row
	}
	return flags, len(rows)
}
