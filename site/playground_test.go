package site

// Tests of the playground in the browser: edit, share, reopen;
// broken links and markup in titles; the keyboard alone; and the page
// measures make bench prints (TestMeasurePages). Share links without a
// browser are in links_test.go.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// playgroundURL is the playground's URL with a fragment.
func playgroundURL(fragment string) string { return siteURL + "/playground/" + fragment }

// eventsTextJS reads the event table as text.
const eventsTextJS = `document.getElementById("events").innerText`

// editorValue reads the playground's editor.
const editorValue = `document.getElementById("pg-editor").value`

// typeInto replaces the text of the focused-by-selector field the way
// pasting does: focus, select all, insert the text (Input.insertText fires
// the input event a real paste fires). A textarea the playground's code
// editor replaced (data-code-editor) is pasted into through that editor:
// focus, Ctrl+A, then the paste event a real paste fires, which the editor
// handles itself.
func typeInto(t *testing.T, ctx context.Context, sel, text string) {
	t.Helper()
	selJS, _ := json.Marshal(sel)
	switch evalJSON[string](t, ctx, fmt.Sprintf(`(() => {
  const e = document.querySelector(%s);
  if (!e || e.disabled) return "";
  const cm = e.dataset.codeEditor && e.parentElement.querySelector(".code-editor .cm-content");
  if (cm) { cm.focus(); return "code-editor"; }
  e.focus(); e.select(); return "field";
})()`, selJS)) {
	case "":
		t.Fatalf("no enabled field %s", sel)
	case "code-editor":
		if err := chromedp.Do(ctx, chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
			t.Fatalf("select all in the code editor: %v", err)
		}
		textJS, _ := json.Marshal(text)
		if !evalJSON[bool](t, ctx, fmt.Sprintf(`(() => {
  const data = new DataTransfer();
  data.setData("text/plain", %s);
  return !document.activeElement.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true}));
})()`, textJS)) {
			t.Fatalf("the code editor of %s did not take the paste", sel)
		}
		return
	}
	if _, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		t.Fatalf("insert text into %s: %v", sel, err)
	}
}

// Rule: every state change rewrites the fragment to the
// canonical #s= link, so the address bar is a working share link: edit a
// scenario in the playground, take the URL, open it in a fresh tab and get
// the identical trace (the native engine's, byte for byte) and checks.
func TestPlaygroundEditShareReopen(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	if got := evalJSON[string](t, ctx, editorValue); got != string(ex.JSON) {
		t.Fatalf("#example=%s opened %.80q, want the example's file", scenarioA, got)
	}
	waitFor(t, ctx, "the canonical #s= link", `location.hash.startsWith("#s=")`)

	// Edit the JSON: the cancellation moves past the completion.
	cancelStep, cancelAt := stepIndex(t, ex.JSON, "cancel")
	_, completeAt := stepIndex(t, ex.JSON, "complete")
	edited, err := scenario.SetPath(ex.JSON, fmt.Sprintf("steps[%d].at", cancelStep), json.RawMessage(fmt.Sprint(completeAt+5)))
	if err != nil {
		t.Fatal(err)
	}
	before := evalJSON[string](t, ctx, `location.href`)
	typeInto(t, ctx, "#pg-editor", string(edited))
	waitFor(t, ctx, "the address bar to change", fmt.Sprintf(`location.href !== %q`, before))
	waitFor(t, ctx, "the outcome to flip", `document.querySelector("#outcome-0")?.dataset.outcome === "completion-wins"`)
	link := evalJSON[string](t, ctx, `location.href`)
	if got := evalJSON[string](t, ctx, `document.getElementById("pg-link").value`); got != link {
		t.Errorf("#pg-link = %q, the address bar says %q", got, link)
	}
	// The link carries the text as typed (its layout and member order).
	frag := scenario.ShareText(edited)
	if !strings.HasSuffix(link, "#"+frag) {
		t.Fatalf("address bar %s, want the link of the text as typed #%s", link, frag)
	}
	_ = cancelAt
	firstChecks := evalJSON[map[string]string](t, ctx, checksJS)

	firstEvents := evalJSON[string](t, ctx, eventsTextJS)

	// A fresh tab opens the link and shows the same run: the trace of the
	// scenario the link carries (its canonical JSON), byte for byte as the
	// native engine computes it, drawn as in the editing tab.
	l, err := scenario.ParseLink(link)
	if err != nil {
		t.Fatal(err)
	}
	want, tr := nativeTrace(t, examples.Example{Name: "edited", JSON: l.Scenario})
	ctx2, _ := openTab(t, siteURL)
	navigate(t, ctx2, link)
	waitReady(t, ctx2)
	got := wasmRun(t, ctx2, []byte(evalJSON[string](t, ctx2, editorValue)))
	if got.Error != nil || got.Trace != string(want) {
		t.Fatalf("the reopened link runs to another trace (error %v, %d vs %d bytes, first difference at %d)", got.Error, len(got.Trace), len(want), firstDiff(got.Trace, string(want)))
	}
	if c := evalJSON[map[string]string](t, ctx2, checksJS); !maps.Equal(c, firstChecks) {
		t.Errorf("checks in the fresh tab %v, in the editing tab %v", c, firstChecks)
	}
	if e := evalJSON[string](t, ctx2, eventsTextJS); e != firstEvents {
		t.Errorf("the event table differs between the editing tab and the fresh tab (first difference at %d)", firstDiff(e, firstEvents))
	}
	for _, e := range compareTimeline(tr, readTimeline(t, ctx2)) {
		t.Error(e)
	}
	if h := evalJSON[string](t, ctx2, `location.href`); h != link {
		t.Errorf("the reopened page rewrote its link:\n got %s\nwant %s", h, link)
	}
}

