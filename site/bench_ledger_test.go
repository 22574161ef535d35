package site

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/site/internal/loadavg"
)

// TestMeasureLedgerPage reports the two performance budgets of a ledger lesson
// page (a scenario with a SQLite ledger, so it loads ledger.wasm), for
// `make bench`:
//
//   - navigation to ready (<html data-ready="1">, the first run in the
//     worker shown) on a cold browser cache, on localhost: budget 2 s.
//     The median of readyLoads navigations, each in a tab of its own
//     opened coldSettle before it (a tab's renderer starting is the
//     browser's work, not the page's) and closed after, once the browser
//     itself has started and settled; one navigation alone read 1.4-2.8 s
//     at load average 2-3 on 2 cores, the first after the browser started
//     the slowest;
//   - a control change to its frame once warm: budget 16 ms, from the
//     input event to the re-run's output patched into the page and laid
//     out, so it is painted in the frame after the change. "Once warm"
//     as for the lesson pages (changeToPaintJS): after five changes right
//     after ready, once the worker has warmed the page's run up
//     (mcplabEngine.warmed: V8 optimizes what has run often; at most 1.5 s
//     of the worker's time after ready, or 15 s at most) and a second
//     later, 21 changes 50 ms apart, each made at the start of a frame (in
//     a requestAnimationFrame callback), median; beside it the medians of
//     what it is made of: the worker's run and render (data-render-ms) and
//     showing it on the page (data-apply-ms); and, reported, the five
//     changes right after ready (ledgerChangeJS).
//
// Reported, not enforced: a time depends on the machine, whose load is
// printed beside it.
func TestMeasureLedgerPage(t *testing.T) {
	name := ""
	for _, ex := range examples.All() {
		if s, err := scenario.Decode(ex.JSON); err == nil && s.Ledger != nil {
			name = ex.Name
			break
		}
	}
	if name == "" {
		t.Fatal("no built-in scenario has a ledger")
	}
	// The browser started (by this test, when it runs alone) and settled.
	warm, _ := openTab(t, siteURL)
	navigate(t, warm, "about:blank")
	time.Sleep(coldSettle)
	loads := make([]time.Duration, 0, readyLoads)
	for i := range readyLoads {
		t.Run(fmt.Sprintf("cold-load-%d", i+1), func(t *testing.T) {
			ctx, _ := openTab(t, siteURL)
			if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(coldSettle)
			start := time.Now()
			navigate(t, ctx, pageURL(name))
			waitReady(t, ctx)
			loads = append(loads, time.Since(start))
		})
	}
	if len(loads) < readyLoads {
		t.Fatalf("%d of %d cold navigations reached ready", len(loads), readyLoads)
	}
	slices.Sort(loads)
	ready := loads[len(loads)/2]
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(name))
	waitReady(t, ctx)
	if wasm := evalJSON[string](t, ctx, `document.querySelector("[data-wasm]")?.dataset.wasm ?? ""`); wasm != "ledger.wasm" {
		t.Fatalf("page %s loads %q, want ledger.wasm", name, wasm)
	}
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[[5]float64](ledgerChangeJS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if ms[0] < 0 {
		t.Fatalf("page %s has no enabled range control to change", name)
	}
	warmed := evalJSON[string](t, ctx, `mcplabEngine.warmed ? mcplabEngine.warmed.runs + " runs, " + mcplabEngine.warmed.ms + " ms" : "not done within 15 s"`)
	verdict := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "OVER BUDGET"
	}
	var report strings.Builder
	fmt.Fprintf(&report, "\nperformance budgets, ledger lesson page s/%s/ (machine load %s):\n", name, loadavg.Read())
	fmt.Fprintf(&report, "  navigation to ready (cold cache)   %8.3f s   (budget <= 2 s)    %s\n", ready.Seconds(), verdict(ready <= 2*time.Second))
	fmt.Fprintf(&report, "    median of %d, each in a fresh tab: %.3f-%.3f s\n", readyLoads, loads[0].Seconds(), loads[len(loads)-1].Seconds())
	fmt.Fprintf(&report, "  the worker's warm-up after ready   %s\n", warmed)
	fmt.Fprintf(&report, "  warm change to frame               %8.1f ms  (budget <= 16 ms)  %s\n", ms[0], verdict(ms[0] <= 16))
	fmt.Fprintf(&report, "    of which: worker run+render %.1f ms, shown on the page %.1f ms; frames later %.0f\n", ms[1], ms[2], ms[3])
	fmt.Fprintf(&report, "  the first five changes after ready  %8.1f ms  (median; reported)\n", ms[4])
	t.Log(report.String())
}

