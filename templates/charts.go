package templates

// View models of the charts drawn beside the timeline: the SSE buffer's
// occupancy (DOMAIN.md §7), the durable tasks' status lanes (§6), the
// reconnect panel (§9) and the retry matrix (§5). The backoff and herd
// charts are in herd.go, the ledger view in ledger.go.
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
	"math"
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
	colCancel    = "var(--c-cancel, #d46b08)"
	colNeutral   = "var(--c-notification, #57606f)"
	colUndecided = "var(--c-undecided, #a16207)"
)

// Fonts of the charts' text (SVG presentation attributes).
const (
	fontSans = "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif"
	fontMono = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
)

// YTick is one labelled value on a chart's vertical axis.
type YTick struct {
	Value int64
	Y     float64
	Label string
}

// Glyph kinds of the buffer chart's marks (data-mark).
const (
	BufferCoalesce = "coalesce" // a newer progress replaced the buffered one
	BufferDrop     = "drop"     // something was dropped (progress, or a final under drop-newest)
	BufferFinal    = "final"    // the final response reached the client
)

// BufferChart is the occupancy of one response stream's SSE buffer over
// virtual time (trace.Buffer): depth as a step line, the capacity line, a
// mark for each coalesce and drop event of that stream, and a line where
// the final response reached the client.
type BufferChart struct {
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
	XTicks    []Tick
	YTicks    []YTick
	Marks     []BufferMark
	// Final is where the final response was delivered; nil when it never was.
	Final *BufferMark
	// Flags are the headline facts drawn in the chart's header, left to right.
	Flags   []ChartFlag
	Summary string
}

// BufferMark is one coalesce, drop or final-delivery event of a stream.
type BufferMark struct {
	Seq   int
	At    int64
	Kind  string // a Buffer* value
	X, Y  float64
	Title string
}

