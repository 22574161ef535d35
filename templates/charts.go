package templates

// View models of the charts drawn beside the timeline: the SSE buffer's
// occupancy (DOMAIN.md §7), the durable tasks' status lanes (§6), the
// reconnect panel (§9) and the retry matrix (§5). The backoff and herd
// charts are in herd.go, the ledger view in ledger.go, the task lanes in
// tasks.go.
//
// Like the timeline, every chart is a pure function of the trace: it places
// and labels what the trace records (depth points, status histories, events
// with their times) and decides no protocol rule. Time-based charts share
// the timeline's x scale (plotLeft..plotRight over Timeline.DomainMs), so a
// buffer's depth or a task's status sits under the messages that caused it.
//
// The stylesheet belongs to the site; these charts colour themselves with
// SVG presentation attributes that read the page's CSS custom properties
// (frame.go's colours: fill="var(--c-progress, #7c4dcc)"), so they follow
// the light and dark themes without inline styles, which the CSP forbids.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// Glyph kinds of the buffer chart's marks (data-mark).
const (
	bufferCoalesce = "coalesce" // a newer progress replaced the buffered one
	bufferDrop     = "drop"     // something was dropped (progress, or a final under drop-newest)
	bufferFinal    = "final"    // the final response reached the client
)

// bufferChart is the occupancy of one response stream's SSE buffer over
// virtual time (trace.Buffer): depth as a step line, the capacity line, a
// mark for each coalesce and drop event of that stream, and a line where
// the final response reached the client.
type bufferChart struct {
	Index int // position in trace.buffers (DOM id buffer-chart-N)
	// IDPrefix prefixes the DOM ids ("" wide, narrowFrame's for the phone
	// layout); Narrow says which layout this is.
	IDPrefix string
	Narrow   bool
	Stream   string // the request whose stream it is, as JSON text
	Capacity int    // 0 = unbounded
	Policy   string
	// Peak, Dropped, Coalesced, DroppedFinals and FinalsDelivered are the
	// trace's counters (maxDepth, droppedProgress, ...).
	Peak, Dropped, Coalesced, DroppedFinals, FinalsDelivered int
	NeedsRefetch                                             bool

	Width, Height float64
	// PlotLeft and PlotRight bound the time axis (x of 0 ms and DomainMs).
	PlotLeft, PlotRight float64
	// MarkRow1 and MarkRow2 are the y of the coalesce and drop marks.
	MarkRow1, MarkRow2 float64
	// Legend is where each legend item starts, in the order depth,
	// capacity, coalesce, drop, final: one row wide, two items a row narrow.
	Legend     [5]legendPos
	PlotTop    float64 // y of the top of the plot (the largest depth)
	PlotBottom float64 // y of depth 0, the time axis
	DomainMs   int64
	// Line is the SVG path of the depth step line; Area closes it down to
	// depth 0 for the shading underneath.
	Line, Area string
	// CapacityY is the y of the capacity line (only when Capacity > 0).
	CapacityY float64
	XTicks    []tick
	YTicks    []yTick
	Marks     []bufferMark
	// Final is where the final response was delivered; nil when it never was.
	Final *bufferMark
	// Flags are the headline facts drawn in the chart's header, left to right.
	Flags   []chartFlag
	Summary string
}

// bufferMark is one coalesce, drop or final-delivery event of a stream.
type bufferMark struct {
	Seq   int
	At    int64
	Kind  string // a Buffer* value
	X, Y  float64
	Title string
}

// chartFlag is one short fact shown in a chart's header ("peak 2",
// "refetch needed"), with the colour it is drawn in.
type chartFlag struct {
	Key   string // stable name (data-flag)
	Text  string
	Color string
	X     float64
	Y     float64 // baseline (the header's row)
}

// legendPos is where one legend item of a chart starts (SVG units, the
// legend's own frame).
type legendPos struct{ X, Y float64 }

// Layout of the buffer chart (SVG units).
const (
	bufHeaderY  = 16.0  // baseline of the header line
	bufMarkRow1 = 38.0  // y of the coalesce marks
	bufMarkRow2 = 56.0  // y of the drop marks
	bufPlotTop  = 74.0  // top of the plot
	bufPlotH    = 150.0 // height of the plot
	bufRowH     = 18.0  // height of one more header or legend row
)

