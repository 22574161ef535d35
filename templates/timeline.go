package templates

// The timeline view model and its layout: lanes, the time scale, arrows
// and marks placed on their lanes (layoutTimeline), in one of the frames
// of frame.go.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// mark glyphs, one per kind of non-wire event (data-glyph, CSS class, legend).
const (
	glyphStart     = "start"     // the server began handling a request
	glyphStatus    = "status"    // a request changed state
	glyphIgnore    = "ignore"    // a message received and deliberately ignored
	glyphSuppress  = "suppress"  // something the server did not send
	glyphTimeout   = "timeout"   // an idle or maximum deadline fired
	glyphError     = "error"     // a protocol violation or a step that could not apply
	glyphKeepalive = "keepalive" // an SSE comment
	glyphActivity  = "activity"  // the client restarted a request's idle clock
	glyphAccept    = "accept"    // the client took a response as the outcome
	glyphLost      = "lost"      // a message lost in transit (also ends a dropped arrow)
	glyphClose     = "close"     // a stream close that is not a wire message
	glyphHold      = "hold"      // a buffering proxy holds a message
	glyphFlush     = "flush"     // a buffering proxy forwards what it held
	glyphSkip      = "skip"      // a scripted step that could not happen
	glyphOther     = "other"     // any other event type

	// legend-only glyphs of what deadlines.go draws
	glyphIdleWindow  = "idle-window"  // a request's idle window, send or reset to expiry
	glyphMaxDeadline = "max-deadline" // a request's maximum deadline, send + max
	glyphViolation   = "violation"    // an event a failed check names
)

// timeline is the drawable form of a trace's events: lanes across, virtual
// time along x.
type timeline struct {
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
	EndMs int64
	Lanes []lane
	Ticks []tick
	AxisY float64 // y of the time axis line
	// AxisUnit names the axis: "time (ms)", or "step" for an imported
	// transcript without timestamps (trace.Source Clock "order"), whose
	// events sit one step apart in their order.
	AxisUnit string
	GridY1   float64 // top of the vertical grid lines
	Arrows   []arrow
	Marks    []mark
	Legend   []legendItem
	// Deadlines are the requests' idle windows and maximum deadlines, in
	// rows above the client lane; Flags mark the events failed checks
	// name, their words in the strip above the deadlines; Notes say the
	// failed checks that name no event (deadlines.go).
	// Keys are the words of the arrow labels drawn as a number because
	// their words would cover other arrows, listed under the legend.
	Keys      []arrowKey
	Deadlines []deadline
	Flags     []violationFlag
	Notes     []violationNote
	// Summary is the SVG's accessible name: what the picture shows, in words.
	Summary string
	// Sessions are the sessions of an imported transcript that holds
	// several, drawn as bands (sessions.go); nil otherwise.
	Sessions []sessionBand
	// States are the requests' state intervals as the engine decided them
	// (trace.Request ClientStates, ServerStates), in words, for the time
	// cursor: the wide layout only (the cursor reads #timeline).
	States []requestStates
}

// nameX is the x where the lane names and the axis unit start.
func (t timeline) nameX() string {
	if t.Width < svgWidth {
		return "4"
	}
	return "10"
}

// lane is one actor's row.
type lane struct {
	Actor string  // client, network, proxy, server, worker, ledger
	Label string  // text shown at the left
	Y     float64 // y of the lane line
}

// arrow is one wire message: from its send (SentAt on the sender's lane) to
// its delivery (At on the receiver's lane). A message lost in transit ends
// on the network lane at the time of its drop event (Dropped), marked lost;
// one whose delivery the trace does not hold (still in flight when it ends,
// or not seen by a one-sided imported log) is an unmarked stub on the
// network lane below its tail. Both have Delivered false.
type arrow struct {
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
	// Short is the fewest words that still name the message where its
	// label would cover other arrows ("1/6" for progress 1/6, "cancel",
	// "crunch" for tools/call crunch),
	// "" when no shorter form says enough (then a key number stands in).
	Short string
	// Title is the tooltip: times, notes and the exact message.
	Title string
	// violation lists the rules (space-separated) of the failed checks that
	// name one of this message's events; "" when none.
	Violation string
}

