package site

// Tests of the worker: the engine runs in a Web Worker
// (site/static/worker.js, app.js's mcplabEngine), so no control change
// blocks the page, the newest input wins, and a run past its budget is
// stopped while the last good output stays.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
)

// longTaskBudgetMs is ARCHITECTURE.md's budget for one task of the main
// thread (ms): the PerformanceObserver "longtask" entry type reports every
// task above it.
const longTaskBudgetMs = 50

// longTaskMs is the longest task the main thread may run (ms) in these
// tests: MCPLAB_LONG_TASK_MS when set (`make bench` sets 50: the budget
// itself), else longTaskBudgetMs scaled by how contended the machine's
// cores are (loadScale). A long task is measured in wall-clock time, and
// on a shared machine the page's main thread gets only its share of a
// core: on this 2-core machine, at the load average of 20–30 that eight
// sessions building and testing at once produce, the same page showed
// tasks of 1.2–1.6 s that take about 100 ms alone (as
// measured: the chart's parse, its patch and its restyle). Scaling by
// the load keeps 50 ms of work the budget. But the 1-minute load average
// lags the contention of the moment, so the scaled budget has a floor,
// longTaskFloorMs. The same tasks are also held to their CPU time, which
// waiting for a core does not inflate (checkMainTaskCPU: 50 ms idle).
// Every task over 50 ms is logged either way, with the budget used.
func longTaskMs() (ms float64, why string) {
	if v := envInt("MCPLAB_LONG_TASK_MS", 0); v > 0 {
		return float64(v), "MCPLAB_LONG_TASK_MS"
	}
	scale, load := loadScale()
	return max(longTaskBudgetMs*scale, longTaskFloorMs), fmt.Sprintf("%d ms x %.1f (load average %.1f on %d cores), at least %d ms", longTaskBudgetMs, scale, load, runtime.NumCPU(), longTaskFloorMs)
}

// longTaskFloorMs is the least budget longTaskMs gives without
// MCPLAB_LONG_TASK_MS (ms): see there. Before the worker's fixes the same
// tests showed tasks of 1.2-3.9 s, and 380-688 ms after the first ones
// (at load averages of 19-35). Since the herd's small multiples became
// paths and large new blocks are added element by element (app.js's
// mcplabMorph), the longest measured 255-425 ms at load averages of
// 21-24, but once 1,055 ms at 27 for a task of 21 ms of CPU: in wall
// time this machine allows no tighter floor, so the tight budget is the
// CPU time's (checkMainTaskCPU).
const longTaskFloorMs = 800

// loadScale is how many times longer than alone a task of the page takes
// on this machine now: the 1-minute load average over the number of
// cores, at least 1 (1 where /proc/loadavg cannot be read), and the load.
func loadScale() (scale, load float64) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1, 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 1, 0
	}
	load, err = strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 1, 0
	}
	return max(1, load/float64(runtime.NumCPU())), load
}

// envInt reads a positive integer from the environment, else def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// watchLongTasksJS starts recording the page's long tasks (durations in ms
// into window.longTasks); false when the browser cannot report them.
const watchLongTasksJS = `(() => {
  if (!PerformanceObserver.supportedEntryTypes.includes("longtask")) return false;
  window.longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(Math.round(e.duration)); }).observe({type: "longtask"});
  return true;
})()`

// watchLongTasks starts the long-task record in the current page.
func watchLongTasks(t *testing.T, ctx context.Context) {
	t.Helper()
	if !evalJSON[bool](t, ctx, watchLongTasksJS) {
		t.Fatal("this Chromium reports no longtask entries: the test cannot see a blocked page")
	}
}

// checkNoLongTask fails the test for every task over longTaskMs recorded
// since watchLongTasks.
func checkNoLongTask(t *testing.T, ctx context.Context, during string) {
	t.Helper()
	// One round trip later every entry observed so far is delivered.
	evalJSON[int](t, ctx, `1`)
	long := evalJSON[[]int](t, ctx, `window.longTasks`)
	budget, why := longTaskMs()
	t.Logf("%s: the main thread ran %d tasks over 50 ms: %v ms (budget %.0f ms: %s)", during, len(long), long, budget, why)
	var over []int
	for _, ms := range long {
		if float64(ms) > budget {
			over = append(over, ms)
		}
	}
	if len(over) > 0 {
		t.Errorf("%s: the main thread ran %d tasks over %.0f ms (%s): %v ms", during, len(over), budget, why, over)
	}
}

