package templates

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/trace"
)

// smallTrace is a hand-written trace covering each way an event is drawn:
// a request, progress, a stdio cancellation, an HTTP stream close, a
// response lost in transit, a message still in flight at the end, and the
// marks (start, status, suppress, timeout, ignore).
const smallTrace = `{
  "mcplab": 1,
  "scenario": null,
  "events": [
    {"seq": 0, "at": 0, "actor": "client", "type": "send", "id": 7, "from": "client", "to": "server", "wire": 1,
     "message": {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch"}}, "note": "The client sends request 7."},
    {"seq": 1, "at": 10, "actor": "network", "type": "deliver", "id": 7, "from": "client", "to": "server", "wire": 1, "sentAt": 0,
     "message": {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch"}}, "note": "Delivered after 10 ms."},
    {"seq": 2, "at": 10, "actor": "server", "type": "start", "id": 7, "note": "The server starts."},
    {"seq": 3, "at": 100, "actor": "server", "type": "send", "id": 7, "from": "server", "to": "client", "wire": 2,
     "message": {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":3}}},
    {"seq": 4, "at": 110, "actor": "network", "type": "deliver", "id": 7, "from": "server", "to": "client", "wire": 2, "sentAt": 100,
     "message": {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":3}}},
    {"seq": 5, "at": 300, "actor": "client", "type": "send", "id": 7, "from": "client", "to": "server", "wire": 3,
     "message": {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"bored"}}},
    {"seq": 6, "at": 310, "actor": "network", "type": "deliver", "id": 7, "from": "client", "to": "server", "wire": 3, "sentAt": 300,
     "message": {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"bored"}}},
    {"seq": 7, "at": 310, "actor": "server", "type": "status", "id": 7, "status": "cancelled", "cause": "client", "note": "Cancelled."},
    {"seq": 8, "at": 320, "actor": "server", "type": "suppress", "id": 7, "note": "Suppressed.",
     "message": {"jsonrpc":"2.0","id":7,"result":{}}},
    {"seq": 9, "at": 400, "actor": "client", "type": "close-stream", "id": 7, "from": "client", "to": "server", "wire": 4, "signal": "close-stream"},
    {"seq": 10, "at": 410, "actor": "network", "type": "deliver", "id": 7, "from": "client", "to": "server", "wire": 4, "sentAt": 400, "signal": "close-stream"},
    {"seq": 11, "at": 500, "actor": "server", "type": "send", "id": 7, "from": "server", "to": "client", "wire": 5,
     "message": {"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"x"}}},
    {"seq": 12, "at": 505, "actor": "network", "type": "drop", "id": 7, "from": "server", "to": "client", "wire": 5, "sentAt": 500, "note": "Lost."},
    {"seq": 13, "at": 600, "actor": "client", "type": "timeout", "id": 7, "cause": "idle-timeout", "note": "Idle."},
    {"seq": 14, "at": 610, "actor": "client", "type": "ignore", "id": 7, "note": "Ignored."},
    {"seq": 15, "at": 620, "actor": "client", "type": "send", "from": "client", "to": "server", "wire": 6,
     "message": {"jsonrpc":"2.0","method":"notifications/initialized"}}
  ],
  "requests": [
    {"id": 7, "method": "tools/call", "name": "crunch", "state": "cancelled", "cause": "client", "reason": "bored",
     "signal": "notifications/cancelled", "response": null, "clientOutcome": "abandoned", "retryClass": "safe",
     "sentAt": 0, "endedAt": 300, "idleTimeoutMs": 500, "outcome": "cancellation-wins",
     "clientStates": [{"at": 0, "state": "waiting"}, {"at": 300, "state": "cancelled"}],
     "serverStates": [{"at": 10, "state": "in-progress"}, {"at": 310, "state": "cancelled"}]}
  ],
  "ledger": {"executions": 0, "records": []},
  "tasks": [], "buffers": [], "reconnects": [], "herd": null,
  "checks": [
    {"rule": "no-message-after-cancel", "ok": true, "detail": "held", "events": [7]},
    {"rule": "progress-increases", "ok": false, "detail": "broken", "events": [3, 4]},
    {"rule": "imported", "ok": null, "detail": "cannot tell"}
  ],
  "endMs": 620
}`