// mark is one event that is not part of a wire message, drawn as a glyph on
// its actor's lane at its time.
type mark struct {
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
	// violation lists the rules (space-separated) of the failed checks that
	// name this event; "" when none.
	Violation string
}

// arrowKey is one keyed arrow label: the number drawn on the arrow and its
// words, at X, Y under the legend.
type arrowKey struct {
	N, Kind, Text string
	Wire          int
	X, Y          float64
}

// legendItem explains one arrow kind or glyph that appears in the timeline.
type legendItem struct {
	Kind  string // a Kind* value (arrow) or "" for a glyph
	Glyph string // a Glyph* value, or "" for an arrow
	Text  string
	X, Y  float64
}

// laneOrder is the top-to-bottom order of the known actors.
var laneOrder = []trace.Actor{trace.ActorClient, trace.ActorNetwork, trace.ActorProxy, trace.ActorServer, trace.ActorWorker, trace.ActorLedger}

// newTimeline lays out the events of tr: lanes for client, network and
// server always, and for proxy, worker, ledger or any other actor only when
// an event names it; one Arrow per wire number; one Mark per other event;
// ticks at a 1-2-5 step; a legend of the kinds present. It is laid out
// 1000 units wide (legible in a box of 750 px or more).
func newTimeline(tr *trace.Trace) timeline { return layoutTimeline(tr, wideFrame) }

// newNarrowTimeline is newTimeline laid out 380 units wide, for a phone
// (legible in a box of 285 px or more): lane names in a narrower gutter, at
// most 5 ticks, and the network band's label rows grow as they must.
func newNarrowTimeline(tr *trace.Trace) timeline { return layoutTimeline(tr, narrowFrame) }

func layoutTimeline(tr *trace.Trace, f frame) timeline {
	t := timeline{Width: f.width, PlotLeft: f.left, PlotRight: f.right, IDPrefix: f.idPrefix, EndMs: tr.EndMs}
	if f.idPrefix == "" {
		t.States = newRequestStates(tr)
	}
	actors, maxAt := timelineActors(tr)
	laneIndex := map[string]int{}
	for i, a := range actors {
		laneIndex[string(a)] = i
	}
	netIdx := laneIndex[string(trace.ActorNetwork)]

	// Time scale.
	step := niceStepN(maxAt, f.maxTicks)
	t.DomainMs = max(step, (maxAt+step-1)/step*step)
	if t.DomainMs == maxAt && maxAt > 0 {
		t.DomainMs += step // keep the last event off the right edge
	}
	xOf := func(ms int64) float64 {
		return f.left + float64(ms)*(f.right-f.left)/float64(t.DomainMs)
	}

	multi := distinctIDs(tr) > 1
	var markEvents []*trace.Event
	t.Arrows, markEvents = f.wireArrows(tr, multi)
	var lanes []markRows
	var places []markPlace
	t.Marks, places, lanes = f.laneMarks(markEvents, multi, xOf, laneIndex, len(actors))
	g := geometry{f: f, netIdx: netIdx, laneIndex: laneIndex, xOf: xOf}
	for i := range actors {
		g.rows = append(g.rows, max(1, len(lanes[i])))
	}
	labelOffsets, labelModes := g.bandLabels(t.Arrows)
	t.applyLabelModes(labelModes)
	bottom := t.placeLanes(g, actors, places, labelOffsets)

	// Axis and ticks.
	t.GridY1 = topPad / 2
	t.AxisUnit = "time (ms)"
	if untimed(tr) {
		t.AxisUnit = "step"
	}
	t.AxisY = bottom + rowH
	for ms := int64(0); ms <= t.DomainMs; ms += step {
		x, label := xOf(ms), strconv.FormatInt(ms, 10)
		// The last label ("10000") is wider than the narrow frame's margin
		// right of the plot: its centre moves left so it is drawn whole.
		t.Ticks = append(t.Ticks, tick{Ms: ms, X: x, LabelX: min(x, f.width-textWidth(label)/2), Label: label})
	}

	// Legend: the arrow kinds and glyphs that appear, in a fixed order.
	t.Legend = f.legend(t.Arrows, t.Marks, t.AxisY+44)
	t.Height = t.AxisY + 44
	if n := len(t.Legend); n > 0 {
		t.Height = t.Legend[n-1].Y + rowH
	}
	markViolations(tr, &t)
	t.drawDeadlines(tr, f, xOf)
	t.placeKeys(f)
	t.Summary = summary(tr, t)
	t.Sessions, t.Summary = sessionBands(tr, xOf, t)
	return t
}

