package site

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/rulebook"
)

// TestRulesPages: the rules reference is on the site, at 1,280 and 390
// px without sideways scrolling: the index lists every rule (checks.Rules
// and message-valid), each linking its page; a rule's page says what it
// checks and names a correct built-in that passes it and a broken one that
// fails it, both pages that exist; and every check line of a scenario page
// links its rule's page, prerendered and once the simulator has run.
func TestRulesPages(t *testing.T) {
	get := func(url string) int {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	rule, _ := checks.RuleByID(checks.NoMessageAfterCancel)
	for _, width := range []int64{1280, 390} {
		ctx := openAt(t, "rules-index", "/rules/", false, width, 900)
		type row struct{ Rule, Href string }
		rows := evalJSON[[]row](t, ctx, `Array.from(document.querySelectorAll("#rules-index tr[data-rule]")).map(tr => ({Rule: tr.dataset.rule, Href: tr.querySelector("th a").href}))`)
		if len(rows) != len(rulebook.Rules()) {
			t.Errorf("%d px: the index lists %d rules, want %d", width, len(rows), len(rulebook.Rules()))
		}
		for _, r := range rows {
			if !strings.HasSuffix(r.Href, "/rules/"+r.Rule+"/") || get(r.Href) != http.StatusOK {
				t.Errorf("%d px: rule %s links %s, not its page", width, r.Rule, r.Href)
			}
		}
		if w := evalJSON[[]float64](t, ctx, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
			t.Errorf("%d px: the index scrolls sideways (%v > %v)", width, w[0], w[1])
		}

		ctx = openAt(t, "rule-page", "/rules/"+string(rule.ID)+"/", false, width, 900)
		type page struct{ Checks, Passer, Failer string }
		p := evalJSON[page](t, ctx, `({Checks: document.getElementById("rule-checks").textContent, Passer: document.querySelector("#rule-passer a")?.href ?? "", Failer: document.querySelector("#rule-failer a")?.href ?? ""})`)
		if p.Checks != rule.Checks || p.Passer == "" || p.Failer == "" || strings.Contains(p.Passer, "/s/broken-") || !strings.Contains(p.Failer, "/s/broken-") {
			t.Errorf("%d px: the page of %s: %+v", width, rule.ID, p)
		}
		for _, href := range []string{p.Passer, p.Failer} {
			if href != "" && get(href) != http.StatusOK {
				t.Errorf("%d px: %s does not open", width, href)
			}
		}
		if w := evalJSON[[]float64](t, ctx, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
			t.Errorf("%d px: the rule page scrolls sideways (%v > %v)", width, w[0], w[1])
		}
	}

	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/s/broken-respond-after-cancel/")
	const lines = `Array.from(document.querySelectorAll("tr.check[data-rule]")).map(tr => [tr.dataset.rule, tr.querySelector("a.rule-ref")?.href ?? ""])`
	for _, when := range []string{"prerendered", "after the run"} {
		if when == "after the run" {
			waitReady(t, ctx)
		}
		got := evalJSON[[][2]string](t, ctx, lines)
		if len(got) == 0 {
			t.Fatalf("%s: no check lines", when)
		}
		for _, l := range got {
			if !strings.HasSuffix(l[1], "/rules/"+l[0]+"/") || get(l[1]) != http.StatusOK {
				t.Errorf("%s: check %s links %q, not its rule's page", when, l[0], l[1])
			}
		}
	}
}
