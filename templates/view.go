// Package templates renders mcplab traces and pages with templ: the timeline
// SVG, the request summary, the checks, the event table, the scenario
// controls, and the full pages that embed them.
//
// The exported surface is small:
//
//   - Output(tr) is everything the browser re-renders after a run: outcome
//     headlines, timeline, the charts of the trace's other summaries (task
//     lanes, SSE buffer occupancy, reconnect herd and backoff, reconnects,
//     the idempotency ledger; charts.go, herd.go, ledger.go), request
//     summary, retry classes, checks and events.
//   - ScenarioPage(p) and IndexPage(root, entries) are the prerendered pages.
//   - NewView(tr) and NewControls(s) are the view models those components
//     draw: plain values (lanes, arrows, marks, x positions, controls), so
//     tests can assert a position or a label without parsing SVG.
//   - ControlValue turns a control's DOM value into the JSON that
//     scenario.SetPath writes at the control's data-path.
//
// Design decision (STYLE.md, Model and view): the engine knows no pixels and
// the templates know no protocol rules. The view model only places and
// labels what the trace records: an arrow goes from a send event's time and
// lane to its delivery event's time and lane (both carried by the trace,
// linked by the wire number), a mark sits at its event's time on its actor's
// lane, and an outcome headline is read from a request's state and signal.
// Consequence: an imported real transcript draws the same way as a simulated
// one, and a rule change in the engine never needs a template change.
//
// Every number written into SVG goes through formatNum, which rounds to one
// decimal and prints the shortest form, so output is byte-stable across
// platforms and between native and WebAssembly builds (golden tests pin it).
package templates

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Layout of the timeline, in SVG user units (the SVG scales to its box).
// svgWidth, plotLeft, plotRight and labelMinX are the wide frame's; the
// other charts share its x scale.
const (
	svgWidth    = 1000.0 // viewBox width
	plotLeft    = 112.0  // x of time 0: room for lane names
	plotRight   = 940.0  // x of the domain's end
	topPad      = 18.0   // space above the first lane's marks
	rowH        = 18.0   // height of one row of marks or labels
	laneGap     = 40.0   // space between a lane line and the network band
	charW       = 7.3    // width of one character of the 12px monospace labels
	glyphR      = 6.0    // half size of a mark glyph
	labelPad    = 4.0    // padding around a label's background
	minBandRows = 3      // network band rows at least
	maxBandRows = 15     // network band rows at most; past that labels overlap
	labelMinX   = 82.0   // arrow labels start right of the lane names ("network", bold, ends near 72)
)

// frame is the horizontal geometry of one timeline layout, in SVG user
// units: the viewBox width, the x of time 0 and of the domain's end, where
// arrow labels may start (right of the lane names), and the most ticks the
// axis may carry.
type frame struct {
	width, left, right, labelMinX float64
	maxTicks                      int64
	idPrefix                      string // prefixed to every element id, so two layouts share a page
}

// Design decision (issue 6, a layout from a phone-width iframe to a wide
// screen). Context: the timeline's text is 12 user units, and the SVG
// scales with its box, so the 1000-unit drawing is legible (>= 9 px) only
// in a box at least 750 px wide; on a phone it would shrink to 4 px or
// scroll sideways, hiding the cause (a cancel) from its effect (the
// suppressed response). Decision: the same trace is also laid out in a
// narrow frame, 380 units wide (lane names in a 70-unit gutter, fewer
// ticks, labels stacked in more rows of the network band), which stays
// legible down to a 285 px box, so a 320 px phone sees the whole run at
// once; the stylesheet shows one of the two by the width of the figure (a
// container query). Consequence: Output carries two SVGs (#timeline, the
// wide one the tests and tools read, and #narrow-timeline), and the view
// model lays out twice; both are plain functions of the trace.
var (
	wideFrame   = frame{width: svgWidth, left: plotLeft, right: plotRight, labelMinX: labelMinX, maxTicks: 10}
	narrowFrame = frame{width: 380, left: 70, right: 364, labelMinX: 68, maxTicks: 5, idPrefix: "narrow-"}
)

// Arrow kinds, from the message on the wire (data-kind, CSS class, legend).
const (
	KindRequest      = "request"      // a JSON-RPC request (has method and id)
	KindResult       = "result"       // a response with a result
	KindError        = "error"        // a response with an error
	KindProgress     = "progress"     // notifications/progress
	KindCancel       = "cancel"       // notifications/cancelled
	KindClose        = "close"        // an HTTP response stream closed (signal close-stream)
	KindNotification = "notification" // any other notification
	KindKeepalive    = "keepalive"    // an SSE comment, not progress
	KindRaw          = "raw"          // anything else, e.g. a malformed message
)