// timelineActors are the lanes present, in canonical order (laneOrder),
// unknown actors after, sorted; and the latest time an event or the trace's
// end names (ms).
func timelineActors(tr *trace.Trace) (actors []trace.Actor, maxAt int64) {
	present := map[trace.Actor]bool{trace.ActorClient: true, trace.ActorNetwork: true, trace.ActorServer: true}
	// A scenario with a proxy keeps its lane even when the proxy only
	// forwards, so flipping its buffering moves the arrivals, not the lanes.
	if s := tr.Scenario; s != nil && s.Proxy != nil && s.Transport == scenario.TransportHTTP {
		present[trace.ActorProxy] = true
	}
	var extra []trace.Actor
	note := func(a trace.Actor) {
		if a == "" || present[a] {
			return
		}
		present[a] = true
		if !slices.Contains(laneOrder, a) {
			extra = append(extra, a)
		}
	}
	maxAt = tr.EndMs
	for _, e := range tr.Events {
		note(e.Actor)
		note(e.From)
		note(e.To)
		maxAt = max(maxAt, e.At)
	}
	slices.Sort(extra)
	for _, a := range laneOrder {
		if present[a] {
			actors = append(actors, a)
		}
	}
	return append(actors, extra...), maxAt
}

// wireArrows groups the events by wire number, in order of first
// appearance, into one arrow each (labels cut to the frame's width; the
// title keeps the whole label), and returns the events that are marks.
func (f frame) wireArrows(tr *trace.Trace, multi bool) ([]arrow, []*trace.Event) {
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
	arrows := make([]arrow, 0, len(wireOrder))
	for _, n := range wireOrder {
		w := wires[n]
		a := newArrow(n, w.send, w.deliver, w.drop, multi)
		if short := fitLabel(a.Label, f.width-f.labelMinX-2*labelPad-2); short != a.Label {
			a.Label, a.LabelW = short, textWidth(short) // the title keeps the whole label
		}
		arrows = append(arrows, a)
	}
	return arrows, markEvents
}

// laneMarks places each mark on its lane, assigning rows so labels do not
// overlap; rows grow away from the network lane (markRows). A frame with
// onceLabels lays the lanes out a second time, leaving off the labels a
// lane already shows, and keeps that layout for each lane where it takes
// fewer rows.
func (f frame) laneMarks(markEvents []*trace.Event, multi bool, xOf func(int64) float64, laneIndex map[string]int, nLanes int) ([]mark, []markPlace, []markRows) {
	marks, places, lanes := f.placeMarks(markEvents, multi, xOf, laneIndex, nLanes, false)
	if f.onceLabels {
		once, oncePlaces, onceLanes := f.placeMarks(markEvents, multi, xOf, laneIndex, nLanes, true)
		better := onceBetter(once, oncePlaces, onceLanes, lanes)
		for i, p := range oncePlaces {
			if better[p.lane] {
				marks[i], places[i] = once[i], p
			}
		}
		for li := range lanes {
			if better[li] {
				lanes[li] = onceLanes[li]
			}
		}
	}
	return marks, places, lanes
}

// bandLabels lays the arrow labels out in the network band, in rows centred
// on the network lane, and sets g.bandRows. Rows are tried at offsets 0,
// -1, +1, -2, +2, ... from the centre; the band grows until every label
// fits or it reaches maxBandRows, past which each label takes its least
// crowded row.
func (g *geometry) bandLabels(arrows []arrow) (labelOffsets, labelModes []int) {
	for g.bandRows = minBandRows; ; g.bandRows += 2 {
		labelOffsets, labelModes = g.layoutLabels(arrows, false)
		if labelOffsets != nil {
			return labelOffsets, labelModes
		}
		if g.bandRows >= maxBandRows {
			return g.layoutLabels(arrows, true)
		}
	}
}

