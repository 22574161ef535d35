package templates

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// chartGoldens are the frozen traces whose charts are pinned byte for byte
// (testdata/NAME.charts.svg): refresh a trace as goldenInputs says.
var chartGoldens = []string{
	"buffer-reference-coalesce",
	"broken-task-ack-as-final",
	"ledger-keyed-race",
	"herd-reference-backoff",
}

// renderCharts renders every chart of a trace, one SVG after the other.
func renderCharts(t *testing.T, tr *trace.Trace) string {
	t.Helper()
	v := NewView(tr)
	c := AllCharts.Charts(tr, v)
	var b strings.Builder
	for _, bc := range c.Buffers {
		b.WriteString(renderString(t, bufferChartSVG(bc)))
	}
	if c.Tasks != nil {
		b.WriteString(renderString(t, taskLanesSVG(*c.Tasks)))
	}
	if c.Herd != nil {
		b.WriteString(renderString(t, herdChartSVG(*c.Herd)))
	}
	if c.Backoff != nil {
		b.WriteString(renderString(t, backoffChartSVG(*c.Backoff)))
	}
	// The strategies side by side are five more histograms: TestHerdCharts
	// pins their peaks and scale instead of their bytes.
	if c.Ledger != nil && c.Ledger.Race != nil {
		b.WriteString(renderString(t, raceSVG(*c.Ledger.Race)))
	}
	return b.String()
}

// TestChartsGolden pins the charts of the frozen traces.
func TestChartsGolden(t *testing.T) {
	for _, name := range chartGoldens {
		t.Run(name, func(t *testing.T) {
			svg := renderCharts(t, readTrace(t, name))
			if svg == "" {
				t.Fatalf("%s draws no chart", name)
			}
			golden(t, name+".charts.svg", svgLines(svg))
		})
	}
}

// runEdited runs a built-in scenario with each edit (path, JSON value)
// applied by scenario.SetPath.
func runEdited(t *testing.T, name string, edits ...[2]string) *trace.Trace {
	t.Helper()
	data := examplestest.Get(t, name).JSON
	for _, e := range edits {
		var err error
		data, err = scenario.SetPath(data, e[0], json.RawMessage(e[1]))
		if err != nil {
			t.Fatal(err)
		}
	}
	return examplestest.RunExample(t, examples.Example{Name: name, JSON: data})
}