// Rule (Hostile input, embed mode; README: a damaged link shows
// no run at all, only why): a broken link in an iframe says why, shows no
// run (not the default scenario's: "Nothing has run yet") and speaks of
// no editor or address bar, which an embedded page does not show; the
// page stays ready.
func TestEmbedBrokenLink(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/playground/?embed=1&theme=dark#s=garbage")
	waitReady(t, ctx)
	msg := evalJSON[string](t, ctx, `document.getElementById("lab-error").textContent`)
	ex := examplestest.Get(t, scenarioA)
	if !strings.HasPrefix(msg, "This link cannot be opened: ") || strings.Contains(msg, ex.Title) ||
		strings.Contains(msg, "editor") || strings.Contains(msg, "address bar") {
		t.Errorf("embedded broken link says %q, want the cause, not the default %q, no editor or address bar", msg, ex.Title)
	}
	shown := evalJSON[[2]string](t, ctx, `[document.getElementById("pg-nothing")?.textContent ?? "", String(document.querySelectorAll("#lab-output [id^=outcome-], #lab-output #events").length)]`)
	if !strings.HasPrefix(shown[0], "Nothing has run yet. This link cannot be opened: ") || shown[1] != "0" {
		t.Errorf("embedded broken link: #pg-nothing says %q, %s output blocks; want \"Nothing has run yet. This link cannot be opened: ...\" and no run", shown[0], shown[1])
	}
}

// Rule (Hostile input): a broken link gives a clear message on the
// page and the page stays alive: ready, and the editor still re-runs.
func TestPlaygroundHostileLinks(t *testing.T) {
	for _, tc := range hostileLinks {
		t.Run(tc.name, func(t *testing.T) {
			ctx, _ := openTab(t, siteURL)
			frag := tc.link[strings.IndexByte(tc.link, '#'):]
			navigate(t, ctx, playgroundURL(frag))
			waitReady(t, ctx)
			// The link's own error, or the scenario's, located in the editor.
			msg := evalJSON[string](t, ctx, `[document.getElementById("lab-error"), document.getElementById("pg-error")].filter(e => !e.hidden).map(e => e.textContent).join(" | ")`)
			if !strings.Contains(msg, tc.want) {
				t.Errorf("the page says %q, want it to mention %q", msg, tc.want)
			}
			// A link that cannot be opened stays in the address bar, so a
			// reload shows the same error (only a valid link is rewritten).
			if h := evalJSON[string](t, ctx, `location.hash`); strings.HasPrefix(msg, "This link cannot be opened") && h != frag {
				t.Errorf("the broken link was replaced in the address bar by %.60q", h)
			}
			// Still alive: a valid scenario typed into the editor runs.
			ex := examplestest.Get(t, "d-cancel-on-streamable-http")
			typeInto(t, ctx, "#pg-editor", string(ex.JSON))
			waitFor(t, ctx, "a fresh run of scenario D", `document.getElementById("pg-error").hidden && !document.getElementById("lab-output").dataset.stale && !!document.querySelector('#timeline [data-signal="close-stream"], #timeline [data-type="close-stream"]')`)
		})
	}
}

