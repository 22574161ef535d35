package main

// Browser tests of the built site: every page the site command builds is
// opened in headless Chromium, and what it shows is compared with what the
// native engine computes for the same scenario. The harness (browser_test.go)
// fails every test on a console error, an uncaught exception or a request
// that leaves the origin.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// siteURL is the base URL (no trailing slash) of the site under test: a
// server TestMain starts at once, which builds the site on first use
// (ensureSite), so tests that never touch it never build it.
var siteURL string

// testBaseURL is the -base-url the test site is built with: the oEmbed
// files name it; no page may fetch from it (the harness fails any request
// that leaves the origin).
const testBaseURL = "https://lab.example/mcplab/"

var (
	siteOnce    sync.Once
	siteDir     string
	siteHandler http.Handler
	siteErr     error
)

// startSite starts the server at siteURL and returns the function that
// stops it and removes the built site. The server builds the site on its
// first request; newTab builds it before opening a tab on it (ensureSite).
func startSite() (stop func()) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := buildSite(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		siteHandler.ServeHTTP(w, r)
	}))
	siteURL = srv.URL
	return func() {
		srv.Close()
		if siteDir != "" {
			os.RemoveAll(siteDir)
		}
	}
}

// buildSite builds the site once into a temporary directory with the site
// command's own build (and its default cache), served with the command's
// own handler, so the tests see exactly what `make serve` serves. The
// build's progress goes to stderr.
func buildSite() error {
	siteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcplab-site-")
		if err != nil {
			siteErr = err
			return
		}
		siteDir = dir
		if err := build(dir, testBaseURL, defaultCacheDir(), os.Stderr); err != nil {
			siteErr = fmt.Errorf("cannot build the site: %w", err)
			return
		}
		siteHandler = newHandler(dir)
	})
	return siteErr
}

// ensureSite builds the site if no test has yet and returns its directory;
// it fails the test if the build failed.
func ensureSite(t *testing.T) string {
	t.Helper()
	if err := buildSite(); err != nil {
		t.Fatal(err)
	}
	return siteDir
}

// pageURL is the page of built-in scenario name (site build writes
// s/<name>/index.html).
func pageURL(name string) string { return siteURL + "/s/" + name + "/" }

// nativeOptions link what a native run needs: the in-memory SQLite ledger
// for scenarios that have one (the browser's ledger.wasm links the same).
var nativeOptions = engine.Options{OpenLedger: sqlite.NewMemory}

// nativeTrace runs ex with the native engine: the reference every page is
// compared with.
func nativeTrace(t *testing.T, ex examples.Example) ([]byte, *trace.Trace) {
	t.Helper()
	out, err := engine.RunJSONWith(ex.JSON, nativeOptions)
	if err != nil {
		t.Fatalf("native engine on %s: %v", ex.Name, err)
	}
	var tr trace.Trace
	if err := json.Unmarshal(out, &tr); err != nil {
		t.Fatalf("decode native trace of %s: %v", ex.Name, err)
	}
	return out, &tr
}

// svgArrow and svgMark are what the timeline SVG says about one wire
// message (an arrow) or one other event (a mark), read from its data-
// attributes.
type svgArrow struct {
	Wire       int    `json:"wire"`
	Seq        int    `json:"seq"`        // the send (or close-stream) event
	DeliverSeq int    `json:"deliverSeq"` // -1 if never delivered
	Delivered  bool   `json:"delivered"`
	DropSeq    int    `json:"dropSeq"` // -1 unless lost in transit
	Dropped    bool   `json:"dropped"`
	From       string `json:"from"`
	To         string `json:"to"`
	Method     string `json:"method"`
	Signal     string `json:"signal"`
}

type svgMark struct {
	Seq  int    `json:"seq"`
	Type string `json:"type"`
}

type svgTimeline struct {
	Found  bool       `json:"found"`
	Arrows []svgArrow `json:"arrows"`
	Marks  []svgMark  `json:"marks"`
}