// Rule (DOMAIN.md §7, the reference numbers): capacity 3 with six progress
// values and a final keeps the depth within 3, drops 5 progress (all
// coalesced), needs a refetch and delivers the final; unbounded, the depth
// reaches 7 and nothing is dropped; drop-newest loses the final. The chart
// reads these off the trace and marks each coalesce and drop event.
func TestBufferChart(t *testing.T) {
	tests := []struct {
		name                     string
		edits                    [][2]string
		peak, dropped, coalesced int
		capacity, droppedFinals  int
		refetch, final           bool
		coalesceMarks, dropMarks int
		capacityLine             bool
		flag                     string
	}{
		{"reference", nil, 2, 5, 5, 3, 0, true, true, 5, 0, true, "final delivered at 520 ms"},
		{"unbounded", [][2]string{{"buffer.capacity", "0"}, {"consumer.drainEveryMs", "1000"}}, 7, 0, 0, 0, 0, false, true, 0, 0, false, "final delivered at 4020 ms"},
		{"drop-newest", [][2]string{{"buffer.policy", `"drop-newest"`}}, 3, 3, 0, 3, 1, true, false, 0, 4, true, "final response dropped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := runEdited(t, "buffer-reference-coalesce", tt.edits...)
			v := NewView(tr)
			charts := newBufferCharts(tr, v.Timeline.DomainMs)
			if len(charts) != 1 {
				t.Fatalf("%d buffer charts, want 1", len(charts))
			}
			c := charts[0]
			if c.Peak != tt.peak || c.Dropped != tt.dropped || c.Coalesced != tt.coalesced || c.Capacity != tt.capacity || c.DroppedFinals != tt.droppedFinals || c.NeedsRefetch != tt.refetch {
				t.Errorf("chart counters = peak %d, dropped %d, coalesced %d, capacity %d, dropped finals %d, refetch %v; want %d %d %d %d %d %v",
					c.Peak, c.Dropped, c.Coalesced, c.Capacity, c.DroppedFinals, c.NeedsRefetch,
					tt.peak, tt.dropped, tt.coalesced, tt.capacity, tt.droppedFinals, tt.refetch)
			}
			if tt.capacity > 0 && c.Peak > tt.capacity {
				t.Errorf("peak %d above the capacity %d", c.Peak, tt.capacity)
			}
			if (c.Final != nil) != tt.final {
				t.Errorf("final mark %+v, want one: %v", c.Final, tt.final)
			}
			n := map[string]int{}
			for _, m := range c.Marks {
				n[m.Kind]++
				if m.X < plotLeft || m.X > plotRight {
					t.Errorf("mark %+v outside the plot", m)
				}
			}
			if n[bufferCoalesce] != tt.coalesceMarks || n[bufferDrop] != tt.dropMarks {
				t.Errorf("marks %v, want %d coalesce and %d drop", n, tt.coalesceMarks, tt.dropMarks)
			}
			if (c.CapacityY > 0) != tt.capacityLine {
				t.Errorf("capacity line at %v, want one: %v", c.CapacityY, tt.capacityLine)
			}
			if tt.capacityLine && !(c.CapacityY >= c.PlotTop && c.CapacityY < c.PlotBottom) {
				t.Errorf("capacity line y %v outside the plot [%v, %v]", c.CapacityY, c.PlotTop, c.PlotBottom)
			}
			if !slices.ContainsFunc(c.Flags, func(f chartFlag) bool { return f.Text == tt.flag }) {
				t.Errorf("flags %+v, want %q", c.Flags, tt.flag)
			}
			// The chart shares the timeline's time scale.
			if c.DomainMs != v.Timeline.DomainMs {
				t.Errorf("buffer domain %d ms, timeline %d ms", c.DomainMs, v.Timeline.DomainMs)
			}
			svg := renderString(t, bufferChartSVG(c))
			for _, attr := range []string{`data-peak="` + itoa(tt.peak) + `"`, `data-dropped="` + itoa(tt.dropped) + `"`, `data-capacity="` + itoa(tt.capacity) + `"`} {
				if !strings.Contains(svg, attr) {
					t.Errorf("the chart's root has no %s", attr)
				}
			}
		})
	}
}

// Rule (DOMAIN.md §6, §11): a tasks/cancel acknowledgement is not a final
// status. With treatTaskAckAsFinal the client says "stopped" from the
// acknowledgement while the worker's task is still working until the
// checkpoint at 600 ms: the lane shows them disagreeing for exactly that
// stretch. The correct client keeps polling, never claims an end the
// worker has not reached, and ends believing the worker's final status.
func TestTaskLanes(t *testing.T) {
	t.Run("ack as final", func(t *testing.T) {
		tr := readTrace(t, "broken-task-ack-as-final")
		l := newTaskLanes(tr, newTimeline(tr).DomainMs)
		if l == nil || len(l.Tasks) != 1 {
			t.Fatalf("task lanes %+v, want one task", l)
		}
		lane := l.Tasks[0]
		if lane.Status != "cancelled" || lane.ClientStatus != "stopped" {
			t.Errorf("worker %q, client %q; want cancelled and stopped", lane.Status, lane.ClientStatus)
		}
		if len(lane.Disagree) != 1 || lane.Disagree[0].From != 420 || lane.Disagree[0].To != 600 || lane.DisagreeMs != 180 {
			t.Errorf("disagreement %+v (%d ms), want 420–600 ms", lane.Disagree, lane.DisagreeMs)
		}
		want := []struct {
			kind string
			at   int64
		}{{taskMarkCancelAck, 410}, {taskMarkCheckpoint, 600}, {taskMarkCheckpoint, 900}, {taskMarkIgnored, 1200}}
		for _, w := range want {
			if !slices.ContainsFunc(lane.Marks, func(m taskMark) bool { return m.Kind == w.kind && m.At == w.at }) {
				t.Errorf("no %s mark at %d ms; marks %+v", w.kind, w.at, lane.Marks)
			}
		}
		if got := lane.Worker; len(got) != 2 || got[0].Status != "working" || got[0].To != 600 || got[1].Status != "cancelled" {
			t.Errorf("worker row %+v, want working until 600 then cancelled", got)
		}
		if got := lane.Client; len(got) < 2 || got[len(got)-1].Status != "stopped" || got[len(got)-1].From != 420 {
			t.Errorf("client row %+v, want stopped from 420", got)
		}
	})
	t.Run("polls until terminal", func(t *testing.T) {
		tr := runEdited(t, "task-cancel-ack-not-final")
		l := newTaskLanes(tr, newTimeline(tr).DomainMs)
		lane := l.Tasks[0]
		if lane.Status != "cancelled" || lane.ClientStatus != "cancelled" {
			t.Errorf("worker %q, client %q; want both cancelled", lane.Status, lane.ClientStatus)
		}
		for _, d := range lane.Disagree {
			if strings.HasPrefix(d.Status, "client says stopped") || strings.HasPrefix(d.Status, "client says cancelled") {
				t.Errorf("the correct client claims an end the worker has not reached: %+v", d)
			}
		}
	})
	t.Run("no tasks", func(t *testing.T) {
		if l := newTaskLanes(readTrace(t, "a-cancel-then-complete"), 1000); l != nil {
			t.Errorf("task lanes for a trace without tasks: %+v", l)
		}
	})
}

