package site

// Browser tests of the charts beside the timeline (templates/charts.templ,
// ledger.templ): each opens a built-in scenario's page, changes a control
// the way a reader does, waits for the re-rendered chart, and reads the new
// values from the chart's data- attributes; each value is also compared
// with what the native engine computes for the same edit.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// ledgerReadyTimeout bounds the wait for a ledger page: its worker loads
// SQLite (sqlite.js, sqlite3.wasm) beside ledger.wasm, and the first
// ledger run compiles SQLite's code, which on a cold, shared machine can
// take longer than readyTimeout allows (ledger.wasm linked SQLite until
// and took 12-17 s to be ready at load 20).
const ledgerReadyTimeout = 80 * time.Second

// chartEdit is one control change: the control's data-path, data-kind and
// the value the test gives it (for a checkbox, "true" or "false").
type chartEdit struct{ path, kind, value string }

// chartPage opens the page of built-in scenario name and waits (at most
// ready) until its wasm has rendered. It returns the tab and the scenario.
func chartPage(t *testing.T, name string, ready time.Duration) (context.Context, examples.Example) {
	t.Helper()
	ex := examplestest.Get(t, name)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(name))
	state, err := pollJS[string](ctx, `document.documentElement.dataset.ready`, ready)
	if err != nil {
		t.Fatalf("page %s never set data-ready: %v", name, err)
	}
	if state != "1" {
		t.Fatalf("page %s: data-ready = %q, want \"1\"", name, state)
	}
	return ctx, ex
}

// applyEdit changes the control with data-path e.path in the page as a
// person does (a checkbox is ticked or unticked, any other control gets
// the value), then input and change events bubble.
func applyEdit(t *testing.T, ctx context.Context, e chartEdit) {
	t.Helper()
	if e.kind != scenario.ValueBool {
		setControl(t, ctx, e.path, e.value)
		return
	}
	sel, _ := json.Marshal(fmt.Sprintf(`[data-path=%q]`, e.path))
	ok := evalJSON[bool](t, ctx, fmt.Sprintf(`(() => {
  const el = document.querySelector(%s);
  if (!el || el.disabled || el.type !== "checkbox") return false;
  el.checked = %s;
  el.dispatchEvent(new Event("input", {bubbles: true}));
  el.dispatchEvent(new Event("change", {bubbles: true}));
  return true;
})()`, sel, e.value))
	if !ok {
		t.Fatalf("no enabled checkbox with data-path %q", e.path)
	}
}

// nativeEdited applies the edits to ex's JSON with the page's own editing
// function (scenario.Edit) and runs the result natively.
func nativeEdited(t *testing.T, ex examples.Example, edits ...chartEdit) *trace.Trace {
	t.Helper()
	data := ex.JSON
	for _, e := range edits {
		var err error
		data, err = scenario.Edit(data, e.path, e.kind, e.value, e.value == "true")
		if err != nil {
			t.Fatalf("edit %s: %v", e.path, err)
		}
	}
	_, tr := nativeTrace(t, examples.Example{Name: ex.Name + "+edited", JSON: data})
	return tr
}

// bufferAttrs is what the first buffer chart says about its stream.
type bufferAttrs struct {
	Found           bool   `json:"found"`
	Peak            int    `json:"peak"`
	Dropped         int    `json:"dropped"`
	Capacity        int    `json:"capacity"`
	FinalAt         int64  `json:"finalAt"`
	FinalsDelivered int    `json:"finalsDelivered"`
	Refetch         string `json:"refetch"`
	CoalesceMarks   int    `json:"coalesceMarks"`
}

const bufferAttrsJS = `(() => {
  const c = document.querySelector('svg[data-chart="buffer"]');
  if (!c) return {found: false};
  const d = c.dataset;
  return {found: true, peak: +d.peak, dropped: +d.dropped, capacity: +d.capacity, finalAt: +d.finalAt,
    finalsDelivered: +d.finalsDelivered, refetch: d.refetch, coalesceMarks: c.querySelectorAll('[data-mark="coalesce"]').length};
})()`

