package site

// Browser tests of every page the site builds, at a laptop's width and a
// phone's: the page never scrolls sideways, what scrolls inside its own
// box shows a cue that it does, no text is cut off, every page begins
// with a skip link, every form control has a label of its own, and
// a review's result is on a phone's first screen.

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// sitePages lists the path of every HTML page of the built site (its
// index.html files; the 404 page names its files under the site's base
// URL, which only the served site has), with the playground opened on
// scenario A as its link does, sorted.
func sitePages(t *testing.T) []string {
	t.Helper()
	ensureSiteWritten(t)
	var paths []string
	err := filepath.WalkDir(siteDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, siteDir))
		if strings.HasSuffix(rel, "/index.html") {
			paths = append(paths, strings.TrimSuffix(rel, "index.html"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	for i, p := range paths {
		if p == "/playground/" {
			paths[i] = p + "#example=" + scenarioA
		}
	}
	if len(paths) < 100 {
		t.Fatalf("the built site has %d pages: the sweep would miss most of them", len(paths))
	}
	return paths
}

// sweepJS measures one page: its own sideways scroll; every box but an
// editor or a code block that scrolls sideways without a cue (a
// background that shadows its edges); every chart wider than its box,
// and on a phone the events table; every visible text cut off at the
// viewport's edge outside a scrolling box, and every chart text outside
// its chart; the first focusable element
// (the skip link) and its target; every form control with no label or a
// label another control has; and where a review's result begins.
const sweepJS = `(() => {
  const vis = (e) => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== "hidden";
  const W = document.documentElement.clientWidth;
  const scrolls = (e) => { const o = getComputedStyle(e).overflowX; return o === "auto" || o === "scroll"; };
  const name = (e) => (e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.classList.length ? "." + Array.from(e.classList).join(".") : ""));
  const out = {scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth, innerHeight: innerHeight,
    noCue: [], cut: [], wide: [], skip: "", skipTarget: false, unlabelled: [], shared: [], reviewTop: -1};
  const code = "textarea, pre, input, .cm-editor, .cm-editor *";
  for (const e of document.querySelectorAll("body *")) {
    if (!vis(e) || !scrolls(e) || e.scrollWidth <= e.clientWidth + 1 || e.matches(code)) continue;
    if (getComputedStyle(e).backgroundImage === "none") out.noCue.push(name(e));
  }
  const inScroller = (e) => { for (let p = e.parentElement; p; p = p.parentElement) if (scrolls(p) && p !== document.documentElement && p !== document.body) return true; return false; };
  for (const e of document.querySelectorAll("body *")) {
    if (!vis(e) || e.closest("svg") && e.tagName.toLowerCase() !== "svg") continue;
    const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own && e.tagName.toLowerCase() !== "svg") continue;
    const r = e.getBoundingClientRect();
    if ((r.right > W + 1 || r.left < -1) && !inScroller(e) && !e.closest(".skip-link, .visually-hidden")) out.cut.push(name(e) + " " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  for (const svg of document.querySelectorAll("svg.chart, svg.timeline")) {
    if (!vis(svg)) continue;
    const b = svg.getBoundingClientRect();
    const box = svg.closest(".timeline-scroll");
    if (box && b.width > box.clientWidth + 1) out.wide.push(name(svg) + " " + Math.round(b.width) + " px in " + box.clientWidth);
  }
  const events = document.querySelector("#events");
  if (events && vis(events) && W <= 600 && events.scrollWidth > events.parentElement.clientWidth + 1) out.wide.push("#events " + events.scrollWidth + " px in " + events.parentElement.clientWidth);
  for (const svg of document.querySelectorAll("svg.chart, svg.timeline")) {
    if (!vis(svg)) continue;
    const b = svg.getBoundingClientRect();
    for (const tx of svg.querySelectorAll("text")) {
      if (!vis(tx) || !tx.textContent.trim()) continue;
      const r = tx.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1) out.cut.push(name(svg) + " text " + JSON.stringify(tx.textContent.trim().slice(0, 30)) + " outside its chart");
    }
  }
  const first = document.querySelector("a[href], button, input, select, textarea, [tabindex]");
  if (first) {
    out.skip = first.matches("a.skip-link") ? first.textContent.trim() : name(first);
    const id = (first.getAttribute("href") || "").replace(/^#/, "");
    out.skipTarget = !!id && !!document.getElementById(id);
  }
  const labelOf = (e) => {
    if (e.getAttribute("aria-label")) return e.getAttribute("aria-label").trim();
    const by = e.getAttribute("aria-labelledby");
    if (by) return by.split(/\s+/).map((id) => document.getElementById(id)?.textContent.trim() ?? "").join(" ").trim();
    if (e.labels && e.labels.length) return Array.from(e.labels).map((l) => l.textContent.trim()).join(" ").trim();
    return (e.getAttribute("title") || "").trim();
  };
  const seen = new Map();
  for (const e of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    if (getComputedStyle(e).display === "none" || e.closest("[hidden]")) continue;
    const l = labelOf(e).replace(/\s+/g, " ");
    if (!l) { out.unlabelled.push(name(e)); continue; }
    if (seen.has(l)) out.shared.push(JSON.stringify(l) + ": " + seen.get(l) + " and " + name(e)); else seen.set(l, name(e));
  }
  const result = document.querySelector("#review-body .review-result");
  if (result && vis(result)) out.reviewTop = result.getBoundingClientRect().top + scrollY;
  return out;
})()`

type sweep struct {
	ScrollWidth, InnerWidth, InnerHeight float64
	NoCue, Cut, Wide                     []string
	Skip                                 string
	SkipTarget                           bool
	Unlabelled, Shared                   []string
	ReviewTop                            float64
}

// Rule (a page is read on a phone as on a laptop; WCAG 1.4.10 reflow,
// 2.4.1 bypass blocks, 2.4.6 labels): on every page of the site, at 1,280
// and at 390 px, the page does not scroll sideways; a box that scrolls
// sideways inside it shades the edge it scrolls to; every chart is drawn
// within its box (a phone gets a chart's phone layout, not a scroll), and
// so on a phone is the events table (its events as cards); no text is cut
// off at the screen's edge, nor a chart's text at its chart's; the first thing a keyboard reaches is a skip link to the
// page's main content; every form control has a label and no two share
// one; and on a review page the result begins on a 390 px phone's first
// screen.
func TestTruthEveryPageAtTwoWidths(t *testing.T) {
	pages := sitePages(t)
	for _, width := range []int64{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			// A tab for each sweepChunk pages: a tab's budget (tabTimeout)
			// holds that many on a loaded machine.
			for from := 0; from < len(pages); from += sweepChunk {
				chunk := pages[from:min(from+sweepChunk, len(pages))]
				t.Run(strings.Trim(chunk[0], "/"), func(t *testing.T) {
					ctx := prerenderedTab(t, width)
					for _, p := range chunk {
						navigate(t, ctx, siteURL+p)
						evalJSON[int](t, ctx, `document.querySelectorAll("details:not([open]):not(#pg-pick-list)").forEach(d => d.open = true) ?? 0`)
						checkSweep(t, p, width, evalJSON[sweep](t, ctx, sweepJS))
					}
				})
			}
		})
	}
}