// Rule (DOMAIN.md §10): the herd chart reads the peak per bucket
// off the trace (5,905 with the reference backoff, the whole herd of 10,000
// without), its y scale holds the peak and the capacity, and the strategies
// side by side share one scale with each peak labelled.
func TestHerdCharts(t *testing.T) {
	tr := readTrace(t, "herd-reference-backoff")
	c := AllCharts.Charts(tr, NewView(tr))
	if c.Herd == nil || c.Herd.Peak != 5905 || c.Herd.Capacity != 2000 || c.Herd.AllBackMs != 7518 {
		t.Fatalf("herd chart %+v, want peak 5905, capacity 2000, all back at 7518 ms", c.Herd)
	}
	if !c.HerdFirst {
		t.Errorf("a herd with no events should come before the (empty) timeline")
	}
	if c.Herd.YMax < 5905 || c.Herd.CapacityY <= c.Herd.PlotTop || c.Herd.CapacityY >= c.Herd.PlotBottom {
		t.Errorf("y scale to %d, capacity at y %v: the peak or the capacity is off the plot", c.Herd.YMax, c.Herd.CapacityY)
	}
	var attempts int64
	for _, b := range c.Herd.Bars {
		attempts += b.N
		if b.Admitted > b.N || b.AY < b.Y {
			t.Errorf("bar %+v admits more than arrived", b)
		}
	}
	if attempts != int64(c.Herd.Attempts) {
		t.Errorf("bars hold %d attempts, the herd %d", attempts, c.Herd.Attempts)
	}
	want := map[string]int{"reference": 5905, "none": 10000, "full-jitter": 4823, "equal-jitter": 6023, "decorrelated-jitter": 2134}
	if c.HerdCompare == nil || len(c.HerdCompare.Panels) != len(want) {
		t.Fatalf("compare %+v, want %d panels", c.HerdCompare, len(want))
	}
	for i, p := range c.HerdCompare.Panels {
		if p.Peak != want[p.Strategy] {
			t.Errorf("panel %s: peak %d, want %d", p.Strategy, p.Peak, want[p.Strategy])
		}
		if p.Current != (p.Strategy == "reference") {
			t.Errorf("panel %s: current %v", p.Strategy, p.Current)
		}
		if i > 0 && (p.Top != c.HerdCompare.Panels[0].Top || p.Bottom != c.HerdCompare.Panels[0].Bottom || p.W != c.HerdCompare.Panels[0].W) {
			t.Errorf("panel %s is not on the first panel's scale", p.Strategy)
		}
		// The bars are two paths (a rect per bar was 8,000
		// elements for the heaviest herd): one closed rectangle per bar,
		// and one per bar that admitted any, standing on the baseline.
		admitted := 0
		for _, b := range p.Bars {
			if b.Admitted > 0 {
				admitted++
			}
		}
		if got := strings.Count(p.AttemptsPath, "z"); got != len(p.Bars) || len(p.Bars) == 0 {
			t.Errorf("panel %s: the attempts path has %d rectangles, want one per bar (%d)", p.Strategy, got, len(p.Bars))
		}
		if got := strings.Count(p.AdmittedPath, "z"); got != admitted {
			t.Errorf("panel %s: the admitted path has %d rectangles, want one per bar that admitted any (%d)", p.Strategy, got, admitted)
		}
		if base := "V" + formatNum(p.Bottom) + "z"; len(p.Bars) > 0 && !strings.HasSuffix(p.AttemptsPath, base) {
			t.Errorf("panel %s: the attempts path ends %q, want the baseline %q", p.Strategy, p.AttemptsPath[max(0, len(p.AttemptsPath)-20):], base)
		}
	}
	if c.HerdCompare.YMax < 10000 {
		t.Errorf("shared y scale to %d, below the largest peak", c.HerdCompare.YMax)
	}
	// On a phone: the same panels and scales, two to a row, inside the
	// narrow frame.
	n := c.HerdCompareNarrow
	if n == nil || len(n.Panels) != len(c.HerdCompare.Panels) || n.YMax != c.HerdCompare.YMax || n.DomainMs != c.HerdCompare.DomainMs {
		t.Fatalf("narrow compare %+v, want the wide one's %d panels on its scales", n, len(c.HerdCompare.Panels))
	}
	for i, p := range n.Panels {
		if p.Strategy != c.HerdCompare.Panels[i].Strategy || p.Peak != c.HerdCompare.Panels[i].Peak || len(p.Bars) != len(c.HerdCompare.Panels[i].Bars) {
			t.Errorf("narrow panel %d is %s (peak %d, %d bars), wide %s", i, p.Strategy, p.Peak, len(p.Bars), c.HerdCompare.Panels[i].Strategy)
		}
		first := n.Panels[i-i%2]
		if p.Top != first.Top || p.Bottom-p.Top != n.Panels[0].Bottom-n.Panels[0].Top || p.W != n.Panels[0].W || p.Axis != (i%2 == 0) {
			t.Errorf("narrow panel %s: top %v, height %v, width %v, axis %v; want row %d of two", p.Strategy, p.Top, p.Bottom-p.Top, p.W, p.Axis, i/2)
		}
		if p.X < 0 || p.X+p.W > n.Width || p.Bottom > n.Height {
			t.Errorf("narrow panel %s at x %v..%v, bottom %v, outside %vx%v", p.Strategy, p.X, p.X+p.W, p.Bottom, n.Width, n.Height)
		}
	}

	// Without backoff: the whole herd in one bucket, and some give up.
	none := runEdited(t, "herd-reference-backoff", [2]string{"herd.strategy", `"none"`})
	h := newHerdChart(none.Herd)
	if h.Peak != 10000 || h.AllBackMs != -1 || h.Exhausted == 0 {
		t.Errorf("no backoff: peak %d, all back %d, exhausted %d; want 10000, -1, > 0", h.Peak, h.AllBackMs, h.Exhausted)
	}
	// The header fits what a 390 px screen shows of the chart before it
	// scrolls ("… all back at 7,518 m" was cut off there), and
	// sits above the plot, clear of the peak label.
	for _, c := range []*herdChart{c.Herd, h} {
		if w := 10 + textWidth(c.Header); w > herdPhoneUnits || c.PlotTop-4-12 < 32 {
			t.Errorf("header %q ends at %.0f units (a phone shows %.0f) or the plot top %v crowds it", c.Header, w, herdPhoneUnits, c.PlotTop)
		}
	}
	if h.Header != "10,000 clients · "+groupDigits(int64(h.Attempts))+" attempts · "+groupDigits(int64(h.Exhausted))+" gave up" {
		t.Errorf("no backoff: header %q", h.Header)
	}
	if c.Herd.Header != "10,000 clients · "+groupDigits(int64(c.Herd.Attempts))+" attempts · all back at 7,518 ms" {
		t.Errorf("reference: header %q", c.Herd.Header)
	}
}

