package templates

// Task status lanes: each durable task of a trace drawn as its client-side
// and worker-side status rows on the timeline's time scale.

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// taskLanes draws each durable task of a trace as two rows on the
// timeline's time scale: what the worker's task record says (tasks[].history
// and the worker's events) and what the client believes (the statuses it
// received and its own status events).
type taskLanes struct {
	// IDPrefix prefixes the DOM ids ("" wide, narrowFrame's for the phone
	// layout); Narrow says which layout this is.
	IDPrefix string
	Narrow   bool
	// PlotLeft and PlotRight bound the time axis (x of 0 ms and DomainMs).
	PlotLeft, PlotRight float64
	Width, Height       float64
	DomainMs            int64
	XTicks              []tick
	AxisY               float64
	Tasks               []taskLane
	Summary             string
}

// taskLane is one task.
type taskLane struct {
	TaskID string
	// Status is the task's last status at the worker; ClientStatus is the
	// client's last belief ("" if it never learned one).
	Status, ClientStatus string
	CancelRequested      bool
	Top                  float64 // y of the task's name
	WorkerY, ClientY     float64 // top of each row's bar
	Worker, Client       []statusSeg
	Marks                []taskMark
	// Disagree lists where the client's belief and the worker's status
	// disagree about whether the task has ended, or about how; DisagreeMs
	// is their total length.
	Disagree   []statusSeg
	DisagreeMs int64
}

// statusSeg is a span of one status on a row, [From, To) in ms.
type statusSeg struct {
	Status   string
	From, To int64
	X1, X2   float64
	Color    string
	Label    string // drawn inside when it fits, else ""
	Title    string
}

// Task mark kinds (data-mark).
const (
	taskMarkCancelAck  = "cancel-ack"     // the server recorded a cancellation intent
	taskMarkRefused    = "cancel-refused" // the server refused a tasks/cancel (2025: terminal task)
	taskMarkCheckpoint = "checkpoint"     // a worker checkpoint
	taskMarkIgnored    = "ignored"        // the worker ignored a step (terminal already)
	taskMarkPoll       = "poll"           // the client received a status (tasks/get)
	taskMarkBelief     = "belief"         // the client's own status event
)

