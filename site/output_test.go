package site

// What a change does to #lab-output (wasm/output.go): the picture first,
// the tables after the next frame, patched in place.

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// outputStateJS reads, at the moment it runs, whether the tables wait
// (data-pending), and the HTML of the timeline and of the event table.
const outputStateJS = `(() => {
  const out = document.getElementById("lab-output");
  return {pending: out.dataset.pending ?? "", timeline: document.getElementById("timeline").outerHTML,
    events: document.getElementById("events").outerHTML};
})()`

type outputState struct {
	Pending  string `json:"pending"`
	Timeline string `json:"timeline"`
	Events   string `json:"events"`
}

// matchesFullRenderJS is true when the whole output on screen is, node
// for node, what a full render of the page's current scenario gives
// (mcplab.render), and says what differs otherwise.
const matchesFullRenderJS = `(() => {
  const r = mcplab.render(document.getElementById("scenario-json").textContent);
  if (r.error) return "render: " + r.error;
  const want = document.createElement("div");
  // As app.js roots the worker's rule links (<html data-root>).
  want.innerHTML = r.html.replaceAll('href="/rules/', 'href="' + document.documentElement.dataset.root + 'rules/');
  const got = document.getElementById("output");
  if (got.isEqualNode(want.firstElementChild)) return "same";
  for (let i = 0; i < Math.max(got.children.length, want.firstElementChild.children.length); i++) {
    const a = got.children[i], b = want.firstElementChild.children[i];
    if (!a || !b || !a.isEqualNode(b)) return "block " + i + " differs: " + (a ? a.outerHTML.slice(0, 120) : "missing") + " vs " + (b ? b.outerHTML.slice(0, 120) : "missing");
  }
  return "the wrapper's attributes differ";
})()`

// afterRedrawJS wraps a change (JS statements) in a promise that resolves
// with outputStateJS read at the first moment the element with id watch
// differs from before (a MutationObserver: in the same task as the patch,
// before any later one), or "timeout" after readyTimeout.
func afterRedrawJS(watch, change, read string) string {
	return fmt.Sprintf(`new Promise((resolve) => {
  const before = document.getElementById(%q).outerHTML;
  const mo = new MutationObserver(() => {
    if (document.getElementById(%q).outerHTML === before) return;
    mo.disconnect();
    resolve(%s);
  });
  mo.observe(document.getElementById("lab-output"), {subtree: true, childList: true, attributes: true, characterData: true});
  setTimeout(() => { mo.disconnect(); resolve(null); }, %d);
  %s
})`, watch, watch, read, readyTimeout.Milliseconds(), change)
}

