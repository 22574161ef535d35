package site

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// Rule (the editor's text is the state): the playground's
// link is what its editor holds, run or not. A scenario that is invalid
// (by a rule, or not JSON at all) or valid but past an engine bound gets
// its own link in the address bar, the link field and the embed snippet,
// never the last run's, which would share another scenario; the link
// opens the playground on that text and its error.
func TestPlaygroundSharesWhatTheEditorHolds(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	cancelStep, _ := stepIndex(t, ex.JSON, "cancel")
	byRule, err := scenario.SetPath(ex.JSON, fmt.Sprintf("steps[%d].at", cancelStep), []byte("-5"))
	if err != nil {
		t.Fatal(err)
	}
	notJSON := strings.TrimSuffix(strings.TrimSpace(string(ex.JSON)), "}") // cut short
	// Each link carries the text as typed.
	cases := []struct{ name, text, frag string }{
		{"invalid by a rule", string(byRule), scenario.ShareText(byRule)},
		{"not JSON", notJSON, scenario.ShareText([]byte(notJSON))},
		{"past an engine bound", string(pastEventBound(t)), scenario.ShareText(pastEventBound(t))},
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	waitFor(t, ctx, "the canonical link", `location.hash.startsWith("#s=")`)
	for _, c := range cases {
		typeInto(t, ctx, "#pg-editor", c.text)
		waitFor(t, ctx, c.name+": its error", `!mcplabEngine.busy && !document.getElementById("pg-error").hidden`)
		if _, err := pollJS[bool](ctx, fmt.Sprintf(`location.hash === %q`, "#"+c.frag), readyTimeout); err != nil {
			t.Errorf("%s: the address bar holds %.60q, want the editor's link %.60q", c.name, evalJSON[string](t, ctx, `location.hash`), "#"+c.frag)
			continue
		}
		fields := evalJSON[[2]string](t, ctx, `[document.getElementById("pg-link").value, document.getElementById("pg-embed").value]`)
		if href := evalJSON[string](t, ctx, `location.href`); fields[0] != href {
			t.Errorf("%s: #pg-link = %.80q, want the address bar's %.80q", c.name, fields[0], href)
		}
		if !strings.Contains(fields[1], "#"+c.frag+`"`) {
			t.Errorf("%s: the embed snippet %.120q does not embed the editor's link", c.name, fields[1])
		}
	}

	// The link of the text that is not JSON opens on that text and its
	// error, under a title that says the linked scenario is not valid.
	linked, _ := openTab(t, siteURL)
	navigate(t, linked, playgroundURL("#"+scenario.ShareText([]byte(notJSON))))
	waitReady(t, linked)
	waitFor(t, linked, "the syntax error", `!mcplabEngine.busy && !document.getElementById("pg-error").hidden`)
	if got := evalJSON[string](t, linked, editorValue); got != notJSON {
		t.Errorf("the link opened %.80q in the editor, want the text as typed %.80q", got, notJSON)
	}
	if title := evalJSON[string](t, linked, `document.getElementById("pg-title").textContent`); title != "The linked scenario is not valid" {
		t.Errorf("the link's title %q, want \"The linked scenario is not valid\"", title)
	}
}

// Rule (Embed): the playground's host-page snippet works as
// copied: it names the lab's own origin (the page's location.origin), not
// a placeholder, which would make the host page ignore every height.
func TestPlaygroundHostSnippetNamesTheOrigin(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL(""))
	waitReady(t, ctx)
	got := evalJSON[string](t, ctx, `document.getElementById("pg-host-snippet").textContent`)
	if want := templates.HostSnippetFor(evalJSON[string](t, ctx, `location.origin`)); got != want || strings.Contains(got, templates.HostOrigin) {
		t.Errorf("the host snippet reads\n%s\nwant\n%s", got, want)
	}
}
