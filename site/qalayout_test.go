package site

// Browser tests of layout a reader found wrong: the task page's
// labels near 400 ms, the herd page's backoff chart on a phone.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// crossJS lists, for the visible timeline, each text label other than an
// arrow's own label (marks, deadlines, check flags) whose box, 1 px inside
// its edges, an arrow's shaft crosses, and the pairs of any of its text
// labels whose boxes overlap (overlapJS's rule), with the count of labels
// checked.
const crossJS = `(() => {
  const visible = (e) => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0;
  const svg = Array.from(document.querySelectorAll("svg.timeline")).find(visible);
  if (!svg) return null;
  const shafts = Array.from(svg.querySelectorAll("g.arrows line.shaft")).filter(visible).map((l) => {
    const m = l.getScreenCTM(), p = (x, y) => { const q = svg.createSVGPoint(); q.x = x; q.y = y; return q.matrixTransform(m); };
    const a = p(l.x1.baseVal.value, l.y1.baseVal.value), b = p(l.x2.baseVal.value, l.y2.baseVal.value);
    return {wire: l.closest("g.arrow").dataset.wire, a, b};
  });
  // crosses: does the segment a-b meet the rectangle r (Liang-Barsky)?
  const crosses = (s, r) => {
    let t0 = 0, t1 = 1;
    const dx = s.b.x - s.a.x, dy = s.b.y - s.a.y;
    for (const [p, q] of [[-dx, s.a.x - r.l], [dx, r.r - s.a.x], [-dy, s.a.y - r.t], [dy, r.b - s.a.y]]) {
      if (p === 0) { if (q < 0) return false; continue; }
      const t = q / p;
      if (p < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
    }
    return true;
  };
  const texts = Array.from(svg.querySelectorAll("text")).filter((t) => visible(t) && t.textContent.trim());
  const boxes = texts.map((t) => { const r = t.getBoundingClientRect(); return {el: t, text: t.textContent.trim().slice(0, 40), l: r.left + 1, r: r.right - 1, t: r.top + 1, b: r.bottom - 1}; });
  const out = {labels: boxes.length, crossed: [], overlap: []};
  for (const bx of boxes) {
    if (bx.el.closest(".arrow-label, .legend, .keys")) continue;
    for (const s of shafts) if (crosses(s, bx)) out.crossed.push(JSON.stringify(bx.text) + " by wire " + s.wire);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0) out.overlap.push(JSON.stringify(a.text) + " / " + JSON.stringify(b.text));
  }
  return out;
})()`

// Rule ("labels never cover arrows or each other at
// 1,280 px, 800 px and 390 px"; the task page's labels crowded near
// 400 ms, where the client polls, cancels and polls again): on the durable
// task page and on scenario A, at each of the three widths, no label of
// the visible timeline overlaps another, and no mark, deadline or flag
// label is crossed by an arrow.
func TestTimelineLabelsClearAtThreeWidths(t *testing.T) {
	for _, pg := range []struct{ name, path string }{
		{"task", "/s/task-cancel-ack-not-final/"},
		{"scenario", "/s/" + scenarioA + "/"},
	} {
		for _, width := range []int64{1280, 800, 390} {
			t.Run(fmt.Sprintf("%s-%d", pg.name, width), func(t *testing.T) {
				ctx := openAt(t, pg.name, pg.path, true, width, 900)
				type result struct {
					Labels           int
					Crossed, Overlap []string
				}
				r := evalJSON[*result](t, ctx, crossJS)
				if r == nil || r.Labels == 0 {
					t.Fatalf("no visible timeline with labels: the test would pass vacuously")
				}
				for _, c := range r.Crossed {
					t.Errorf("an arrow crosses the label %s", c)
				}
				for _, o := range r.Overlap {
					t.Errorf("overlapping labels: %s", o)
				}
			})
		}
	}
}