// placeLanes sets the lanes' y positions, from the network lane's centre,
// then the marks' and arrows' (and the arrow labels'), and returns the
// bottom of the lowest lane.
func (t *timeline) placeLanes(g geometry, actors []trace.Actor, places []markPlace, labelOffsets []int) (bottom float64) {
	netIdx := g.netIdx
	centre := topPad + float64(g.bandRows)*rowH/2
	if netIdx > 0 {
		centre = topPad + float64(g.rows[0])*rowH - g.rel(0)
	}
	laneY := make([]float64, len(actors))
	for i, a := range actors {
		laneY[i] = centre + g.rel(i)
		t.Lanes = append(t.Lanes, lane{Actor: string(a), Label: string(a), Y: laneY[i]})
	}
	last := len(actors) - 1
	bottom = laneY[last] + float64(g.rows[last])*rowH
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
			a.LabelX = g.f.labelX(a.X1, a.Y1, a.X2, a.Y2, a.LabelY, a.LabelW)
		}
	}
	return bottom
}

// drawDeadlines adds the strip above the lanes: failed checks naming no
// event, violation flags, then the deadline rows; everything laid out so
// far moves down by the strip's height.
func (t *timeline) drawDeadlines(tr *trace.Trace, f frame, xOf func(int64) float64) {
	ds, dlRows := packDeadlines(newDeadlines(tr, f, xOf, t.DomainMs))
	bySeq, loose := failedEvents(tr)
	flags, flagRows := newFlags(bySeq, t, f)
	if dlRows == 0 && flagRows == 0 && len(loose) == 0 && len(flags) == 0 {
		return
	}
	y := 6.0
	for _, r := range loose {
		// The whole sentence where it fits, else a shorter one (the
		// narrow frame cut the long one off at "see th…").
		text := "✗ breaks " + r + " (no single event: see the checks)"
		if short := fitLabel(text, f.width-8); short != text {
			text = fitLabel("✗ breaks "+r+" (see the checks)", f.width-8)
		}
		t.Notes = append(t.Notes, violationNote{Text: text, Y: y + flagRowH/2})
		y += flagRowH
	}
	flagY0 := y
	y += float64(flagRows) * flagRowH
	dlY0, dlH := y, deadlineRowHeight(ds)
	y += float64(dlRows) * dlH
	dy := y + 2 - topPad/2
	t.shift(dy)
	for i := range flags {
		flags[i].Y += dy
		if flags[i].Text != "" {
			flags[i].FlagY = flagY0 + float64(flags[i].row)*flagRowH + flagRowH/2
		}
	}
	setDeadlineY(ds, dlY0, dlH)
	t.Deadlines, t.Flags = ds, flags
	if dlRows > 0 {
		t.GridY1 = dlY0
	}
	var extra []string
	if len(ds) > 0 {
		extra = append(extra, glyphIdleWindow)
	}
	for _, d := range ds {
		if d.MaxMs > 0 {
			extra = append(extra, glyphMaxDeadline)
			break
		}
	}
	if len(flags) > 0 {
		extra = append(extra, glyphViolation)
	}
	t.Legend = f.legend(t.Arrows, t.Marks, t.AxisY+44, extra...)
	t.Height = t.AxisY + 44
	if n := len(t.Legend); n > 0 {
		t.Height = t.Legend[n-1].Y + rowH
	}
}

// applyLabelModes numbers the labels layoutLabels keyed (their words go
// to Keys, under the legend) and drops those it could not place.
func (t *timeline) applyLabelModes(modes []int) {
	for i, m := range modes {
		a := &t.Arrows[i]
		switch m {
		case labelKey:
			n := strconv.Itoa(len(t.Keys) + 1)
			t.Keys = append(t.Keys, arrowKey{N: n, Kind: a.Kind, Wire: a.Wire, Text: a.Label})
			a.Label, a.LabelW = n, textWidth(n)
		case labelNone:
			a.Label = ""
		}
	}
}