// newBufferCharts draws every buffer of tr on the timeline's time scale
// (domainMs at plotRight).
func newBufferCharts(tr *trace.Trace, domainMs int64) []bufferChart {
	var out []bufferChart
	for i, b := range tr.Buffers {
		out = append(out, layoutBufferChart(tr, i, b, domainMs, false))
	}
	return out
}

// newNarrowBufferCharts is newBufferCharts for a phone: the timeline's
// narrow frame (380 units, drawn about as wide as a 390 px screen, so its
// 12-unit text stays legible), the header's facts and the legend wrapped
// into rows. The wide chart's 1000 units scrolled in their box there and
// cut its header off.
func newNarrowBufferCharts(tr *trace.Trace, domainMs int64) []bufferChart {
	var out []bufferChart
	for i, b := range tr.Buffers {
		out = append(out, layoutBufferChart(tr, i, b, domainMs, true))
	}
	return out
}

// layoutBufferChart lays out the chart of buffer index of tr wide
// (svgWidth) or narrow (narrowFrame's width).
func layoutBufferChart(tr *trace.Trace, index int, b trace.Buffer, domainMs int64, narrow bool) bufferChart {
	c := bufferChart{
		Index: index, Stream: b.Stream.String(), Capacity: b.Capacity, Policy: b.Policy,
		Peak: b.MaxDepth, Dropped: b.DroppedProgress, Coalesced: b.Coalesced,
		DroppedFinals: b.DroppedFinals, FinalsDelivered: b.FinalsDelivered, NeedsRefetch: b.NeedsRefetch,
		Width: svgWidth, PlotLeft: plotLeft, PlotRight: plotRight,
	}
	if narrow {
		c.IDPrefix, c.Narrow = narrowFrame.idPrefix, true
		c.Width, c.PlotLeft, c.PlotRight = narrowFrame.width, narrowFrame.left, narrowFrame.right
	}
	maxAt := domainMs
	for _, p := range b.Depth {
		maxAt = max(maxAt, p[0])
	}
	c.DomainMs = max(domainMs, 1)
	if maxAt > domainMs {
		step := niceStep(maxAt)
		c.DomainMs = (maxAt/step + 1) * step
	}
	d := float64(c.DomainMs)
	xOf := func(ms int64) float64 { return c.PlotLeft + float64(ms)*(c.PlotRight-c.PlotLeft)/d }
	c.Marks, c.Final = bufferMarks(tr, b, xOf)

	// The header's facts, wrapped into rows where the width ends; each row
	// past the first moves everything under it down.
	capText := "capacity " + strconv.Itoa(b.Capacity)
	if b.Capacity == 0 {
		capText = "capacity unbounded"
	}
	wrapAt := 0.0 // the wide header keeps its one row
	if narrow {
		wrapAt = c.Width
	}
	c.Flags = bufferFlags(b, c.Stream, capText, c.Final, wrapAt)
	shift := c.Flags[len(c.Flags)-1].Y - bufHeaderY
	c.MarkRow1, c.MarkRow2 = bufMarkRow1+shift, bufMarkRow2+shift
	c.PlotTop, c.PlotBottom = bufPlotTop+shift, bufPlotTop+shift+bufPlotH
	for i := range c.Marks {
		c.Marks[i].Y = c.MarkRow1
		if c.Marks[i].Kind == bufferDrop {
			c.Marks[i].Y = c.MarkRow2
		}
	}
	if c.Final != nil {
		c.Final.Y = c.PlotTop
	}

	// Depth scale: integers up to one above the larger of capacity and peak.
	top := int64(max(b.Capacity, b.MaxDepth, 1)) + 1
	ystep := int64(1)
	if top > 10 {
		ystep = niceStep(top)
		top = (top + ystep - 1) / ystep * ystep
	}
	yOf := func(n int64) float64 { return c.PlotBottom - float64(n)*bufPlotH/float64(top) }
	for v := int64(0); v <= top; v += ystep {
		c.YTicks = append(c.YTicks, yTick{Value: v, Y: yOf(v), Label: strconv.FormatInt(v, 10)})
	}
	c.XTicks = xTicks(c.DomainMs, xOf)
	if narrow {
		c.XTicks = nil
		for ms, step := int64(0), niceStepN(c.DomainMs, narrowFrame.maxTicks); ms <= c.DomainMs; ms += step {
			c.XTicks = append(c.XTicks, tick{Ms: ms, X: xOf(ms), Label: strconv.FormatInt(ms, 10)})
		}
	}
	if b.Capacity > 0 {
		c.CapacityY = yOf(int64(b.Capacity))
	}

	// The step line: flat until the next change, then a vertical step; it
	// runs on to the end of the trace.
	c.Line, c.Area = depthPath(tr, b, xOf, yOf, c.PlotBottom)

	c.Legend = bufferLegend(narrow)
	c.Height = c.PlotBottom + 44 + c.Legend[4].Y

	c.Summary = bufferSummary(c, b, capText)
	return c
}