// settledJS is true once the engine worker has nothing to do and the
// output has nothing left to draw.
const settledJS = `!mcplabEngine.busy && !mcplabMorph.busy && document.getElementById("lab-output")?.dataset.pending === undefined`

// navigationDelayMs is how long after a click on the site's brand link
// (home) the next page may start being shown (ms): a page whose main
// thread is free follows a link at once; a blocked one did not for up to
// 53 s.
const navigationDelayMs = 2000

// clickHomePromptly clicks the brand link (the home page, no simulator)
// while the page is busy with heavy work (a run in the worker or a large
// block being parsed or patched: the test fails if nothing is in flight,
// since then the click proves nothing), and fails the test unless the
// home page's document was interactive within navigationDelayMs of the
// click (timestamps from the browser's clock, kept in sessionStorage
// across the navigation).
func clickHomePromptly(t *testing.T, ctx context.Context) {
	t.Helper()
	if !evalJSON[bool](t, ctx, `(() => {
  const busy = mcplabEngine.busy || mcplabMorph.busy;
  sessionStorage.clickedAt = String(performance.timeOrigin + performance.now());
  document.querySelector("a.brand").click();
  return busy;
})()`) {
		t.Errorf("the link was clicked while the page had no work in flight: the click does not prove the page responsive under load")
	}
	// The page goes away under the poll: poll again in the new document.
	deadline := time.Now().Add(readyTimeout)
	for {
		ok, err := pollJS[bool](ctx, `document.readyState !== "loading" && !document.querySelector("[data-wasm]") && !!sessionStorage.clickedAt`, readyTimeout)
		if err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the home page never came after the click: %v", err)
		}
	}
	delay := evalJSON[float64](t, ctx, `performance.timeOrigin + performance.getEntriesByType("navigation")[0].domInteractive - Number(sessionStorage.clickedAt)`)
	t.Logf("click to the next page interactive: %.0f ms", delay)
	if delay > navigationDelayMs {
		t.Errorf("the link click took %.0f ms to show the next page, want at most %d ms", delay, navigationDelayMs)
	}
}

// Rule: the heaviest herd the decoder allows (100,000
// clients x 10 attempts, every strategy compared) never blocks the page:
// 20 quick edits of the client count each return from their input event
// within longTaskMs, no task of the page exceeds it nor uses more than
// mainTaskCPUMs of the main thread's CPU (50 ms idle), the run on screen at
// the end is the newest edit's (the native engine's peak for it), and a
// link clicked while a run is in flight navigates at once.
func TestHeaviestHerdNeverBlocksThePage(t *testing.T) {
	ctx, ex := chartPage(t, "herd-reference-backoff", readyTimeout)
	watchLongTasks(t, ctx)
	stopTrace := traceMainThread(t, ctx)
	const last = 100_000 - 19
	handlers := evalJSONAwait[[]float64](t, ctx, `(async () => {
  const el = document.querySelector('[data-path="herd.clients"]');
  const took = [];
  for (let i = 0; i < 20; i++) {
    el.value = String(100000 - i);
    const t0 = performance.now();
    el.dispatchEvent(new Event("input", {bubbles: true}));
    took.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 30));
  }
  return took;
})()`)
	budget, why := longTaskMs()
	for i, ms := range handlers {
		if ms > budget {
			t.Errorf("edit %d: the input event took %.1f ms on the main thread, want at most %.0f (%s)", i+1, ms, budget, why)
		}
	}
	waitFor(t, ctx, "the last edit's run on screen", settledJS+` && !document.getElementById("lab-output").dataset.stale`)
	want := nativeEdited(t, ex, chartEdit{"herd.clients", scenario.ValueInteger, fmt.Sprint(last)}).Herd.PeakPerBucket
	if got := evalJSON[herdAttrs](t, ctx, herdAttrsJS); got.Peak != want {
		t.Errorf("after the edits the herd chart's peak is %d, want %d (the native run of the newest edit, %d clients)", got.Peak, want, last)
	}
	checkNoLongTask(t, ctx, "20 edits of the heaviest herd")
	checkMainTaskCPU(t, stopTrace(), "20 edits of the heaviest herd")
	// One more heavy run in flight, then leave.
	setControl(t, ctx, "herd.clients", "99999")
	clickHomePromptly(t, ctx)
}