// readTimelineJS reads #timeline's arrows ([data-type="wire"]) and marks
// (every other element with data-seq) with the page's own JavaScript.
const readTimelineJS = `(() => {
  const svg = document.getElementById("timeline");
  if (!svg) return {found: false, arrows: [], marks: []};
  const num = (v, d) => v === undefined || v === null || v === "" ? d : Number(v);
  const arrows = Array.from(svg.querySelectorAll('[data-type="wire"]')).map(e => ({
    wire: num(e.dataset.wire, 0), seq: num(e.dataset.seq, -1), deliverSeq: num(e.dataset.deliverSeq, -1),
    delivered: e.dataset.delivered === "true", dropSeq: num(e.dataset.dropSeq, -1), dropped: e.dataset.dropped === "true", from: e.dataset.from || "", to: e.dataset.to || "",
    method: e.dataset.method || "", signal: e.dataset.signal || "",
  }));
  const marks = Array.from(svg.querySelectorAll('[data-seq]:not([data-type="wire"])')).map(e => ({
    seq: num(e.dataset.seq, -1), type: e.dataset.type || "",
  }));
  return {found: true, arrows, marks};
})()`

// readTimeline reads the timeline through JavaScript.
func readTimeline(t *testing.T, ctx context.Context) svgTimeline {
	t.Helper()
	return evalJSON[svgTimeline](t, ctx, readTimelineJS)
}

// messageMethod is the JSON-RPC method of a wire message, "" if none.
func messageMethod(m json.RawMessage) string {
	var v struct {
		Method string `json:"method"`
	}
	if len(m) == 0 || json.Unmarshal(m, &v) != nil {
		return ""
	}
	return v.Method
}

// compareTimeline checks the rule the timeline promises: every event of the
// trace is drawn exactly once, with its type. An event with a wire number is
// one end of that wire's arrow (its send or close-stream at data-seq, its
// delivery at data-deliver-seq or its loss in transit at data-drop-seq), and
// carries its method and signal; any
// other event is a mark with the same data-seq and data-type. There is one
// arrow per wire, and as many deliver events as delivered arrows plus
// deliver marks (a second delivery of one wire is a mark).
func compareTimeline(tr *trace.Trace, tl svgTimeline) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if !tl.Found {
		return []string{"the page has no #timeline"}
	}
	events := map[int]trace.Event{}
	wires := map[int]bool{}
	delivers := 0
	for _, e := range tr.Events {
		events[e.Seq] = e
		if e.Wire > 0 {
			wires[e.Wire] = true
		}
		if e.Type == trace.TypeDeliver {
			delivers++
		}
	}
	drawn := map[int]int{} // seq -> times drawn
	arrowsByWire := map[int]int{}
	deliveredArrows, deliverMarks := 0, 0
	for _, a := range tl.Arrows {
		arrowsByWire[a.Wire]++
		if !wires[a.Wire] {
			bad("arrow for wire %d, which no event of the trace has", a.Wire)
		}
		if a.Seq >= 0 {
			drawn[a.Seq]++
			e, ok := events[a.Seq]
			switch {
			case !ok:
				bad("arrow of wire %d starts at seq %d, not in the trace", a.Wire, a.Seq)
			case e.Wire != a.Wire || e.Type == trace.TypeDeliver:
				bad("arrow of wire %d starts at seq %d, a %s of wire %d", a.Wire, a.Seq, e.Type, e.Wire)
			default:
				if m := messageMethod(e.Message); m != a.Method {
					bad("arrow of wire %d: data-method %q, the message's method is %q", a.Wire, a.Method, m)
				}
				if e.Signal == trace.SignalCloseStream && a.Signal != trace.SignalCloseStream {
					bad("arrow of wire %d is a stream close but has data-signal %q", a.Wire, a.Signal)
				}
			}
		}
		if a.Delivered {
			deliveredArrows++
			drawn[a.DeliverSeq]++
			e, ok := events[a.DeliverSeq]
			if !ok || e.Type != trace.TypeDeliver || e.Wire != a.Wire {
				bad("arrow of wire %d: data-deliver-seq %d is not a delivery of that wire", a.Wire, a.DeliverSeq)
			} else if a.To != e.To {
				bad("arrow of wire %d: data-to %q, delivered to %q", a.Wire, a.To, e.To)
			}
		} else if a.DeliverSeq >= 0 {
			bad("arrow of wire %d is not delivered but has data-deliver-seq %d", a.Wire, a.DeliverSeq)
		}
		if a.Dropped {
			drawn[a.DropSeq]++
			if a.Delivered {
				bad("arrow of wire %d is both delivered and dropped", a.Wire)
			}
			if e, ok := events[a.DropSeq]; !ok || e.Type != trace.TypeDrop || e.Wire != a.Wire {
				bad("arrow of wire %d: data-drop-seq %d is not a drop of that wire", a.Wire, a.DropSeq)
			}
		}
	}
	for w := range wires {
		if arrowsByWire[w] != 1 {
			bad("wire %d has %d arrows, want 1", w, arrowsByWire[w])
		}
	}
	for _, m := range tl.Marks {
		drawn[m.Seq]++
		e, ok := events[m.Seq]
		switch {
		case !ok:
			bad("mark with data-seq %d, not in the trace", m.Seq)
		case e.Type != m.Type:
			bad("mark %d has data-type %q, the event is a %q", m.Seq, m.Type, e.Type)
		}
		if ok && e.Type == trace.TypeDeliver {
			deliverMarks++
		}
	}
	for _, e := range tr.Events {
		if drawn[e.Seq] != 1 {
			bad("event %d (%s %s at %d ms) is drawn %d times, want 1", e.Seq, e.Actor, e.Type, e.At, drawn[e.Seq])
		}
	}
	if deliveredArrows+deliverMarks != delivers {
		bad("%d delivered arrows + %d deliver marks, the trace has %d deliver events", deliveredArrows, deliverMarks, delivers)
	}
	slices.Sort(errs)
	return errs
}

