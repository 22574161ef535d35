package templates

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestScenarioPageReviewLink: a scenario page offers "Review this
// operation" exactly when its scenario has a call to review ("a
// scenario with no call says so", so no page links to a review that would
// only say that). The link opens the prerendered review page when the site
// gives one (Page.Review), else the live review page on the built-in
// scenario, relative to the page's root; data-edited is where the wasm
// points it once the reader edits the scenario (review/ + "#s=...").
func TestScenarioPageReviewLink(t *testing.T) {
	page := func(name, review string) string {
		tr := readTrace(t, name)
		scen, err := json.Marshal(tr.Scenario)
		if err != nil {
			t.Fatal(err)
		}
		return renderString(t, ScenarioPage(Page{Root: "../../", Name: name, Title: tr.Scenario.Title, Scenario: scen, Trace: tr, Review: review}))
	}
	const live = `<a id="review-operation" class="button-link" href="../../review/#example=a-cancel-then-complete" data-edited="../../review/">Review this operation</a>`
	if html := page("a-cancel-then-complete", ""); !strings.Contains(html, live) {
		t.Errorf("a-cancel-then-complete (one call) lacks %s", live)
	}
	const pre = `<a id="review-operation" class="button-link" href="../../review/ledger-keyed-race/" data-edited="../../review/">Review this operation</a>`
	if html := page("ledger-keyed-race", "../../review/ledger-keyed-race/"); !strings.Contains(html, pre) {
		t.Errorf("ledger-keyed-race (a call, a review page) lacks %s", pre)
	}
	for _, review := range []string{"", "../../review/herd-reference-backoff/"} {
		if html := page("herd-reference-backoff", review); strings.Contains(html, "review-operation") || strings.Contains(html, "Review this operation") {
			t.Errorf("herd-reference-backoff has no call (steps: []) but its page (Review %q) links to a review", review)
		}
	}
}