// Mark glyphs, one per kind of non-wire event (data-glyph, CSS class, legend).
const (
	GlyphStart     = "start"     // the server began handling a request
	GlyphStatus    = "status"    // a request changed state
	GlyphIgnore    = "ignore"    // a message received and deliberately ignored
	GlyphSuppress  = "suppress"  // something the server did not send
	GlyphTimeout   = "timeout"   // an idle or maximum deadline fired
	GlyphError     = "error"     // a protocol violation or a step that could not apply
	GlyphKeepalive = "keepalive" // an SSE comment
	GlyphActivity  = "activity"  // the client restarted a request's idle clock
	GlyphAccept    = "accept"    // the client took a response as the outcome
	GlyphLost      = "lost"      // a message lost in transit (also ends a dropped arrow)
	GlyphClose     = "close"     // a stream close that is not a wire message
	GlyphHold      = "hold"      // a buffering proxy holds a message
	GlyphFlush     = "flush"     // a buffering proxy forwards what it held
	GlyphOther     = "other"     // any other event type
)

// View is everything Output draws for one trace.
type View struct {
	Timeline Timeline
	// Narrow is the same timeline laid out for a phone (narrowFrame).
	Narrow   Timeline
	Outcomes []Outcome
	Requests []RequestRow
	Checks   []CheckRow
	Events   []EventRow
	// Pass, Fail and Undecided count the checks by result.
	Pass, Fail, Undecided int
}

// Timeline is the drawable form of a trace's events: lanes across, virtual
// time along x.
type Timeline struct {
	Width, Height float64
	// PlotLeft and PlotRight are the x of time 0 and of DomainMs.
	PlotLeft, PlotRight float64
	// IDPrefix is prefixed to every element id ("" for the wide layout,
	// whose svg is #timeline; "narrow-" for the phone layout).
	IDPrefix string
	// DomainMs is the time at the right end of the axis (ms), a multiple of
	// the tick step, >= the trace's last event.
	DomainMs int64
	// EndMs is the trace's last event time (ms).
	EndMs  int64
	Lanes  []Lane
	Ticks  []Tick
	AxisY  float64 // y of the time axis line
	GridY1 float64 // top of the vertical grid lines
	Arrows []Arrow
	Marks  []Mark
	Legend []LegendItem
	// Summary is the SVG's accessible name: what the picture shows, in words.
	Summary string
}

// nameX is the x where the lane names and the axis unit start.
func (t Timeline) nameX() string {
	if t.Width < svgWidth {
		return "4"
	}
	return "10"
}

// Lane is one actor's row.
type Lane struct {
	Actor string  // client, network, proxy, server, worker, ledger
	Label string  // text shown at the left
	Y     float64 // y of the lane line
}

// Tick is one labelled time on the axis.
type Tick struct {
	Ms    int64
	X     float64
	Label string // e.g. "300" (the axis says ms once)
}

// Arrow is one wire message: from its send (SentAt on the sender's lane) to
// its delivery (At on the receiver's lane). A message lost in transit ends
// on the network lane at the time of its drop event (Dropped), marked lost;
// one whose delivery the trace does not hold (still in flight when it ends,
// or not seen by a one-sided imported log) is an unmarked stub on the
// network lane below its tail. Both have Delivered false.
type Arrow struct {
	Wire       int
	SendSeq    int // seq of the send (or close-stream, keepalive) event, -1 if the trace has none
	DeliverSeq int // seq of the deliver event, -1 if never delivered
	DropSeq    int // seq of the drop event, -1 if not dropped
	From, To   string
	Kind       string // a Kind* value
	Method     string // the JSON-RPC method, if the message has one
	ID         string // the JSON-RPC id (or cancelled requestId) as JSON text, if any
	Signal     string // "notifications/cancelled" or "close-stream" for a cancellation signal
	SentAt     int64  // ms
	At         int64  // delivery or drop time (ms); SentAt for a stub
	Delivered  bool
	Dropped    bool
	X1, Y1     float64 // tail
	X2, Y2     float64 // head (or stub end)
	// Label is the short text drawn on the arrow ("" for none); LabelX and
	// LabelY are its centre, LabelW its estimated width.
	Label                  string
	LabelX, LabelY, LabelW float64
	// Title is the tooltip: times, notes and the exact message.
	Title string
	// Violation lists the rules (space-separated) of the failed checks that
	// name one of this message's events; "" when none.
	Violation string
}

// Mark is one event that is not part of a wire message, drawn as a glyph on
// its actor's lane at its time.
type Mark struct {
	Seq    int
	At     int64
	Actor  string
	Type   string // the event type
	Glyph  string // a Glyph* value
	ID     string // JSON-RPC id as JSON text, if any
	Status string
	Cause  string
	Signal string
	X, Y   float64
	// Label is the short text beside the glyph; LabelX is where it starts
	// (or ends, when LabelEnd is true, for a label drawn to the left).
	Label    string
	LabelX   float64
	LabelEnd bool
	Title    string
	// Violation lists the rules (space-separated) of the failed checks that
	// name this event; "" when none.
	Violation string
}

