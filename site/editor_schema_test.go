package site

// Tests of the code editor's help from the scenario's JSON Schema (issue
// 13, item 7: "completion and hover documentation from
// /scenario.schema.json"): the names and values it offers, and the
// descriptions it shows, are the served schema's own.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/scenario"
)

// schemaNode is the part of a JSON Schema node the test reads.
type schemaNode struct {
	Description string                `json:"description"`
	Title       string                `json:"title"`
	Properties  map[string]schemaNode `json:"properties"`
	Items       *struct {
		OneOf []schemaNode `json:"oneOf"`
	} `json:"items"`
}

// completionJS lists the open completion menu's labels and the text of its
// documentation panel (CodeMirror's .cm-tooltip-autocomplete and
// .cm-completionInfo).
const completionJS = `(() => {
  const menu = document.querySelector("#playground .cm-tooltip-autocomplete");
  if (!menu) return null;
  return {
    labels: Array.from(menu.querySelectorAll("li .cm-completionLabel")).map((l) => l.textContent),
    selected: menu.querySelector("li[aria-selected] .cm-completionLabel")?.textContent ?? "",
    info: document.querySelector("#playground .cm-completionInfo")?.textContent ?? "",
  };
})()`

type completionMenu struct {
	Labels   []string `json:"labels"`
	Selected string   `json:"selected"`
	Info     string   `json:"info"`
}

// Rule: the playground's editor offers, as you type,
// the member names the schema allows where the cursor is, each with the
// schema's description, and the values of an enum or a verb; hovering a
// member name shows its description. In scenario A: the pointer over
// "transport" shows the schema's description of transport; typing
// `"client": {"idl` in the root object offers "idleTimeoutMs" (the one
// client member that starts so) with client.idleTimeoutMs's description,
// and picking it writes it as a member name; in a new step, typing `"do": "ca`
// offers the verbs "call" and "cancel" and documents the selected one with
// its branch's description.
func TestPlaygroundCodeEditorSchemaHelp(t *testing.T) {
	var root schemaNode
	if err := json.Unmarshal(scenario.Schema, &root); err != nil {
		t.Fatal(err)
	}
	transportDoc := root.Properties["transport"].Description
	idleDoc := root.Properties["client"].Properties["idleTimeoutMs"].Description
	if transportDoc == "" || idleDoc == "" {
		t.Fatalf("the schema lacks the descriptions of transport (%q) or client.idleTimeoutMs (%q)", transportDoc, idleDoc)
	}
	verbDoc := map[string]string{}
	steps := root.Properties["steps"]
	for _, b := range steps.Items.OneOf {
		verbDoc[b.Title] = b.Description
	}
	if verbDoc["call"] == "" || verbDoc["cancel"] == "" {
		t.Fatalf("the schema's steps have no call and cancel verbs with descriptions: %v", verbDoc)
	}

	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	waitFor(t, ctx, "the code editor", `!!document.querySelector("#playground .cm-content")`)

	// Hover: the pointer over the member name "transport".
	at := evalJSON[[2]float64](t, ctx, `(() => {
  const k = Array.from(document.querySelectorAll("#playground .cm-content .tok-propertyName")).find((e) => e.textContent === '"transport"');
  k.scrollIntoView({block: "center"});
  const r = k.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
})()`)
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0], at[1])); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the hover documentation", `!!document.querySelector("#playground .cm-tooltip-hover .cm-schema-info")`)
	if got := evalJSON[string](t, ctx, `document.querySelector("#playground .cm-tooltip-hover .cm-schema-info").textContent`); !strings.HasPrefix(got, "transport") || !strings.Contains(got, transportDoc) {
		t.Errorf("hovering \"transport\" shows %q, want its name and the schema's description %q", got, transportDoc)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1)); err != nil {
		t.Fatal(err)
	}

	// Member names: inside "client": { .
	selectAcross(t, ctx, `"latencyMs": {"up": 10, "down": 10},`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(`"client": {"idl`)); err != nil {
		t.Fatal(err)
	}
	// The menu follows the typing (the source answers after each key).
	menu, err := pollJS[completionMenu](ctx, `(() => { const m = `+completionJS+`; return m && m.info && m.labels.includes('"idleTimeoutMs"') ? m : null; })()`, readyTimeout)
	if err != nil {
		t.Fatalf("no completion with documentation after typing \"client\": {\"idl: %v", err)
	}
	if len(menu.Labels) != 1 || menu.Labels[0] != `"idleTimeoutMs"` || !strings.Contains(menu.Info, idleDoc) {
		t.Errorf("inside \"client\": {, \"idl offers %q documented %q; want only \"idleTimeoutMs\" with the schema's %q", menu.Labels, menu.Info, idleDoc)
	}
	// Picked with the pointer (Enter within CodeMirror's interactionDelay,
	// 75 ms, of the list's last update types a newline instead), once the
	// worker has answered the typing and its answer is on the page: the
	// answer shows or hides the error box above the editor, which moves
	// the menu, and a click aimed before that lands beside it.
	waitFor(t, ctx, "the worker's answer to the typing shown", `!mcplabEngine.busy && !(globalThis.mcplabMorph && mcplabMorph.busy)`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	pick := evalJSON[[2]float64](t, ctx, `(() => {
  const li = Array.from(document.querySelectorAll("#playground .cm-tooltip-autocomplete li")).find((l) => l.textContent.startsWith('"idleTimeoutMs"'));
  const r = li.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
})()`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(pick[0], pick[1])); err != nil {
		t.Fatal(err)
	}
	if _, err := pollJS[bool](ctx, fmt.Sprintf(`document.getElementById("pg-editor").value.includes(%q)`, `"client": {"idleTimeoutMs": `), readyTimeout); err != nil {
		t.Fatalf("after picking it the text is %.600q, want the accepted member name: %v", evalJSON[string](t, ctx, editorValue), err)
	}
	// Closed again, the scenario is valid: the member names typed there are
	// the schema's.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(`500},`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "a valid run with the typed client", `document.getElementById("pg-error").hidden && document.getElementById("pg-editor").value.includes('"client": {"idleTimeoutMs": 500},')`)

	// Values: a verb in a new step.
	selectAcross(t, ctx, `{"at": 300, "do": "cancel", "id": 7, "reason": "User closed the operation"}`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(`{"at": 300, "do": "ca`)); err != nil {
		t.Fatal(err)
	}
	menu, err = pollJS[completionMenu](ctx, `(() => { const m = `+completionJS+`; return m && m.info && m.labels.includes('"cancel"') && !m.labels.includes('"complete"') ? m : null; })()`, readyTimeout)
	if err != nil {
		t.Fatalf("no verb completion after typing \"do\": \"ca: %v", err)
	}
	if !(len(menu.Labels) >= 2 && containsAll(menu.Labels, `"call"`, `"cancel"`)) {
		t.Errorf("\"do\": \"ca offers %q, want the verbs \"call\" and \"cancel\"", menu.Labels)
	}
	if shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
		file := filepath.Join(os.TempDir(), "mcplab-editor-completion.png")
		if err := os.WriteFile(file, shot, 0o644); err == nil {
			t.Logf("screenshot: %s", file)
		}
	}
	verb := strings.Trim(menu.Selected, `"`)
	if verbDoc[verb] == "" || !strings.Contains(menu.Info, verbDoc[verb]) {
		t.Errorf("the selected verb %q is documented %q, want its branch's description %q", menu.Selected, menu.Info, verbDoc[verb])
	}
}