// ChartFlag is one short fact shown in a chart's header ("peak 2",
// "refetch needed"), with the colour it is drawn in.
type ChartFlag struct {
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

// NewBufferCharts draws every buffer of tr on the timeline's time scale
// (domainMs at plotRight).
func NewBufferCharts(tr *trace.Trace, domainMs int64) []BufferChart {
	var out []BufferChart
	for i, b := range tr.Buffers {
		out = append(out, newBufferChart(tr, i, b, domainMs))
	}
	return out
}

func newBufferChart(tr *trace.Trace, index int, b trace.Buffer, domainMs int64) BufferChart {
	c := BufferChart{
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
		c.YTicks = append(c.YTicks, YTick{Value: v, Y: yOf(v), Label: strconv.FormatInt(v, 10)})
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

	// Marks: the server's coalesce and drop events for this stream, and the
	// delivery of its final response to the client.
	stream := b.Stream.Raw()
	for _, e := range tr.Events {
		if e.ID == nil || e.ID.Raw() != stream {
			continue
		}
		switch {
		case e.Actor == trace.ActorServer && e.Type == BufferCoalesce:
			c.Marks = append(c.Marks, BufferMark{Seq: e.Seq, At: e.At, Kind: BufferCoalesce, X: xOf(e.At), Y: bufMarkRow1,
				Title: fmt.Sprintf("%d ms: coalesced\n%s", e.At, e.Note)})
		case e.Actor == trace.ActorServer && e.Type == trace.TypeDrop:
			c.Marks = append(c.Marks, BufferMark{Seq: e.Seq, At: e.At, Kind: BufferDrop, X: xOf(e.At), Y: bufMarkRow2,
				Title: fmt.Sprintf("%d ms: dropped\n%s", e.At, e.Note)})
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && c.Final == nil:
			kind, _, _, id := classify(e.Message, e.Signal)
			if (kind == KindResult || kind == KindError) && id == stream {
				c.Final = &BufferMark{Seq: e.Seq, At: e.At, Kind: BufferFinal, X: xOf(e.At), Y: c.PlotTop,
					Title: fmt.Sprintf("%d ms: the final response reaches the client\n%s", e.At, e.Message)}
			}
		}
	}

	// Header flags.
	capText := "capacity " + strconv.Itoa(b.Capacity)
	if b.Capacity == 0 {
		capText = "capacity unbounded"
	}
	flags := []ChartFlag{
		{Key: "stream", Text: "stream " + c.Stream, Color: colFg},
		{Key: "capacity", Text: capText + " (" + cmp(b.Policy, "evict-progress") + ")", Color: colMuted},
		{Key: "peak", Text: "peak depth " + strconv.Itoa(b.MaxDepth), Color: colFg},
		{Key: "dropped", Text: strconv.Itoa(b.DroppedProgress) + " progress dropped (" + strconv.Itoa(b.Coalesced) + " coalesced)", Color: colProgress},
	}
	switch {
	case b.DroppedFinals > 0:
		flags = append(flags, ChartFlag{Key: "final", Text: "final response dropped", Color: colError})
	case c.Final != nil:
		flags = append(flags, ChartFlag{Key: "final", Text: "final delivered at " + i64(c.Final.At) + " ms", Color: colResult})
	default:
		flags = append(flags, ChartFlag{Key: "final", Text: "no final delivered", Color: colMuted})
	}
	if b.NeedsRefetch {
		flags = append(flags, ChartFlag{Key: "refetch", Text: "client must refetch", Color: colCancel})
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
func xTicks(domainMs int64, xOf func(int64) float64) []Tick {
	step := niceStep(domainMs)
	var out []Tick
	for ms := int64(0); ms <= domainMs; ms += step {
		out = append(out, Tick{Ms: ms, X: xOf(ms), Label: strconv.FormatInt(ms, 10)})
	}
	return out
}

// Task status lanes.

// TaskLanes draws each durable task of a trace as two rows on the
// timeline's time scale: what the worker's task record says (tasks[].history
// and the worker's events) and what the client believes (the statuses it
// received and its own status events).
type TaskLanes struct {
	Width, Height float64
	DomainMs      int64
	XTicks        []Tick
	AxisY         float64
	Tasks         []TaskLane
	Summary       string
}

// TaskLane is one task.
type TaskLane struct {
	TaskID string
	// Status is the task's last status at the worker; ClientStatus is the
	// client's last belief ("" if it never learned one).
	Status, ClientStatus string
	CancelRequested      bool
	Top                  float64 // y of the task's name
	WorkerY, ClientY     float64 // top of each row's bar
	Worker, Client       []StatusSeg
	Marks                []TaskMark
	// Disagree lists where the client's belief and the worker's status
	// disagree about whether the task has ended, or about how; DisagreeMs
	// is their total length.
	Disagree   []StatusSeg
	DisagreeMs int64
}

// StatusSeg is a span of one status on a row, [From, To) in ms.
type StatusSeg struct {
	Status   string
	From, To int64
	X1, X2   float64
	Color    string
	Label    string // drawn inside when it fits, else ""
	Title    string
}

// Task mark kinds (data-mark).
const (
	TaskMarkCancelAck  = "cancel-ack"     // the server recorded a cancellation intent
	TaskMarkRefused    = "cancel-refused" // the server refused a tasks/cancel (2025: terminal task)
	TaskMarkCheckpoint = "checkpoint"     // a worker checkpoint
	TaskMarkIgnored    = "ignored"        // the worker ignored a step (terminal already)
	TaskMarkPoll       = "poll"           // the client received a status (tasks/get)
	TaskMarkBelief     = "belief"         // the client's own status event
)

// TaskMark is one event on a task's rows.
type TaskMark struct {
	Seq       int // -1 for a checkpoint known only from the scenario
	Kind      string
	At        int64
	X, Y      float64
	Label     string
	LabelY    float64 // baseline of the label
	Title     string
	OnClient  bool // on the client's row (a poll or a belief), else the worker's
	LabelEnd  bool // label drawn to the left of X
	LabelShow bool // the label is drawn (it fits without overlapping)
}

// Layout of the task lanes.
const (
	taskTop      = 8.0
	taskNameH    = 16.0 // the task's name line
	taskLabelH   = 15.0 // one row of mark labels above the worker bar
	taskBarH     = 18.0
	taskRowGap   = 10.0
	taskBelowH   = 22.0 // mark labels under the client bar
	taskBlockGap = 14.0
)

// endedStatus reports whether a task status (or the client's "stopped")
// means the task has ended.
func endedStatus(s string) bool {
	switch s {
	case "completed", "failed", "cancelled", "stopped":
		return true
	}
	return false
}

// statusColor is the colour of a task status.
func statusColor(s string) string {
	switch s {
	case "working":
		return colRequest
	case "input_required":
		return colUndecided
	case "completed":
		return colResult
	case "failed":
		return colError
	case "cancelled", "stopped":
		return colCancel
	}
	return colNeutral
}

// NewTaskLanes lays out tr's durable tasks on the timeline's time scale; it
// returns nil when the trace has no task.
func NewTaskLanes(tr *trace.Trace, domainMs int64) *TaskLanes {
	if len(tr.Tasks) == 0 {
		return nil
	}
	l := &TaskLanes{Width: svgWidth, DomainMs: max(domainMs, 1)}
	xOf := timeScale(l.DomainMs)
	l.XTicks = xTicks(l.DomainMs, xOf)
	end := max(tr.EndMs, 0)
	y := taskTop
	var sum []string
	for _, t := range tr.Tasks {
		lane := newTaskLane(tr, t, end, xOf)
		// Vertical layout: name, label rows, worker bar, client bar, labels.
		rows := placeTaskLabels(lane.Marks)
		lane.Top = y + 12
		lane.WorkerY = y + taskNameH + float64(rows)*taskLabelH + 4
		lane.ClientY = lane.WorkerY + taskBarH + taskRowGap
		for i := range lane.Marks {
			m := &lane.Marks[i]
			if m.OnClient {
				m.Y = lane.ClientY + taskBarH/2
				m.LabelY = lane.ClientY + taskBarH + 13
			} else {
				m.Y = lane.WorkerY + taskBarH/2
				m.LabelY = lane.WorkerY - 5 - m.LabelY*taskLabelH
			}
		}
		y = lane.ClientY + taskBarH + taskBelowH + taskBlockGap
		l.Tasks = append(l.Tasks, lane)
		s := fmt.Sprintf("task %s: worker %s", t.TaskID, lane.Status)
		if lane.ClientStatus != "" {
			s += ", client believes " + lane.ClientStatus
		}
		if lane.DisagreeMs > 0 {
			s += fmt.Sprintf(", they disagree for %d ms", lane.DisagreeMs)
		}
		sum = append(sum, s)
	}
	l.AxisY = y
	l.Height = y + 30
	l.Summary = "Durable task status over time: " + strings.Join(sum, "; ") + "."
	return l
}

// placeTaskLabels gives each labelled worker mark a label row (0 nearest
// the bar, stored in LabelY until the rows' y is known) so that labels do
// not overlap, and returns how many rows it used (at least 1). Client marks
// keep their labels on one row under the client bar, hiding those that
// would overlap.
func placeTaskLabels(marks []TaskMark) int {
	var rows [][][2]float64
	var below [][2]float64
	for i := range marks {
		m := &marks[i]
		if m.Label == "" {
			continue
		}
		w := textWidth(m.Label)
		lo, hi := m.X-3, m.X+w+3
		if hi > svgWidth-4 {
			lo, hi, m.LabelEnd = m.X-w-3, m.X+3, true
		}
		if m.OnClient {
			if !overlaps(below, lo, hi) {
				below = append(below, [2]float64{lo, hi})
				m.LabelShow = true
			}
			continue
		}
		r := 0
		for ; r < len(rows); r++ {
			if !overlaps(rows[r], lo, hi) {
				break
			}
		}
		if r == len(rows) {
			rows = append(rows, nil)
		}
		rows[r] = append(rows[r], [2]float64{lo, hi})
		m.LabelY = float64(r)
		m.LabelShow = true
	}
	return max(1, len(rows))
}

func newTaskLane(tr *trace.Trace, t trace.Task, end int64, xOf func(int64) float64) TaskLane {
	lane := TaskLane{TaskID: t.TaskID, Status: t.Status, CancelRequested: t.CancelRequested}

	// The worker's row: the task record's history.
	type point struct {
		at     int64
		status string
	}
	var worker []point
	for _, h := range t.History {
		at, ok := anyInt(h[0])
		s, _ := h[1].(string)
		if ok && s != "" {
			worker = append(worker, point{at, s})
		}
	}
	// The client's row: statuses it received, and its own status events.
	var client []point
	for _, e := range tr.Events {
		switch {
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient:
			if id, s := taskStatusIn(e.Message); id == t.TaskID && s != "" {
				client = append(client, point{e.At, s})
				lane.Marks = append(lane.Marks, TaskMark{Seq: e.Seq, Kind: TaskMarkPoll, At: e.At, X: xOf(e.At), OnClient: true,
					Title: fmt.Sprintf("%d ms: the client receives task %s's status: %s\n%s", e.At, t.TaskID, s, e.Message)})
			}
		case e.TaskID != t.TaskID:
		case e.Actor == trace.ActorClient && e.Type == trace.TypeStatus && e.Status != "":
			label := ""
			if len(client) == 0 || client[len(client)-1].status != e.Status {
				label = "UI: " + e.Status
			}
			client = append(client, point{e.At, e.Status})
			lane.Marks = append(lane.Marks, TaskMark{Seq: e.Seq, Kind: TaskMarkBelief, At: e.At, X: xOf(e.At), OnClient: true, Label: label,
				Title: fmt.Sprintf("%d ms: the client now says %s\n%s", e.At, e.Status, e.Note)})
		case e.Actor == trace.ActorServer && e.Type == trace.TypeStatus:
			kind, label := TaskMarkCancelAck, "cancel acknowledged"
			if e.Status == "" {
				kind, label = TaskMarkRefused, "cancel refused"
			}
			lane.Marks = append(lane.Marks, TaskMark{Seq: e.Seq, Kind: kind, At: e.At, X: xOf(e.At), Label: label,
				Title: fmt.Sprintf("%d ms, server: %s\n%s", e.At, label, e.Note)})
		case e.Actor == trace.ActorWorker && e.Type == TaskMarkCheckpoint:
			lane.Marks = append(lane.Marks, TaskMark{Seq: e.Seq, Kind: TaskMarkCheckpoint, At: e.At, X: xOf(e.At), Label: "checkpoint",
				Title: fmt.Sprintf("%d ms, worker: checkpoint\n%s", e.At, e.Note)})
		case e.Actor == trace.ActorWorker && e.Type == trace.TypeIgnore:
			lane.Marks = append(lane.Marks, TaskMark{Seq: e.Seq, Kind: TaskMarkIgnored, At: e.At, X: xOf(e.At), Label: "ignored",
				Title: fmt.Sprintf("%d ms, worker: ignored\n%s", e.At, e.Note)})
		case e.Actor == trace.ActorWorker && e.Type == trace.TypeStatus && e.Status != "" && len(worker) == 0:
			// An imported trace without a task summary still has its events.
			worker = append(worker, point{e.At, e.Status})
		}
	}
	// A checkpoint that changed the status leaves a status event, not a
	// checkpoint event: take its time from the scenario's step.
	if tr.Scenario != nil {
		for _, st := range tr.Scenario.Steps {
			if st.Do != "checkpoint" || st.TaskID != t.TaskID {
				continue
			}
			if slices.ContainsFunc(lane.Marks, func(m TaskMark) bool { return m.Kind == TaskMarkCheckpoint && m.At == st.At }) {
				continue
			}
			lane.Marks = append(lane.Marks, TaskMark{Seq: -1, Kind: TaskMarkCheckpoint, At: st.At, X: xOf(st.At), Label: "checkpoint",
				Title: fmt.Sprintf("%d ms, worker: checkpoint (scenario step)", st.At)})
		}
	}
	slices.SortStableFunc(lane.Marks, func(a, b TaskMark) int { return int(a.At - b.At) })

	segs := func(pts []point, who string) []StatusSeg {
		var out []StatusSeg
		for i, p := range pts {
			to := end
			if i+1 < len(pts) {
				to = pts[i+1].at
			}
			if i > 0 && out[len(out)-1].Status == p.status {
				out[len(out)-1].To, out[len(out)-1].X2 = to, xOf(to)
				continue
			}
			out = append(out, StatusSeg{Status: p.status, From: p.at, To: to, X1: xOf(p.at), X2: xOf(to), Color: statusColor(p.status)})
		}
		for i := range out {
			s := &out[i]
			s.X2 = max(s.X2, s.X1+2)
			if textWidth(s.Status)+8 <= s.X2-s.X1 {
				s.Label = s.Status
			}
			s.Title = fmt.Sprintf("%s: %s from %d to %d ms", who, s.Status, s.From, s.To)
		}
		return out
	}
	lane.Worker = segs(worker, "worker")
	lane.Client = segs(client, "client believes")
	if n := len(client); n > 0 {
		lane.ClientStatus = client[n-1].status
	}
	if lane.Status == "" && len(worker) > 0 {
		lane.Status = worker[len(worker)-1].status
	}

	// Disagreement: where the client thinks the task has ended and the
	// worker does not (or the reverse), or both ended differently (a
	// "stopped" UI over a cancelled task agrees).
	statusAt := func(pts []point, at int64) string {
		s := ""
		for _, p := range pts {
			if p.at > at {
				break
			}
			s = p.status
		}
		return s
	}
	var cuts []int64
	for _, p := range worker {
		cuts = append(cuts, p.at)
	}
	for _, p := range client {
		cuts = append(cuts, p.at)
	}
	cuts = append(cuts, end)
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	for i := 0; i+1 < len(cuts); i++ {
		from, to := cuts[i], cuts[i+1]
		w, c := statusAt(worker, from), statusAt(client, from)
		if w == "" || c == "" {
			continue
		}
		disagree := endedStatus(w) != endedStatus(c) ||
			(endedStatus(w) && w != c && !(c == "stopped" && w == "cancelled"))
		if !disagree {
			continue
		}
		if n := len(lane.Disagree); n > 0 && lane.Disagree[n-1].To == from {
			lane.Disagree[n-1].To, lane.Disagree[n-1].X2 = to, xOf(to)
		} else {
			lane.Disagree = append(lane.Disagree, StatusSeg{From: from, To: to, X1: xOf(from), X2: xOf(to)})
		}
	}
	for i := range lane.Disagree {
		d := &lane.Disagree[i]
		lane.DisagreeMs += d.To - d.From
		w, c := statusAt(worker, d.From), statusAt(client, d.From)
		d.Status = "client says " + c + ", worker is " + w
		d.Title = fmt.Sprintf("%d–%d ms: the client says %s while the worker's task is %s", d.From, d.To, c, w)
		d.Color = colError
		if textWidth(d.Status)+8 <= d.X2-d.X1 || i == 0 {
			d.Label = d.Status
		}
	}
	return lane
}

// taskStatusIn reads a task id and status from a response carrying a task:
// {"result":{"task":{"taskId","status"}}} (a task handle) or
// {"result":{"taskId","status"}} (tasks/get, or a 2025 tasks/cancel reply).
func taskStatusIn(msg json.RawMessage) (id, status string) {
	if len(msg) == 0 {
		return "", ""
	}
	type shape struct {
		TaskID string `json:"taskId"`
		Status string `json:"status"`
	}
	var m struct {
		Result *struct {
			shape
			Task *shape `json:"task"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Result == nil {
		return "", ""
	}
	if m.Result.Task != nil {
		return m.Result.Task.TaskID, m.Result.Task.Status
	}
	return m.Result.TaskID, m.Result.Status
}

// anyInt reads a JSON number decoded as any (int64 from the engine, float64
// or json.Number from a decoded trace).
func anyInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case float64:
		if v == math.Trunc(v) {
			return int64(v), true
		}
	case json.Number:
		n, err := v.Int64()
		return n, err == nil
	}
	return 0, false
}

// Reconnects.

// ReconnectRow is one reconnect of a dropped listen stream (trace.Reconnect).
type ReconnectRow struct {
	PreviousID, NewID string
	NewRequest        bool // the new id differs from the old one
	LastEventID       bool
	Refetch           []string
	RetryUnsafe       bool
	Delays            string // "139 ms", or "139, 320 ms"
}

// NewReconnectRows lists tr's reconnects.
func NewReconnectRows(tr *trace.Trace) []ReconnectRow {
	var out []ReconnectRow
	for _, r := range tr.Reconnects {
		row := ReconnectRow{PreviousID: r.PreviousID, NewID: r.NewID, NewRequest: r.NewID != r.PreviousID,
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

// RetryClassRow is one row of the retry matrix (DOMAIN.md §5): the class,
// its rule, and the requests of this run that show it.
type RetryClassRow struct {
	Class    string // safe, conditional, unsafe
	Example  string // the kind of request the class covers
	Rule     string
	Requests []RetryExample
}

// RetryExample is one request of a class.
type RetryExample struct {
	ID, Name string
	Hints    []string // the tool's annotations, "readOnlyHint" or "idempotentHint: false"
	RetryOf  string   // the request it retries, "" for none
	Outcome  string   // its state
}

// retryRules are the classes of DOMAIN.md §5, in order.
var retryRules = []RetryClassRow{
	{Class: trace.RetrySafe, Example: "deterministic read, no side effect", Rule: "retry with a new id once the failure boundary is understood"},
	{Class: trace.RetryConditional, Example: "mutation with a durable idempotency key", Rule: "retry with the same key and identical arguments"},
	{Class: trace.RetryUnsafe, Example: "mutation without business deduplication", Rule: "never retry automatically; reconcile first"},
}

// NewRetryMatrix returns the retry matrix of tr, or nil when every request
// is safe and none carries hints (nothing to explain).
func NewRetryMatrix(tr *trace.Trace) []RetryClassRow {
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
			ex := RetryExample{ID: r.ID.String(), Name: r.Name, Hints: hintList(r.Hints), Outcome: r.State}
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
	Buffers     []BufferChart
	Tasks       *TaskLanes
	Herd        *HerdChart
	Backoff     *BackoffChart
	HerdCompare *HerdCompare
	// HerdCompareNarrow is HerdCompare laid out for a phone.
	HerdCompareNarrow *HerdCompare
	// HerdFirst puts the herd section above the timeline, for a trace with
	// no events (a pure herd experiment).
	HerdFirst   bool
	Reconnects  []ReconnectRow
	Ledger      *LedgerView
	RetryMatrix []RetryClassRow
	// Requests is, for each row of View.Requests, its retry details.
	Requests []RequestRetry
}

// RequestRetry is the retry side of one request: its class, the tool's
// annotations (untrusted hints) and the request it retries.
type RequestRetry struct {
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
		Buffers:     NewBufferCharts(tr, v.Timeline.DomainMs),
		Tasks:       NewTaskLanes(tr, v.Timeline.DomainMs),
		Herd:        NewHerdChart(tr.Herd),
		Backoff:     NewBackoffChart(tr.Herd),
		HerdFirst:   tr.Herd != nil && len(tr.Events) == 0,
		Reconnects:  NewReconnectRows(tr),
		Ledger:      NewLedgerView(tr, v.Checks),
		RetryMatrix: NewRetryMatrix(tr),
	}
	if tr.Herd != nil {
		c.HerdCompare = NewHerdCompare(tr.HerdCompare, tr.Herd.Strategy)
		c.HerdCompareNarrow = NewNarrowHerdCompare(tr.HerdCompare, tr.Herd.Strategy)
	}
	for _, r := range tr.Requests {
		rr := RequestRetry{Class: r.RetryClass, Hints: hintList(r.Hints)}
		if r.RetryOf != nil {
			rr.RetryOf = r.RetryOf.String()
		}
		c.Requests = append(c.Requests, rr)
	}
	return c
}

// retryOf returns the retry details of request row i ("" fields when
// unknown).
func (c Charts) retryOf(i int) RequestRetry {
	if i < len(c.Requests) {
		return c.Requests[i]
	}
	return RequestRetry{}
}
