package site

// Tests of the "a layout that works from a phone-width iframe to a
// wide screen": every kind of page, at a phone's width and at a laptop's.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// layoutPages is one page of each kind: the index, a scenario page, a
// buffer page, the herd and backoff comparison, a ledger page, the
// playground, the import page, the review page and the two embed forms. lab says the page
// runs the wasm (it sets data-ready) and has a result and controls.
var layoutPages = []struct {
	name, path string
	wasm, lab  bool
}{
	{"index", "/", false, false},
	{"scenario", "/s/" + scenarioA + "/", true, true},
	{"buffer", "/s/buffer-reference-coalesce/", true, true},
	{"herd", "/s/herd-reference-backoff/", true, true},
	{"ledger", "/s/flagship-retry-charges-twice/", true, true},
	{"playground", "/playground/#example=" + scenarioA, true, true},
	{"import", "/import/", true, false},
	{"review", "/review/", false, false},
	{"embed", "/s/" + scenarioA + "/?embed=1", true, true},
	{"playground-embed", "/playground/?embed=1#example=" + scenarioA, true, true},
}

// openAt opens path in a fresh tab whose viewport is width x height CSS
// pixels (a desktop viewport: the page cannot widen it by overflowing, as
// a phone's would), waits until it is ready, and saves a screenshot of the
// first screen in $TMPDIR/mcplab-layout-NAME-WIDTH.png for a person to
// look at. Closed <details> are opened, so what they hold is measured too,
// except the playground's list of every built-in scenario (#pg-pick-list):
// a browsing list the reader opens by choice, 65 entries long, which opened
// pushes the run down by design (the picker's select above it is the quick
// way, and the headline must be on the first screen without it).
func openAt(t *testing.T, name, path string, wasm bool, width, height int64) context.Context {
	t.Helper()
	ctx, _ := openTab(t, siteURL)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, siteURL+path)
	if wasm {
		waitReady(t, ctx)
		// Measured once drawn: a page may still patch its output in slices
		// after ready (the import page's example: its timeline's children
		// come a frame at a time), and on a busy machine the CI run at
		// 075bf6f measured the phone timeline before its lane names were in.
		waitFor(t, ctx, "the output to be drawn", `!(globalThis.mcplabMorph && mcplabMorph.busy) && !(globalThis.mcplabEngine && mcplabEngine.busy)`)
	} else {
		waitFor(t, ctx, "the page to load", `document.readyState === "complete"`)
	}
	if shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
		file := filepath.Join(os.TempDir(), fmt.Sprintf("mcplab-layout-%s-%d.png", name, width))
		if err := os.WriteFile(file, shot, 0o644); err == nil {
			t.Logf("screenshot: %s", file)
		}
	}
	evalJSON[int](t, ctx, `document.querySelectorAll("details:not([open]):not(#pg-pick-list)").forEach(d => d.open = true) ?? 0`)
	return ctx
}

// phoneJS measures a page on a phone: the page's own horizontal overflow,
// the rendered size of the visible timeline's lane names (the box of the
// first, and its font size times the SVG's scale), the smallest effective
// font size of any visible text in any chart, and where the headline (each
// request's outcome and the check tally), the timeline and the controls
// begin.
const phoneJS = `(() => {
  const visible = (e) => e.getClientRects().length > 0 && e.getBoundingClientRect().height > 0;
  const px = (e) => parseFloat(getComputedStyle(e).fontSize) * Math.hypot(e.getScreenCTM().a, e.getScreenCTM().b);
  const timelines = Array.from(document.querySelectorAll("svg.timeline")).filter(visible);
  const label = timelines.length ? timelines[0].querySelector(".lane-label") : null;
  let small = null;
  for (const svg of document.querySelectorAll("svg.timeline, svg.chart")) {
    if (!visible(svg)) continue;
    for (const tx of svg.querySelectorAll("text")) {
      if (!visible(tx) || !tx.textContent.trim()) continue;
      const s = px(tx);
      if (!small || s < small.px) small = {px: s, text: tx.textContent.trim().slice(0, 40), chart: svg.id};
    }
  }
  const top = (sel) => { const e = document.querySelector(sel); return e && visible(e) ? e.getBoundingClientRect().top + scrollY : -1; };
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth, innerHeight: innerHeight,
    timelines: timelines.map(s => s.id),
    labelHeight: label ? label.getBoundingClientRect().height : 0,
    labelPx: label ? px(label) : 0,
    smallest: small,
    headlineTop: top(".output > .headline"), timelineTop: timelines.length ? timelines[0].getBoundingClientRect().top + scrollY : -1,
    controlsTop: top("#lab-controls"),
  };
})()`

