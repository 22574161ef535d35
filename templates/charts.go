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
// (fill="var(--c-progress, #7c4dcc)"), so they follow the light and dark
// themes without inline styles, which the CSP forbids.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// Colours: the page's custom properties (site/static/app.css) with their
// light-theme values as fallbacks.
const (
	colFg        = "var(--fg, #1c1f24)"
	colMuted     = "var(--muted, #5b6270)"
	colLine      = "var(--line-strong, #9aa1ad)"
	colGrid      = "var(--grid, #eceef1)"
	colPanel     = "var(--panel, #ffffff)"
	colRequest   = "var(--c-request, #2563d9)"
	colResult    = "var(--c-result, #15803d)"
	colError     = "var(--c-error, #c62828)"
	colProgress  = "var(--c-progress, #7c4dcc)"
	colCancel    = "var(--c-cancel, #b45309)"
	colNeutral   = "var(--c-notification, #57606f)"
	colUndecided = "var(--c-undecided, #a16207)"
)

// Fonts of the charts' text (SVG presentation attributes).
const (
	fontSans = "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif"
	fontMono = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
)

// yTick is one labelled value on a chart's vertical axis.
type yTick struct {
	Value int64
	Y     float64
	Label string
}

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
	Index    int    // position in trace.buffers (DOM id buffer-chart-N)
	Stream   string // the request whose stream it is, as JSON text
	Capacity int    // 0 = unbounded
	Policy   string
	// Peak, Dropped, Coalesced, DroppedFinals and FinalsDelivered are the
	// trace's counters (maxDepth, droppedProgress, ...).
	Peak, Dropped, Coalesced, DroppedFinals, FinalsDelivered int
	NeedsRefetch                                             bool

	Width, Height float64
	PlotTop       float64 // y of the top of the plot (the largest depth)
	PlotBottom    float64 // y of depth 0, the time axis
	DomainMs      int64
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
}

// Layout of the buffer chart (SVG units).
const (
	bufHeaderY  = 16.0  // baseline of the header line
	bufMarkRow1 = 38.0  // y of the coalesce marks
	bufMarkRow2 = 56.0  // y of the drop marks
	bufPlotTop  = 74.0  // top of the plot
	bufPlotH    = 150.0 // height of the plot
)

// newBufferCharts draws every buffer of tr on the timeline's time scale
// (domainMs at plotRight).
func newBufferCharts(tr *trace.Trace, domainMs int64) []bufferChart {
	var out []bufferChart
	for i, b := range tr.Buffers {
		out = append(out, newBufferChart(tr, i, b, domainMs))
	}
	return out
}