// selectAcross selects text in the code editor's line holding it, across
// the line's highlighted tokens (selectInEditor selects within one). The
// selection is made again until the editor holds it: CodeMirror redraws a
// line when an answer of the worker changes its decorations (the error
// underline goes when the text becomes valid), which can drop a DOM
// selection it had not read yet.
func selectAcross(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	waitFor(t, ctx, "the worker's answer shown", `!mcplabEngine.busy && !(globalThis.mcplabMorph && mcplabMorph.busy)`)
	js := fmt.Sprintf(`(() => {
  if (getSelection().toString() === %q) return true;
  const content = document.querySelector("#playground .cm-content");
  const line = Array.from(content.querySelectorAll(".cm-line")).find((l) => l.textContent.includes(%q));
  if (!line) return false;
  const start = line.textContent.indexOf(%q), end = start + %d;
  const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  let at = 0, a = null, b = null;
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!a && start <= at + n.data.length) a = [n, start - at];
    if (!b && end <= at + n.data.length) b = [n, end - at];
    at += n.data.length;
  }
  content.focus();
  getSelection().setBaseAndExtent(a[0], a[1], b[0], b[1]);
  return false;
})()`, text, text, text, len([]rune(text)))
	if _, err := pollJS[bool](ctx, js, readyTimeout); err != nil {
		t.Fatalf("the editor did not take the selection of %q (is a line holding it there?): %v", text, err)
	}
	// Held for two frames: CodeMirror has read it into its state.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the editor to keep the selection", fmt.Sprintf(`getSelection().toString() === %q`, text))
}

// containsAll reports whether list holds every one of want.
func containsAll(list []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, l := range list {
			found = found || l == w
		}
		if !found {
			return false
		}
	}
	return true
}