type phoneLayout struct {
	ScrollWidth, InnerWidth, InnerHeight float64
	Timelines                            []string
	LabelHeight, LabelPx                 float64
	Smallest                             *struct {
		Px          float64
		Text, Chart string
	}
	HeadlineTop, TimelineTop, ControlsTop float64
}

// Rule: on a 360 px phone no page scrolls sideways (a wide chart
// or table scrolls inside its own region); the timeline shown is the
// narrow layout, its lane names at least 9 px tall, and no text of any
// visible chart renders under 9 px; on the scenario pages and the
// playground the headline (outcomes and check tally) is on the first
// screen, and the headline and the timeline come before the controls.
func TestLayoutPhone(t *testing.T) {
	const width, height = 360, 780
	for _, pg := range layoutPages {
		t.Run(pg.name, func(t *testing.T) {
			t.Parallel() // a tab each, two pages at a time (go test -parallel): the pages share nothing
			ctx := openAt(t, pg.name, pg.path, pg.wasm, width, height)
			l := evalJSON[phoneLayout](t, ctx, phoneJS)
			if l.InnerWidth != width {
				t.Fatalf("innerWidth %v, want the emulated %d", l.InnerWidth, width)
			}
			if l.ScrollWidth > l.InnerWidth {
				t.Errorf("the page scrolls sideways: scrollWidth %v > innerWidth %v", l.ScrollWidth, l.InnerWidth)
			}
			if !pg.wasm {
				return // the index has no timeline
			}
			if len(l.Timelines) != 1 || l.Timelines[0] != "narrow-timeline" {
				t.Errorf("visible timelines %q, want only the narrow one", l.Timelines)
			}
			if l.LabelHeight < 9 || l.LabelPx < 9 {
				t.Errorf("timeline lane name renders %.1f px tall at %.1f px, want >= 9", l.LabelHeight, l.LabelPx)
			}
			if s := l.Smallest; s == nil || s.Px < 8.95 {
				t.Errorf("smallest chart text %+v, want >= 9 px", s)
			}
			if !pg.lab {
				return
			}
			if l.HeadlineTop < 0 || l.HeadlineTop >= l.InnerHeight {
				t.Errorf("the headline starts at %v px, not on the first %v px screen", l.HeadlineTop, l.InnerHeight)
			}
			if l.ControlsTop >= 0 && (l.ControlsTop < l.HeadlineTop || l.ControlsTop < l.TimelineTop) {
				t.Errorf("controls at %v px come before the headline (%v) or the timeline (%v)", l.ControlsTop, l.HeadlineTop, l.TimelineTop)
			}
		})
	}
}

// wideJS lists every table wider than the box it sits in, and the page's
// own horizontal overflow.
const wideJS = `(() => {
  const over = [];
  for (const t of document.querySelectorAll("table")) {
    // The explore map's text equivalent is a grid with a column per sampled
    // value (64 on a lesson's map): it scrolls inside its own box by design.
    if (t.closest("details:not([open]), .explore-table")) continue;
    const box = t.parentElement;
    const w = t.getBoundingClientRect().width;
    if (w > box.clientWidth + 1) over.push((t.id || box.id || "table") + " " + Math.round(w) + " px in " + box.clientWidth + " px");
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth, over: over,
    timelines: Array.from(document.querySelectorAll("svg.timeline")).filter(s => s.getClientRects().length > 0).map(s => s.id)};
})()`

// Rule: on a 1280 px screen no table overflows its box (not even
// into its scrolling region), the page does not scroll sideways, and the
// scenario pages show the wide timeline.
func TestLayoutWide(t *testing.T) {
	for _, pg := range layoutPages {
		t.Run(pg.name, func(t *testing.T) {
			t.Parallel() // a tab each, two pages at a time (go test -parallel): the pages share nothing
			ctx := openAt(t, pg.name, pg.path, pg.wasm, 1280, 900)
			type wide struct {
				ScrollWidth, InnerWidth float64
				Over, Timelines         []string
			}
			w := evalJSON[wide](t, ctx, wideJS)
			if w.ScrollWidth > w.InnerWidth {
				t.Errorf("the page scrolls sideways: scrollWidth %v > innerWidth %v", w.ScrollWidth, w.InnerWidth)
			}
			if len(w.Over) > 0 {
				t.Errorf("tables wider than their box: %s", strings.Join(w.Over, "; "))
			}
			if pg.wasm && (len(w.Timelines) != 1 || w.Timelines[0] != "timeline") {
				t.Errorf("visible timelines %q, want only the wide one", w.Timelines)
			}
		})
	}
}