// readyLoads is how many cold navigations TestMeasureLedgerPage times
// (their median is held to the 2 s budget); coldSettle is how long the
// browser, and each new tab, rest before one.
const (
	readyLoads = 5
	coldSettle = 500 * time.Millisecond
)

// ledgerChangeJS measures a ledger page's control changes the way the
// lesson pages' are measured (changeToPaintJS): five changes right after
// ready, each once the previous is wholly drawn, as a reader starts to
// drag; then once warm, for a reader who drags a slider after reading the
// page: the worker has repeated the page's run (worker.js's warm-up) and
// said so, and one second has passed (V8 compiles the optimized code of
// what ran, the page's own included, in the background), 21 changes 50 ms
// apart, each at the start of a frame. It nudges the page's first enabled
// range control by 1 (up, down, ...) and resolves with medians in
// milliseconds (or -1s when the page has no such control) of the 21: from
// the input event to the answer shown and laid out (#lab-output's
// data-render-ms set again by the page's apply, mcplabMorph done
// patching, layout forced with offsetHeight); the worker's data-render-ms;
// the page's data-apply-ms; how many frames began in between (0: the
// change is painted in the very next frame); and the first of those times
// over the five changes after ready.
const ledgerChangeJS = `(async () => {
  const el = document.querySelector('#lab-controls input[type=range]:not(:disabled)');
  const out = document.getElementById("lab-output");
  if (!el || !out) return [-1, -1, -1, -1, -1];
  const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
  let frames = 0;
  let counting = true;
  const tick = () => { frames++; if (counting) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const applied = () => new Promise((resolve, reject) => {
    const timer = setTimeout(() => { mo.disconnect(); reject(new Error("no answer within 10 s")); }, 10000);
    const mo = new MutationObserver(() => { mo.disconnect(); clearTimeout(timer); resolve(); });
    mo.observe(out, {attributes: true, attributeFilter: ["data-render-ms"]});
  });
  const settled = async () => {
    while (globalThis.mcplabMorph && mcplabMorph.busy) await new Promise((r) => requestAnimationFrame(r));
  };
  const change = async (i) => {
    const t0 = performance.now();
    const done = applied();
    el.value = String(Number(el.value) + (i % 2 ? -1 : 1));
    el.dispatchEvent(new Event("input", {bubbles: true}));
    await done;
    await settled();
    void document.body.offsetHeight;
    return performance.now() - t0;
  };
  const drawn = () => new Promise((r) => {
    if (out.dataset.pending === undefined) return r();
    const mo = new MutationObserver(() => { if (out.dataset.pending === undefined) { mo.disconnect(); r(); } });
    mo.observe(out, {attributes: true, attributeFilter: ["data-pending"]});
  });
  const first = [];
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    first.push(await change(i));
    await drawn();
  }
  // Once warm: the worker has repeated the page's run (worker.js's
  // warm-up, at most 1.5 s of its time) and said so, or 15 s have passed;
  // then a second.
  const t = performance.now();
  while (!(globalThis.mcplabEngine && mcplabEngine.warmed) && performance.now() - t < 15000) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 1000));
  const total = [], run = [], apply = [], later = [];
  for (let i = 5; i < 26; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    const f0 = frames;
    total.push(await change(i));
    later.push(frames - f0);
    run.push(Number(out.dataset.renderMs));
    apply.push(Number(out.dataset.applyMs));
    await new Promise((r) => setTimeout(r, 50));
  }
  counting = false;
  return [median(total), median(run), median(apply), median(later), median(first)];
})()`