// depthPath is the SVG path of a buffer's depth as a step line, flat until
// the next change, then a vertical step, running on to the end of the
// trace; and the area under it down to plotBottom. Both are "" for a
// buffer without depth points.
func depthPath(tr *trace.Trace, b trace.Buffer, xOf, yOf func(int64) float64, plotBottom float64) (path, area string) {
	if len(b.Depth) == 0 {
		return "", ""
	}
	var line strings.Builder
	x0 := xOf(b.Depth[0][0])
	fmt.Fprintf(&line, "M%s %s", formatNum(x0), formatNum(yOf(b.Depth[0][1])))
	for _, p := range b.Depth[1:] {
		fmt.Fprintf(&line, " H%s V%s", formatNum(xOf(p[0])), formatNum(yOf(p[1])))
	}
	end := max(tr.EndMs, b.Depth[len(b.Depth)-1][0])
	fmt.Fprintf(&line, " H%s", formatNum(xOf(end)))
	return line.String(), line.String() + " V" + formatNum(plotBottom) + " H" + formatNum(x0) + " Z"
}

// bufferSummary is a buffer chart's accessible name: the stream, its
// capacity, peak, drops and the flags past the header's first four.
func bufferSummary(c bufferChart, b trace.Buffer, capText string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "SSE buffer of stream %s over %d ms: %s, peak depth %d, %d progress dropped (%d coalesced)",
		c.Stream, c.DomainMs, capText, b.MaxDepth, b.DroppedProgress, b.Coalesced)
	for _, f := range c.Flags[4:] {
		s.WriteString(", " + f.Text)
	}
	s.WriteString(".")
	return s.String()
}

// bufferMarks are the server's coalesce and drop events for b's stream,
// and the delivery of its final response to the client (nil when it never
// was), placed by xOf; their rows are the layout's.
func bufferMarks(tr *trace.Trace, b trace.Buffer, xOf func(int64) float64) ([]bufferMark, *bufferMark) {
	var marks []bufferMark
	var final *bufferMark
	stream := b.Stream.Raw()
	for _, e := range tr.Events {
		if e.ID == nil || e.ID.Raw() != stream {
			continue
		}
		switch {
		case e.Actor == trace.ActorServer && e.Type == bufferCoalesce:
			marks = append(marks, bufferMark{Seq: e.Seq, At: e.At, Kind: bufferCoalesce, X: xOf(e.At),
				Title: fmt.Sprintf("%d ms: coalesced\n%s", e.At, e.Note)})
		case e.Actor == trace.ActorServer && e.Type == trace.TypeDrop:
			marks = append(marks, bufferMark{Seq: e.Seq, At: e.At, Kind: bufferDrop, X: xOf(e.At),
				Title: fmt.Sprintf("%d ms: dropped\n%s", e.At, e.Note)})
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && final == nil:
			kind, _, _, id := classify(e.Message, e.Signal)
			if (kind == kindResult || kind == kindError) && id == stream {
				final = &bufferMark{Seq: e.Seq, At: e.At, Kind: bufferFinal, X: xOf(e.At),
					Title: fmt.Sprintf("%d ms: the final response reaches the client\n%s", e.At, shownJSON(e.Message))}
			}
		}
	}
	return marks, final
}