// Rule (DOMAIN.md §10): the backoff chart draws each sampled client's
// window and delay per attempt; every delay lies in its window, so every
// dot lies on its band, and attempt a's column holds attempt a.
func TestBackoffChart(t *testing.T) {
	tr := readTrace(t, "herd-reference-backoff")
	c := newBackoffChart(tr.Herd)
	if c == nil {
		t.Fatal("no backoff chart")
	}
	draws := 0
	for _, s := range tr.Herd.Sample {
		draws += len(s.Draws)
	}
	if len(c.Draws) != draws || len(c.Clients) != len(tr.Herd.Sample) {
		t.Fatalf("%d draws of %d clients, the sample has %d of %d", len(c.Draws), len(c.Clients), draws, len(tr.Herd.Sample))
	}
	for _, d := range c.Draws {
		if d.Delay < d.Lo || d.Delay > d.Hi {
			t.Errorf("%s attempt %d: delay %d outside [%d, %d]", d.Client, d.Attempt, d.Delay, d.Lo, d.Hi)
		}
		if d.Y < d.Y1-0.05 || d.Y > d.Y2+0.05 {
			t.Errorf("%s attempt %d: dot at y %v off its band [%v, %v]", d.Client, d.Attempt, d.Y, d.Y1, d.Y2)
		}
		col := c.Columns[d.Attempt]
		if d.X < col.X || d.X > col.X+col.W {
			t.Errorf("%s attempt %d: x %v outside its column [%v, %v]", d.Client, d.Attempt, d.X, col.X, col.X+col.W)
		}
		if d.Attempt == 0 && (d.Lo != 125 || d.Hi != 250) {
			t.Errorf("reference attempt 0 window [%d, %d], want [125, 250]", d.Lo, d.Hi)
		}
	}
}

