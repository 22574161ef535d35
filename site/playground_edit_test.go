package site

// Tests of the playground as an editor a person uses: the picker opens a
// built-in in place, completion appears where a member or value is being
// typed, a JSON mistake is reported where it is in words, and a share link
// reopens the text as it was written.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// scenarioB is a built-in the picker offers beside scenario A.
const scenarioB = "b-complete-then-cancel"

// Rule (the playground: picking a scenario opens it): choosing a built-in
// in the picker opens it in the page at once, without a reload or the
// Open button; the address bar moves to its link in a new history entry,
// so Back reopens the scenario that was there, on its own link.
func TestPlaygroundPickerOpensInPlace(t *testing.T) {
	a, b := examplestest.Get(t, scenarioA), examplestest.Get(t, scenarioB)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	waitFor(t, ctx, "A's link", `location.hash.startsWith("#s=")`)
	linkA := evalJSON[string](t, ctx, `location.href`)
	entries := evalJSON[int](t, ctx, `(window.mcplabSamePage = true, history.length)`)

	evalJSON[bool](t, ctx, fmt.Sprintf(`(() => {
  const s = document.getElementById("pg-pick-select");
  s.focus();
  s.value = %q;
  s.dispatchEvent(new Event("input", {bubbles: true}));
  s.dispatchEvent(new Event("change", {bubbles: true}));
  return true;
})()`, scenarioB))
	opened := fmt.Sprintf(`document.getElementById("pg-editor").value === %s && location.hash.startsWith("#s=") && location.href !== %q && document.querySelector("#outcome-0")?.dataset.outcome === "completion-wins"`, jsString(string(b.JSON)), linkA)
	if _, err := pollJS[bool](ctx, opened, readyTimeout); err != nil {
		t.Fatalf("choosing %s in the picker did not open it (editor %.60q, address %s): %v", scenarioB, evalJSON[string](t, ctx, editorValue), evalJSON[string](t, ctx, `location.href`), err)
	}
	if !evalJSON[bool](t, ctx, `window.mcplabSamePage === true`) {
		t.Errorf("the page reloaded to open the chosen scenario")
	}
	if got := evalJSON[int](t, ctx, `history.length`); got != entries+1 {
		t.Errorf("history has %d entries after the pick, want %d (one for the scenario left)", got, entries+1)
	}
	if got := evalJSON[string](t, ctx, `document.getElementById("pg-title").textContent`); !strings.HasPrefix(got, "B:") {
		t.Errorf("the title reads %q after picking %s", got, scenarioB)
	}

	evalJSON[bool](t, ctx, `(history.back(), true)`)
	back := fmt.Sprintf(`document.getElementById("pg-editor").value === %s && location.href === %q && document.getElementById("pg-pick-select").value === %q`, jsString(string(a.JSON)), linkA, scenarioA)
	if _, err := pollJS[bool](ctx, back, readyTimeout); err != nil {
		t.Errorf("Back did not reopen %s on its link (editor %.60q, address %s): %v", scenarioA, evalJSON[string](t, ctx, editorValue), evalJSON[string](t, ctx, `location.href`), err)
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { return fmt.Sprintf("%q", s) }

// Rule (the playground: completion where a member or value is typed):
// typing the quote that starts a member name in an object offers the
// schema's member names the object lacks, and Ctrl-Space with the cursor
// inside an empty "" offers them too, or, after a member's colon, its
// values. In scenario A's root object (without its latencyMs line):
// `"` offers "latencyMs" and "client", not "title", which is there; in
// "transport": "|", Ctrl-Space offers "stdio" and "streamable-http".
func TestPlaygroundCompletionOnQuoteAndEmptyString(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	waitFor(t, ctx, "the code editor", `!!document.querySelector("#playground .cm-content")`)
	menuWith := func(what string, labels ...string) completionMenu {
		t.Helper()
		cond := []string{"m"}
		for _, l := range labels {
			cond = append(cond, fmt.Sprintf("m.labels.includes(%q)", l))
		}
		m, err := pollJS[completionMenu](ctx, `(() => { const m = `+completionJS+`; return `+strings.Join(cond, " && ")+` ? m : null; })()`, readyTimeout)
		if err != nil {
			got := evalJSON[any](t, ctx, completionJS)
			t.Fatalf("%s: no completion offering %q (%v): %v", what, labels, got, err)
		}
		return m
	}
	keys := func(k string, opts ...chromedp.KeyOption) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k, opts...)); err != nil {
			t.Fatal(err)
		}
	}

	selectAcross(t, ctx, `"latencyMs": {"up": 10, "down": 10},`)
	keys(`"`)
	m := menuWith(`typing " in the root object`, `"latencyMs"`, `"client"`)
	for _, l := range m.Labels {
		if l == `"title"` || l == `"steps"` {
			t.Errorf("typing \" offers %s, which the object already has (%q)", l, m.Labels)
		}
	}
	keys(kb.Escape)
	waitFor(t, ctx, "the menu closed", `!document.querySelector("#playground .cm-tooltip-autocomplete")`)

	// Ctrl-Space inside "": the member names.
	keys(`"`)
	keys(kb.Escape)
	keys(kb.ArrowLeft)
	waitFor(t, ctx, "the menu closed", `!document.querySelector("#playground .cm-tooltip-autocomplete")`)
	keys(" ", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	menuWith(`Ctrl-Space inside "" in the root object`, `"latencyMs"`, `"client"`)
	keys(kb.Escape)

	// Ctrl-Space inside a value's "": the member's values.
	selectInEditor(t, ctx, `"transport"`, `"stdio"`)
	keys(`""`)
	keys(kb.Escape)
	keys(kb.ArrowLeft)
	waitFor(t, ctx, "the menu closed", `!document.querySelector("#playground .cm-tooltip-autocomplete")`)
	keys(" ", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	menuWith(`Ctrl-Space inside "transport": ""`, `"stdio"`, `"streamable-http"`)
	screenshot(t, ctx, "mcplab-playground-completion-1280.png", "")
	// On a phone the menu stays inside the window.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	keys(kb.Escape)
	evalJSON[bool](t, ctx, `(document.querySelector("#playground .cm-activeLine").scrollIntoView({block: "center"}), true)`)
	keys(" ", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	menuWith(`Ctrl-Space at 390 px`, `"stdio"`)
	if r := evalJSON[[2]float64](t, ctx, `(() => { const r = document.querySelector("#playground .cm-tooltip-autocomplete").getBoundingClientRect(); return [r.left, r.right]; })()`); r[0] < 0 || r[1] > 390 {
		t.Errorf("at 390 px the completion menu spans %v px, outside the window", r)
	}
	// Its documentation hides none of its options.
	if hidden := evalJSON[[]string](t, ctx, `(() => {
  const info = document.querySelector("#playground .cm-completionInfo");
  if (!info) return ["no documentation"];
  const a = info.getBoundingClientRect();
  return Array.from(document.querySelectorAll("#playground .cm-tooltip-autocomplete li")).filter((li) => {
    const b = li.getBoundingClientRect();
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }).map((li) => li.textContent);
})()`); len(hidden) > 0 {
		t.Errorf("at 390 px the completion's documentation covers %q", hidden)
	}
	screenshot(t, ctx, "mcplab-playground-completion-390.png", "")
}

// errorLineRE reads the line an error message names.
var errorLineRE = regexp.MustCompile(`line (\d+), column \d+`)

// Rule (the playground: a syntax error in a person's words, where it is):
// scenario A without the comma after its transport (line 6) is reported
// on line 6 as "a comma is missing after "transport": "stdio"", underlined
// on that line at column 23, just after the value, not on line 7 in
// encoding/json's words; "Show in editor" then "," mends it. Screenshots at
// 1,280 and 390 px show the message under the editor.
func TestPlaygroundSyntaxErrorWhereItIs(t *testing.T) {
	a := string(examplestest.Get(t, scenarioA).JSON)
	bad := strings.Replace(a, `"transport": "stdio",`, `"transport": "stdio"`, 1)
	if bad == a {
		t.Fatal(`scenario A has no "transport": "stdio", line`)
	}
	for _, width := range []int64{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			ctx, _ := openTab(t, siteURL)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
				t.Fatal(err)
			}
			navigate(t, ctx, playgroundURL("#example="+scenarioA))
			waitReady(t, ctx)
			typeInto(t, ctx, "#pg-editor", bad)
			waitFor(t, ctx, "the syntax error", `!mcplabEngine.busy && !document.getElementById("pg-error").hidden`)
			msg := evalJSON[string](t, ctx, `document.getElementById("pg-error-text").textContent`)
			if !strings.Contains(msg, `line 6, column 23`) || !strings.Contains(msg, `a comma is missing after "transport": "stdio"`) || strings.Contains(msg, "invalid character") {
				t.Errorf("the error reads %q, want line 6 and `a comma is missing after \"transport\": \"stdio\"`", msg)
			}
			st, err := pollJS[editorState](ctx, `(() => { const s = `+editorJS+`; return s.errors.length ? s : null; })()`, readyTimeout)
			if err != nil {
				t.Fatalf("no underline in the editor: %v", err)
			}
			if len(st.Errors) != 1 || st.Errors[0].Line != 6 {
				t.Errorf("underlined %+v, want one mark on line 6", st.Errors)
			}
			screenshot(t, ctx, fmt.Sprintf("mcplab-playground-syntax-%d.png", width), "#pg-error")
			// "Show in editor" puts the caret where the comma goes: typing
			// "," there mends the scenario.
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("pg-error-goto"))); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(",")); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "the mended scenario", `!mcplabEngine.busy && document.getElementById("pg-error").hidden`)
			if got := evalJSON[string](t, ctx, `document.getElementById("pg-editor").value`); got != a {
				t.Errorf("typing \",\" after Show in editor gives\n%s\nwant scenario A", got)
			}
		})
	}
}