// Rule: every built-in scenario's page opens, its wasm starts and renders
// (data-ready="1"), and the timeline it shows is the native engine's trace:
// every event drawn once with its type, one arrow per wire message.
func TestScenarioPagesMatchNativeTrace(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			_, tr := nativeTrace(t, ex)
			ctx, _ := openTab(t, siteURL)
			navigate(t, ctx, pageURL(ex.Name))
			waitReady(t, ctx)
			if got := evalJSON[string](t, ctx, `document.getElementById("lab")?.dataset.example ?? ""`); got != ex.Name {
				t.Errorf("#lab data-example = %q, want %q", got, ex.Name)
			}
			for _, e := range compareTimeline(tr, readTimeline(t, ctx)) {
				t.Error(e)
			}
			// The checks table shows every check of the trace with its result.
			got := evalJSON[map[string]string](t, ctx, checksJS)
			if want := checkResults(tr); !maps.Equal(got, want) {
				t.Errorf("checks table = %v, want %v", got, want)
			}
		})
	}
}

// checksJS reads the checks table: rule -> "pass", "fail" or "undecided".
const checksJS = `Object.fromEntries(Array.from(document.querySelectorAll("#checks tr[data-rule]")).map(r => [r.dataset.rule, r.dataset.result]))`

// checkResults maps each check's rule to "pass", "fail" or "undecided".
func checkResults(tr *trace.Trace) map[string]string {
	m := map[string]string{}
	for _, c := range tr.Checks {
		switch {
		case c.OK == nil:
			m[c.Rule] = "undecided"
		case *c.OK:
			m[c.Rule] = "pass"
		default:
			m[c.Rule] = "fail"
		}
	}
	return m
}

// runResult is what globalThis.mcplab.run returns.
type runResult struct {
	Trace string  `json:"trace"`
	Error *string `json:"error"`
}