// Rule (DOMAIN.md §4, §12 statement 7): under the keyed race the ledger
// shows one execution, one record (fingerprint prefix, receipt charge-001),
// and the race as who held the lock, who waited and who replayed; without
// the atomic ledger both connections run the effect.
func TestLedgerView(t *testing.T) {
	tr := readTrace(t, "ledger-keyed-race")
	v := newLedgerView(tr, NewView(tr).Checks)
	if v == nil || v.Executions != 1 || v.ExecutionsCheck != "pass" || len(v.Records) != 1 {
		t.Fatalf("ledger view %+v, want 1 execution, 1 record, check pass", v)
	}
	r := v.Records[0]
	if r.Key != "checkout-8" || r.Short != "4a13f8060593" || r.Receipt != "charge-001" || r.RPCID != "50" {
		t.Errorf("record %+v", r)
	}
	race := v.Race
	if race == nil || race.Effects != 1 || race.Replays != 1 || race.Waits != 1 || len(race.Columns) != 2 {
		t.Fatalf("race %+v, want 1 effect, 1 replay, 1 wait over 2 requests", race)
	}
	var types []string
	for _, row := range race.Rows {
		types = append(types, row.ID+":"+row.Type)
	}
	if want := []string{"50:lock", "51:wait", "50:effect", "51:lock", "51:replay"}; !slices.Equal(types, want) {
		t.Errorf("race rows %v, want %v", types, want)
	}
	var spans []string
	for _, s := range race.Spans {
		spans = append(spans, s.ID+":"+s.Kind)
		if s.Y2 < s.Y1 {
			t.Errorf("span %+v runs upward", s)
		}
	}
	if want := []string{"50:lock", "51:wait", "51:lock"}; !slices.Equal(spans, want) {
		t.Errorf("spans %v, want %v", spans, want)
	}

	broken := runEdited(t, "ledger-keyed-race", [2]string{"server.policy.atomicLedger", "false"})
	bv := newLedgerView(broken, NewView(broken).Checks)
	if bv.Executions != 2 || bv.ExecutionsCheck != "fail" || bv.Race.Effects != 2 || bv.Race.Waits != 0 {
		t.Errorf("non-atomic: %d executions (check %s), race %d effects %d waits; want 2, fail, 2, 0",
			bv.Executions, bv.ExecutionsCheck, bv.Race.Effects, bv.Race.Waits)
	}
	html := renderString(t, ledgerSection(*bv))
	if !strings.Contains(html, externalEffectNote) || !strings.Contains(html, `data-executions="2"`) {
		t.Errorf("ledger section lacks the external-effect note or data-executions")
	}

	// A committed record survives the reopen; the reopen is drawn.
	reopen := runEdited(t, "ledger-reopen-defensive-copy")
	rv := newLedgerView(reopen, NewView(reopen).Checks)
	if rv.Executions != 1 || len(rv.Records) != 1 || !slices.ContainsFunc(rv.Race.Rows, func(r raceRow) bool { return r.Type == ledgerReopen }) {
		t.Errorf("reopen: %d executions, %d records, rows %+v", rv.Executions, len(rv.Records), rv.Race.Rows)
	}

	if newLedgerView(readTrace(t, "a-cancel-then-complete"), nil) != nil {
		t.Errorf("a ledger section for a scenario without a ledger")
	}
}

