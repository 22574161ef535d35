package site

import (
	"strings"
	"testing"
)

// Rule: a page's Try-it is true in the browser
// and an edit is shareable from the page itself. The race page opens on
// what its Try-it says it starts from ("completion wins": the server
// commits at 320 ms, before the cancel sent at 300 ms arrives at 350 ms);
// following it (the cancel at 0 ms) flips the outcome to "cancellation
// wins", and the headline states that outcome before and after;
// the address bar then holds the edited scenario's #s= link, and
// opening that link in a fresh tab shows the edited run with the control
// where the edit left it. The page offers "Copy link" and "Copy embed".
func TestTryItAndShareFromScenarioPage(t *testing.T) {
	const name = "race-cancel-in-flight"
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(name))
	waitReady(t, ctx)

	try := evalJSON[string](t, ctx, `document.querySelector(".try")?.textContent ?? ""`)
	if !strings.Contains(try, "from “completion wins” to “cancellation wins”") || !strings.Contains(try, "“Client cancels") {
		t.Fatalf("Try-it %q: want the flip from completion wins to cancellation wins, in the control's label", try)
	}
	if got := evalJSON[outcome](t, ctx, outcomeJS); got.Key != "completion-wins" {
		t.Fatalf("on load the page shows %+v, the Try-it says it starts from completion-wins", got)
	}
	if h := evalJSON[string](t, ctx, verdictJS); !strings.HasPrefix(h, "completion wins") {
		t.Errorf("on load the headline says %q, want the outcome the Try-it starts from, \"completion wins\"", h)
	}
	if h := evalJSON[string](t, ctx, `location.hash`); h != "" {
		t.Fatalf("before any edit the address has fragment %q, want none", h)
	}
	for _, id := range []string{"lab-copy-link", "lab-copy-embed"} {
		if !evalJSON[bool](t, ctx, `(() => { const b = document.getElementById("`+id+`"); return !!b && !b.disabled; })()`) {
			t.Errorf("#%s is missing or disabled on a ready page", id)
		}
	}

	setControl(t, ctx, "steps[2].at", "0")
	waitFor(t, ctx, "the outcome to flip to cancellation-wins",
		`document.querySelector("#outcome-0")?.dataset.outcome === "cancellation-wins"`)
	waitFor(t, ctx, "the morph to settle", `!mcplabMorph.busy`)
	if h := evalJSON[string](t, ctx, verdictJS); !strings.HasPrefix(h, "cancellation wins") {
		t.Errorf("after the flip the headline says %q, want the announced outcome, \"cancellation wins\"", h)
	}
	waitFor(t, ctx, "the address bar to hold the edit's #s= link", `location.hash.startsWith("#s=")`)
	link := evalJSON[string](t, ctx, `location.href`)

	fresh, _ := openTab(t, siteURL)
	navigate(t, fresh, link)
	if err := pollReady(fresh); err != nil {
		t.Fatalf("opening %s: %v; the page says %q", link, err, evalJSON[string](t, fresh, `document.getElementById("lab-error")?.textContent ?? ""`))
	}
	if got := evalJSON[outcome](t, fresh, outcomeJS); got.Key != "cancellation-wins" {
		t.Errorf("the shared link shows %+v, want the edited run's cancellation-wins", got)
	}
	if got := evalJSON[string](t, fresh, `document.querySelector('[data-path="steps[2].at"]').value`); got != "0" {
		t.Errorf("the shared link's cancel slider is at %q, want the edit's 0", got)
	}
}