// LegendItem explains one arrow kind or glyph that appears in the timeline.
type LegendItem struct {
	Kind  string // a Kind* value (arrow) or "" for a glyph
	Glyph string // a Glyph* value, or "" for an arrow
	Text  string
	X, Y  float64
}

// Outcome is the headline of one request: who won the cancellation race, or
// its state.
type Outcome struct {
	ID string // JSON-RPC id as JSON text
	// Key is "cancellation-wins", "completion-wins", or the request state.
	Key  string
	Text string // e.g. "cancellation wins"
	// Detail says what the trace recorded, in one sentence.
	Detail string
}

// RequestRow is one row of the request summary (trace.Request, as text).
type RequestRow struct {
	ID, Method, Name       string
	State, Cause, Signal   string // "" when null
	Reason                 string
	Response               string // the response JSON, "" when none
	ClientOutcome          string
	RetryClass             string
	SentAt                 int64
	EndedAt                string // ms, or "" while pending
	IdleTimeout, MaxTimout string // ms, or "" for none
	Outcome                Outcome
}

// CheckRow is one check, with its result in words and a symbol.
type CheckRow struct {
	Rule   string
	Result string // "pass", "fail" or "undecided"
	Symbol string // ✓, ✗ or ?
	Detail string
	Events []int
}

// EventRow is one event of the event table.
type EventRow struct {
	Seq     int
	At      int64
	Actor   string
	Type    string
	ID      string
	Wire    int
	Fields  string // from → to, status, cause, signal, sentAt: the event's other fields
	Note    string
	Message string // exact wire JSON, plus headers when present
}

// NewView builds the view model of a trace. It never fails: anything it
// cannot interpret is drawn as a plain mark or raw message. A nil trace
// gives an empty view.
func NewView(tr *trace.Trace) View {
	if tr == nil {
		tr = &trace.Trace{}
	}
	v := View{Timeline: NewTimeline(tr), Narrow: NewNarrowTimeline(tr)}
	cancels := scriptedCancels(tr)
	for _, r := range tr.Requests {
		row := requestRow(r, cancels[r.ID.Raw()])
		v.Requests = append(v.Requests, row)
		v.Outcomes = append(v.Outcomes, row.Outcome)
	}
	for _, c := range tr.Checks {
		row := CheckRow{Rule: c.Rule, Detail: c.Detail, Events: c.Events}
		switch {
		case c.OK == nil:
			row.Result, row.Symbol = "undecided", "?"
			v.Undecided++
		case *c.OK:
			row.Result, row.Symbol = "pass", "✓"
			v.Pass++
		default:
			row.Result, row.Symbol = "fail", "✗"
			v.Fail++
		}
		v.Checks = append(v.Checks, row)
	}
	for _, e := range tr.Events {
		v.Events = append(v.Events, eventRow(e))
	}
	return v
}

// OutcomeOf reads the headline of a request from its summary:
// "cancellation wins" when a cancellation signal was sent and the state is
// cancelled; "completion wins" when a cancellation was attempted but the
// state is completed; otherwise the state. A cancellation counts as
// attempted when the request records a cause or a signal, or when
// cancelScripted says the scenario has a cancel step for it that came too
// late to send anything (the client already had its answer).
func OutcomeOf(r trace.Request, cancelScripted bool) Outcome {
	o := Outcome{ID: r.ID.String(), Key: r.State, Text: r.State}
	attempted := r.Signal != nil || r.Cause != nil || cancelScripted
	switch {
	case r.Signal != nil && r.State == trace.StateCancelled:
		o.Key, o.Text = "cancellation-wins", "cancellation wins"
	case attempted && r.State == trace.StateCompleted:
		o.Key, o.Text = "completion-wins", "completion wins"
	}
	var b strings.Builder
	if r.State == trace.StateInProgress {
		fmt.Fprintf(&b, "Request %s is still in progress", o.ID)
	} else {
		fmt.Fprintf(&b, "Request %s ended %s", o.ID, r.State)
	}
	switch {
	case r.Cause != nil:
		fmt.Fprintf(&b, "; cancellation attempted (%s", *r.Cause)
		if r.Signal != nil {
			fmt.Fprintf(&b, ", signal %s", *r.Signal)
		}
		b.WriteString(")")
	case cancelScripted:
		b.WriteString("; the client's cancel came after it had its answer, so no cancellation was sent")
	}
	if len(r.Response) == 0 || string(r.Response) == "null" {
		b.WriteString("; the server sent no response")
	} else {
		b.WriteString("; the server sent a response")
	}
	if r.ClientOutcome != "" {
		fmt.Fprintf(&b, "; client outcome: %s", r.ClientOutcome)
	}
	b.WriteString(".")
	o.Detail = b.String()
	return o
}