// Rule ("the herd backoff chart is cut off at 390 px"): on
// a 390 px phone the herd page shows one backoff chart, the narrow one,
// no wider than its box (nothing of it hidden to the right), with its
// text at least 9 px; at 1,280 px it shows the wide one alone. Screenshots
// are kept in $TMPDIR/mcplab-herd-backoff-WIDTH.png.
func TestHerdBackoffChartFitsPhone(t *testing.T) {
	for _, tc := range []struct {
		width int64
		want  string
	}{{390, "narrow-backoff-chart"}, {1280, "backoff-chart"}} {
		t.Run(fmt.Sprint(tc.width), func(t *testing.T) {
			ctx := openAt(t, "herd", "/s/herd-reference-backoff/", true, tc.width, 900)
			type result struct {
				Shown       []string
				Width, Box  float64
				SmallestPx  float64
				Attempts    int
				DrawnPoints int
			}
			r := evalJSON[result](t, ctx, `(() => {
  const visible = (e) => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0;
  const shown = Array.from(document.querySelectorAll("svg.backoff-chart")).filter(visible);
  const svg = shown[0];
  if (!svg) return {shown: []};
  const px = (e) => parseFloat(getComputedStyle(e).fontSize) * Math.hypot(e.getScreenCTM().a, e.getScreenCTM().b);
  return {
    shown: shown.map((s) => s.id),
    width: svg.getBoundingClientRect().width, box: svg.parentElement.clientWidth,
    smallestPx: Math.min(...Array.from(svg.querySelectorAll("text")).filter(visible).map(px)),
    attempts: Number(svg.dataset.attempts),
    drawnPoints: svg.querySelectorAll("[data-delay-ms]").length,
  };
})()`)
			evalJSON[bool](t, ctx, fmt.Sprintf(`(document.getElementById(%q)?.scrollIntoView({block: "center"}), true)`, tc.want))
			if shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
				file := filepath.Join(os.TempDir(), fmt.Sprintf("mcplab-herd-backoff-%d.png", tc.width))
				if err := os.WriteFile(file, shot, 0o644); err == nil {
					t.Logf("screenshot: %s", file)
				}
			}
			if len(r.Shown) != 1 || r.Shown[0] != tc.want {
				t.Fatalf("visible backoff charts %q, want only %s", r.Shown, tc.want)
			}
			if r.Width > r.Box+1 {
				t.Errorf("the backoff chart is %.0f px wide in a %.0f px box: its right part is cut off", r.Width, r.Box)
			}
			if r.SmallestPx < 8.95 {
				t.Errorf("the backoff chart's smallest text renders at %.1f px, want >= 9", r.SmallestPx)
			}
			if r.Attempts == 0 || r.DrawnPoints == 0 {
				t.Errorf("the chart draws %d attempts and %d draws", r.Attempts, r.DrawnPoints)
			}
			// The histogram's header ("… all back at 7,518 ms") is read
			// whole without scrolling: it ends inside its region's box.
			type header struct {
				Text        string
				Right, Edge float64
			}
			h := evalJSON[header](t, ctx, `(() => {
  const t = document.querySelector("#herd-chart .herd-header");
  if (!t) return {text: "", right: 0, edge: 0};
  let box = document.getElementById("herd-chart").parentElement;
  return {text: t.textContent, right: t.getBoundingClientRect().right, edge: box.getBoundingClientRect().right};
})()`)
			if !strings.HasSuffix(h.Text, "all back at 7,518 ms") || h.Right > h.Edge+1 {
				t.Errorf("herd header %q ends at %.0f px, its box at %.0f px: cut off", h.Text, h.Right, h.Edge)
			}
		})
	}
}

// wordsSplitJS lists the words of the requests table's cells and row
// headers that the browser broke inside (a word whose own range takes
// more than one line box), with the count of words looked at. Code and
// identifiers (ids, methods, tool names, the response's JSON) may break
// anywhere and are not looked at; they are measured for overflow instead:
// none may reach past its cell into the next column.
const wordsSplitJS = `(() => {
  const out = {words: 0, split: [], over: []};
  for (const cell of document.querySelectorAll("#requests tbody td, #requests tbody th")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, {acceptNode: (n) => n.parentElement.closest("code, .tool, .method") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    const box = cell.getBoundingClientRect();
    for (const c of cell.querySelectorAll("code, .tool, .method")) {
      for (const r of c.getClientRects()) if (r.right > box.right + 0.5) out.over.push(c.textContent);
    }
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.textContent.matchAll(/[A-Za-z]{4,}/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        out.words++;
        if (r.getClientRects().length > 1) out.split.push(m[0]);
      }
    }
  }
  return out;
})()`

// Rule (the Outcome column showed "cancellatio / n wins", and the
// task page's request id "tasks/cancel-2" ran into the Outcome column):
// the requests table breaks its cells' text between words, never inside a
// word of letters, and no id reaches past its cell, at 1,280 px and on a
// 390 px phone (where the table scrolls sideways in its region instead).
func TestRequestsTableBreaksBetweenWords(t *testing.T) {
	for _, c := range []struct{ name, path string }{
		{"scenario", "/s/" + scenarioA + "/"},
		{"final-dropped", "/s/broken-buffer-drops-final/"},
		{"task", "/s/task-cancel-ack-not-final/"},
	} {
		for _, width := range []int64{1280, 390} {
			t.Run(fmt.Sprintf("%s-%d", c.name, width), func(t *testing.T) {
				ctx := openAt(t, c.name, c.path, true, width, 900)
				type result struct {
					Words       int
					Split, Over []string
				}
				r := evalJSON[*result](t, ctx, wordsSplitJS)
				if r == nil || r.Words < 5 {
					t.Fatalf("the requests table has %v words of letters: the test would pass vacuously", r)
				}
				for _, w := range r.Split {
					t.Errorf("the word %q is broken across lines", w)
				}
				for _, c := range r.Over {
					t.Errorf("the code %q reaches past its cell into the next column", c)
				}
			})
		}
	}
}