// Rule (DOMAIN.md §7): the bounded buffer's occupancy chart shows
// the reference numbers (capacity 3: peak within 3, 5 progress dropped,
// refetch, final delivered); set the capacity to 0 (unbounded) and slow the
// drain to once a second, and the re-drawn chart shows the depth reaching
// all 7 events with nothing dropped, as the native engine computes.
func TestBufferChartCapacityAndDrain(t *testing.T) {
	ctx, ex := chartPage(t, "buffer-reference-coalesce", readyTimeout)
	got := evalJSON[bufferAttrs](t, ctx, bufferAttrsJS)
	if !got.Found {
		t.Fatal("the page has no buffer chart")
	}
	if got.Capacity != 3 || got.Peak > 3 || got.Dropped != 5 || got.FinalsDelivered != 1 || got.FinalAt < 0 || got.Refetch != "true" || got.CoalesceMarks != 5 {
		t.Errorf("reference chart %+v, want capacity 3, peak <= 3, 5 dropped (5 coalesce marks), final delivered, refetch", got)
	}

	edits := []chartEdit{
		{"buffer.capacity", scenario.ValueInteger, "0"},
		{"consumer.drainEveryMs", scenario.ValueInteger, "1000"},
	}
	for i, e := range edits {
		applyEdit(t, ctx, e)
		b := nativeEdited(t, ex, edits[:i+1]...).Buffers[0]
		finalAt := int64(-1)
		if b.FinalsDelivered > 0 {
			finalAt = evalFinalAt(t, nativeEdited(t, ex, edits[:i+1]...), b.Stream.Raw())
		}
		waitFor(t, ctx, fmt.Sprintf("the buffer chart after %s = %s", e.path, e.value), fmt.Sprintf(
			`(() => { const d = document.querySelector('svg[data-chart="buffer"]')?.dataset; return !!d && d.capacity === "%d" && d.peak === "%d" && d.finalAt === "%d"; })()`,
			b.Capacity, b.MaxDepth, finalAt))
	}
	got = evalJSON[bufferAttrs](t, ctx, bufferAttrsJS)
	if got.Capacity != 0 || got.Peak != 7 || got.Dropped != 0 || got.FinalsDelivered != 1 || got.Refetch != "false" || got.CoalesceMarks != 0 {
		t.Errorf("unbounded, slow drain: chart %+v, want capacity 0, peak 7, 0 dropped, final delivered, no refetch", got)
	}
}

// evalFinalAt is when the final response of stream (raw id) reached the
// client in tr, -1 if never.
func evalFinalAt(t *testing.T, tr *trace.Trace, stream string) int64 {
	t.Helper()
	for _, e := range tr.Events {
		if e.Type != trace.TypeDeliver || e.To != trace.ActorClient || e.ID == nil || e.ID.Raw() != stream {
			continue
		}
		var m struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(e.Message, &m) == nil && (len(m.Result) > 0 || len(m.Error) > 0) {
			return e.At
		}
	}
	return -1
}

// progressArrivalsJS lists when each progress notification reached the
// client in the timeline, in wire order.
const progressArrivalsJS = `Array.from(document.querySelectorAll('#timeline [data-type="wire"][data-method="notifications/progress"]')).filter(a => a.dataset.delivered === "true").map(a => Number(a.dataset.at))`

// Rule (DOMAIN.md §8): behind a buffering proxy, a server that omits the
// SSE headers has its progress held and delivered in one burst when the
// stream ends (all at 1210 ms); with the headers (X-Accel-Buffering: no)
// each progress arrives as it is sent, 10 ms later: 210, 410, ... ms.
func TestProxyArrivalsMoveWithSSEHeaders(t *testing.T) {
	ctx, ex := chartPage(t, "proxy-buffering-burst", readyTimeout)
	before := evalJSON[[]int64](t, ctx, progressArrivalsJS)
	if want := []int64{1210, 1210, 1210, 1210, 1210}; !slices.Equal(before, want) {
		t.Fatalf("buffered: progress arrives at %v, want one burst %v", before, want)
	}
	if n := evalJSON[int](t, ctx, `document.querySelectorAll('#timeline [data-type="hold"]').length`); n != 5 {
		t.Errorf("buffered: %d proxy hold marks, want 5", n)
	}
	edit := chartEdit{"server.sseHeaders", scenario.ValueBool, "true"}
	applyEdit(t, ctx, edit)
	waitFor(t, ctx, "progress arriving as it is sent",
		`(() => { const a = `+progressArrivalsJS+`; return a.length === 5 && a[0] === 210; })()`)
	after := evalJSON[[]int64](t, ctx, progressArrivalsJS)
	if want := []int64{210, 410, 610, 810, 1010}; !slices.Equal(after, want) {
		t.Errorf("with SSE headers: progress arrives at %v, want %v", after, want)
	}
	if n := evalJSON[int](t, ctx, `document.querySelectorAll('#timeline [data-type="hold"]').length`); n != 0 {
		t.Errorf("with SSE headers: %d proxy hold marks, want none", n)
	}
	if lane := evalJSON[bool](t, ctx, `!!document.querySelector('#timeline [data-lane="proxy"]')`); !lane {
		t.Errorf("the proxy lane disappeared when the proxy stopped buffering")
	}
	for _, e := range compareTimeline(nativeEdited(t, ex, edit), readTimeline(t, ctx)) {
		t.Error(e)
	}
}

