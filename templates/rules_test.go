package templates

import (
	"bytes"
	"context"
	"html"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule (docs/domain.md's opening; the site serves no docs/ pages): a
// rule's page cites the domain notes in words, "the lab's domain notes,
// §N", with the section and subsection its source names, never a file
// name of docs/ or a design file the repository does not hold, and links
// nothing under docs/.
func TestRulePageSourceNamesTheNotes(t *testing.T) {
	for _, c := range []struct {
		rule trace.RuleID
		want string
	}{
		{checks.NoMessageAfterCancel, "the lab's domain notes, §1; MCP specification, Basic › Utilities › Cancellation"},
		{checks.OneResponsePerRequest, "the lab's domain notes, §1, The race: both orders are valid (one terminal state)"},
		{checks.LateMessageTolerated, "the lab's domain notes, §11 (failure late-message-fatal)"},
		{checks.BufferWithinCapacity, "the lab's domain notes, §7"},
	} {
		r, ok := checks.RuleByID(c.rule)
		if !ok {
			t.Fatalf("no rule %s", c.rule)
		}
		var b bytes.Buffer
		if err := RulePage("../../", checks.RuleEntry{Rule: r}).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		_, dd, _ := strings.Cut(page, `<dd id="rule-source">`)
		dd, _, _ = strings.Cut(dd, "</dd>")
		if got := html.UnescapeString(dd); got != c.want {
			t.Errorf("%s: the page's source says %q, want %q", c.rule, got, c.want)
		}
		for _, bad := range []string{"docs/domain.md", "DOMAIN.md", "SCENARIO.md", `href="docs/`, `/docs/`} {
			if strings.Contains(page, bad) {
				t.Errorf("%s: the page holds %q", c.rule, bad)
			}
		}
	}
}