func newBufferChart(tr *trace.Trace, index int, b trace.Buffer, domainMs int64) bufferChart {
	c := bufferChart{
		Index: index, Stream: b.Stream.String(), Capacity: b.Capacity, Policy: b.Policy,
		Peak: b.MaxDepth, Dropped: b.DroppedProgress, Coalesced: b.Coalesced,
		DroppedFinals: b.DroppedFinals, FinalsDelivered: b.FinalsDelivered, NeedsRefetch: b.NeedsRefetch,
		Width: svgWidth, PlotTop: bufPlotTop, PlotBottom: bufPlotTop + bufPlotH,
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
	xOf := timeScale(c.DomainMs)

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
	if b.Capacity > 0 {
		c.CapacityY = yOf(int64(b.Capacity))
	}

	// The step line: flat until the next change, then a vertical step; it
	// runs on to the end of the trace.
	if len(b.Depth) > 0 {
		var line strings.Builder
		x0 := xOf(b.Depth[0][0])
		fmt.Fprintf(&line, "M%s %s", formatNum(x0), formatNum(yOf(b.Depth[0][1])))
		for _, p := range b.Depth[1:] {
			fmt.Fprintf(&line, " H%s V%s", formatNum(xOf(p[0])), formatNum(yOf(p[1])))
		}
		end := max(tr.EndMs, b.Depth[len(b.Depth)-1][0])
		fmt.Fprintf(&line, " H%s", formatNum(xOf(end)))
		c.Line = line.String()
		c.Area = c.Line + " V" + formatNum(c.PlotBottom) + " H" + formatNum(x0) + " Z"
	}

	// marks: the server's coalesce and drop events for this stream, and the
	// delivery of its final response to the client.
	stream := b.Stream.Raw()
	for _, e := range tr.Events {
		if e.ID == nil || e.ID.Raw() != stream {
			continue
		}
		switch {
		case e.Actor == trace.ActorServer && e.Type == bufferCoalesce:
			c.Marks = append(c.Marks, bufferMark{Seq: e.Seq, At: e.At, Kind: bufferCoalesce, X: xOf(e.At), Y: bufMarkRow1,
				Title: fmt.Sprintf("%d ms: coalesced\n%s", e.At, e.Note)})
		case e.Actor == trace.ActorServer && e.Type == trace.TypeDrop:
			c.Marks = append(c.Marks, bufferMark{Seq: e.Seq, At: e.At, Kind: bufferDrop, X: xOf(e.At), Y: bufMarkRow2,
				Title: fmt.Sprintf("%d ms: dropped\n%s", e.At, e.Note)})
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && c.Final == nil:
			kind, _, _, id := classify(e.Message, e.Signal)
			if (kind == kindResult || kind == kindError) && id == stream {
				c.Final = &bufferMark{Seq: e.Seq, At: e.At, Kind: bufferFinal, X: xOf(e.At), Y: c.PlotTop,
					Title: fmt.Sprintf("%d ms: the final response reaches the client\n%s", e.At, shownJSON(e.Message))}
			}
		}
	}

	// Header flags.
	capText := "capacity " + strconv.Itoa(b.Capacity)
	if b.Capacity == 0 {
		capText = "capacity unbounded"
	}
	flags := []chartFlag{
		{Key: "stream", Text: "stream " + c.Stream, Color: colFg},
		{Key: "capacity", Text: capText + " (" + cmp(b.Policy, "evict-progress") + ")", Color: colMuted},
		{Key: "peak", Text: "peak depth " + strconv.Itoa(b.MaxDepth), Color: colFg},
		{Key: "dropped", Text: strconv.Itoa(b.DroppedProgress) + " progress dropped (" + strconv.Itoa(b.Coalesced) + " coalesced)", Color: colProgress},
	}
	switch {
	case b.DroppedFinals > 0:
		flags = append(flags, chartFlag{Key: "final", Text: "final response dropped", Color: colError})
	case c.Final != nil:
		flags = append(flags, chartFlag{Key: "final", Text: "final delivered at " + i64(c.Final.At) + " ms", Color: colResult})
	default:
		flags = append(flags, chartFlag{Key: "final", Text: "no final delivered", Color: colMuted})
	}
	if b.NeedsRefetch {
		flags = append(flags, chartFlag{Key: "refetch", Text: "client must refetch", Color: colCancel})
	}
	x := 10.0
	for i := range flags {
		flags[i].X = x
		x += textWidth(flags[i].Text) + 18
	}
	c.Flags = flags
	c.Height = c.PlotBottom + 44

	var s strings.Builder
	fmt.Fprintf(&s, "SSE buffer of stream %s over %d ms: %s, peak depth %d, %d progress dropped (%d coalesced)",
		c.Stream, c.DomainMs, capText, b.MaxDepth, b.DroppedProgress, b.Coalesced)
	for _, f := range flags[4:] {
		s.WriteString(", " + f.Text)
	}
	s.WriteString(".")
	c.Summary = s.String()
	return c
}

// timeScale maps virtual ms to x on the timeline's plot (plotLeft..plotRight
// over 0..domainMs).
func timeScale(domainMs int64) func(int64) float64 {
	d := float64(max(domainMs, 1))
	return func(ms int64) float64 { return plotLeft + float64(ms)*(plotRight-plotLeft)/d }
}

// xTicks labels a time axis at the 1-2-5 step of domainMs.
func xTicks(domainMs int64, xOf func(int64) float64) []tick {
	step := niceStep(domainMs)
	var out []tick
	for ms := int64(0); ms <= domainMs; ms += step {
		out = append(out, tick{Ms: ms, X: xOf(ms), Label: strconv.FormatInt(ms, 10)})
	}
	return out
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
// retry classes. Empty members are not drawn.
type Charts struct {
	Buffers []bufferChart
	Tasks   *taskLanes
	Herd    *herdChart
	Backoff *backoffChart
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

// NewCharts builds every chart of tr; v is tr's view (NewView), whose
// timeline sets the time scale and whose checks colour the ledger counter.
func NewCharts(tr *trace.Trace, v View) Charts {
	if tr == nil {
		return Charts{}
	}
	c := Charts{
		Buffers:     newBufferCharts(tr, v.Timeline.DomainMs),
		Tasks:       newTaskLanes(tr, v.Timeline.DomainMs),
		Herd:        newHerdChart(tr.Herd),
		Backoff:     newBackoffChart(tr.Herd),
		HerdFirst:   tr.Herd != nil && len(tr.Events) == 0,
		Reconnects:  newReconnectRows(tr),
		Ledger:      newLedgerView(tr, v.Checks),
		RetryMatrix: newRetryMatrix(tr),
	}
	if tr.Herd != nil {
		c.HerdCompare = newHerdCompare(tr.HerdCompare, tr.Herd.Strategy)
		c.HerdCompareNarrow = newNarrowHerdCompare(tr.HerdCompare, tr.Herd.Strategy)
		c.BackoffNarrow = newNarrowBackoffChart(tr.Herd)
		c.HerdNarrow = newNarrowHerdChart(tr.Herd)
	}
	for _, r := range tr.Requests {
		rr := requestRetry{Class: r.RetryClass, Hints: hintList(r.Hints)}
		if r.RetryOf != nil {
			rr.RetryOf = r.RetryOf.String()
		}
		c.Requests = append(c.Requests, rr)
	}
	return c
}

// retryOf returns the retry details of request row i ("" fields when
// unknown).
func (c Charts) retryOf(i int) requestRetry {
	if i < len(c.Requests) {
		return c.Requests[i]
	}
	return requestRetry{}
}
