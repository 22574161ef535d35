package templates

import (
	"bytes"
	"context"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// ruleSourceOf renders rule r's page and returns its Source as a reader
// reads it (tags dropped) and its links, each as "text → href".
func ruleSourceOf(t *testing.T, r checks.Rule) (text string, links []string) {
	t.Helper()
	var b bytes.Buffer
	if err := RulePage("../../", checks.RuleEntry{Rule: r}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	_, dd, _ := strings.Cut(b.String(), `<dd id="rule-source">`)
	dd, _, _ = strings.Cut(dd, "</dd>")
	for _, m := range regexp.MustCompile(`<a class="cite" href="([^"]*)">([^<]*)</a>`).FindAllStringSubmatch(dd, -1) {
		links = append(links, html.UnescapeString(m[2])+" → "+html.UnescapeString(m[1]))
	}
	return html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(dd, "")), links
}

// Rule (docs/domain.md's opening: its sections are cited by number): a
// rule's page names the domain notes in words once, "the lab's domain
// notes, §N", then only the section ("§11"), and links each citation to
// its heading on the site's page of the notes (docs/domain/#anchor, the
// anchor GitHub gives it), never naming a file of docs/.
func TestRulePageSourceLinksTheNotes(t *testing.T) {
	const page = "../../docs/domain/#"
	for _, c := range []struct {
		rule  trace.RuleID
		text  string
		links []string
	}{
		{checks.NoMessageAfterCancel, "the lab's domain notes, §1; MCP specification, Basic › Utilities › Cancellation",
			[]string{"the lab's domain notes, §1 → " + page + "1-request-cancellation-per-transport"}},
		{checks.OneResponsePerRequest, "the lab's domain notes, §1, The race: both orders are valid (one terminal state)",
			[]string{"the lab's domain notes, §1, The race: both orders are valid → " + page + "the-race-both-orders-are-valid"}},
		{checks.CancelNotBlocked, "the lab's domain notes, §1; §11 (failure cancel-blocked)",
			[]string{"the lab's domain notes, §1 → " + page + "1-request-cancellation-per-transport", "§11 → " + page + "11-failure-modes-the-lab-shows"}},
		{checks.StaleProgressIgnored, "the lab's domain notes, §2–3",
			[]string{"the lab's domain notes, §2–3 → " + page + "2-timeouts-need-two-clocks"}},
		{checks.InitializedBeforeRequests, "MCP specification, Basic › Lifecycle", nil},
	} {
		r, ok := checks.RuleByID(c.rule)
		if !ok {
			t.Fatalf("no rule %s", c.rule)
		}
		text, links := ruleSourceOf(t, r)
		if text != c.text || !slices.Equal(links, c.links) {
			t.Errorf("%s: the page's source says %q with links %q, want %q with %q", c.rule, text, links, c.text, c.links)
		}
	}
	for _, r := range checks.Rules {
		text, _ := ruleSourceOf(t, r)
		if strings.Count(text, "domain notes") > 1 || strings.Contains(text, ".md") {
			t.Errorf("%s: the page's source says %q: the notes named more than once, or a file name", r.ID, text)
		}
	}
}

// DocPath places each file of docs/ on the site: the README is the docs'
// index, rules.md is the site's own rules reference.
func TestDocPath(t *testing.T) {
	for file, want := range map[string]string{"README.md": "docs/", "domain.md": "docs/domain/", "rules.md": "rules/", "scenario.md": "docs/scenario/"} {
		if got := DocPath(file); got != want {
			t.Errorf("DocPath(%q) = %q, want %q", file, got, want)
		}
	}
}