// bufferFlags are the buffer chart's header facts, left to right, a new
// row (bufRowH down) wherever the next would pass wrapAt (0: one row).
func bufferFlags(b trace.Buffer, stream, capText string, final *bufferMark, wrapAt float64) []chartFlag {
	flags := []chartFlag{
		{Key: "stream", Text: "stream " + stream, Color: colFg},
		{Key: "capacity", Text: capText + " (" + cmp(b.Policy, "evict-progress") + ")", Color: colMuted},
		{Key: "peak", Text: "peak depth " + strconv.Itoa(b.MaxDepth), Color: colFg},
		{Key: "dropped", Text: strconv.Itoa(b.DroppedProgress) + " progress dropped (" + strconv.Itoa(b.Coalesced) + " coalesced)", Color: colProgress},
	}
	switch {
	case b.DroppedFinals > 0:
		flags = append(flags, chartFlag{Key: "final", Text: "final response dropped", Color: colError})
	case final != nil:
		flags = append(flags, chartFlag{Key: "final", Text: "final delivered at " + i64(final.At) + " ms", Color: colResult})
	default:
		flags = append(flags, chartFlag{Key: "final", Text: "no final delivered", Color: colMuted})
	}
	if b.NeedsRefetch {
		flags = append(flags, chartFlag{Key: "refetch", Text: "client must refetch", Color: colCancel})
	}
	x, y := 10.0, bufHeaderY
	for i := range flags {
		w := textWidth(flags[i].Text)
		if wrapAt > 0 && x > 10 && x+w > wrapAt-10 {
			x, y = 10, y+bufRowH
		}
		flags[i].X, flags[i].Y = x, y
		x += w + 18
	}
	return flags
}

// bufferLegend places the legend's five items (depth, capacity, coalesce,
// drop, final): in one row wide; narrow, the first two share a row and the
// three with long words have a row each. The last item's Y is the height
// the rows past the first add.
func bufferLegend(narrow bool) [5]legendPos {
	if !narrow {
		return [5]legendPos{{0, 0}, {90, 0}, {200, 0}, {480, 0}, {566, 0}}
	}
	return [5]legendPos{{0, 0}, {90, 0}, {0, bufRowH}, {0, 2 * bufRowH}, {0, 3 * bufRowH}}
}

// Reconnects.

// reconnectRow is one reconnect of a dropped listen stream (trace.Reconnect).
type reconnectRow struct {
	PreviousID, NewID string
	NewRequest        bool // the new id differs from the old one
	LastEventID       bool
	Refetch           []string
	RetryUnsafe       bool
	Delays            string // "139 ms", or "139, 320 ms"
}

// newReconnectRows lists tr's reconnects.
func newReconnectRows(tr *trace.Trace) []reconnectRow {
	var out []reconnectRow
	for _, r := range tr.Reconnects {
		row := reconnectRow{PreviousID: r.PreviousID, NewID: r.NewID, NewRequest: r.NewID != r.PreviousID,
			LastEventID: r.SendLastEventID, Refetch: r.Refetch, RetryUnsafe: r.RetryUnsafeMutation}
		var ds []string
		for _, d := range r.DelaysMs {
			ds = append(ds, strconv.FormatInt(d, 10))
		}
		if len(ds) > 0 {
			row.Delays = strings.Join(ds, ", ") + " ms"
		}
		out = append(out, row)
	}
	return out
}

// Retry matrix.

// retryClassRow is one row of the retry matrix (DOMAIN.md §5): the class,
// its rule, and the requests of this run that show it.
type retryClassRow struct {
	Class    string // safe, conditional, unsafe
	Example  string // the kind of request the class covers
	Rule     string
	Requests []retryExample
}

// retryExample is one request of a class.
type retryExample struct {
	ID, Name string
	Hints    []string // the tool's annotations, "readOnlyHint" or "idempotentHint: false"
	RetryOf  string   // the request it retries, "" for none
	Outcome  string   // its state
}

// retryRules are the classes of DOMAIN.md §5, in order.
var retryRules = []retryClassRow{
	{Class: trace.RetrySafe, Example: "deterministic read, no side effect", Rule: "retry with a new id once the failure boundary is understood"},
	{Class: trace.RetryConditional, Example: "mutation with a durable idempotency key", Rule: "retry with the same key and identical arguments"},
	{Class: trace.RetryUnsafe, Example: "mutation without business deduplication", Rule: "never retry automatically; reconcile first"},
}