// taskMark is one event on a task's rows.
type taskMark struct {
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
	taskLeftN    = 92.0 // x of 0 ms narrow: right of "client sees"
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

// newTaskLanes lays out tr's durable tasks on the timeline's time scale; it
// returns nil when the trace has no task.
func newTaskLanes(tr *trace.Trace, domainMs int64) *taskLanes {
	return layoutTaskLanes(tr, domainMs, false)
}

// newNarrowTaskLanes is newTaskLanes for a phone: the timeline's narrow
// frame (380 units) with its time axis right of the rows' names, at most
// its number of ticks, and the worker's mark labels stacked in as many
// rows as that width needs. The wide lanes' 1000 units scrolled in a
// phone's box.
func newNarrowTaskLanes(tr *trace.Trace, domainMs int64) *taskLanes {
	return layoutTaskLanes(tr, domainMs, true)
}

// layoutTaskLanes lays out the task lanes wide (svgWidth) or narrow
// (narrowFrame's width); nil when the trace has no task.
func layoutTaskLanes(tr *trace.Trace, domainMs int64, narrow bool) *taskLanes {
	if len(tr.Tasks) == 0 {
		return nil
	}
	l := &taskLanes{Width: svgWidth, PlotLeft: plotLeft, PlotRight: plotRight, DomainMs: max(domainMs, 1)}
	if narrow {
		l.IDPrefix, l.Narrow = narrowFrame.idPrefix, true
		l.Width, l.PlotLeft, l.PlotRight = narrowFrame.width, taskLeftN, narrowFrame.right
	}
	d := float64(l.DomainMs)
	xOf := func(ms int64) float64 { return l.PlotLeft + float64(ms)*(l.PlotRight-l.PlotLeft)/d }
	l.XTicks = xTicks(l.DomainMs, xOf)
	if narrow {
		l.XTicks = nil
		for ms, step := int64(0), niceStepN(l.DomainMs, narrowFrame.maxTicks); ms <= l.DomainMs; ms += step {
			l.XTicks = append(l.XTicks, tick{Ms: ms, X: xOf(ms), Label: strconv.FormatInt(ms, 10)})
		}
	}
	end := max(tr.EndMs, 0)
	y := taskTop
	var sum []string
	for _, t := range tr.Tasks {
		lane := newTaskLane(tr, t, end, xOf)
		for i := range lane.Disagree {
			// A disagreement's words start at its band and end inside the
			// chart, shortened where the band is near its right edge (the
			// title keeps them whole).
			if d := &lane.Disagree[i]; d.Label != "" {
				d.Label = fitLabel(d.Label, l.Width-4-d.X1-2)
			}
		}
		// Vertical layout: name, label rows, worker bar, client bar, labels.
		rows := placeTaskLabels(lane.Marks, l.Width)
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
// not overlap within width, and returns how many rows it used (at least 1). Client marks
// keep their labels on one row under the client bar, hiding those that
// would overlap.
func placeTaskLabels(marks []taskMark, width float64) int {
	var rows [][][2]float64
	var below [][2]float64
	for i := range marks {
		m := &marks[i]
		if m.Label == "" {
			continue
		}
		w := textWidth(m.Label)
		lo, hi := m.X-3, m.X+w+3
		if hi > width-4 {
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

func newTaskLane(tr *trace.Trace, t trace.Task, end int64, xOf func(int64) float64) taskLane {
	lane := taskLane{TaskID: t.TaskID, Status: t.Status, CancelRequested: t.CancelRequested}
	worker, client := lane.rows(tr, t, xOf)
	lane.Worker = statusSegs(worker, "worker", end, xOf)
	lane.Client = statusSegs(client, "client believes", end, xOf)
	if n := len(client); n > 0 {
		lane.ClientStatus = client[n-1].status
	}
	if lane.Status == "" && len(worker) > 0 {
		lane.Status = worker[len(worker)-1].status
	}
	lane.disagreements(worker, client, end, xOf)
	return lane
}

// point is a status and the time it took effect (ms), on one row of a
// task's lane.
type point struct {
	at     int64
	status string
}

// rows reads task t's two rows from the trace: the worker's (the task
// record's history) and the client's (statuses it received, and its own
// status events), and adds the lane's marks.
func (lane *taskLane) rows(tr *trace.Trace, t trace.Task, xOf func(int64) float64) (worker, client []point) {
	// The worker's row: the task record's history.
	for _, h := range t.History {
		at, ok := anyInt(h[0])
		s, _ := h[1].(string)
		if ok && s != "" {
			worker = append(worker, point{at, s})
		}
	}
	// The client's row: statuses it received, and its own status events.
	for _, e := range tr.Events {
		switch {
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient:
			if id, s := taskStatusIn(e.Message); id == t.TaskID && s != "" {
				client = append(client, point{e.At, s})
				lane.Marks = append(lane.Marks, taskMark{Seq: e.Seq, Kind: taskMarkPoll, At: e.At, X: xOf(e.At), OnClient: true,
					Title: fmt.Sprintf("%d ms: the client receives task %s's status: %s\n%s", e.At, t.TaskID, s, shownJSON(e.Message))})
			}
		case e.TaskID != t.TaskID:
		case e.Actor == trace.ActorClient && e.Type == trace.TypeStatus && e.Status != "":
			label := ""
			if len(client) == 0 || client[len(client)-1].status != e.Status {
				label = "UI: " + e.Status
			}
			client = append(client, point{e.At, e.Status})
			lane.Marks = append(lane.Marks, taskMark{Seq: e.Seq, Kind: taskMarkBelief, At: e.At, X: xOf(e.At), OnClient: true, Label: label,
				Title: fmt.Sprintf("%d ms: the client now says %s\n%s", e.At, e.Status, e.Note)})
		case e.Actor == trace.ActorServer && e.Type == trace.TypeStatus:
			kind, label := taskMarkCancelAck, "cancel acknowledged"
			if e.Status == "" {
				kind, label = taskMarkRefused, "cancel refused"
			}
			lane.Marks = append(lane.Marks, taskMark{Seq: e.Seq, Kind: kind, At: e.At, X: xOf(e.At), Label: label,
				Title: fmt.Sprintf("%d ms, server: %s\n%s", e.At, label, e.Note)})
		case e.Actor == trace.ActorWorker && e.Type == taskMarkCheckpoint:
			lane.Marks = append(lane.Marks, taskMark{Seq: e.Seq, Kind: taskMarkCheckpoint, At: e.At, X: xOf(e.At), Label: "checkpoint",
				Title: fmt.Sprintf("%d ms, worker: checkpoint\n%s", e.At, e.Note)})
		case e.Actor == trace.ActorWorker && e.Type == trace.TypeIgnore:
			lane.Marks = append(lane.Marks, taskMark{Seq: e.Seq, Kind: taskMarkIgnored, At: e.At, X: xOf(e.At), Label: "ignored",
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
			if st.Do != scenario.VerbCheckpoint || st.TaskID != t.TaskID {
				continue
			}
			if slices.ContainsFunc(lane.Marks, func(m taskMark) bool { return m.Kind == taskMarkCheckpoint && m.At == st.At }) {
				continue
			}
			lane.Marks = append(lane.Marks, taskMark{Seq: -1, Kind: taskMarkCheckpoint, At: st.At, X: xOf(st.At), Label: "checkpoint",
				Title: fmt.Sprintf("%d ms, worker: checkpoint (scenario step)", st.At)})
		}
	}
	slices.SortStableFunc(lane.Marks, func(a, b taskMark) int { return int(a.At - b.At) })
	return worker, client
}

// statusSegs are the segments of one row of statuses, from each point to
// the next (the last to end), alike neighbours merged; who names the row
// in the titles.
func statusSegs(pts []point, who string, end int64, xOf func(int64) float64) []statusSeg {
	var out []statusSeg
	for i, p := range pts {
		to := end
		if i+1 < len(pts) {
			to = pts[i+1].at
		}
		if i > 0 && out[len(out)-1].Status == p.status {
			out[len(out)-1].To, out[len(out)-1].X2 = to, xOf(to)
			continue
		}
		out = append(out, statusSeg{Status: p.status, From: p.at, To: to, X1: xOf(p.at), X2: xOf(to), Color: statusColor(p.status)})
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

// statusAt is the status a row holds at time at ("" before its first).
func statusAt(pts []point, at int64) string {
	s := ""
	for _, p := range pts {
		if p.at > at {
			break
		}
		s = p.status
	}
	return s
}

// disagreements marks where the client thinks the task has ended and the
// worker does not (or the reverse), or both ended differently (a
// "stopped" UI over a cancelled task agrees).
func (lane *taskLane) disagreements(worker, client []point, end int64, xOf func(int64) float64) {
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
			lane.Disagree = append(lane.Disagree, statusSeg{From: from, To: to, X1: xOf(from), X2: xOf(to)})
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
}

// askedToCancel reports whether the client's tasks/cancel for task t
// reached the server by endMs (when the task ended, or the run did), one
// rule for both protocol revisions: under 2026-07-28 the server records
// the intent and a worker checkpoint ends the task later; under 2025-11-25
// the server cancels the task as the request arrives and records nothing
// (t.CancelRequested stays false: a reader found the 2025 card silent where the
// 2026 card said it). A tasks/cancel arriving after the task ended
// (refused under 2025, a flag too late under 2026) is not one it ended
// after.
func askedToCancel(tr *trace.Trace, t trace.Task, endMs int64) bool {
	for _, e := range tr.Events {
		if e.At > endMs {
			break
		}
		if e.Type == trace.TypeDeliver && e.TaskID == t.TaskID && e.To == trace.ActorServer {
			var m wireMessage
			if json.Unmarshal(e.Message, &m) == nil && m.Method == "tasks/cancel" {
				return true
			}
		}
	}
	return false
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

// taskCards are the outcome cards of tr's durable tasks, after the
// requests' cards: a task outlives the requests that start, poll and
// cancel it, so its own end ("task-42 cancelled") is a card of its own
// . Key is "task-" and the worker's last status; the
// card is coloured by that status (green only for completed); Detail says
// when the worker's record reached it, whether the client asked to cancel
// before then (askedToCancel: under either protocol revision), and what
// the client last saw, as the task lanes read it (newTaskLane).
func taskCards(tr *trace.Trace) []outcomeCard {
	var out []outcomeCard
	for _, t := range tr.Tasks {
		lane := newTaskLane(tr, t, max(tr.EndMs, 0), func(int64) float64 { return 0 })
		status := cmp(lane.Status, "unknown")
		c := outcomeCard{Count: 1, Task: t.TaskID, Who: "Task " + t.TaskID}
		c.Key, c.Text = "task-"+status, status
		switch status {
		case trace.TaskCompleted, trace.TaskFailed, trace.TaskCancelled:
			c.Tone = status
		default:
			c.Tone, c.Text = trace.StateInProgress, "still "+status
		}
		var b strings.Builder
		endMs := max(tr.EndMs, 0)
		if n := len(lane.Worker); n > 0 && endedStatus(status) {
			endMs = lane.Worker[n-1].From
			fmt.Fprintf(&b, "Task %s ended %s at the worker at %d ms", t.TaskID, status, endMs)
		} else {
			fmt.Fprintf(&b, "Task %s is %s at the worker at the end of the run", t.TaskID, c.Text)
		}
		if askedToCancel(tr, t, endMs) {
			b.WriteString(", after the client asked to cancel it")
		}
		if lane.ClientStatus == "" {
			b.WriteString("; the client never learned its status")
		} else {
			fmt.Fprintf(&b, "; the client last saw it %s", lane.ClientStatus)
		}
		if lane.DisagreeMs > 0 {
			fmt.Fprintf(&b, " (the two disagreed for %d ms)", lane.DisagreeMs)
		}
		b.WriteString(".")
		c.Detail = b.String()
		out = append(out, c)
	}
	return out
}