// wasmRun calls globalThis.mcplab.run(scenarioJSON) in the page.
func wasmRun(t *testing.T, ctx context.Context, scenarioJSON []byte) runResult {
	t.Helper()
	arg, err := json.Marshal(string(scenarioJSON)) // a JS string literal
	if err != nil {
		t.Fatal(err)
	}
	expr := fmt.Sprintf(`(() => { const r = globalThis.mcplab.run(%s); return {trace: r.trace ?? "", error: r.error || null}; })()`, arg)
	return evalJSON[runResult](t, ctx, expr)
}

// Rule: the engine compiled to WebAssembly and run in the browser gives the
// byte-identical trace JSON of the native engine for every built-in
// scenario, and the same located error for invalid input (SCENARIO.md: the
// same scenario gives a byte-identical trace natively and in WebAssembly).
// Each scenario runs in the wasm its own page loads: main.wasm, or
// ledger.wasm (with SQLite) for scenarios that have a ledger.
func TestWasmTraceIsByteIdentical(t *testing.T) {
	byPage := map[string][]examples.Example{} // page that loads the right wasm -> scenarios
	pages := []string{scenarioA}
	ledgerHost := "" // the first ledger scenario's page hosts every ledger scenario
	for _, ex := range examples.All() {
		s, err := scenario.Decode(ex.JSON)
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		host := scenarioA
		if s.Ledger != nil {
			if ledgerHost == "" {
				ledgerHost = ex.Name
				pages = append(pages, ledgerHost)
			}
			host = ledgerHost
		}
		byPage[host] = append(byPage[host], ex)
	}
	bad := []struct{ name, json string }{
		{"negative time", `{"mcplab":1,"steps":[{"at":-5,"do":"call","id":1,"name":"x"}]}`},
		{"unknown field", `{"mcplab":1,"stpes":[]}`},
		{"not json", `{"mcplab":`},
	}
	for _, host := range pages {
		t.Run(host, func(t *testing.T) {
			ctx, _ := openTab(t, siteURL)
			navigate(t, ctx, pageURL(host))
			waitReady(t, ctx)
			wasmFile := evalJSON[string](t, ctx, `Array.from(performance.getEntriesByType("resource")).map(e => e.name).filter(n => n.endsWith(".wasm")).join(" ")`)
			t.Logf("page %s runs %s", host, wasmFile)
			for _, ex := range byPage[host] {
				t.Run(ex.Name, func(t *testing.T) {
					want, _ := nativeTrace(t, ex)
					got := wasmRun(t, ctx, ex.JSON)
					if got.Error != nil {
						t.Fatalf("mcplab.run error %q, native engine has none", *got.Error)
					}
					if got.Trace != string(want) {
						t.Errorf("wasm trace differs from native (%d vs %d bytes); first difference at byte %d", len(got.Trace), len(want), firstDiff(got.Trace, string(want)))
					}
				})
			}
			for _, tc := range bad {
				t.Run("invalid/"+tc.name, func(t *testing.T) {
					_, nerr := engine.RunJSONWith([]byte(tc.json), nativeOptions)
					if nerr == nil {
						t.Fatalf("native engine accepts %s", tc.json)
					}
					got := wasmRun(t, ctx, []byte(tc.json))
					if got.Error == nil {
						t.Fatalf("mcplab.run(%s) gave no error, native says %q", tc.json, nerr)
					}
					if *got.Error != nerr.Error() {
						t.Errorf("mcplab.run error = %q, native = %q", *got.Error, nerr)
					}
					if got.Trace != "" {
						t.Errorf("mcplab.run gave a partial trace with its error: %.80q", got.Trace)
					}
				})
			}
		})
	}
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// scenarioA is the stdio cancel-then-complete example.
const scenarioA = "a-cancel-then-complete"

// stepIndex returns the index of the first step of scenario JSON data whose
// "do" is verb, and that step's "at".
func stepIndex(t *testing.T, data []byte, verb string) (int, int64) {
	t.Helper()
	s, err := scenario.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Steps []struct {
			At int64  `json:"at"`
			Do string `json:"do"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Steps) != len(s.Steps) {
		t.Fatalf("scenario has %d steps, decoded %d", len(raw.Steps), len(s.Steps))
	}
	for i, st := range raw.Steps {
		if st.Do == verb {
			return i, st.At
		}
	}
	t.Fatalf("scenario has no %q step", verb)
	return 0, 0
}

// wireSignals counts, in the rendered timeline, the client's
// notifications/cancelled messages and the stream closes.
func wireSignals(tl svgTimeline) (notifications, closes int) {
	for _, a := range tl.Arrows {
		if a.From == trace.ActorClient && a.Method == trace.SignalNotification {
			notifications++
		}
		if a.Signal == trace.SignalCloseStream {
			closes++
		}
	}
	for _, m := range tl.Marks {
		if m.Type == trace.TypeCloseStream {
			closes++
		}
	}
	return notifications, closes
}

// setControl sets the form control with data-path path to value the way a
// person does: the value changes, then input and change events bubble.
func setControl(t *testing.T, ctx context.Context, path, value string) {
	t.Helper()
	sel, _ := json.Marshal(fmt.Sprintf(`[data-path=%q]`, path))
	val, _ := json.Marshal(value)
	ok := evalJSON[bool](t, ctx, fmt.Sprintf(`(() => {
  const el = document.querySelector(%s);
  if (!el || el.disabled) return false;
  el.value = %s;
  el.dispatchEvent(new Event("input", {bubbles: true}));
  el.dispatchEvent(new Event("change", {bubbles: true}));
  return true;
})()`, sel, val))
	if !ok {
		t.Fatalf("no enabled control with data-path %q", path)
	}
}

// waitFor waits until the JavaScript predicate is true (bounded by
// readyTimeout); what fails to appear is named by what.
func waitFor(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	if _, err := pollJS[bool](ctx, predicate, readyTimeout); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// Rule (DOMAIN.md §1): the cancellation signal depends on the transport. On
// stdio the client sends notifications/cancelled; on Streamable HTTP
// (2026-07-28) it closes the response stream and sends no notification.
// Flipping scenario A's transport control re-runs it in the page and the
// timeline shows the change.
func TestTransportFlipChangesCancellationSignal(t *testing.T) {
	ex, ok := examples.Get(scenarioA)
	if !ok {
		t.Fatalf("no built-in scenario %s", scenarioA)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(ex.Name))
	waitReady(t, ctx)

	notes, closes := wireSignals(readTimeline(t, ctx))
	if notes != 1 || closes != 0 {
		t.Fatalf("stdio: %d client notifications/cancelled and %d stream closes, want 1 and 0", notes, closes)
	}
	if got := evalJSON[string](t, ctx, `document.querySelector('[data-path="transport"]').value`); got != scenario.TransportStdio {
		t.Fatalf("transport control = %q, want %q", got, scenario.TransportStdio)
	}

	setControl(t, ctx, "transport", scenario.TransportHTTP)
	waitFor(t, ctx, "a stream close in the timeline",
		`!!document.querySelector('#timeline [data-signal="close-stream"], #timeline [data-type="close-stream"]')`)
	tl := readTimeline(t, ctx)
	notes, closes = wireSignals(tl)
	if notes != 0 || closes < 1 {
		t.Errorf("streamable-http: %d client notifications/cancelled and %d stream closes, want 0 and >= 1", notes, closes)
	}

	// What the page draws is what the native engine computes for the edited
	// scenario.
	edited, err := scenario.SetPath(ex.JSON, "transport", json.RawMessage(`"streamable-http"`))
	if err != nil {
		t.Fatal(err)
	}
	_, tr := nativeTrace(t, examples.Example{Name: ex.Name + "+http", JSON: edited})
	for _, e := range compareTimeline(tr, tl) {
		t.Error(e)
	}
}

// outcomeJS reads the first request's outcome headline.
const outcomeJS = `(() => { const o = document.querySelector("#outcome-0"); return o ? {key: o.dataset.outcome || "", text: o.textContent.trim()} : {key: "", text: ""}; })()`

type outcome struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// Rule (DOMAIN.md §1, the cancel/complete race): when the cancellation
// reaches the server before the handler completes, cancellation wins; when
// the client cancels after the handler completed but before the response
// reached it, the server has already sent the result and completion wins.
// The newcomer's check: drag scenario A's cancel time with the mouse past
// the completion time (then settle it with the arrow keys, as a person
// does) and watch the headline flip.
func TestDragCancelPastCompletionFlipsOutcome(t *testing.T) {
	ex, ok := examples.Get(scenarioA)
	if !ok {
		t.Fatalf("no built-in scenario %s", scenarioA)
	}
	s, err := scenario.Decode(ex.JSON)
	if err != nil {
		t.Fatal(err)
	}
	cancelStep, cancelAt := stepIndex(t, ex.JSON, "cancel")
	_, completeAt := stepIndex(t, ex.JSON, "complete")
	if cancelAt+s.LatencyMs.Up >= completeAt || s.LatencyMs.Down < 2 {
		t.Fatalf("scenario A no longer races: cancel at %d ms + %d ms up, completion at %d ms, %d ms down", cancelAt, s.LatencyMs.Up, completeAt, s.LatencyMs.Down)
	}
	// Past the completion, before the result reaches the client.
	target := completeAt + s.LatencyMs.Down/2

	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(ex.Name))
	waitReady(t, ctx)

	before := evalJSON[outcome](t, ctx, outcomeJS)
	if before.Key != "cancellation-wins" || !strings.Contains(before.Text, "cancellation wins") {
		t.Fatalf("before: outcome %+v, want cancellation-wins / \"cancellation wins\"", before)
	}

	path := fmt.Sprintf("steps[%d].at", cancelStep)
	sel := fmt.Sprintf(`input[type=range][data-path=%q]`, path)
	selJS, _ := json.Marshal(sel)
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(sel))); err != nil {
		t.Fatalf("no range control %s: %v", sel, err)
	}
	type box struct{ X, Y, W, H, Min, Max, Value float64 }
	b := evalJSON[box](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%s); const r = e.getBoundingClientRect();
  return {X: r.left, Y: r.top, W: r.width, H: r.height, Min: Number(e.min), Max: Number(e.max), Value: Number(e.value)}; })()`, selJS))
	if b.Value != float64(cancelAt) {
		t.Fatalf("cancel slider at %v, want the scenario's %d", b.Value, cancelAt)
	}
	if b.Max <= float64(target) || b.W <= b.H {
		t.Fatalf("cancel slider %+v cannot reach %d ms", b, target)
	}
	// The thumb's centre runs from left+h/2 to right-h/2 (a thumb about as
	// wide as the control is high). Press on it, drag to the target, release.
	thumb := func(v float64) float64 { return b.X + b.H/2 + (v-b.Min)/(b.Max-b.Min)*(b.W-b.H) }
	y := b.Y + b.H/2
	if err := chromedp.Do(ctx, chromedp.DragAndDropXY(thumb(b.Value), y, thumb(float64(target)), y, 20)); err != nil {
		t.Fatalf("drag the cancel slider: %v", err)
	}
	value := func() int64 {
		return int64(evalJSON[float64](t, ctx, fmt.Sprintf(`Number(document.querySelector(%s).value)`, selJS)))
	}
	dragged := value()
	perPixel := (b.Max - b.Min) / (b.W - b.H)
	if diff := float64(dragged - target); diff > 3*perPixel+1 || diff < -3*perPixel-1 {
		t.Fatalf("the drag left the cancel time at %d ms, want about %d ms (±%.0f)", dragged, target, 3*perPixel+1)
	}
	// Settle on the target exactly with the arrow keys (step 1 ms).
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(sel))); err != nil {
		t.Fatal(err)
	}
	for v := value(); v != target; v = value() {
		key := kb.ArrowRight
		if v > target {
			key = kb.ArrowLeft
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
		if next := value(); next == v {
			t.Fatalf("arrow key did not move the slider from %d ms", v)
		}
	}
	waitFor(t, ctx, "the outcome to become completion-wins",
		`document.querySelector("#outcome-0")?.dataset.outcome === "completion-wins"`)
	after := evalJSON[outcome](t, ctx, outcomeJS)
	if !strings.Contains(after.Text, "completion wins") {
		t.Errorf("after: outcome text %q, want it to say \"completion wins\"", after.Text)
	}
	if got := evalJSON[string](t, ctx, fmt.Sprintf(`document.getElementById(document.querySelector(%s).id + "-value")?.textContent ?? ""`, selJS)); !strings.Contains(got, fmt.Sprint(target)) {
		t.Errorf("the slider's readout says %q, want %d", got, target)
	}
	// And the page agrees with the native engine on the edited scenario.
	edited, err := scenario.SetPath(ex.JSON, path, json.RawMessage(fmt.Sprint(target)))
	if err != nil {
		t.Fatal(err)
	}
	_, tr := nativeTrace(t, examples.Example{Name: "a+drag", JSON: edited})
	for _, e := range compareTimeline(tr, readTimeline(t, ctx)) {
		t.Error(e)
	}
}