// scriptedCancels returns the raw ids of the requests the trace's scenario
// has a cancel step for.
func scriptedCancels(tr *trace.Trace) map[string]bool {
	out := map[string]bool{}
	if tr.Scenario == nil {
		return out
	}
	for _, st := range tr.Scenario.Steps {
		if st.Do == "cancel" && st.ID != nil {
			out[st.ID.Raw()] = true
		}
	}
	return out
}

func requestRow(r trace.Request, cancelScripted bool) RequestRow {
	row := RequestRow{
		ID: r.ID.String(), Method: r.Method, Name: r.Name, State: r.State,
		ClientOutcome: r.ClientOutcome, RetryClass: r.RetryClass, SentAt: r.SentAt,
		Outcome: OutcomeOf(r, cancelScripted),
	}
	if r.Cause != nil {
		row.Cause = *r.Cause
	}
	if r.Signal != nil {
		row.Signal = *r.Signal
	}
	if r.Reason != nil {
		row.Reason = *r.Reason
	}
	if len(r.Response) > 0 && string(r.Response) != "null" {
		row.Response = string(r.Response)
	}
	if r.EndedAt != nil {
		row.EndedAt = strconv.FormatInt(*r.EndedAt, 10)
	}
	if r.IdleTimeoutMs > 0 {
		row.IdleTimeout = strconv.FormatInt(r.IdleTimeoutMs, 10)
	}
	if r.MaxTimeoutMs > 0 {
		row.MaxTimout = strconv.FormatInt(r.MaxTimeoutMs, 10)
	}
	return row
}

func eventRow(e trace.Event) EventRow {
	row := EventRow{Seq: e.Seq, At: e.At, Actor: e.Actor, Type: e.Type, Wire: e.Wire, Note: e.Note}
	if e.ID != nil {
		row.ID = e.ID.String()
	}
	var f []string
	if e.From != "" || e.To != "" {
		f = append(f, e.From+" → "+e.To)
	}
	if e.SentAt != nil {
		f = append(f, "sent at "+strconv.FormatInt(*e.SentAt, 10)+" ms")
	}
	if e.Status != "" {
		f = append(f, "status "+e.Status)
	}
	if e.Cause != "" {
		f = append(f, "cause "+e.Cause)
	}
	if e.Signal != "" {
		f = append(f, "signal "+e.Signal)
	}
	row.Fields = strings.Join(f, "; ")
	row.Message = string(e.Message)
	if len(e.Headers) > 0 {
		keys := make([]string, 0, len(e.Headers))
		for k := range e.Headers {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var hb strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&hb, "%s: %s\n", k, e.Headers[k])
		}
		if row.Message != "" {
			hb.WriteString(row.Message)
		}
		row.Message = strings.TrimSuffix(hb.String(), "\n")
	}
	return row
}

// laneOrder is the top-to-bottom order of the known actors.
var laneOrder = []string{trace.ActorClient, trace.ActorNetwork, trace.ActorProxy, trace.ActorServer, trace.ActorWorker, trace.ActorLedger}

// NewTimeline lays out the events of tr: lanes for client, network and
// server always, and for proxy, worker, ledger or any other actor only when
// an event names it; one Arrow per wire number; one Mark per other event;
// ticks at a 1-2-5 step; a legend of the kinds present. It is laid out
// 1000 units wide (legible in a box of 750 px or more).
func NewTimeline(tr *trace.Trace) Timeline { return layoutTimeline(tr, wideFrame) }

// NewNarrowTimeline is NewTimeline laid out 380 units wide, for a phone
// (legible in a box of 285 px or more): lane names in a narrower gutter, at
// most 5 ticks, and the network band's label rows grow as they must.
func NewNarrowTimeline(tr *trace.Trace) Timeline { return layoutTimeline(tr, narrowFrame) }