// placeKeys lays the keyed labels' words out under the legend, as many to
// a line as fit, and grows the drawing to hold them.
func (t *timeline) placeKeys(f frame) {
	if len(t.Keys) == 0 {
		return
	}
	left := f.left
	if f.width < svgWidth {
		left = 8
	}
	x, y := left, t.Height+6
	for i := range t.Keys {
		k := &t.Keys[i]
		k.Text = fitLabel(k.Text, f.width-left-8-keyW-12)
		w := keyW + 2*labelPad + 6 + textWidth(k.Text) + 18
		if x+w > f.width && x > left {
			x, y = left, y+rowH+4
		}
		k.X, k.Y = x, y
		x += w
	}
	t.Height = y + rowH
}

// shift moves everything laid out so far down by dy.
func (t *timeline) shift(dy float64) {
	for i := range t.Lanes {
		t.Lanes[i].Y += dy
	}
	for i := range t.Arrows {
		a := &t.Arrows[i]
		a.Y1, a.Y2 = a.Y1+dy, a.Y2+dy
		if a.Label != "" {
			a.LabelY += dy
		}
	}
	for i := range t.Marks {
		t.Marks[i].Y += dy
	}
	for i := range t.Legend {
		t.Legend[i].Y += dy
	}
	t.AxisY += dy
	t.GridY1 += dy
	t.Height += dy
}

// markViolations sets Violation on every arrow and mark whose event a
// failed check names (trace.Check.Events), and says so in its tooltip, so
// the timeline shows where a rule broke: at that message, not only in the
// checks table.
func markViolations(tr *trace.Trace, t *timeline) {
	bySeq := map[int][]string{}
	for _, c := range tr.Checks {
		if c.OK == nil || *c.OK {
			continue
		}
		for _, seq := range c.Events {
			if !slices.Contains(bySeq[seq], string(c.Rule)) {
				bySeq[seq] = append(bySeq[seq], string(c.Rule))
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

// markPlace is where a mark was placed: its lane and its label row.
type markPlace struct{ lane, row int }

// placeMarks makes the marks of events in f and gives each a label row on
// its lane (laneIndex by actor, lanes of them) so that labels do not
// overlap (markRows: linear in the marks). Past maxMarkRows a mark whose
// row is still busy loses its label. With once, a mark whose words (its
// label without the request id) its lane already shows and whose label
// would not fit the lane's first row loses its label too (f.onceLabels);
// the title keeps every label.
func (f frame) placeMarks(events []*trace.Event, multi bool, xOf func(int64) float64, laneIndex map[string]int, lanes int, once bool) ([]mark, []markPlace, []markRows) {
	rows := make([]markRows, lanes)
	shown := make([]map[string]bool, lanes) // per lane, the words its labels show
	places := make([]markPlace, 0, len(events))
	marks := make([]mark, 0, len(events))
	glyphOnly := func(m *mark) (lo, hi float64) {
		m.Label, m.LabelEnd = "", false
		m.LabelX = m.X + glyphR + 4
		return m.X - glyphR - 2, m.X + glyphR + 2
	}
	for _, e := range events {
		m := newMark(e, multi)
		m.X = xOf(m.At)
		lo, hi := f.fitMark(&m)
		li := laneIndex[m.Actor]
		words := strings.TrimSuffix(m.Label, " ("+m.ID+")")
		if once && m.Label != "" && shown[li][words] && len(rows[li]) > 0 && rows[li][0] > lo {
			lo, hi = glyphOnly(&m) // said already on this lane
		}
		row, free := rows[li].place(lo, hi)
		if !free && m.Label != "" {
			// Past maxMarkRows: the row that frees first is still busy
			// here, so the label is left off.
			lo, hi = glyphOnly(&m)
		}
		if m.Label != "" {
			if shown[li] == nil {
				shown[li] = map[string]bool{}
			}
			shown[li][words] = true
		}
		rows[li].take(row, hi)
		marks = append(marks, m)
		places = append(places, markPlace{li, row})
	}
	return marks, places, rows
}