func loadTrace(t *testing.T, data string) *trace.Trace {
	t.Helper()
	var tr trace.Trace
	if err := json.Unmarshal([]byte(data), &tr); err != nil {
		t.Fatalf("decoding test trace: %v", err)
	}
	return &tr
}

func laneY(t *testing.T, tl timeline, actor string) float64 {
	t.Helper()
	for _, l := range tl.Lanes {
		if l.Actor == actor {
			return l.Y
		}
	}
	t.Fatalf("no lane %q in %+v", actor, tl.Lanes)
	return 0
}

// xAt is the x the timeline gives time ms.
func xAt(tl timeline, ms int64) float64 {
	return plotLeft + float64(ms)*(plotRight-plotLeft)/float64(tl.DomainMs)
}

// TestTimelineLanes: client, network and server always, in that order top
// to bottom; a proxy lane only when an event names the proxy, between the
// network and the server.
func TestTimelineLanes(t *testing.T) {
	tl := newTimeline(loadTrace(t, smallTrace))
	var got []string
	for _, l := range tl.Lanes {
		got = append(got, l.Actor)
	}
	if strings.Join(got, ",") != "client,network,server" {
		t.Errorf("lanes = %v, want client,network,server", got)
	}
	if !(laneY(t, tl, "client") < laneY(t, tl, "network") && laneY(t, tl, "network") < laneY(t, tl, "server")) {
		t.Errorf("lanes not top to bottom: %+v", tl.Lanes)
	}

	tr := loadTrace(t, smallTrace)
	tr.Events = append(tr.Events, trace.Event{Seq: 16, At: 620, Actor: trace.ActorProxy, Type: trace.TypeFlush})
	tl = newTimeline(tr)
	got = nil
	for _, l := range tl.Lanes {
		got = append(got, l.Actor)
	}
	if strings.Join(got, ",") != "client,network,proxy,server" {
		t.Errorf("lanes with a proxy event = %v, want client,network,proxy,server", got)
	}
}

// TestTimelineArrows: each wire message goes from its send (sentAt, sender
// lane) to its delivery (at, receiver lane), labelled from its message;
// cancellation signals are tagged; a lost message ends on the network lane
// at its drop; one never delivered is a vertical stub.
func TestTimelineArrows(t *testing.T) {
	tl := newTimeline(loadTrace(t, smallTrace))
	if tl.DomainMs != 700 {
		t.Errorf("DomainMs = %d, want 700 (step 100 past the last event at 620)", tl.DomainMs)
	}
	if len(tl.Arrows) != 6 {
		t.Fatalf("got %d arrows, want 6: %+v", len(tl.Arrows), tl.Arrows)
	}
	client, network, server := laneY(t, tl, "client"), laneY(t, tl, "network"), laneY(t, tl, "server")
	tests := []struct {
		wire                 int
		kind, label, signal  string
		sendSeq, deliverSeq  int
		x1, y1, x2, y2       float64
		delivered, dropped   bool
		method, id, from, to string
	}{
		{1, kindRequest, "tools/call crunch", "", 0, 1, xAt(tl, 0), client, xAt(tl, 10), server, true, false, "tools/call", "7", "client", "server"},
		{2, kindProgress, "progress 1/3", "", 3, 4, xAt(tl, 100), server, xAt(tl, 110), client, true, false, "notifications/progress", "7", "server", "client"},
		{3, kindCancel, "notifications/cancelled", trace.SignalNotification, 5, 6, xAt(tl, 300), client, xAt(tl, 310), server, true, false, "notifications/cancelled", "7", "client", "server"},
		{4, kindClose, "close stream", trace.SignalCloseStream, 9, 10, xAt(tl, 400), client, xAt(tl, 410), server, true, false, "", "7", "client", "server"},
		{5, kindError, "error -32000", "", 11, -1, xAt(tl, 500), server, xAt(tl, 505), network, false, true, "", "7", "server", "client"},
		{6, kindNotification, "notifications/initialized", "", 15, -1, xAt(tl, 620), client, xAt(tl, 620), network, false, false, "notifications/initialized", "", "client", "server"},
	}
	for i, tt := range tests {
		a := tl.Arrows[i]
		if a.Wire != tt.wire || a.Kind != tt.kind || a.Label != tt.label || a.Signal != tt.signal ||
			a.SendSeq != tt.sendSeq || a.DeliverSeq != tt.deliverSeq || a.Delivered != tt.delivered || a.Dropped != tt.dropped ||
			a.Method != tt.method || a.ID != tt.id || a.From != tt.from || a.To != tt.to {
			t.Errorf("arrow %d = %+v\nwant wire %d kind %s label %q signal %q seqs %d/%d delivered %v dropped %v method %q id %q %s→%s",
				i, a, tt.wire, tt.kind, tt.label, tt.signal, tt.sendSeq, tt.deliverSeq, tt.delivered, tt.dropped, tt.method, tt.id, tt.from, tt.to)
		}
		if !near(a.X1, tt.x1) || !near(a.Y1, tt.y1) || !near(a.X2, tt.x2) || !near(a.Y2, tt.y2) {
			t.Errorf("arrow %d (wire %d) at (%v,%v)→(%v,%v), want (%v,%v)→(%v,%v)", i, a.Wire, a.X1, a.Y1, a.X2, a.Y2, tt.x1, tt.y1, tt.x2, tt.y2)
		}
		if a.DropSeq != map[bool]int{true: 12, false: -1}[tt.dropped] {
			t.Errorf("arrow %d DropSeq = %d", i, a.DropSeq)
		}
	}
	if !strings.Contains(tl.Arrows[0].Title, "The client sends request 7.") || !strings.Contains(tl.Arrows[0].Title, `"method":"tools/call"`) {
		t.Errorf("arrow title lacks the note or the message: %q", tl.Arrows[0].Title)
	}
}