// herdAttrs is what the herd chart and the strategy panels say.
type herdAttrs struct {
	Strategy string         `json:"strategy"`
	Peak     int            `json:"peak"`
	AllBack  int64          `json:"allBack"`
	Panels   map[string]int `json:"panels"`
	Current  string         `json:"current"`
	Draws    int            `json:"draws"`
}

const herdAttrsJS = `(() => {
  const h = document.getElementById("herd-chart");
  if (!h) return {strategy: "", peak: -1, allBack: 0, panels: {}, current: "", draws: 0};
  const panels = {};
  let current = "";
  for (const p of document.querySelectorAll('#herd-compare [data-strategy]')) {
    panels[p.dataset.strategy] = Number(p.dataset.peak);
    if (p.dataset.current === "true") current = p.dataset.strategy;
  }
  return {strategy: h.dataset.strategy, peak: Number(h.dataset.peak), allBack: Number(h.dataset.allBackMs), panels, current,
    draws: document.querySelectorAll('#backoff-chart [data-delay-ms]').length};
})()`

// Rule (DOMAIN.md §10): the reference backoff spreads the herd of
// 10,000 (peak 5,905 attempts per 100 ms); switching the strategy to none
// brings the whole herd back in lockstep (peak 10,000) and some clients
// give up. The strategies side by side keep their peaks, and the one this
// run uses moves.
func TestBackoffStrategySwitchChangesPeak(t *testing.T) {
	ctx, ex := chartPage(t, "herd-reference-backoff", readyTimeout)
	// The reference (DOMAIN.md §10) and no backoff are pinned; the other
	// strategies' peaks come from the native engine on the same herd.
	want := map[string]int{"reference": 5905, "none": 10000}
	for _, r := range nativeEdited(t, ex, chartEdit{"herd.strategy", scenario.ValueString, "reference"}).HerdCompare {
		if _, pinned := want[r.Strategy]; !pinned {
			want[r.Strategy] = r.PeakPerBucket
		}
	}
	got := evalJSON[herdAttrs](t, ctx, herdAttrsJS)
	if got.Strategy != "reference" || got.Peak != 5905 || got.AllBack != 7518 || got.Current != "reference" || got.Draws == 0 {
		t.Errorf("reference: %+v, want peak 5905, all back at 7518 ms, current panel reference, backoff dots", got)
	}
	if len(got.Panels) != len(want) {
		t.Errorf("strategy panels %v, want %v", got.Panels, want)
	}
	for s, p := range want {
		if got.Panels[s] != p {
			t.Errorf("panel %s: peak %d, want %d", s, got.Panels[s], p)
		}
	}

	edit := chartEdit{"herd.strategy", scenario.ValueString, "none"}
	applyEdit(t, ctx, edit)
	// The herd's HTML is patched over a few frames (mcplabMorph, over 32 KB):
	// wait until the patch is done, not only its first attribute.
	waitFor(t, ctx, "the herd chart of strategy none", `document.getElementById("herd-chart")?.dataset.strategy === "none" && !mcplabMorph.busy`)
	got = evalJSON[herdAttrs](t, ctx, herdAttrsJS)
	native := nativeEdited(t, ex, edit).Herd
	if got.Peak != 10000 || got.Peak != native.PeakPerBucket || got.AllBack != -1 || got.Current != "none" {
		t.Errorf("none: %+v, want peak 10000 (native %d), some clients giving up (all-back -1), current panel none", got, native.PeakPerBucket)
	}
	if got.Panels["reference"] != 5905 || got.Panels["none"] != 10000 {
		t.Errorf("after the switch the panels say %v", got.Panels)
	}
}

// ledgerAttrs is what the ledger section says.
type ledgerAttrs struct {
	Found      bool   `json:"found"`
	Executions int    `json:"executions"`
	Records    int    `json:"records"`
	Effects    int    `json:"effects"`
	Replays    int    `json:"replays"`
	Waits      int    `json:"waits"`
	Reopens    []int  `json:"reopens"`
	Receipt    string `json:"receipt"`
}