// Rule: scenario text is escaped everywhere: a title full of
// markup shows as text in the page, the embed snippets and the download
// name, and runs no script.
func TestPlaygroundMarkupTitleIsText(t *testing.T) {
	const title = `<img src=x onerror="document.title='pwned'"><b id=injected>bold</b></p><script>window.pwned=1</script>`
	ex := examplestest.Get(t, scenarioA)
	doc, err := scenario.SetPath(ex.JSON, "title", mustJSON(t, title))
	if err != nil {
		t.Fatal(err)
	}
	doc, err = scenario.SetPath(doc, "notes", mustJSON(t, `<i id=injected-notes>notes</i>`))
	if err != nil {
		t.Fatal(err)
	}
	frag, err := scenario.ShareFragment(doc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#"+frag))
	waitReady(t, ctx)
	if got := evalJSON[string](t, ctx, `document.getElementById("pg-title").textContent`); got != title {
		t.Errorf("#pg-title shows %q, want the title as text %q", got, title)
	}
	if n := evalJSON[int](t, ctx, `document.querySelectorAll("#injected, #injected-notes, #pg-title *").length + (window.pwned ? 100 : 0) + (document.title === "pwned" ? 1000 : 0)`); n != 0 {
		t.Errorf("the title's markup became elements or ran (%d)", n)
	}
	snippet := evalJSON[string](t, ctx, `document.getElementById("pg-embed").value`)
	if strings.Contains(snippet, "<img") || !strings.Contains(snippet, "&lt;img") {
		t.Errorf("the HTML embed snippet does not escape the title: %s", snippet)
	}
	// The page keeps working.
	setControl(t, ctx, "transport", scenario.TransportHTTP)
	waitFor(t, ctx, "a stream close", `!!document.querySelector('#timeline [data-signal="close-stream"], #timeline [data-type="close-stream"]')`)
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Rule: an edit that makes the scenario invalid keeps the last
// good render on screen (marked stale), says what is wrong and where, and
// "Show in editor" selects the offending value.
func TestPlaygroundLocatedError(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	cancelStep, _ := stepIndex(t, ex.JSON, "cancel")
	bad, err := scenario.SetPath(ex.JSON, fmt.Sprintf("steps[%d].at", cancelStep), json.RawMessage("-5"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	waitFor(t, ctx, "the canonical link", `location.hash.startsWith("#s=")`)
	link := evalJSON[string](t, ctx, `location.href`)
	outcome := evalJSON[string](t, ctx, `document.querySelector("#outcome-0").dataset.outcome`)
	typeInto(t, ctx, "#pg-editor", string(bad))
	waitFor(t, ctx, "the located error", `!document.getElementById("pg-error").hidden`)
	msg := evalJSON[string](t, ctx, `document.getElementById("pg-error-text").textContent`)
	want := fmt.Sprintf("steps[%d].at: must be >= 0", cancelStep)
	if !strings.Contains(msg, want) || !strings.Contains(msg, "line ") {
		t.Errorf("error %q, want the line and %q", msg, want)
	}
	if got := evalJSON[string](t, ctx, `document.getElementById("lab-output").dataset.stale ?? ""`); got != "1" {
		t.Errorf("the last good output is not marked stale")
	}
	if got := evalJSON[string](t, ctx, `document.querySelector("#outcome-0")?.dataset.outcome ?? ""`); got != outcome {
		t.Errorf("the output changed to %q while the input is invalid", got)
	}
	// The link is the invalid text's, as typed (TestPlaygroundSharesWhatTheEditorHolds).
	if _, err := pollJS[bool](ctx, fmt.Sprintf(`location.hash === %q`, "#"+scenario.ShareText(bad)), readyTimeout); err != nil {
		t.Errorf("an invalid edit left the link at %s (it was %s), want the edited text's", evalJSON[string](t, ctx, `location.href`), link)
	}
	if got := evalJSON[string](t, ctx, fmt.Sprintf(`document.querySelector('[data-path="steps[%d].at"]')?.getAttribute("aria-invalid") ?? ""`, cancelStep)); got != "true" {
		t.Errorf("the control of steps[%d].at is not flagged aria-invalid", cancelStep)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("pg-error-goto"))); err != nil {
		t.Fatal(err)
	}
	// The selection of the code editor where it replaced the textarea
	// (the DOM selection, which it keeps in step), else the textarea's.
	sel := evalJSON[string](t, ctx, `(() => {
  const e = document.getElementById("pg-editor");
  if (document.activeElement === e) return e.value.slice(e.selectionStart, e.selectionEnd);
  if (e.dataset.codeEditor && document.activeElement?.closest(".cm-editor")) return getSelection().toString();
  return "not focused";
})()`)
	if sel != "-5" {
		t.Errorf("Show in editor selected %q, want -5", sel)
	}
	// A syntax error names its place once, not "line 1, column 2: invalid
	// JSON at line 1, column 2: …".
	typeInto(t, ctx, "#pg-editor", `{"mcplab": 1,, }`)
	waitFor(t, ctx, "the syntax error", `/JSON/.test(document.getElementById("pg-error-text").textContent)`)
	msg = evalJSON[string](t, ctx, `document.getElementById("pg-error-text").textContent`)
	if strings.Count(msg, "line 1, column") != 1 {
		t.Errorf("syntax error %q: want its place said exactly once", msg)
	}
}

// Rule (Accessible): the playground works by keyboard alone. Tab
// from the top of the page reaches the transport control with a visible
// focus ring; the arrow key changes it and the scenario re-renders.
func TestPlaygroundByKeyboard(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	notes, closes := wireSignals(readTimeline(t, ctx))
	if notes != 1 || closes != 0 {
		t.Fatalf("stdio: %d notifications/cancelled, %d closes", notes, closes)
	}
	const maxTabs = 200 // the picker lists every built-in scenario (59) before the controls
	reached := false
	for i := 0; i < maxTabs; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		if evalJSON[string](t, ctx, `document.activeElement?.dataset?.path ?? ""`) == "transport" {
			reached = true
			break
		}
		// In the code editor Tab indents: Escape, then Tab, moves on
		// (CodeMirror's escape hatch), as a keyboard user is told.
		if evalJSON[bool](t, ctx, `!!document.activeElement?.closest(".cm-editor")`) {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
				t.Fatal(err)
			}
		}
		// The transport sits under "More switches" (a closed <details>): a
		// keyboard user opens it with Enter on its summary.
		if evalJSON[bool](t, ctx, `(() => { const a = document.activeElement; return a?.tagName === "SUMMARY" && !a.parentElement.open && !!a.parentElement.querySelector('[data-path="transport"]'); })()`) {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !reached {
		t.Fatalf("%d presses of Tab never reached the transport control (stuck at %s)", maxTabs, evalJSON[string](t, ctx, `document.activeElement?.outerHTML.slice(0, 80) ?? ""`))
	}
	if ring := evalJSON[string](t, ctx, `getComputedStyle(document.activeElement).outlineStyle`); ring == "none" || ring == "" {
		t.Errorf("the focused control has no visible focus ring (outline-style %q)", ring)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the transport to become streamable-http", `document.querySelector('[data-path="transport"]').value === "streamable-http"`)
	waitFor(t, ctx, "a stream close in the timeline", `!!document.querySelector('#timeline [data-signal="close-stream"], #timeline [data-type="close-stream"]')`)
	if !strings.Contains(evalJSON[string](t, ctx, editorValue), `"transport": "streamable-http"`) {
		t.Errorf("the editor does not show the control's change")
	}
	// Focus was not stolen by the re-render: Tab moves on from the control.
	if got := evalJSON[string](t, ctx, `document.activeElement?.dataset?.path ?? ""`); got != "transport" {
		t.Errorf("after the change, focus is on %q, want still the transport control", got)
	}
}

// Rule: a scenario with a ledger opens in the playground although
// main.wasm has no SQLite: the page reloads itself with ?ledger=1 (ledger.wasm)
// and runs it, the link kept.
func TestPlaygroundLedgerScenario(t *testing.T) {
	const name = "ledger-keyed-race"
	ex := examplestest.Get(t, name)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+name))
	// The page navigates itself once: a poll cut by that navigation is
	// polled again in the new document.
	const reloaded = `location.search.includes("ledger=1") && document.documentElement.dataset.ready === "1"`
	var err error
	for range 3 {
		if _, err = pollJS[bool](ctx, reloaded, readyTimeout); err == nil || !strings.Contains(err.Error(), "navigated") {
			break
		}
	}
	if err != nil {
		t.Fatalf("waiting for the reload with ledger.wasm: %v", err)
	}
	if got := evalJSON[string](t, ctx, editorValue); got != string(ex.JSON) {
		t.Errorf("after the reload the editor holds %.80q, want %s", got, name)
	}
	_, tr := nativeTrace(t, ex)
	if got, want := evalJSON[map[string]string](t, ctx, checksJS), checkResults(tr); !maps.Equal(got, want) {
		t.Errorf("checks %v, natively %v", got, want)
	}
}

// Rule: a ledger scenario pasted into a playground that runs main.wasm
// (no SQLite) survives the reload into ledger.wasm: the page reloads with
// the pasted scenario's link, not the previous one (a newcomer pasted
// ledger-keyed-race over scenario A and got scenario A back).
func TestPlaygroundPastedLedgerScenario(t *testing.T) {
	const name = "ledger-keyed-race"
	ex := examplestest.Get(t, name)
	want, err := scenario.Canonical(ex.JSON)
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	typeInto(t, ctx, "#pg-editor", string(ex.JSON))
	const reloaded = `location.search.includes("ledger=1") && document.documentElement.dataset.ready === "1"`
	for range 3 {
		if _, err = pollJS[bool](ctx, reloaded, readyTimeout); err == nil || !strings.Contains(err.Error(), "navigated") {
			break
		}
	}
	if err != nil {
		t.Fatalf("waiting for the reload with ledger.wasm: %v", err)
	}
	got, err := scenario.Canonical([]byte(evalJSON[string](t, ctx, editorValue)))
	if err != nil || string(got) != string(want) {
		t.Fatalf("after the reload the editor holds %.100q (%v), want the pasted %s", got, err, name)
	}
	_, tr := nativeTrace(t, ex)
	if got, want := evalJSON[map[string]string](t, ctx, checksJS), checkResults(tr); !maps.Equal(got, want) {
		t.Errorf("checks %v, natively %v", got, want)
	}
}

// TestMeasurePages reports, per kind of page (make bench prints it): the
// compressed bytes of everything the page loads on a cold cache, the time
// from navigation to the ready signal, and, where the page has controls,
// the time from a control change to the repainted SVG (the next frame
// after the input event, median of five), with the part spent in the wasm
// running and rendering before that frame (data-render-ms of the last
// change). The page draws the tables after that frame (wasm/output.go), so
// two more columns say when the whole run is on screen: the time from the
// change to the frame after the tables are drawn (median of the same
// five) and what drawing them cost in the wasm (data-later-ms). Budgets
// (ARCHITECTURE.md): 1.5 MB for a page without SQLite, 1 s to ready, 16 ms
// per change (to the repainted SVG). It fails only when a page does not
// work; the numbers are reported, not enforced.
func TestMeasurePages(t *testing.T) {
	ledgerPage := ""
	for _, ex := range examples.All() { // the first ledger scenario's page
		if examplestest.DecodeExample(t, ex).Ledger != nil {
			ledgerPage = "/s/" + ex.Name + "/"
			break
		}
	}
	pages := []struct{ name, path string }{
		{"index", "/"},
		{"scenario A", "/s/" + scenarioA + "/"},
		{"scenario C", "/s/c-progress-then-maximum/"},
		{"malformed cancellations", "/s/malformed-and-unknown-cancellations/"},
		{"ledger scenario (SQLite)", ledgerPage},
		{"playground", "/playground/"},
		{"import", "/import/"},
		{"embed of scenario A", "/s/" + scenarioA + "/?embed=1"},
	}
	var report strings.Builder
	fmt.Fprintf(&report, "\n%-26s %10s %9s %11s %9s %11s %9s %16s\n", "page", "transfer", "to ready", "change→SVG", "run+draw", "→all drawn", "tables", "warm: frame/work")
	for _, p := range pages {
		ctx, w := openTab(t, siteURL)
		if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		navigate(t, ctx, siteURL+p.path)
		ready := "-"
		if evalJSON[bool](t, ctx, `!!document.querySelector("[data-wasm]")`) {
			waitReady(t, ctx)
			ready = time.Since(start).Round(time.Millisecond).String()
		}
		evalJSON[int](t, ctx, `1`) // every loading event before this reply is in
		var bytes float64
		w.mu.Lock()
		for _, n := range w.docBytes {
			bytes += n
		}
		w.mu.Unlock()
		change, inWasm, all, later, warm := "-", "-", "-", "-", "-"
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[[4]float64](changeToPaintJS, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if ms[0] >= 0 {
			change, all = fmt.Sprintf("%.1f ms", ms[0]), fmt.Sprintf("%.1f ms", ms[1])
			inWasm = evalJSON[string](t, ctx, `document.getElementById("lab-output")?.dataset.renderMs ?? "-"`) + " ms"
			later = evalJSON[string](t, ctx, `document.getElementById("lab-output")?.dataset.laterMs ?? "-"`) + " ms"
			warm = fmt.Sprintf("%.1f/%.1f ms", ms[2], ms[3])
		}
		fmt.Fprintf(&report, "%-26s %7.2f MB %9s %11s %9s %11s %9s %16s\n", p.name, bytes/1e6, ready, change, inWasm, all, later, warm)
	}
	t.Log(report.String())
}

// changeToPaintJS nudges the page's first time slider by 1 ms, five
// times right after ready, and resolves with three medians in milliseconds
// (or -1s if the page has no slider): from the input event to the frame
// after the re-render (rAF, then a task: that frame has been produced), and
// from the input event to the frame after the later blocks (the tables) are
// drawn too (#lab-output loses data-pending); each change starts once the
// previous one is wholly on screen. The third is the first again once the
// page is warm, as for a reader who drags a slider after reading the page:
// one second later, 21 changes 50 ms apart (a drag's pace), each made at
// the start of a frame (in a requestAnimationFrame callback), median: the
// time to the frame after it (one frame, ~16.7 ms at 60 Hz, when the change
// is painted in the very next frame), and the work inside it: from the
// input event to the page laid out again (the wasm's run and render, the
// DOM patch, and the style and layout it causes, forced with offsetHeight),
// which is what must fit in a frame.
const changeToPaintJS = `(async () => {
  const el = document.querySelector('#lab-controls input[type=range]:not(:disabled)');
  if (!el) return [-1, -1, -1, -1];
  const out = document.getElementById("lab-output");
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const drawn = () => new Promise((r) => {
    if (!out || out.dataset.pending === undefined) return r();
    const mo = new MutationObserver(() => { if (out.dataset.pending === undefined) { mo.disconnect(); r(); } });
    mo.observe(out, {attributes: true, attributeFilter: ["data-pending"]});
  });
  const svg = [], all = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    el.value = String(Number(el.value) + (i % 2 ? -1 : 1));
    el.dispatchEvent(new Event("input", {bubbles: true}));
    await frame();
    svg.push(performance.now() - t0);
    if (out && out.dataset.pending !== undefined) {
      await drawn();
      await frame();
    }
    all.push(performance.now() - t0);
  }
  const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
  await new Promise((r) => setTimeout(r, 1000));
  const warm = [], work = [];
  for (let i = 0; i < 21; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    const t0 = performance.now();
    el.value = String(Number(el.value) + (i % 2 ? -1 : 1));
    el.dispatchEvent(new Event("input", {bubbles: true}));
    void document.body.offsetHeight;
    work.push(performance.now() - t0);
    await frame();
    warm.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  return [median(svg), median(all), median(warm), median(work)];
})()`

// Rule: the share buttons work: Copy link copies the address
// (or, where the clipboard is refused, selects it and says how to copy),
// the embed snippet comes as HTML, MDX/JSX (camelCase attributes) or MyST
// pointing at the ?embed=1 page of the current link, and Download JSON
// offers the editor's text, none of it with a page error.
func TestPlaygroundShareButtons(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	waitFor(t, ctx, "the canonical link", `location.hash.startsWith("#s=")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("pg-copy-link"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the copy to be reported", `/Copied|Ctrl\+C/.test(document.getElementById("lab-status").textContent)`)
	hash := evalJSON[string](t, ctx, `location.hash`)
	for _, tc := range []struct{ format, prefix, must string }{
		{"html", `<iframe src="`, `?embed=1` + hash + `"`},
		{"mdx", `<iframe src={"`, `referrerPolicy="` + templates.EmbedReferrerPolicy + `"`},
		{"myst", `:::{iframe} `, `?embed=1` + hash},
	} {
		got := evalJSON[string](t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById("pg-embed-format"); s.value = %q; s.dispatchEvent(new Event("change", {bubbles: true})); return document.getElementById("pg-embed").value; })()`, tc.format))
		if !strings.HasPrefix(got, tc.prefix) || !strings.Contains(got, tc.must) {
			t.Errorf("%s snippet %q, want it to start %q and contain %q", tc.format, got, tc.prefix, tc.must)
		}
	}
	// Download: the click makes a blob: link named after the title, clicks
	// it and removes it; the file's text is the editor's.
	got := evalJSON[string](t, ctx, `(() => {
  let seen = "";
  const orig = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () { seen = this.download + " " + this.href.slice(0, 5); };
  try { document.getElementById("pg-download").click(); } finally { HTMLAnchorElement.prototype.click = orig; }
  return seen;
})()`)
	if got != "a-cancellation-wins-stdio.json blob:" {
		t.Errorf("download offered %q, want a-cancellation-wins-stdio.json from a blob: URL", got)
	}
}

// Rule: a built-in scenario picked at the top of the
// playground opens and runs: with the keyboard alone, choose it in
// #pg-pick-select (its optgroup is its index section), Tab to Open and
// press Enter; the editor holds its file, the checks are the native run's,
// and the address bar is its link.
func TestPlaygroundPickerOpensBuiltin(t *testing.T) {
	const name = "buffer-reference-coalesce"
	ex := examplestest.Get(t, name)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL(""))
	waitReady(t, ctx)
	if got := evalJSON[string](t, ctx, `document.querySelector('#pg-pick-select option[value="`+name+`"]')?.parentElement.dataset.group ?? ""`); got != "flow" {
		t.Fatalf("%s sits in picker group %q, want the index's flow section", name, got)
	}
	// Focus the select and choose the option (what the arrow keys do on a
	// closed select; CDP's key events do not drive its native popup).
	evalJSON[bool](t, ctx, `(() => { const s = document.getElementById("pg-pick-select"); s.focus(); s.value = "`+name+`"; return true; })()`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if got := evalJSON[string](t, ctx, `document.activeElement?.id ?? ""`); got != "pg-pick-open" {
		t.Fatalf("Tab from the picker reaches %q, want #pg-pick-open", got)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the picked scenario in the editor", fmt.Sprintf(`document.getElementById("pg-editor").value === %q`, string(ex.JSON)))
	waitFor(t, ctx, "its title", fmt.Sprintf(`document.getElementById("pg-title").textContent === %q`, ex.Title))
	_, tr := nativeTrace(t, ex)
	want := checkResults(tr)
	wantJSON, err := json.Marshal(want) // keys sorted
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pollJS[bool](ctx, fmt.Sprintf(`JSON.stringify(Object.fromEntries(Object.entries(%s).sort())) === %q`, checksJS, wantJSON), readyTimeout); err != nil {
		t.Errorf("waiting for its checks: %v", err)
	}
	if got := evalJSON[map[string]string](t, ctx, checksJS); !maps.Equal(got, want) {
		t.Errorf("checks %v, natively %v", got, want)
	}
	if h := evalJSON[string](t, ctx, `location.hash`); !strings.HasPrefix(h, "#example="+name) && !strings.HasPrefix(h, "#s=") {
		t.Errorf("the address bar is %q, not a link to the picked scenario", h)
	}
	// A link that opens a built-in shows it in the picker (not the first
	// option, which a fresh page shows anyway).
	const linked = "keepalive-is-not-progress"
	navigate(t, ctx, playgroundURL("#example="+linked))
	waitReady(t, ctx)
	waitFor(t, ctx, "the picker to show "+linked, fmt.Sprintf(`document.getElementById("pg-pick-select").value === %q`, linked))
}

// Rule (the picker under a link): the picker names a built-in only
// while the editor holds one. A fresh playground shows the default (A);
// a #s= link of a scenario of one's own, valid or not, shows the
// placeholder "None (a scenario of your own)", which cannot be chosen;
// #example=NAME shows NAME again. An invalid link's first run says it
// waits (nothing has run, so nothing "re-runs" or "goes live again"), and
// the message under the editor ends its sentence before "Nothing has run
// yet."
func TestPlaygroundPickerNamesOnlyTheBuiltinShown(t *testing.T) {
	picker := `(() => { const s = document.getElementById("pg-pick-select"); const o = s.options[s.selectedIndex]; return s.value + "|" + (o ? o.textContent : "") + "|" + (o ? o.disabled && o.hidden : false); })()`
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL(""))
	waitReady(t, ctx)
	a := examplestest.Get(t, scenarioA)
	if got := evalJSON[string](t, ctx, picker); got != scenarioA+"|"+a.Title+"|false" {
		t.Errorf("a fresh playground's picker: %q, want scenario A (%s)", got, a.Title)
	}
	own, err := scenario.SetPath(a.JSON, "title", mustJSON(t, "My own race"))
	if err != nil {
		t.Fatal(err)
	}
	frag, err := scenario.ShareFragment(own)
	if err != nil {
		t.Fatal(err)
	}
	const none = "|None (a scenario of your own)|true"
	ctx, _ = openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#"+frag))
	waitReady(t, ctx)
	waitFor(t, ctx, "the link's title", `document.getElementById("pg-title").textContent === "My own race"`)
	if got := evalJSON[string](t, ctx, picker); got != none {
		t.Errorf("a link to a scenario of one's own: the picker shows %q, want %q", got, none)
	}
	bad, err := scenario.ShareFragment([]byte(`{"mcplab": 99, "steps": []}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ = openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#"+bad))
	waitReady(t, ctx)
	if got := evalJSON[string](t, ctx, picker); got != none {
		t.Errorf("an invalid link: the picker shows %q, want %q", got, none)
	}
	const wantStatus = "Waiting: the scenario is invalid, so nothing has run yet. Fix it and every change runs it."
	if got := evalJSON[string](t, ctx, `document.getElementById("lab-status").textContent.trim()`); got != wantStatus {
		t.Errorf("an invalid link's status: %q, want %q", got, wantStatus)
	}
	const wantErr = `the "mcplab" member: this lab reads version 1, not 99. Nothing has run yet.`
	if got := evalJSON[string](t, ctx, `document.getElementById("pg-error-text").textContent`); !strings.HasSuffix(got, wantErr) {
		t.Errorf("an invalid link's message under the editor: %q, want it to end %q", got, wantErr)
	}
	if got := evalJSON[string](t, ctx, `document.getElementById("pg-nothing").textContent`); !strings.HasPrefix(got, "Nothing has run yet. Line 2, column 13: ") {
		t.Errorf("an invalid link's output: %q, want \"Nothing has run yet. Line 2, column 13: ...\"", got)
	}
	const linked = "b-complete-then-cancel"
	navigate(t, ctx, playgroundURL("#example="+linked))
	waitFor(t, ctx, "the picker to show "+linked, fmt.Sprintf(`document.getElementById("pg-pick-select").value === %q`, linked))
}