// Rule: the index lists every built-in scenario exactly once (in the order
// the page chooses), each with a link that serves that scenario's page.
func TestIndexListsEveryScenario(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/")
	type card struct {
		Name string `json:"name"`
		Href string `json:"href"` // resolved by the browser
	}
	cards := evalJSON[[]card](t, ctx, `Array.from(document.querySelectorAll("#scenarios [data-name]")).map(li => ({name: li.dataset.name, href: li.querySelector("a[href]")?.href ?? ""}))`)
	var names, want []string
	for _, c := range cards {
		names = append(names, c.Name)
	}
	for _, ex := range examples.All() {
		want = append(want, ex.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("index lists (sorted) %q, want every built-in scenario once: %q", names, want)
	}
	for _, c := range cards {
		u, err := url.Parse(c.Href)
		if err != nil || c.Href == "" {
			t.Errorf("%s: bad link %q", c.Name, c.Href)
			continue
		}
		if u.Scheme+"://"+u.Host != siteURL {
			t.Errorf("%s: link %s leaves the site", c.Name, c.Href)
			continue
		}
		resp, err := http.Get(c.Href)
		if err != nil {
			t.Errorf("%s: GET %s: %v", c.Name, c.Href, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`data-example="`+c.Name+`"`)) {
			t.Errorf("%s: GET %s: status %d, page for this scenario: %v", c.Name, c.Href, resp.StatusCode, bytes.Contains(body, []byte(`data-example="`+c.Name+`"`)))
		}
	}
	// And a click on the first card reaches a working page.
	first := examples.All()[0].Name
	click := chromedp.Click(chromedp.CSS(fmt.Sprintf(`#scenarios [data-name=%q] a[href]`, first)))
	if _, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, click)); err != nil {
		t.Fatalf("click %s: %v", first, err)
	}
	waitFor(t, ctx, "the page of "+first, fmt.Sprintf(`document.getElementById("lab")?.dataset.example === %q`, first))
	waitReady(t, ctx)
}