func layoutTimeline(tr *trace.Trace, f frame) Timeline {
	t := Timeline{Width: f.width, PlotLeft: f.left, PlotRight: f.right, IDPrefix: f.idPrefix, EndMs: tr.EndMs}

	// Lanes present, in canonical order, unknown actors after, sorted.
	present := map[string]bool{trace.ActorClient: true, trace.ActorNetwork: true, trace.ActorServer: true}
	// A scenario with a proxy keeps its lane even when the proxy only
	// forwards, so flipping its buffering moves the arrivals, not the lanes.
	if s := tr.Scenario; s != nil && s.Proxy != nil && s.Transport == scenario.TransportHTTP {
		present[trace.ActorProxy] = true
	}
	var extra []string
	note := func(a string) {
		if a == "" || present[a] {
			return
		}
		present[a] = true
		if !slices.Contains(laneOrder, a) {
			extra = append(extra, a)
		}
	}
	maxAt := tr.EndMs
	for _, e := range tr.Events {
		note(e.Actor)
		note(e.From)
		note(e.To)
		maxAt = max(maxAt, e.At)
	}
	slices.Sort(extra)
	var actors []string
	for _, a := range laneOrder {
		if present[a] {
			actors = append(actors, a)
		}
	}
	actors = append(actors, extra...)
	laneIndex := map[string]int{}
	for i, a := range actors {
		laneIndex[a] = i
	}
	netIdx := laneIndex[trace.ActorNetwork]

	// Time scale.
	step := niceStepN(maxAt, f.maxTicks)
	t.DomainMs = max(step, (maxAt+step-1)/step*step)
	if t.DomainMs == maxAt && maxAt > 0 {
		t.DomainMs += step // keep the last event off the right edge
	}
	xOf := func(ms int64) float64 {
		return f.left + float64(ms)*(f.right-f.left)/float64(t.DomainMs)
	}

	// Arrows: group events by wire number, in order of first appearance.
	multi := distinctIDs(tr) > 1
	type wireEvents struct{ send, deliver, drop *trace.Event }
	wires := map[int]*wireEvents{}
	var wireOrder []int
	var markEvents []*trace.Event
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Wire <= 0 {
			markEvents = append(markEvents, e)
			continue
		}
		w := wires[e.Wire]
		if w == nil {
			w = &wireEvents{}
			wires[e.Wire] = w
			wireOrder = append(wireOrder, e.Wire)
		}
		switch {
		case e.Type == trace.TypeDeliver && w.deliver == nil:
			w.deliver = e
		case e.Type == trace.TypeDrop && w.drop == nil && w.deliver == nil:
			w.drop = e
		case e.Type != trace.TypeDeliver && e.Type != trace.TypeDrop && w.send == nil:
			w.send = e
		default:
			markEvents = append(markEvents, e) // a second delivery: show it
		}
	}
	for _, n := range wireOrder {
		w := wires[n]
		a := newArrow(n, w.send, w.deliver, w.drop, multi)
		if short := fitLabel(a.Label, f.width-f.labelMinX-2*labelPad-2); short != a.Label {
			a.Label, a.LabelW = short, textWidth(short) // the title keeps the whole label
		}
		t.Arrows = append(t.Arrows, a)
	}

	// Marks: place each on its lane, assigning rows so labels do not
	// overlap; rows grow away from the network lane.
	laneRows := make([][][][2]float64, len(actors)) // per lane, per row: occupied x intervals
	type placed struct{ lane, row int }
	places := make([]placed, 0, len(markEvents))
	for _, e := range markEvents {
		m := newMark(e, multi)
		m.X = xOf(m.At)
		w := textWidth(m.Label)
		lo, hi := m.X-glyphR-2, m.X+glyphR+4+w
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
		li := laneIndex[m.Actor]
		row := 0
		for ; row < len(laneRows[li]); row++ {
			if !overlaps(laneRows[li][row], lo, hi) {
				break
			}
		}
		if row == len(laneRows[li]) {
			laneRows[li] = append(laneRows[li], nil)
		}
		laneRows[li][row] = append(laneRows[li][row], [2]float64{lo, hi})
		t.Marks = append(t.Marks, m)
		places = append(places, placed{li, row})
	}
	g := geometry{f: f, netIdx: netIdx, laneIndex: laneIndex, xOf: xOf}
	for i := range actors {
		g.rows = append(g.rows, max(1, len(laneRows[i])))
	}

	// Network band: arrow labels in rows centred on the network lane.
	// Rows are tried at offsets 0, -1, +1, -2, +2, ... from the centre; the
	// band grows until every label fits or it reaches maxBandRows, past
	// which each label takes its least crowded row.
	var labelOffsets []int
	for g.bandRows = minBandRows; ; g.bandRows += 2 {
		labelOffsets = g.layoutLabels(t.Arrows, false)
		if labelOffsets != nil {
			break
		}
		if g.bandRows >= maxBandRows {
			labelOffsets = g.layoutLabels(t.Arrows, true)
			break
		}
	}

	// Lane y positions, from the network lane's centre.
	centre := topPad + float64(g.bandRows)*rowH/2
	if netIdx > 0 {
		centre = topPad + float64(g.rows[0])*rowH - g.rel(0)
	}
	laneY := make([]float64, len(actors))
	for i, a := range actors {
		laneY[i] = centre + g.rel(i)
		t.Lanes = append(t.Lanes, Lane{Actor: a, Label: a, Y: laneY[i]})
	}
	last := len(actors) - 1
	bottom := laneY[last] + float64(g.rows[last])*rowH
	if last == netIdx {
		bottom = laneY[last] + float64(g.bandRows)*rowH/2
	}
	for i := range t.Marks {
		p := places[i]
		off := float64(p.row+1) * rowH * 0.85
		switch {
		case p.lane < netIdx:
			t.Marks[i].Y = laneY[p.lane] - off
		case p.lane == netIdx:
			t.Marks[i].Y = laneY[p.lane]
		default:
			t.Marks[i].Y = laneY[p.lane] + off
		}
	}
	for i := range t.Arrows {
		a := &t.Arrows[i]
		a.X1, a.Y1, a.X2, a.Y2 = g.line(*a)
		a.Y1 += centre
		a.Y2 += centre
		if a.Label != "" {
			a.LabelY = centre + float64(labelOffsets[i])*rowH
			a.LabelX = f.labelX(a.X1, a.Y1, a.X2, a.Y2, a.LabelY, a.LabelW)
		}
	}

	// Axis and ticks.
	t.GridY1 = topPad / 2
	t.AxisY = bottom + rowH
	for ms := int64(0); ms <= t.DomainMs; ms += step {
		t.Ticks = append(t.Ticks, Tick{Ms: ms, X: xOf(ms), Label: strconv.FormatInt(ms, 10)})
	}

	// Legend: the arrow kinds and glyphs that appear, in a fixed order.
	t.Legend = f.legend(t.Arrows, t.Marks, t.AxisY+44)
	t.Height = t.AxisY + 44
	if n := len(t.Legend); n > 0 {
		t.Height = t.Legend[n-1].Y + rowH
	}
	markViolations(tr, &t)
	t.Summary = summary(tr, t)
	return t
}