// longTranscript is a go-sdk style server log of lines lines (an even
// number >= 2): initialize, then tools/call requests and their results.
func longTranscript(lines int) string {
	var b strings.Builder
	b.WriteString(`read: {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{},"clientInfo":{"name":"c","version":"1"},"protocolVersion":"2025-06-18"}}` + "\n")
	b.WriteString(`write: {"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"protocolVersion":"2025-06-18","serverInfo":{"name":"s","version":"1"}}}` + "\n")
	for i := 1; i < lines/2; i++ {
		fmt.Fprintf(&b, `read: {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"work","arguments":{}}}`+"\n", i)
		fmt.Fprintf(&b, `write: {"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"ok"}]}}`+"\n", i)
	}
	return b.String()
}

// Rule: a 20,000-line transcript pasted into the import
// page keeps the page responsive: no task over longTaskMs while it is
// pasted (kept out of the textarea, whose own layout of 2 MB would hold
// the page for seconds), judged, shown in windows of 250 events with a
// pager, paged, and judged again, and no task uses more than mainTaskCPUMs
// of the main thread's CPU (50 ms idle); the page shows its first window with
// the whole trace's count, and a link clicked while it is judged again
// navigates at once.
func TestImportLongTranscriptStaysResponsive(t *testing.T) {
	const lines = 20_000
	text := longTranscript(lines)
	native, err := transcript.Import([]byte(text), transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	total := len(native.Events)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	// The clipboard's text reaches the page in pieces first: evaluating
	// one 2 MB literal would itself be a long task of the page.
	evalJSON[bool](t, ctx, `(window.pasted = "", true)`)
	for at := 0; at < len(text); at += 64 << 10 {
		piece, _ := json.Marshal(text[at:min(len(text), at+64<<10)])
		evalJSON[bool](t, ctx, `(window.pasted += `+string(piece)+`, true)`)
	}
	// So is the clipboard itself: the browser fills it before a paste's
	// task (DataTransfer's copy of 2 MB was 20-30 ms of this thread).
	evalJSON[bool](t, ctx, `(() => {
  window.clipboard = new DataTransfer();
  window.clipboard.setData("text/plain", window.pasted);
  document.getElementById("imp-input").focus();
  return true;
})()`)
	watchLongTasks(t, ctx)
	stopTrace := traceMainThread(t, ctx)
	if !evalJSON[bool](t, ctx, `(() => {
  const e = document.getElementById("imp-input");
  return !e.dispatchEvent(new ClipboardEvent("paste", {clipboardData: window.clipboard, bubbles: true, cancelable: true}));
})()`) {
		t.Fatal("the page let the browser put the 20,000-line paste in the textarea")
	}
	window := func(first, last int) string {
		return fmt.Sprintf(`document.getElementById("imp-window-text")?.textContent.startsWith("Events %d–%d of %d,")`, first, last, total)
	}
	// While it is judged, the result on screen (the example's) is marked
	// stale and busy, and the status says what is being judged; the box
	// counts its lines as the engine does.
	waitFor(t, ctx, "the page to say it is judging the transcript", `document.getElementById("lab-status").textContent === "Judging 20,000 lines in your browser…"`)
	if !evalJSON[bool](t, ctx, `(() => { const r = document.getElementById("imp-result"); return r.dataset.stale === "1" && r.getAttribute("aria-busy") === "true"; })()`) {
		t.Error("while the transcript is judged, #imp-result is not marked data-stale and aria-busy")
	}
	if ph := evalJSON[string](t, ctx, `document.getElementById("imp-input").placeholder`); !strings.HasPrefix(ph, "A transcript of 20,000 lines (") {
		t.Errorf("the box says %q, want \"A transcript of 20,000 lines (...\"", ph)
	}
	waitFor(t, ctx, "the first window of the transcript", settledJS+" && "+window(1, 250))
	if evalJSON[bool](t, ctx, `(() => { const r = document.getElementById("imp-result"); return r.dataset.stale !== undefined || r.hasAttribute("aria-busy") || document.getElementById("lab-status").textContent.startsWith("Judging"); })()`) {
		t.Error("judged, #imp-result is still marked stale or busy, or the status still says it is judging")
	}
	if n := evalJSON[int](t, ctx, `document.querySelectorAll("#events tbody tr").length`); n != 250 {
		t.Errorf("the event table shows %d rows, want one window of 250", n)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("imp-window-next"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the second window", settledJS+" && "+window(251, 500)+` && !!document.getElementById("event-250")`)
	// Judged again: the side changes (the window stays).
	evalJSON[bool](t, ctx, `(() => { const s = document.getElementById("imp-side"); s.value = "server"; s.dispatchEvent(new Event("change", {bubbles: true})); return mcplabEngine.busy; })()`)
	waitFor(t, ctx, "the transcript judged again", settledJS+" && "+window(251, 500))
	checkNoLongTask(t, ctx, "pasting, judging and paging a 20,000-line transcript")
	checkMainTaskCPU(t, stopTrace(), "pasting, judging and paging a 20,000-line transcript")
	// Judged again (the side goes back to inferred), and leave while it runs.
	evalJSON[bool](t, ctx, `(() => { const s = document.getElementById("imp-side"); s.value = ""; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	clickHomePromptly(t, ctx)
}

// Rule: a run that takes longer than the page's budget
// (mcplabEngine.budgetMs) is stopped: the page says so where the output
// is (#lab-error, #lab-output data-stopped), the last good output stays
// on screen, and the next change runs in a fresh worker.
func TestRunawayRunIsStopped(t *testing.T) {
	ctx, ex := chartPage(t, "herd-reference-backoff", readyTimeout)
	before := evalJSON[herdAttrs](t, ctx, herdAttrsJS)
	// 100,000 clients under every strategy take far longer than 1 ms.
	evalJSON[bool](t, ctx, `(mcplabEngine.budgetMs = 1, true)`)
	setControl(t, ctx, "herd.clients", "100000")
	waitFor(t, ctx, "the run to be stopped", `document.getElementById("lab-output").dataset.stopped === "1" && !document.getElementById("lab-error").hidden`)
	msg := evalJSON[string](t, ctx, `document.getElementById("lab-error").textContent`)
	if !strings.Contains(msg, "stopped") || !strings.Contains(msg, "last run that finished") {
		t.Errorf("#lab-error says %q, want that the run was stopped and the last finished run is shown", msg)
	}
	if got := evalJSON[herdAttrs](t, ctx, herdAttrsJS); got.Peak != before.Peak || got.Strategy != before.Strategy {
		t.Errorf("after the stopped run the herd chart shows peak %d (%s), want the last good run's %d (%s)", got.Peak, got.Strategy, before.Peak, before.Strategy)
	}
	if n := evalJSON[int](t, ctx, `mcplabEngine.restarts`); n != 1 {
		t.Errorf("mcplabEngine.restarts = %d, want 1 (the stopped worker replaced)", n)
	}
	// A fresh worker runs the next change, within the usual budget.
	evalJSON[bool](t, ctx, `(mcplabEngine.budgetMs = 20000, true)`)
	setControl(t, ctx, "herd.clients", "20000")
	waitFor(t, ctx, "the next run", settledJS+` && document.getElementById("lab-output").dataset.stopped === undefined && document.getElementById("lab-error").hidden`)
	want := nativeEdited(t, ex, chartEdit{"herd.clients", scenario.ValueInteger, "20000"}).Herd.PeakPerBucket
	if got := evalJSON[herdAttrs](t, ctx, herdAttrsJS); got.Peak != want {
		t.Errorf("after the fresh worker's run the peak is %d, want %d (native, 20,000 clients)", got.Peak, want)
	}
}

// evalJSONAwait evaluates expr (a promise) in the page and decodes what it
// resolves to into T.
func evalJSONAwait[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}