// screenshot saves the page as a PNG in the temporary directory and logs
// where, for a person to look at; sel ("" for none) selects the element
// to scroll to the middle of the window first.
func screenshot(t *testing.T, ctx context.Context, name, sel string) {
	t.Helper()
	if sel != "" {
		evalJSON[bool](t, ctx, fmt.Sprintf(`(document.querySelector(%q).scrollIntoView({block: "center"}), true)`, sel))
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	file := filepath.Join(os.TempDir(), name)
	if err := os.WriteFile(file, shot, 0o644); err == nil {
		t.Logf("screenshot: %s", file)
	}
}

// Rule (the playground: a share link keeps the text as written): the link
// of an invalid scenario reopens on the same text, its error on the same
// line (scenario A with the cancel at -300 on line 14 reopens with the
// error on line 14); the link of a valid one reopens on the text as typed,
// its layout and member order kept.
func TestPlaygroundShareLinkKeepsTheText(t *testing.T) {
	a := string(examplestest.Get(t, scenarioA).JSON)
	invalid := strings.Replace(a, `{"at": 300, "do": "cancel"`, `{"at": -300, "do": "cancel"`, 1)
	valid := strings.Replace(a, `"latencyMs": {"up": 10, "down": 10}`, `"latencyMs": {"down": 10, "up": 11}`, 1)
	if invalid == a || valid == a {
		t.Fatal("scenario A lacks the lines this test edits")
	}
	for _, c := range []struct {
		name, text string
		errLine    string // the line the error names, "" for none
	}{
		{"invalid", invalid, "14"},
		{"valid", valid, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, _ := openTab(t, siteURL)
			navigate(t, ctx, playgroundURL("#example="+scenarioA))
			waitReady(t, ctx)
			waitFor(t, ctx, "A's link", `location.hash.startsWith("#s=")`)
			before := evalJSON[string](t, ctx, `location.href`)
			typeInto(t, ctx, "#pg-editor", c.text)
			waitFor(t, ctx, "the edit's link", fmt.Sprintf(`!mcplabEngine.busy && location.href !== %q && document.getElementById("pg-link").value === location.href`, before))
			link := evalJSON[string](t, ctx, `location.href`)
			if c.errLine != "" {
				msg := evalJSON[string](t, ctx, `document.getElementById("pg-error-text").textContent`)
				if m := errorLineRE.FindStringSubmatch(msg); m == nil || m[1] != c.errLine {
					t.Fatalf("the edit's error reads %q, want it on line %s", msg, c.errLine)
				}
			}

			reopened, _ := openTab(t, siteURL)
			navigate(t, reopened, link)
			waitReady(t, reopened)
			if got := evalJSON[string](t, reopened, editorValue); got != c.text {
				t.Errorf("the link reopens on other text (first difference at byte %d):\n%.300s", firstDiff(got, c.text), got)
			}
			if c.errLine != "" {
				waitFor(t, reopened, "the error", `!mcplabEngine.busy && !document.getElementById("pg-error").hidden`)
				msg := evalJSON[string](t, reopened, `document.getElementById("pg-error-text").textContent`)
				if m := errorLineRE.FindStringSubmatch(msg); m == nil || m[1] != c.errLine {
					t.Errorf("the reopened link's error reads %q, want it on line %s, where it was", msg, c.errLine)
				}
			}
			if got := evalJSON[string](t, reopened, `location.href`); got != link {
				t.Errorf("the reopened page rewrote its link:\n got %s\nwant %s", got, link)
			}
		})
	}
}