// markViolations sets Violation on every arrow and mark whose event a
// failed check names (trace.Check.Events), and says so in its tooltip, so
// the timeline shows where a rule broke: at that message, not only in the
// checks table.
func markViolations(tr *trace.Trace, t *Timeline) {
	bySeq := map[int][]string{}
	for _, c := range tr.Checks {
		if c.OK == nil || *c.OK {
			continue
		}
		for _, seq := range c.Events {
			if !slices.Contains(bySeq[seq], c.Rule) {
				bySeq[seq] = append(bySeq[seq], c.Rule)
			}
		}
	}
	if len(bySeq) == 0 {
		return
	}
	rules := func(seqs ...int) string {
		var out []string
		for _, s := range seqs {
			for _, r := range bySeq[s] {
				if s >= 0 && !slices.Contains(out, r) {
					out = append(out, r)
				}
			}
		}
		return strings.Join(out, " ")
	}
	for i := range t.Arrows {
		a := &t.Arrows[i]
		if a.Violation = rules(a.SendSeq, a.DeliverSeq, a.DropSeq); a.Violation != "" {
			a.Title = "✗ breaks " + a.Violation + "\n" + a.Title
		}
	}
	for i := range t.Marks {
		m := &t.Marks[i]
		if m.Violation = rules(m.Seq); m.Violation != "" {
			m.Title = "✗ breaks " + m.Violation + "\n" + m.Title
		}
	}
}

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

// fitLabel shortens label to at most maxW units (textWidth): first by
// dropping the leading segments of its method ("notifications/tasks/status
// (7)" becomes "…/tasks/status (7)", then "…/status (7)"), then by cutting
// its end at an ellipsis. A label that fits is returned as it is; the
// arrow's or mark's title always carries the whole text.
func fitLabel(label string, maxW float64) string {
	if textWidth(label) <= maxW {
		return label
	}
	s := label
	for textWidth(s) > maxW {
		head, rest, _ := strings.Cut(s, " ")
		head = strings.TrimPrefix(head, "…/")
		_, tail, ok := strings.Cut(head, "/")
		if !ok {
			break
		}
		s = "…/" + tail
		if rest != "" {
			s += " " + rest
		}
	}
	if textWidth(s) <= maxW {
		return s
	}
	r := []rune(s)
	n := max(1, int(maxW/charW)-1)
	if n >= len(r) {
		return s
	}
	return string(r[:n]) + "…"
}