// sweepChunk is how many pages one tab of the sweep measures.
const sweepChunk = 12

// prerenderedTab opens a tab width x 900 px wide whose pages run no
// script: each page is measured as the site prerenders it, which is what
// the simulator adopts on a scenario page (it re-renders only after an
// edit), without compiling 8 MB of WebAssembly per page. DevTools
// evaluation still runs.
func prerenderedTab(t *testing.T, width int64) context.Context {
	t.Helper()
	ctx, _ := openTab(t, siteURL)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatalf("disable scripts: %v", err)
	}
	return ctx
}

// checkSweep reports what sweepJS found wrong on page p at width.
func checkSweep(t *testing.T, p string, width int64, s sweep) {
	t.Helper()
	if s.ScrollWidth > s.InnerWidth {
		t.Errorf("%s at %d px scrolls sideways: %v px wide", p, width, s.ScrollWidth)
	}
	for _, what := range [][2]any{{"a box that scrolls sideways with no cue", s.NoCue}, {"text cut off", s.Cut},
		{"a chart (or on a phone the events table) wider than its box", s.Wide}, {"a control with no label", s.Unlabelled}, {"two controls with one label", s.Shared}} {
		if list := what[1].([]string); len(list) > 0 {
			t.Errorf("%s at %d px: %s: %s", p, width, what[0], strings.Join(list[:min(len(list), 6)], "; "))
		}
	}
	if !strings.HasPrefix(s.Skip, "Skip to") || !s.SkipTarget {
		t.Errorf("%s at %d px: the first focusable element is %q (target found: %v), want a skip link to the content", p, width, s.Skip, s.SkipTarget)
	}
	if strings.HasPrefix(p, "/review/") && width == 390 && (s.ReviewTop < 0 || s.ReviewTop > s.InnerHeight) {
		t.Errorf("%s at 390 px: the review's result begins %v px down, not on the first %v px", p, s.ReviewTop, s.InnerHeight)
	}
}
