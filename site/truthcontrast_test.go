package site

// Browser test of contrast (WCAG 2.2 AA: 1.4.3 text, 1.4.11 non-text) in
// both themes, computed from the styles the browser applies.

import (
	"strings"
	"testing"
)

// contrastJS lists every visible text whose colour, against the
// background it is drawn on (the ancestors' background colours composited
// over the canvas, the text's opacity blended in), has a contrast ratio
// under 4.5:1, and every meaningful graphic of a chart or a timeline (an
// arrow's shaft, a mark, a check's badge) under 3:1, with the number of
// texts and graphics measured.
const contrastJS = `(() => {
  const vis = (e) => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== "hidden";
  const parse = (c) => {
    let m = c.match(/^rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:\s*[,/]\s*([\d.]+))?\)$/);
    if (m) return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]];
    m = c.match(/^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)$/);
    if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, m[4] === undefined ? 1 : +m[4]];
    return null;
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const dark = matchMedia("(prefers-color-scheme: dark)").matches && document.documentElement.dataset.theme !== "light" || document.documentElement.dataset.theme === "dark";
  const canvas = dark ? [0, 0, 0, 1] : [255, 255, 255, 1];
  const bgOf = (e) => {
    const chain = [];
    for (let p = e; p && p.nodeType === 1; p = p.parentElement) chain.push(p);
    let bg = canvas;
    for (const p of chain.reverse()) { const c = parse(getComputedStyle(p).backgroundColor); if (c && c[3] > 0) bg = over(c, bg); }
    return bg;
  };
  const opacity = (e) => { let o = 1; for (let p = e; p && p.nodeType === 1; p = p.parentElement) o *= parseFloat(getComputedStyle(p).opacity); return o; };
  const name = (e) => (e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.getAttribute("class") ? "." + e.getAttribute("class").trim().split(/\s+/).join(".") : ""));
  const out = {texts: 0, graphics: 0, low: []};
  const check = (e, colour, min, what) => {
    const c = parse(colour);
    if (!c || c[3] === 0) return;
    const bg = bgOf(e);
    const fg = over([c[0], c[1], c[2], c[3] * opacity(e)], bg);
    const r = ratio(fg, bg);
    if (r < min - 0.005) out.low.push(what + " " + name(e) + " " + JSON.stringify((e.textContent || "").trim().slice(0, 24)) + " " + colour + " on rgb(" + bg.slice(0, 3).map(Math.round) + "): " + r.toFixed(2) + ":1");
  };
  for (const e of document.querySelectorAll("body *")) {
    if (!vis(e) || e.closest(".visually-hidden, [aria-hidden=true] *") || e.matches("option, script, style")) continue;
    if (e.disabled || e.closest("fieldset:disabled, [disabled]")) continue;
    const svgText = e.closest("svg") && e.tagName.toLowerCase() === "text";
    const own = svgText ? !!e.textContent.trim() : Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (own) { out.texts++; check(e, svgText ? getComputedStyle(e).fill : getComputedStyle(e).color, 4.5, "text"); }
  }
  for (const e of document.querySelectorAll("svg.timeline line.shaft, svg.timeline .marks circle, svg.timeline .marks path, .badge")) {
    if (!vis(e)) continue;
    out.graphics++;
    if (e.classList.contains("badge")) { check(e.parentElement, getComputedStyle(e).backgroundColor, 3, "badge"); continue; }
    const s = getComputedStyle(e);
    check(e, s.stroke !== "none" ? s.stroke : s.fill, 3, "graphic");
  }
  return out;
})()`

// contrastPages are one page of each kind, the lessons with their own
// charts among them.
var contrastPages = []string{
	"/", "/s/" + scenarioA + "/", "/s/broken-late-response-fatal/", "/s/buffer-reference-coalesce/", "/s/herd-reference-backoff/",
	"/s/flagship-retry-charges-twice/", "/s/task-cancel-ack-not-final/", "/s/resume-keeps-position/", "/s/c-progress-then-maximum/",
	"/playground/#example=" + scenarioA, "/import/", "/review/", "/review/ledger-keyed-race/",
}

// Rule (WCAG 2.2 AA, 1.4.3 and 1.4.11): in the light and the dark theme
// (?theme=), every visible text of one page of each kind contrasts 4.5:1
// or more with the background it is drawn on, and every arrow, mark and
// check badge 3:1 or more, computed from the browser's computed styles.
func TestTruthContrastBothThemes(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			t.Parallel()
			ctx := prerenderedTab(t, 1280)
			for _, p := range contrastPages {
				navigate(t, ctx, siteURL+p)
				// boot.js sets data-theme from ?theme=; with scripts off
				// the test sets it as boot.js would.
				evalJSON[bool](t, ctx, `(document.documentElement.dataset.theme = `+string(mustJSON(t, theme))+`, true)`)
				type result struct {
					Texts, Graphics int
					Low             []string
				}
				r := evalJSON[result](t, ctx, contrastJS)
				if r.Texts == 0 || r.Graphics == 0 && strings.HasPrefix(p, "/s/") {
					t.Errorf("%s: %d texts and %d graphics measured: the test would pass vacuously", p, r.Texts, r.Graphics)
				}
				for _, l := range r.Low[:min(len(r.Low), 8)] {
					t.Errorf("%s (%s): %s", p, theme, l)
				}
				if len(r.Low) > 8 {
					t.Errorf("%s (%s): and %d more", p, theme, len(r.Low)-8)
				}
			}
		})
	}
}