// labelPages are the page kinds of the layout rule: one of each,
// the durable-task page included (its labels once stacked over the
// arrows on a phone).
var labelPages = append(layoutPages[:len(layoutPages):len(layoutPages)],
	struct {
		name, path string
		wasm, lab  bool
	}{"task", "/s/task-cancel-ack-not-final/", true, true},
	struct {
		name, path string
		wasm, lab  bool
	}{"timeout", "/s/c-progress-then-maximum/", true, true},
)

// overlapJS lists the pairs of visible text labels of the visible
// timelines whose boxes overlap by more than 1 px both ways (lane names,
// arrow labels, marks, deadlines, check flags, keys, axis and legend), and
// the page's horizontal overflow.
const overlapJS = `(() => {
  const visible = (e) => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0;
  const boxes = [];
  for (const svg of document.querySelectorAll("svg.timeline")) {
    if (!visible(svg)) continue;
    for (const tx of svg.querySelectorAll("text")) {
      if (!visible(tx) || !tx.textContent.trim()) continue;
      const r = tx.getBoundingClientRect();
      boxes.push({svg: svg.id, text: tx.textContent.trim().slice(0, 40), l: r.left, r: r.right, t: r.top, b: r.bottom});
    }
  }
  const over = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.svg !== b.svg) continue;
    if (Math.min(a.r, b.r) - Math.max(a.l, b.l) > 1 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 1) over.push(a.svg + ": " + JSON.stringify(a.text) + " / " + JSON.stringify(b.text));
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth, labels: boxes.length, over: over};
})()`

// Rule ("pages that cannot silently break"): at 1,280 px and at
// 390 px, one page of each kind (index, scenario, playground, import,
// review, herd, task, embed) does not scroll sideways, and no two text
// labels of its timeline overlap.
func TestLayoutLabelsDoNotOverlap(t *testing.T) {
	for _, width := range []int64{1280, 390} {
		for _, pg := range labelPages {
			t.Run(fmt.Sprintf("%s-%d", pg.name, width), func(t *testing.T) {
				t.Parallel() // a tab each, two pages at a time (go test -parallel): the pages share nothing
				ctx := openAt(t, pg.name, pg.path, pg.wasm, width, 900)
				type result struct {
					ScrollWidth, InnerWidth float64
					Labels                  int
					Over                    []string
				}
				r := evalJSON[result](t, ctx, overlapJS)
				if r.ScrollWidth > r.InnerWidth {
					t.Errorf("the page scrolls sideways: scrollWidth %v > innerWidth %v", r.ScrollWidth, r.InnerWidth)
				}
				if pg.wasm && pg.name != "import" && r.Labels == 0 {
					t.Errorf("no timeline text found: the test would pass vacuously")
				}
				for _, o := range r.Over {
					t.Errorf("overlapping labels: %s", o)
				}
			})
		}
	}
}