// Rule: a change redraws the timeline as soon as the worker answers and
// leaves the tables to a later task (data-pending meanwhile); a burst of
// changes in one task ends, once nothing is pending, with the whole output
// exactly what a full render of the final scenario gives; the blocks are
// patched in place, so the element that had the focus (the event table's
// scroll region) still has it.
func TestChangeDrawsPictureThenTables(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(scenarioA))
	waitReady(t, ctx)
	if got := evalJSON[string](t, ctx, matchesFullRenderJS); got != "same" {
		t.Fatalf("after the first render: %s", got)
	}
	before := evalJSON[outputState](t, ctx, outputStateJS)

	// One change: read the page in the task that redraws the timeline.
	after := evalJSONAwait[*outputState](t, ctx, afterRedrawJS("timeline", `
  const el = document.querySelector('#lab-controls input[type=range]:not(:disabled)');
  el.focus();
  el.value = String(Number(el.value) + 7);
  el.dispatchEvent(new Event("input", {bubbles: true}));`, outputStateJS))
	if after == nil {
		t.Fatalf("the timeline never changed after the change")
	}
	if after.Pending != "1" {
		t.Errorf("when the timeline is redrawn data-pending = %q, want \"1\" (the tables wait for the next frame)", after.Pending)
	}
	if after.Events != before.Events {
		t.Errorf("the event table changed with the timeline; it should be drawn after the next frame")
	}
	waitFor(t, ctx, "the tables to be drawn", settledJS)
	if got := evalJSON[outputState](t, ctx, outputStateJS); got.Events == before.Events {
		t.Errorf("the event table never caught up with the change")
	}
	if got := evalJSON[string](t, ctx, matchesFullRenderJS); got != "same" {
		t.Errorf("after one change: %s", got)
	}

	// A burst: six changes in one task, with the event table's scroll
	// region focused. Only the last run may end up on screen.
	evalJSON[bool](t, ctx, `(() => {
  const region = document.getElementById("events").closest("[tabindex]");
  region.focus();
  window.focusedBefore = region;
  const el = document.querySelector('#lab-controls input[type=range]:not(:disabled)');
  for (let i = 0; i < 6; i++) {
    el.value = String(Number(el.value) + (i % 2 ? -3 : 5));
    el.dispatchEvent(new Event("input", {bubbles: true}));
  }
  return true;
})()`)
	waitFor(t, ctx, "the tables after the burst", settledJS)
	if got := evalJSON[string](t, ctx, matchesFullRenderJS); got != "same" {
		t.Errorf("after a burst of changes: %s", got)
	}
	if !evalJSON[bool](t, ctx, `document.activeElement === window.focusedBefore && document.body.contains(window.focusedBefore)`) {
		t.Errorf("the event table's scroll region lost the focus: now on %s", evalJSON[string](t, ctx, `document.activeElement?.outerHTML.slice(0, 80) ?? ""`))
	}
	if ms := evalJSON[string](t, ctx, `document.getElementById("lab-output").dataset.laterMs ?? ""`); ms == "" {
		t.Errorf("no data-later-ms after the tables were drawn")
	}
}

// Rule: on a phone the stylesheet shows the narrow timeline: a change
// redraws that one as soon as the worker answers and the hidden wide one
// after the next frame, and once nothing is pending both are what a full
// render gives.
func TestChangeDrawsTheTimelineOnScreenFirst(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(360, 800)); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, pageURL(scenarioA))
	waitReady(t, ctx)
	type timelines struct {
		Pending          string `json:"pending"`
		Wide, Narrow     string
		WideOn, NarrowOn bool
	}
	const read = `{pending: document.getElementById("lab-output").dataset.pending ?? "",
  Wide: document.getElementById("timeline").outerHTML, Narrow: document.getElementById("narrow-timeline").outerHTML,
  WideOn: document.getElementById("timeline").checkVisibility(), NarrowOn: document.getElementById("narrow-timeline").checkVisibility()}`
	before := evalJSON[timelines](t, ctx, `(`+read+`)`)
	if before.WideOn || !before.NarrowOn {
		t.Fatalf("at 360 px the wide timeline is shown %v, the narrow one %v; want only the narrow one", before.WideOn, before.NarrowOn)
	}
	// Twice: the first change asks which layout is on screen, the second
	// uses what the later task saw.
	for i, step := range []int{7, -3} {
		after := evalJSONAwait[*timelines](t, ctx, afterRedrawJS("narrow-timeline", `
  const el = document.querySelector('#lab-controls input[type=range]:not(:disabled)');
  el.value = String(Number(el.value) + (`+fmt.Sprint(step)+`));
  el.dispatchEvent(new Event("input", {bubbles: true}));`, "("+read+")"))
		if after == nil {
			t.Fatalf("change %d: the narrow timeline never changed", i+1)
		}
		if after.Pending != "1" || after.Narrow == before.Narrow || after.Wide != before.Wide {
			t.Errorf("change %d: right after it pending %q, narrow timeline changed %v, wide one changed %v; want pending, the narrow one redrawn, the wide one not yet",
				i+1, after.Pending, after.Narrow != before.Narrow, after.Wide != before.Wide)
		}
		waitFor(t, ctx, "the rest of the run", settledJS)
		if got := evalJSON[string](t, ctx, matchesFullRenderJS); got != "same" {
			t.Errorf("change %d, once drawn: %s", i+1, got)
		}
		before = evalJSON[timelines](t, ctx, `(`+read+`)`)
	}
}