// Rule (ARCHITECTURE.md): pages work without JavaScript: with scripts
// disabled, each page still shows the prerendered timeline of the native
// trace and the checks with their results.
func TestPagesWithoutJavaScript(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			_, tr := nativeTrace(t, ex)
			ctx, w := openTab(t, siteURL)
			if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
				t.Fatalf("disable scripts: %v", err)
			}
			navigate(t, ctx, pageURL(ex.Name))
			// DevTools evaluation still runs with the page's scripts
			// disabled; it only reads the prerendered DOM.
			for _, e := range compareTimeline(tr, readTimeline(t, ctx)) {
				t.Error(e)
			}
			got := evalJSON[map[string]string](t, ctx, checksJS)
			if want := checkResults(tr); !maps.Equal(got, want) {
				t.Errorf("checks table = %v, want %v", got, want)
			}
			// Scripts really were off: the wasm was never fetched and
			// nothing set data-ready.
			for _, u := range w.Requests() {
				if strings.HasSuffix(u, ".wasm") {
					t.Errorf("scripts disabled, yet the page fetched %s", u)
				}
			}
			if v := evalJSON[*string](t, ctx, `document.documentElement.dataset.ready ?? null`); v != nil {
				t.Errorf("scripts disabled, yet <html data-ready=%q>", *v)
			}
		})
	}
}