// TestTimelineLabelsDoNotOverlap: arrow labels in the same row never share
// x, and labels of undelivered arrows stay off their end glyph.
func TestTimelineLabelsDoNotOverlap(t *testing.T) {
	for _, data := range []string{smallTrace, crowdedTrace(12)} {
		tl := newTimeline(loadTrace(t, data))
		network := laneY(t, tl, "network")
		for i, a := range tl.Arrows {
			if a.Label == "" {
				continue
			}
			if !a.Delivered && near(a.LabelY, network) {
				t.Errorf("label of undelivered wire %d sits on the network lane", a.Wire)
			}
			for _, b := range tl.Arrows[i+1:] {
				if b.Label == "" || !near(a.LabelY, b.LabelY) {
					continue
				}
				if a.LabelX-a.LabelW/2 < b.LabelX+b.LabelW/2 && b.LabelX-b.LabelW/2 < a.LabelX+a.LabelW/2 {
					t.Errorf("labels of wires %d (%q at %v) and %d (%q at %v) overlap", a.Wire, a.Label, a.LabelX, b.Wire, b.Label, b.LabelX)
				}
			}
		}
	}
}

// crowdedTrace has n cancellations sent 2 ms apart: their labels cannot
// share a row.
func crowdedTrace(n int) string {
	var ev []string
	for i := range n {
		at := 2 * i
		msg := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`
		ev = append(ev,
			`{"seq":`+itoa(2*i)+`,"at":`+itoa(at)+`,"actor":"client","type":"send","from":"client","to":"server","wire":`+itoa(i+1)+`,"message":`+msg+`}`,
			`{"seq":`+itoa(2*i+1)+`,"at":`+itoa(at+5)+`,"actor":"network","type":"deliver","from":"client","to":"server","wire":`+itoa(i+1)+`,"sentAt":`+itoa(at)+`,"message":`+msg+`}`)
	}
	return `{"mcplab":1,"events":[` + strings.Join(ev, ",") + `],"endMs":` + itoa(2*n+3) + `}`
}

func itoa(n int) string { return i64(int64(n)) }

// TestTimelineMarks: every event that is not part of a wire message is a
// mark on its actor's lane at its time, off the lane line (above for the
// client, below for the server), labelled from its type, status and cause.
func TestTimelineMarks(t *testing.T) {
	tl := newTimeline(loadTrace(t, smallTrace))
	client, server := laneY(t, tl, "client"), laneY(t, tl, "server")
	want := []struct {
		seq          int
		glyph, label string
		actor        string
		at           int64
	}{
		{2, glyphStart, "start", "server", 10},
		{7, glyphStatus, "cancelled", "server", 310},
		{8, glyphSuppress, "suppressed", "server", 320},
		{13, glyphTimeout, "idle timeout", "client", 600},
		{14, glyphIgnore, "ignored", "client", 610},
	}
	if len(tl.Marks) != len(want) {
		t.Fatalf("got %d marks, want %d: %+v", len(tl.Marks), len(want), tl.Marks)
	}
	for i, w := range want {
		m := tl.Marks[i]
		if m.Seq != w.seq || m.Glyph != w.glyph || m.Label != w.label || m.Actor != w.actor || m.At != w.at {
			t.Errorf("mark %d = seq %d %s %q on %s at %d, want seq %d %s %q on %s at %d",
				i, m.Seq, m.Glyph, m.Label, m.Actor, m.At, w.seq, w.glyph, w.label, w.actor, w.at)
		}
		if !near(m.X, xAt(tl, w.at)) {
			t.Errorf("mark %d x = %v, want %v", i, m.X, xAt(tl, w.at))
		}
		switch w.actor {
		case "client":
			if m.Y >= client {
				t.Errorf("client mark %d at y %v, want above the lane at %v", i, m.Y, client)
			}
		case "server":
			if m.Y <= server {
				t.Errorf("server mark %d at y %v, want below the lane at %v", i, m.Y, server)
			}
		}
	}
	// The status at 310 and the suppression at 320 are 10 ms apart: their
	// labels would overlap, so they take different rows.
	if near(tl.Marks[1].Y, tl.Marks[2].Y) {
		t.Errorf("marks at 310 and 320 share a row (y %v)", tl.Marks[1].Y)
	}
	if tl.Marks[1].Status != "cancelled" || tl.Marks[1].Cause != "client" {
		t.Errorf("status mark = %+v", tl.Marks[1])
	}
}

// TestTimelineAxisAndLegend: ticks every 1-2-5 step from 0 to the domain,
// and a legend entry for each arrow kind and glyph present, no others.
func TestTimelineAxisAndLegend(t *testing.T) {
	tl := newTimeline(loadTrace(t, smallTrace))
	var ticks []string
	for _, tk := range tl.Ticks {
		ticks = append(ticks, tk.Label)
		if !near(tk.X, xAt(tl, tk.Ms)) {
			t.Errorf("tick %d at x %v, want %v", tk.Ms, tk.X, xAt(tl, tk.Ms))
		}
	}
	if got := strings.Join(ticks, " "); got != "0 100 200 300 400 500 600 700" {
		t.Errorf("ticks = %s", got)
	}
	var legend []string
	for _, it := range tl.Legend {
		legend = append(legend, it.Kind+it.Glyph)
	}
	// The small trace's request has an idle timeout (so its idle windows
	// are drawn) but no maximum, and a failed check names events.
	want := "request result error progress cancel close notification start status ignore suppress timeout lost idle-window violation"
	want = strings.ReplaceAll(want, "result ", "") // no result arrow in the small trace
	if got := strings.Join(legend, " "); got != want {
		t.Errorf("legend = %s\nwant     %s", got, want)
	}
}

func TestNiceStep(t *testing.T) {
	tests := []struct{ max, want int64 }{
		{0, 100}, {9, 1}, {10, 2}, {19, 2}, {20, 5}, {49, 5}, {50, 10}, {320, 50}, {999, 100}, {2000, 500}, {86_400_000, 10_000_000},
	}
	for _, tt := range tests {
		if got := niceStep(tt.max); got != tt.want {
			t.Errorf("niceStep(%d) = %d, want %d", tt.max, got, tt.want)
		}
	}
}

// TestFormatNum: SVG numbers are rounded to one decimal, shortest form,
// never "-0", so output is byte-stable.
func TestFormatNum(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"}, {-0.04, "0"}, {0.04, "0"}, {1, "1"}, {12.25, "12.3"}, {1.0 / 3, "0.3"}, {-2.55, "-2.6"}, {999.96, "1000"}, {112, "112"},
	}
	for _, tt := range tests {
		if got := formatNum(tt.v); got != tt.want {
			t.Errorf("formatNum(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestOutcomeOf: the headline of a request is the words of the outcome the
// engine decided (coordinator.OutcomeOf) from its summary.
func TestOutcomeOf(t *testing.T) {
	str := func(s string) *string { return &s }
	resp := json.RawMessage(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	tests := []struct {
		name     string
		r        trace.Request
		scripted bool
		key      string
		text     string
	}{
		{"cancellation wins", trace.Request{State: "cancelled", Cause: str("client"), Signal: str(trace.SignalNotification)}, true, "cancellation-wins", "cancellation wins"},
		{"cancellation wins by stream close", trace.Request{State: "cancelled", Cause: str("client"), Signal: str(trace.SignalCloseStream)}, true, "cancellation-wins", "cancellation wins"},
		{"the maximum timeout's cancellation wins (scenario C)", trace.Request{State: "cancelled", Cause: str(trace.CauseMaxTimeout), Signal: str(trace.SignalNotification)}, false, "cancellation-wins", "max timeout, cancellation wins"},
		{"the idle timeout's cancellation wins", trace.Request{State: "cancelled", Cause: str(trace.CauseIdleTimeout), Signal: str(trace.SignalNotification)}, false, "cancellation-wins", "idle timeout, cancellation wins"},
		{"completion wins over a sent signal", trace.Request{State: "completed", Cause: str("client"), Signal: str(trace.SignalNotification), Response: resp}, true, "completion-wins", "completion wins"},
		{"completion wins before the cancel is sent", trace.Request{State: "completed", Response: resp}, true, "completion-wins", "completion wins"},
		{"completed without a cancel", trace.Request{State: "completed", Response: resp}, false, "completed", "completed"},
		{"completion wins, but the client had let it go", trace.Request{State: "completed", Cause: str("client"), Signal: str(trace.SignalNotification), Response: resp, ClientOutcome: trace.OutcomeAbandoned}, true, "completion-wins", "completion wins: completed on the server, abandoned by the client"},
		{"completed after the client's timeout", trace.Request{State: "completed", Cause: str(trace.CauseMaxTimeout), Signal: str(trace.SignalCloseStream), Response: resp, ClientOutcome: trace.OutcomeAbandoned}, false, "timed-out", "timed out: completed on the server, abandoned by the client"},
		{"completed, an error on the client", trace.Request{State: "completed", Cause: str(trace.CauseSessionTeardown), Response: resp, ClientOutcome: trace.OutcomeError}, false, "client-error", "completed on the server, an error on the client"},
		{"completed, abandoned without a cancel", trace.Request{State: "completed", Response: resp, ClientOutcome: trace.OutcomeAbandoned}, false, "abandoned", "completed on the server, abandoned by the client"},
		{"cancelled without a signal", trace.Request{State: "cancelled", Cause: str("disconnect")}, false, "cancelled", "cancelled"},
		{"failed", trace.Request{State: "failed"}, false, "failed", "failed"},
		{"in progress", trace.Request{State: "in-progress"}, false, "in-progress", "in-progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.r.Outcome = coordinator.OutcomeOf(tt.r, tt.scripted, false)
			o := outcomeOf(tt.r)
			if o.Key != tt.key || o.Text != tt.text {
				t.Errorf("OutcomeOf = %q/%q, want %q/%q", o.Key, o.Text, tt.key, tt.text)
			}
			if o.Detail == "" || !strings.HasSuffix(o.Detail, ".") {
				t.Errorf("detail %q is not a sentence", o.Detail)
			}
		})
	}
}

// TestViewTables: requests, checks (in words as well as symbols) and
// events come through as text.
func TestViewTables(t *testing.T) {
	v := NewView(loadTrace(t, smallTrace))
	if v.Pass != 1 || v.Fail != 1 || v.Undecided != 1 {
		t.Errorf("tally = %d/%d/%d, want 1/1/1", v.Pass, v.Fail, v.Undecided)
	}
	var results []string
	for _, c := range v.Checks {
		results = append(results, c.Symbol+c.Result)
	}
	if got := strings.Join(results, " "); got != "✓pass ✗fail ?undecided" {
		t.Errorf("check results = %s", got)
	}
	if len(v.Requests) != 1 {
		t.Fatalf("requests = %+v", v.Requests)
	}
	r := v.Requests[0]
	if r.ID != "7" || r.Signal != trace.SignalNotification || r.Reason != "bored" || r.Response != "" || r.EndedAt != "300" || r.IdleTimeout != "500" || r.MaxTimout != "" {
		t.Errorf("request row = %+v", r)
	}
	if r.Outcome.Key != "cancellation-wins" {
		t.Errorf("outcome = %+v", r.Outcome)
	}
	if len(v.Events) != 16 || v.Events[1].Fields != "client → server; sent at 0 ms" {
		t.Errorf("events: %d, event 1 fields %q", len(v.Events), v.Events[1].Fields)
	}
}

// TestNilTrace: an empty trace draws an empty timeline without panicking.
func TestNilTrace(t *testing.T) {
	v := NewView(nil)
	if len(v.Timeline.Lanes) != 3 || v.Timeline.DomainMs != 100 || len(v.Timeline.Arrows) != 0 {
		t.Errorf("empty view = %+v", v.Timeline)
	}
}

func near(a, b float64) bool {
	d := a - b
	return d < 0.01 && d > -0.01
}

// TestNarrowTimelineFits (a layout that works on a phone): the
// narrow layout of every built-in scenario keeps every label inside its
// 380-unit drawing and off the lane names, its tick labels apart, and
// draws the same arrows and marks as the wide one, at the same times.
func TestNarrowTimelineFits(t *testing.T) {
	traces := map[string]*trace.Trace{"small": loadTrace(t, smallTrace), "crowded": loadTrace(t, crowdedTrace(12))}
	for _, ex := range examples.All() {
		traces[ex.Name] = examplestest.RunExample(t, ex)
	}
	f := narrowFrame
	for name, tr := range traces {
		t.Run(name, func(t *testing.T) {
			n, w := newNarrowTimeline(tr), newTimeline(tr)
			if n.Width != f.width || n.IDPrefix == "" {
				t.Fatalf("narrow timeline is %v wide with id prefix %q", n.Width, n.IDPrefix)
			}
			if len(n.Arrows) != len(w.Arrows) || len(n.Marks) != len(w.Marks) {
				t.Fatalf("narrow draws %d arrows and %d marks, wide %d and %d", len(n.Arrows), len(n.Marks), len(w.Arrows), len(w.Marks))
			}
			for i, a := range n.Arrows {
				if a.Wire != w.Arrows[i].Wire || a.SentAt != w.Arrows[i].SentAt || a.At != w.Arrows[i].At {
					t.Errorf("arrow %d differs: narrow wire %d %d→%d ms, wide wire %d %d→%d ms", i, a.Wire, a.SentAt, a.At, w.Arrows[i].Wire, w.Arrows[i].SentAt, w.Arrows[i].At)
				}
				if a.Label == "" {
					continue
				}
				if lo, hi := a.LabelX-a.LabelW/2-labelPad, a.LabelX+a.LabelW/2+labelPad; lo < f.labelMinX-labelPad-0.01 || hi > f.width+0.01 {
					t.Errorf("label %q of wire %d spans x %.1f..%.1f, outside %v..%v", a.Label, a.Wire, lo, hi, f.labelMinX-labelPad, f.width)
				}
			}
			for _, m := range n.Marks {
				if m.Label == "" {
					continue
				}
				lo, hi := m.LabelX, m.LabelX+textWidth(m.Label)
				if m.LabelEnd {
					lo, hi = m.LabelX-textWidth(m.Label), m.LabelX
				}
				if lo < 0 || hi > f.width {
					t.Errorf("label %q of mark %d spans x %.1f..%.1f, outside 0..%v", m.Label, m.Seq, lo, hi, f.width)
				}
			}
			if len(n.Ticks) > int(f.maxTicks)+1 {
				t.Errorf("%d ticks, want at most %d", len(n.Ticks), f.maxTicks+1)
			}
			for i := 1; i < len(n.Ticks); i++ {
				a, b := n.Ticks[i-1], n.Ticks[i]
				if gap := b.X - a.X; gap < (textWidth(a.Label)+textWidth(b.Label))/2+6 {
					t.Errorf("tick labels %s and %s are %.1f apart", a.Label, b.Label, gap)
				}
			}
			for _, it := range n.Legend {
				if it.X < 0 || it.X+34+textWidth(it.Text) > f.width {
					t.Errorf("legend item %q at x %v runs past %v", it.Text, it.X, f.width)
				}
			}
		})
	}
}

// TestFitLabel: a label too long for its room loses its method's leading
// segments first, then its end; one that fits is untouched.
func TestFitLabel(t *testing.T) {
	tests := []struct {
		label string
		chars int // room, in characters of the label font
		want  string
	}{
		{"progress 1/3", 12, "progress 1/3"},
		{`notifications/subscriptions/acknowledged ("sub-1")`, 41, `…/subscriptions/acknowledged ("sub-1")`},
		{`notifications/subscriptions/acknowledged ("sub-1-retry")`, 41, `…/acknowledged ("sub-1-retry")`},
		{`accepted ("tasks/cancel-2")`, 23, `accepted ("tasks/cance…`},
		{"notifications/cancelled", 10, "…/cancell…"},
	}
	for _, tt := range tests {
		got := fitLabel(tt.label, float64(tt.chars)*charW)
		if got != tt.want {
			t.Errorf("fitLabel(%q, %d chars) = %q, want %q", tt.label, tt.chars, got, tt.want)
		}
		if len([]rune(got)) > tt.chars {
			t.Errorf("fitLabel(%q, %d chars) = %q, %d chars", tt.label, tt.chars, got, len([]rune(got)))
		}
	}
}

// TestSlashBreaks: a method name may wrap after each slash, and its text is
// escaped like any other.
func TestSlashBreaks(t *testing.T) {
	for in, want := range map[string]string{
		"notifications/cancelled": "notifications/<wbr/>cancelled",
		"none":                    "none",
		`<b>/"x"`:                 "&lt;b&gt;/<wbr/>&#34;x&#34;",
	} {
		if got := renderString(t, slashBreaks(in)); got != want {
			t.Errorf("slashBreaks(%q) = %q, want %q", in, got, want)
		}
	}
}

// Rule (the page speaks in domain words): a request with a cause but no
// signal (nothing carried a cancellation: the client tore down the
// session it was on, the connection was lost, the server ended a listen
// stream) says how it ended in words, in the request table's Cancellation
// column and on its outcome card, never "session-teardown via none" (on
// the fatal late-response page); every built-in with
// such a request says it.
func TestUnsignalledEndInWords(t *testing.T) {
	tr := runEdited(t, "broken-late-response-fatal")
	v := NewView(tr)
	const want = "the client tore down the session it was on, sending no cancellation"
	var row requestRow
	for _, r := range v.Requests {
		if r.ID == "2" {
			row = r
		}
	}
	if row.Cause != trace.CauseSessionTeardown || row.Signal != "" || row.Unsignalled != want {
		t.Fatalf("request 2: cause %q signal %q reads %q, want %q", row.Cause, row.Signal, row.Unsignalled, want)
	}
	if !strings.Contains(row.Outcome.Detail, "; "+want+";") || strings.Contains(row.Outcome.Detail, "attempted") {
		t.Errorf("request 2's card says %q, want %q and no cancellation attempted", row.Outcome.Detail, want)
	}
	html := renderString(t, Output(tr))
	cell := regexp.MustCompile(`(?s)<tr id="request-1".*?</tr>`).FindString(html)
	if !strings.Contains(cell, want) {
		t.Errorf("request 2's row does not say %q:\n%s", want, cell)
	}
	if strings.Contains(cell, " via ") {
		t.Errorf("request 2's row still reads cause via signal:\n%s", cell)
	}
	for _, ex := range examples.All() {
		for _, r := range NewView(examplestest.RunExample(t, ex)).Requests {
			if r.Cause != "" && r.Signal == "" && (r.Unsignalled == "" || strings.HasPrefix(r.Unsignalled, r.Cause+",")) {
				t.Errorf("%s: request %s (cause %s, no signal) reads %q, want words", ex.Name, r.ID, r.Cause, r.Unsignalled)
			}
		}
	}
}