// newRetryMatrix returns the retry matrix of tr, or nil when every request
// is safe and none carries hints (nothing to explain).
func newRetryMatrix(tr *trace.Trace) []retryClassRow {
	show := false
	for _, r := range tr.Requests {
		if (r.RetryClass != "" && r.RetryClass != trace.RetrySafe) || len(hintList(r.Hints)) > 0 || r.RetryOf != nil {
			show = true
		}
	}
	if !show {
		return nil
	}
	out := slices.Clone(retryRules)
	for i := range out {
		for _, r := range tr.Requests {
			if r.RetryClass != out[i].Class || r.Method != "tools/call" {
				continue
			}
			ex := retryExample{ID: r.ID.String(), Name: r.Name, Hints: hintList(r.Hints), Outcome: r.State}
			if r.RetryOf != nil {
				ex.RetryOf = r.RetryOf.String()
			}
			out[i].Requests = append(out[i].Requests, ex)
		}
	}
	return out
}

// hintList turns tool annotations into words: "readOnlyHint" for a true
// hint, "idempotentHint: false" for a false one, other values as JSON, in
// key order.
func hintList(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return []string{string(raw)}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		if string(m[k]) == "true" {
			out = append(out, k)
		} else {
			out = append(out, k+": "+string(m[k]))
		}
	}
	return out
}

// Charts are the drawings of a trace beyond the timeline and the tables:
// what Output shows for the buffers, tasks, herd, reconnects, ledger and
// retry classes. Empty members are not drawn. A Drawing builds them
// (Drawing.Charts) and draws its own (OutputParts).
type Charts struct {
	// drawing is the Drawing that built them, whose charts OutputParts
	// draws.
	drawing Drawing

	Buffers []bufferChart
	// BuffersNarrow are the buffer charts laid out for a phone, one for
	// each of Buffers.
	BuffersNarrow []bufferChart
	Tasks         *taskLanes
	// TasksNarrow is Tasks laid out for a phone.
	TasksNarrow *taskLanes
	Herd        *herdChart
	Backoff     *backoffChart
	// BackoffNarrow is the backoff chart laid out for a phone.
	BackoffNarrow *backoffChart
	// HerdNarrow is the herd chart laid out for a phone.
	HerdNarrow  *herdChart
	HerdCompare *herdCompare
	// HerdCompareNarrow is herdCompare laid out for a phone.
	HerdCompareNarrow *herdCompare
	// HerdFirst puts the herd section above the timeline, for a trace with
	// no events (a pure herd experiment).
	HerdFirst   bool
	Reconnects  []reconnectRow
	Ledger      *ledgerView
	RetryMatrix []retryClassRow
	// Requests is, for each row of View.Requests, its retry details.
	Requests []requestRetry
}

// requestRetry is the retry side of one request: its class, the tool's
// annotations (untrusted hints) and the request it retries.
type requestRetry struct {
	Class   string
	Hints   []string
	RetryOf string
}

// retryOf returns the retry details of request row i ("" fields when
// unknown).
func (c Charts) retryOf(i int) requestRetry {
	if i < len(c.Requests) {
		return c.Requests[i]
	}
	return requestRetry{}
}

// legendAt is the SVG transform that moves a legend item to p.
func legendAt(p legendPos) string {
	return "translate(" + formatNum(p.X) + " " + formatNum(p.Y) + ")"
}

// Drawing is the set of summary charts a binary draws beside the
// timeline and the tables every page has (the headline, the timeline,
// the reconnects, the requests, the retry matrix, the checks and the
// events): the task lanes, the SSE buffers, the reconnect herd and the
// idempotency ledger, each drawn when the trace has it. A binary names
// the Drawing its pages' traces need (wasm/cmd/<page>/main.go) and links
// those charts and no others; the site's build draws every page with
// AllCharts (Output).
type Drawing struct {
	tasks, buffers, herd, ledger chartKind
}

// chartKind is one summary chart: build lays it out into c from tr (it
// sets nothing when tr has none of it), part is its block of Output when
// c holds it. The zero chartKind is a chart the Drawing does not draw.
type chartKind struct {
	build func(c *Charts, tr *trace.Trace, v View)
	part  func(c Charts) (OutputPart, bool)
}

// partOf is k's block of c, if k is drawn and c holds it.
func partOf(k chartKind, c Charts) (OutputPart, bool) {
	if k.part == nil {
		return OutputPart{}, false
	}
	return k.part(c)
}