// Rule (the time cursor): on scenario C's page the cursor is a
// keyboard-reachable range input; at value 420 (thousandths of the
// 2,400 ms run: 1,008 ms) the arrows sent after 1,008 ms fade (class
// future) and those sent before do not, and the output says how many had
// been sent and had arrived; at its right end nothing fades.
func TestTimeCursor(t *testing.T) {
	ctx := openAt(t, "cursor", "/s/c-progress-then-maximum/", true, 1280, 900)
	type state struct {
		Shown                  bool
		Future, Past           []int
		Out                    string
		FutureAtEnd, Focusable int
	}
	s := evalJSON[state](t, ctx, `(() => {
	  const input = document.getElementById("time-cursor");
	  const shown = input.getClientRects().length > 0;
	  input.focus();
	  const focusable = document.activeElement === input ? 1 : 0;
	  input.value = "420"; // 420/1000 of 2400 ms = 1008 ms (the input steps by 5)
	  input.dispatchEvent(new Event("input", {bubbles: true}));
	  const svg = document.getElementById("timeline");
	  const future = [], past = [];
	  for (const a of svg.querySelectorAll('[data-type="wire"]')) (a.classList.contains("future") ? future : past).push(Number(a.dataset.sentAt));
	  const out = document.getElementById("time-cursor-out").textContent;
	  input.value = input.max;
	  input.dispatchEvent(new Event("input", {bubbles: true}));
	  return {shown, future, past, out, futureAtEnd: svg.querySelectorAll(".future").length, focusable};
	})()`)
	if !s.Shown || s.Focusable != 1 {
		t.Fatalf("cursor shown %v, focusable %v: want a visible, focusable range input", s.Shown, s.Focusable)
	}
	for _, at := range s.Future {
		if at <= 1008 {
			t.Errorf("an arrow sent at %d ms fades at t = 1008 ms", at)
		}
	}
	for _, at := range s.Past {
		if at > 1008 {
			t.Errorf("an arrow sent at %d ms shows at t = 1008 ms", at)
		}
	}
	if len(s.Future) != 4 || len(s.Past) != 3 {
		t.Errorf("at 1008 ms %d arrows fade and %d show, want 4 (progress 1200, 1600, 1999, the cancel at 2000) and 3", len(s.Future), len(s.Past))
	}
	if s.Out != "at 1008 ms: 3 of 7 messages sent, 3 arrived" {
		t.Errorf("cursor output %q", s.Out)
	}
	if s.FutureAtEnd != 0 {
		t.Errorf("%d elements still fade with the cursor at the end", s.FutureAtEnd)
	}

	// Each request's state and next deadline at t (DOMAIN.md, timeouts:
	// progress resets the idle clock, the maximum does not move): scenario
	// C sends request 1 at 0 ms with idle 500 ms and max 2000 ms; progress
	// at 800 ms opens the idle window 800..1200 with expiry 1300 ms, so at
	// 1008 ms it is pending with idle in 292 ms and max in 992 ms; at
	// 2100 ms the maximum deadline has fired at 2000 ms and the server
	// marked it cancelled.
	at := func(v string) string {
		return evalJSON[string](t, ctx, `(() => {
		  const input = document.getElementById("time-cursor");
		  input.value = "`+v+`";
		  input.dispatchEvent(new Event("input", {bubbles: true}));
		  return [...document.querySelectorAll("#time-cursor-requests li")].map((li) => li.textContent).join(" | ");
		})()`)
	}
	if got, want := at("420"), "request 1: client pending, server working; next deadline: idle in 292 ms, max in 992 ms"; got != want {
		t.Errorf("requests at 1008 ms: %q, want %q", got, want)
	}
	if got, want := at("875"), "request 1: client timed out (max-timeout), server cancelled"; got != want {
		t.Errorf("requests at 2100 ms: %q, want %q", got, want)
	}

	// The buffer's depth at t: proxy-buffering-burst holds one progress
	// message at 210, 410, 610, 810 and 1010 ms and flushes them all at
	// 1210 ms when the stream ends (DOMAIN.md, proxy buffering), so at
	// 1100 ms the proxy holds 5 messages.
	bctx := openAt(t, "cursor-buffer", "/s/proxy-buffering-burst/", true, 1280, 900)
	depth := evalJSON[string](t, bctx, `(() => {
	  const input = document.getElementById("time-cursor"), end = Number(document.getElementById("timeline").dataset.endMs);
	  input.value = String(Math.ceil(1100 / end * 200) * 5);
	  input.dispatchEvent(new Event("input", {bubbles: true}));
	  const t = Math.round(Number(input.value) / 1000 * end);
	  return t > 1010 && t < 1210 ? document.getElementById("time-cursor-out").textContent : "t = " + t;
	})()`)
	if !strings.HasSuffix(depth, "; the proxy holds 5 messages") {
		t.Errorf("buffer at about 1100 ms: %q, want it to end \"; the proxy holds 5 messages\"", depth)
	}

	// Play advances the cursor from the start and Pause stops it.
	p := evalJSONAwait[struct{ Moved, Label, Paused string }](t, ctx, `(async () => {
	  const input = document.getElementById("time-cursor"), b = document.getElementById("time-cursor-play");
	  input.value = input.max;
	  b.click(); // at the end, Play starts from 0
	  const start = Number(input.value);
	  for (let i = 0; i < 200 && Number(input.value) <= start; i++) await new Promise((r) => requestAnimationFrame(r));
	  const moved = Number(input.value) > start && Number(input.value) < Number(input.max) ? "yes" : "no: " + input.value;
	  const label = b.textContent;
	  b.click();
	  const v = input.value;
	  for (let i = 0; i < 5; i++) await new Promise((r) => requestAnimationFrame(r));
	  return {moved, label, paused: input.value === v ? b.textContent : "still moving"};
	})()`)
	if p.Moved != "yes" || p.Label != "Pause" || p.Paused != "Play" {
		t.Errorf("play: moved %s, label while playing %q, after pause %q; want yes, Pause, Play", p.Moved, p.Label, p.Paused)
	}
}