const ledgerAttrsJS = `(() => {
  const c = document.getElementById("ledger-executions");
  if (!c) return {found: false};
  const r = document.getElementById("ledger-race")?.dataset ?? {};
  return {found: true, executions: Number(c.dataset.executions), records: Number(c.dataset.records),
    effects: Number(r.effects ?? -1), replays: Number(r.replays ?? -1), waits: Number(r.waits ?? -1),
    reopens: Array.from(document.querySelectorAll('#ledger-race [data-type="reopen"]')).map(e => Number(e.dataset.at)),
    receipt: document.querySelector('#ledger-records [data-receipt]')?.dataset.receipt ?? ""};
})()`

// Rule (DOMAIN.md §4, §12 statement 7): two connections racing the same
// idempotency key on the real SQLite ledger (ledger.wasm) execute once: one
// holds the write lock, the other waits (SQLITE_BUSY) and replays. With
// the ledger's check and effect in separate transactions
// (atomicLedger false), both execute.
func TestLedgerRaceExecutions(t *testing.T) {
	ctx, ex := chartPage(t, "ledger-keyed-race", ledgerReadyTimeout)
	got := evalJSON[ledgerAttrs](t, ctx, ledgerAttrsJS)
	if !got.Found || got.Executions != 1 || got.Records != 1 || got.Effects != 1 || got.Replays != 1 || got.Waits != 1 || got.Receipt != "charge-001" {
		t.Errorf("keyed race: %+v, want 1 execution, 1 record (charge-001), 1 effect, 1 replay, 1 wait", got)
	}
	edit := chartEdit{"server.policy.atomicLedger", scenario.ValueBool, "false"}
	applyEdit(t, ctx, edit)
	waitFor(t, ctx, "two executions", `document.getElementById("ledger-executions")?.dataset.executions === "2"`)
	got = evalJSON[ledgerAttrs](t, ctx, ledgerAttrsJS)
	native := nativeEdited(t, ex, edit)
	if got.Executions != 2 || got.Executions != native.Ledger.Executions || got.Effects != 2 || got.Waits != 0 {
		t.Errorf("check-then-act: %+v, want 2 executions (native %d), 2 effects, no wait", got, native.Ledger.Executions)
	}
	if r := evalJSON[string](t, ctx, `document.getElementById("check-one-execution-per-key")?.dataset.result ?? ""`); r != "fail" {
		t.Errorf("check one-execution-per-key = %q, want fail", r)
	}
}

// Rule (DOMAIN.md §4, §12 statements 8–9): a committed record survives
// closing and reopening the ledger, wherever the reopen happens (the
// reopen control moves it after the retry), and a replay is a defensive
// copy; without defensive copies the caller's mutation corrupts the replay
// and the defensive-copy check fails.
func TestLedgerReopenAndDefensiveCopy(t *testing.T) {
	ctx, ex := chartPage(t, "ledger-reopen-defensive-copy", ledgerReadyTimeout)
	reopenStep, reopenAt := stepIndex(t, ex.JSON, "reopen-ledger")
	retryAt := resubmissionAt(t, ex.JSON)
	if reopenAt >= retryAt {
		t.Fatalf("the scenario no longer reopens before the retry (reopen at %d ms, retry at %d ms)", reopenAt, retryAt)
	}
	got := evalJSON[ledgerAttrs](t, ctx, ledgerAttrsJS)
	if !got.Found || got.Executions != 1 || got.Records != 1 || !slices.Equal(got.Reopens, []int{int(reopenAt)}) || got.Replays != 1 {
		t.Errorf("reopen before the retry: %+v, want 1 execution, 1 record, a reopen at %d ms, 1 replay", got, reopenAt)
	}
	checkResult := func(rule string) string {
		return evalJSON[string](t, ctx, fmt.Sprintf(`document.getElementById(%q)?.dataset.result ?? ""`, "check-"+rule))
	}
	if r := checkResult("defensive-copy"); r != "pass" {
		t.Errorf("defensive-copy = %q, want pass", r)
	}

	// The reopen control: move the reopen after the retry.
	later := retryAt + 100
	move := chartEdit{fmt.Sprintf("steps[%d].at", reopenStep), scenario.ValueInteger, fmt.Sprint(later)}
	applyEdit(t, ctx, move)
	waitFor(t, ctx, "the reopen at its new time", fmt.Sprintf(`!!document.querySelector('#ledger-race [data-type="reopen"][data-at="%d"]')`, later))
	got = evalJSON[ledgerAttrs](t, ctx, ledgerAttrsJS)
	if got.Executions != 1 || got.Records != 1 || !slices.Equal(got.Reopens, []int{int(later)}) {
		t.Errorf("reopen after the retry: %+v, want 1 execution, 1 record, a reopen at %d ms", got, later)
	}
	if n := nativeEdited(t, ex, move).Ledger; n.Executions != got.Executions || len(n.Records) != got.Records {
		t.Errorf("page shows %d executions, %d records; native %d, %d", got.Executions, got.Records, n.Executions, len(n.Records))
	}

	copyOff := chartEdit{"server.policy.defensiveCopy", scenario.ValueBool, "false"}
	applyEdit(t, ctx, copyOff)
	waitFor(t, ctx, "the defensive-copy check to fail", `document.getElementById("check-defensive-copy")?.dataset.result === "fail"`)
	if native := checkResults(nativeEdited(t, ex, move, copyOff)); native["defensive-copy"] != "fail" {
		t.Errorf("native defensive-copy = %q, want fail", native["defensive-copy"])
	}
}

