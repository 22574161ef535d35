package templates

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/trace"
)

// busyTrace is a long run drawn on the timeline: n status marks on the
// server lane, one every ms, and a progress notification from the server
// to the client every second ms (n/2 arrows, each delivered 3 ms later).
func busyTrace(n int) *trace.Trace {
	tr := &trace.Trace{EndMs: int64(n) + 3}
	seq, wire := 0, 0
	for i := range n {
		at := int64(i)
		tr.Events = append(tr.Events, trace.Event{Seq: seq, At: at, Actor: trace.ActorServer, Type: trace.TypeStatus, Status: "working"})
		seq++
		if i%2 == 0 {
			wire++
			msg := json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":` + strconv.Itoa(i) + `}}`)
			sent := at
			tr.Events = append(tr.Events,
				trace.Event{Seq: seq, At: at, Actor: trace.ActorServer, Type: trace.TypeSend, From: trace.ActorServer, To: trace.ActorClient, Wire: wire, Message: msg},
				trace.Event{Seq: seq + 1, At: at + 3, Actor: trace.ActorNetwork, Type: trace.TypeDeliver, From: trace.ActorServer, To: trace.ActorClient, Wire: wire, SentAt: &sent, Message: msg})
			seq += 2
		}
	}
	return tr
}

// BenchmarkTimelineGrowth lays out the wide timeline of busyTrace(n) and
// busyTrace(10n) and reports t(10n)/t(n) as "growth" (placement
// linear in marks, at most 13; a linear layout gives about 10). Both sizes
// are timed in the same run, interleaved, so a busy machine moves them
// together. It also reports the drawing's height for 10n ("height(10n)",
// SVG units), which the row bounds keep from growing with the run.
func BenchmarkTimelineGrowth(b *testing.B) {
	const n = 6000
	small, large := busyTrace(n), busyTrace(10*n)
	var ts, tl time.Duration
	var height float64
	for b.Loop() {
		t0 := time.Now()
		newTimeline(small)
		t1 := time.Now()
		height = newTimeline(large).Height
		ts += t1.Sub(t0)
		tl += time.Since(t1)
	}
	b.ReportMetric(float64(tl)/float64(ts), "growth")
	b.ReportMetric(height, "height(10n)")
	b.ReportMetric(float64(len(large.Events)), "events(10n)")
}