// Rule (ARCHITECTURE.md): no request leaves the origin (no CDN, fonts or
// analytics). The watcher of every tab fails on a foreign request; this test
// also proves it saw the page's real requests, on a cold cache. It reports
// two budgets it measures: navigation to ready under 1 s (reported only: a
// time depends on the machine), and under 1.5 MB compressed on the wire for
// a page that needs no SQLite (enforced: bytes do not).
func TestNoRequestLeavesTheOrigin(t *testing.T) {
	const budget = 1_500_000 // bytes on the wire, ARCHITECTURE.md budgets
	ctx, w := openTab(t, siteURL)
	// A cold load: the browser's cache is shared by every tab of the binary.
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, siteURL+"/")
	start := time.Now()
	navigate(t, ctx, pageURL(scenarioA))
	waitReady(t, ctx)
	t.Logf("navigation to ready (cold cache, localhost): %v (budget 1s)", time.Since(start).Round(time.Millisecond))
	reqs := w.Requests()
	for _, want := range []string{"/main.wasm", "/wasm_exec.js", "/app.js"} {
		if !slices.ContainsFunc(reqs, func(u string) bool { return strings.HasSuffix(u, want) }) {
			t.Errorf("the watcher saw no request for %s (saw %q)", want, reqs)
		}
	}
	for _, u := range reqs {
		if !w.allowedURL(u) {
			t.Errorf("request leaves the origin: %s", u)
		}
		// Scenario A needs neither SQLite nor the transcript importer:
		// paying for their binaries would break the transfer budget.
		if strings.HasSuffix(u, "/ledger.wasm") || strings.HasSuffix(u, "/import.wasm") {
			t.Errorf("scenario A's page loads %s", u)
		}
	}
	n := w.PageBytes(pageURL(scenarioA))
	if n < 100_000 {
		t.Errorf("page %s transferred %d bytes: the watcher missed the wasm download", scenarioA, n)
	}
	t.Logf("page %s transferred %d bytes compressed (budget %d)", scenarioA, n, budget)
	// Bytes are deterministic (same toolchain, same brotli), unlike times:
	// the transfer budget is enforced, the time budget only reported.
	if n > budget {
		t.Errorf("page %s transferred %d bytes compressed, over ARCHITECTURE.md's budget of %d for a page that needs no SQLite", scenarioA, n, budget)
	}
	// The import page loads import.wasm (the transcript importer, without
	// the playground) and nothing else of the simulator; it is under the
	// same budget.
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	if n := w.PageBytes(siteURL + "/import/"); n < 100_000 || n > budget {
		t.Errorf("the import page transferred %d bytes compressed, want the wasm and at most %d", n, budget)
	} else {
		t.Logf("page import transferred %d bytes compressed (budget %d)", n, budget)
	}
	var wasms []string
	for _, u := range w.Requests() {
		if strings.HasSuffix(u, ".wasm") {
			wasms = append(wasms, u[strings.LastIndexByte(u, '/')+1:])
		}
	}
	if !slices.Equal(wasms, []string{"main.wasm", "import.wasm"}) {
		t.Errorf("scenario A then the import page loaded %v, want main.wasm then import.wasm", wasms)
	}
}