// textWidth estimates the width of a label in the timeline's monospace font.
func textWidth(s string) float64 {
	return float64(len([]rune(s))) * charW
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

// distinctIDs counts the request ids the trace's events mention.
func distinctIDs(tr *trace.Trace) int {
	seen := map[string]bool{}
	for _, e := range tr.Events {
		if e.ID != nil {
			seen[e.ID.Raw()] = true
		}
	}
	return len(seen)
}

// wireMessage is the part of a JSON-RPC message the timeline labels.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code json.Number `json:"code"`
	} `json:"error"`
	Params struct {
		Name          string          `json:"name"`
		RequestID     json.RawMessage `json:"requestId"`
		Progress      json.Number     `json:"progress"`
		Total         json.Number     `json:"total"`
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"params"`
}

// classify names the kind of a wire message and a short label for it.
func classify(msg json.RawMessage, signal string) (kind, label, method, id string) {
	if len(msg) == 0 {
		if signal == trace.SignalCloseStream {
			return KindClose, "close stream", "", ""
		}
		return KindKeepalive, "", "", ""
	}
	var m wireMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		// Not an object, or a field of an unexpected type: show it raw.
		var probe map[string]json.RawMessage
		if json.Unmarshal(msg, &probe) == nil {
			if raw, ok := probe["method"]; ok {
				var s string
				if json.Unmarshal(raw, &s) == nil {
					return KindRaw, s + " (malformed)", s, ""
				}
			}
		}
		return KindRaw, "malformed message", "", ""
	}
	if len(m.ID) > 0 && string(m.ID) != "null" {
		id = string(m.ID)
	}
	switch {
	case m.Method == "notifications/progress":
		label = "progress " + string(m.Params.Progress)
		if m.Params.Total != "" {
			label += "/" + string(m.Params.Total)
		}
		return KindProgress, label, m.Method, id
	case m.Method == "notifications/cancelled":
		if len(m.Params.RequestID) > 0 {
			id = string(m.Params.RequestID)
		}
		return KindCancel, "notifications/cancelled", m.Method, id
	case m.Method != "" && id != "":
		label = m.Method
		if m.Params.Name != "" {
			label += " " + m.Params.Name
		}
		return KindRequest, label, m.Method, id
	case m.Method != "":
		return KindNotification, m.Method, m.Method, ""
	case m.Error != nil:
		label = "error"
		if m.Error.Code != "" {
			label += " " + string(m.Error.Code)
		}
		return KindError, label, "", id
	case len(m.Result) > 0:
		return KindResult, "result", "", id
	}
	return KindRaw, "message", "", id
}

func newArrow(wire int, send, deliver, drop *trace.Event, multi bool) Arrow {
	a := Arrow{Wire: wire, SendSeq: -1, DeliverSeq: -1, DropSeq: -1}
	var msg json.RawMessage
	var signal string
	if send != nil {
		a.SendSeq = send.Seq
		a.SentAt = send.At
		// The lane of whoever put it on the wire: the network, for a
		// stream it closed, else the sender.
		a.From = send.From
		if send.Actor == trace.ActorNetwork || a.From == "" {
			a.From = send.Actor
		}
		a.To = send.To
		msg, signal = send.Message, send.Signal
		if send.Type == trace.TypeCloseStream {
			signal = trace.SignalCloseStream
		}
	}
	if deliver != nil {
		a.DeliverSeq = deliver.Seq
		a.Delivered = true
		a.At = deliver.At
		if send == nil {
			if deliver.SentAt != nil {
				a.SentAt = *deliver.SentAt
			} else {
				a.SentAt = deliver.At
			}
			a.From = cmp(deliver.From, trace.ActorNetwork)
		}
		a.To = cmp(deliver.To, a.To)
		if len(msg) == 0 {
			msg = deliver.Message
		}
		signal = cmp(signal, deliver.Signal)
	} else if drop != nil {
		a.DropSeq = drop.Seq
		a.Dropped = true
		a.At = drop.At
		if send == nil {
			if drop.SentAt != nil {
				a.SentAt = *drop.SentAt
			} else {
				a.SentAt = drop.At
			}
			a.From = cmp(drop.From, trace.ActorNetwork)
		}
		a.To = cmp(a.To, drop.To)
		if len(msg) == 0 {
			msg = drop.Message
		}
	} else {
		a.At = a.SentAt
	}
	if a.To == "" {
		a.To = trace.ActorNetwork
	}
	if a.From == "" {
		a.From = trace.ActorNetwork
	}
	var id string
	a.Kind, a.Label, a.Method, id = classify(msg, signal)
	if id == "" {
		switch {
		case send != nil && send.ID != nil:
			id = send.ID.String()
		case deliver != nil && deliver.ID != nil:
			id = deliver.ID.String()
		}
	}
	a.ID = id
	switch a.Kind {
	case KindCancel:
		a.Signal = trace.SignalNotification
	case KindClose:
		a.Signal = trace.SignalCloseStream
	}
	if multi && a.ID != "" && a.Label != "" {
		a.Label += " (" + a.ID + ")"
	}
	a.LabelW = textWidth(a.Label)

	var b strings.Builder
	fmt.Fprintf(&b, "wire %d, %s → %s: %s", wire, a.From, a.To, cmp(a.Label, a.Kind))
	switch {
	case a.Delivered:
		fmt.Fprintf(&b, "\nsent at %d ms, delivered at %d ms", a.SentAt, a.At)
	case a.Dropped:
		fmt.Fprintf(&b, "\nsent at %d ms, lost at %d ms", a.SentAt, a.At)
	default:
		fmt.Fprintf(&b, "\nsent at %d ms; its delivery is not in the trace (still in flight, or not seen by a one-sided log)", a.SentAt)
	}
	if send != nil && send.Note != "" {
		b.WriteString("\n" + send.Note)
	}
	if deliver != nil && deliver.Note != "" {
		b.WriteString("\n" + deliver.Note)
	}
	if drop != nil && drop.Note != "" {
		b.WriteString("\n" + drop.Note)
	}
	if len(msg) > 0 {
		b.WriteString("\n" + string(msg))
	}
	a.Title = b.String()
	return a
}

func newMark(e *trace.Event, multi bool) Mark {
	m := Mark{Seq: e.Seq, At: e.At, Actor: cmp(e.Actor, trace.ActorNetwork), Type: e.Type,
		Status: e.Status, Cause: e.Cause, Signal: e.Signal}
	if e.ID != nil {
		m.ID = e.ID.String()
	}
	switch e.Type {
	case trace.TypeStart:
		m.Glyph, m.Label = GlyphStart, "start"
	case trace.TypeStatus:
		m.Glyph, m.Label = GlyphStatus, cmp(e.Status, "status")
	case trace.TypeIgnore:
		m.Glyph, m.Label = GlyphIgnore, "ignored"
	case trace.TypeSuppress:
		m.Glyph, m.Label = GlyphSuppress, "suppressed"
	case trace.TypeTimeout:
		m.Glyph, m.Label = GlyphTimeout, "timeout"
		switch e.Cause {
		case trace.CauseIdleTimeout:
			m.Label = "idle timeout"
		case trace.CauseMaxTimeout:
			m.Label = "max timeout"
		}
	case trace.TypeError:
		m.Glyph, m.Label = GlyphError, "error"
	case trace.TypeKeepalive:
		m.Glyph = GlyphKeepalive
	case trace.TypeActivity:
		m.Glyph, m.Label = GlyphActivity, "idle reset"
	case trace.TypeAccept:
		m.Glyph, m.Label = GlyphAccept, "accepted"
	case trace.TypeDrop:
		m.Glyph, m.Label = GlyphLost, "lost"
	case trace.TypeCloseStream:
		m.Glyph, m.Label = GlyphClose, "close stream"
		m.Signal = cmp(m.Signal, trace.SignalCloseStream)
	case GlyphHold:
		m.Glyph, m.Label = GlyphHold, "held"
	case GlyphFlush:
		m.Glyph, m.Label = GlyphFlush, "flush"
	default:
		m.Glyph, m.Label = GlyphOther, e.Type
	}
	if multi && m.ID != "" && m.Label != "" {
		m.Label += " (" + m.ID + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d ms, %s: %s", e.At, m.Actor, e.Type)
	if m.ID != "" {
		fmt.Fprintf(&b, " (request %s)", m.ID)
	}
	if e.Status != "" {
		fmt.Fprintf(&b, ", status %s", e.Status)
	}
	if e.Cause != "" {
		fmt.Fprintf(&b, ", cause %s", e.Cause)
	}
	if e.Note != "" {
		b.WriteString("\n" + e.Note)
	}
	if len(e.Message) > 0 {
		b.WriteString("\n" + string(e.Message))
	}
	m.Title = b.String()
	return m
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

// cmp returns a if it is not empty, else b.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// formatNum prints an SVG coordinate deterministically: rounded to one
// decimal, shortest form, never "-0".
func formatNum(v float64) string {
	r := math.Round(v*10) / 10
	if r == 0 {
		return "0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// arrowKinds lists every arrow kind, for the arrowhead markers.
var arrowKinds = []string{KindRequest, KindResult, KindError, KindProgress, KindCancel, KindClose, KindNotification, KindKeepalive, KindRaw}

// i64 formats an integer attribute value.
func i64(n int64) string { return strconv.FormatInt(n, 10) }

// orNone returns s, or "none" when s is empty.
func orNone(s string) string { return cmp(s, "none") }

// slashBreaks writes s, escaped, with a line-break opportunity (<wbr>)
// after each slash, so a method name (notifications/cancelled) can wrap in
// a narrow table column instead of widening it.
func slashBreaks(s string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		for i, part := range strings.SplitAfter(s, "/") {
			if i > 0 {
				if _, err := io.WriteString(w, "<wbr/>"); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, templ.EscapeString(part)); err != nil {
				return err
			}
		}
		return nil
	})
}

// orPending returns s, or "pending" when s is empty.
func orPending(s string) string { return cmp(s, "pending") }