// resubmissionAt is the time of the scenario's retry: the first call step
// with the same tool name and arguments (idempotency key included) as an
// earlier call. The lesson resubmits with a call of its own because the
// engine skips a scripted "retry" of a call already answered.
func resubmissionAt(t *testing.T, data []byte) int64 {
	t.Helper()
	var raw struct {
		Steps []struct {
			At        int64          `json:"at"`
			Do        string         `json:"do"`
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, st := range raw.Steps {
		if st.Do != "call" {
			continue
		}
		args, _ := json.Marshal(st.Arguments) // map keys sorted: the same arguments, the same bytes
		op := st.Name + " " + string(args)
		if seen[op] {
			return st.At
		}
		seen[op] = true
	}
	t.Fatal("scenario has no call resubmitting an earlier call's operation")
	return 0
}

// Rule (DOMAIN.md §6, §11): with treatTaskAckAsFinal the task lane shows
// the client saying "stopped" while the worker's task is still working;
// the correct client keeps polling and never claims an end early.
func TestTaskLaneAckAsFinal(t *testing.T) {
	ctx, _ := chartPage(t, "broken-task-ack-as-final", readyTimeout)
	type lane struct {
		Status       string `json:"status"`
		ClientStatus string `json:"clientStatus"`
		DisagreeMs   int    `json:"disagreeMs"`
	}
	const laneJS = `(() => { const d = document.querySelector('#task-lanes [data-task="task-42"]')?.dataset; return d ? {status: d.status, clientStatus: d.clientStatus, disagreeMs: Number(d.disagreeMs)} : {status: ""}; })()`
	got := evalJSON[lane](t, ctx, laneJS)
	if got.Status != "cancelled" || got.ClientStatus != "stopped" || got.DisagreeMs != 180 {
		t.Errorf("ack as final: lane %+v, want worker cancelled, client stopped, 180 ms of disagreement (420–600)", got)
	}
	applyEdit(t, ctx, chartEdit{"client.policy.treatTaskAckAsFinal", scenario.ValueBool, "false"})
	waitFor(t, ctx, "the client to poll until terminal", `document.querySelector('#task-lanes [data-task="task-42"]')?.dataset.clientStatus === "cancelled"`)
	if n := evalJSON[int](t, ctx, `document.querySelectorAll('#task-lanes .task-disagree').length`); n > 1 {
		t.Errorf("correct client: %d disagreement bands, want at most the polling lag", n)
	}
}

// Rule (DOMAIN.md §7: "controls for ... production rate"): with
// the reference buffer (capacity 3), slowing the producer from every 50 ms
// to every 600 ms (slower than the 500 ms drain) leaves nothing to coalesce:
// the chart redraws with 0 progress dropped and no refetch, as the native
// engine computes.
func TestBufferChartProductionRate(t *testing.T) {
	ctx, ex := chartPage(t, "buffer-reference-coalesce", readyTimeout)
	edit := chartEdit{"steps[1].everyMs", scenario.ValueInteger, "600"}
	applyEdit(t, ctx, edit)
	b := nativeEdited(t, ex, edit).Buffers[0]
	if b.DroppedProgress != 0 || b.NeedsRefetch {
		t.Fatalf("native: a producer slower than the consumer still dropped %d (refetch %v)", b.DroppedProgress, b.NeedsRefetch)
	}
	waitFor(t, ctx, "the buffer chart after the production-rate change", fmt.Sprintf(
		`(() => { const d = document.querySelector('svg[data-chart="buffer"]')?.dataset; return !!d && d.dropped === "%d" && d.peak === "%d"; })()`,
		b.DroppedProgress, b.MaxDepth))
}