// Rule (DOMAIN.md §5): the retry matrix lists the three classes with the
// requests of this run that show them, their tool annotations as hints and
// the retries; a run of safe requests without hints has no matrix.
func TestRetryMatrix(t *testing.T) {
	m := newRetryMatrix(readTrace(t, "retry-matrix"))
	if len(m) != 3 {
		t.Fatalf("%d rows, want 3", len(m))
	}
	got := map[string][]string{}
	for _, row := range m {
		for _, ex := range row.Requests {
			got[row.Class] = append(got[row.Class], ex.ID+"/"+ex.RetryOf+"/"+strings.Join(ex.Hints, ","))
		}
	}
	want := map[string][]string{
		"safe":        {"1//readOnlyHint", "2/1/readOnlyHint"},
		"conditional": {"3//destructiveHint", "4/3/destructiveHint"},
		"unsafe":      {"5//idempotentHint"},
	}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("class %s: %v, want %v", k, got[k], w)
		}
	}
	if m := newRetryMatrix(readTrace(t, "a-cancel-then-complete")); m != nil {
		t.Errorf("a matrix for a run of plain safe requests: %+v", m)
	}
}

// Rule (DOMAIN.md §9): the reconnect panel shows the reference plan: a new
// request id, no Last-Event-ID, the sorted unique refetches.
func TestReconnectRows(t *testing.T) {
	rows := newReconnectRows(readTrace(t, "reconnect-new-request-and-refetch"))
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.PreviousID != "sub-1" || r.NewID != "sub-1-retry" || !r.NewRequest || r.LastEventID || !slices.Equal(r.Refetch, []string{"file:///inventory.csv", "search_orders"}) || r.Delays != "139 ms" {
		t.Errorf("reconnect %+v", r)
	}
}

// TestChartsWellFormed: for every built-in scenario the whole Output is
// well-formed XML with unique ids, has no inline style, and every chart
// mark a test reads has a <title>.
func TestChartsWellFormed(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			tr := examplestest.RunExample(t, ex)
			html := renderString(t, Output(tr))
			if regexp.MustCompile(`(?i)\sstyle=|<style`).MatchString(html) {
				t.Errorf("output has an inline style")
			}
			// Output is HTML; its void elements (<br>, the time cursor's
			// <input>) are the only non-XML part.
			x := regexp.MustCompile(`<br>`).ReplaceAllString(html, "<br/>")
			x = regexp.MustCompile(`(<input[^>]*[^/])>`).ReplaceAllString(x, "$1/>")
			dec := xml.NewDecoder(strings.NewReader("<root>" + x + "</root>"))
			dec.Strict = true
			ids := map[string]bool{}
			var stack []string
			titled := map[string]bool{} // chart elements a test reads -> has a <title>
			n := 0
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("output is not well-formed: %v", err)
				}
				switch tok := tok.(type) {
				case xml.StartElement:
					key := ""
					for _, a := range tok.Attr {
						if a.Name.Local == "id" {
							if ids[a.Value] {
								t.Errorf("duplicate id %q", a.Value)
							}
							ids[a.Value] = true
						}
						if a.Name.Local == "data-mark" || a.Name.Local == "data-strategy" || (a.Name.Local == "class" && strings.Contains(a.Value, "race-row")) {
							n++
							key = tok.Name.Local + " " + a.Name.Local + "=" + a.Value + " #" + itoa(n)
							titled[key] = false
						}
					}
					if tok.Name.Local == "title" && len(stack) > 0 && stack[len(stack)-1] != "" {
						titled[stack[len(stack)-1]] = true
					}
					stack = append(stack, key)
				case xml.EndElement:
					stack = stack[:len(stack)-1]
				}
			}
			for k, ok := range titled {
				if !ok {
					t.Errorf("chart element %s has no <title>", k)
				}
			}
		})
	}
}

// Rule (DOMAIN.md §4): the ledger's empty records table says why it is
// empty. With the server deduplicating by nothing (the broken switch) the
// calls still carry their key, so the note says the server stores no
// record, not that no call carried a key.
func TestLedgerNoRecordsSaysWhy(t *testing.T) {
	tr := runEdited(t, "flagship-with-idempotency-key", [2]string{"server.policy.dedupeBy", `"none"`})
	v := newLedgerView(tr, NewView(tr).Checks)
	if v == nil || len(v.Records) != 0 || v.Executions < 2 {
		t.Fatalf("ledger view %+v, want no record and the retry run again", v)
	}
	if !strings.Contains(v.NoRecords, "deduplicates ledger calls by nothing") || strings.Contains(v.NoRecords, "no call carried") {
		t.Errorf("with dedupeBy none the empty records say %q, want that the server stores none", v.NoRecords)
	}
}
