package rulebook_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/rulebook"
	"github.com/mcplab/mcplab/engine/rulebook/notes"
)

// domainFile is the lab's domain notes in the repository.
var domainFile = filepath.Join("..", "..", "docs", "domain.md")

// Rule: a rule's source cites the domain notes as docs/domain.md §N (a
// section that exists, and a subsection of it when one is named), never
// a design file the repository does not hold; and each citation becomes
// a link of docs/rules.md that lands on a heading of docs/domain.md.
func TestRuleSourcesCiteTheNotes(t *testing.T) {
	b, err := os.ReadFile(domainFile)
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, h := range notes.Headings(string(b)) {
		if h.Level >= 2 {
			anchors[h.Anchor] = true
		}
	}
	link := regexp.MustCompile(`\]\(domain\.md#([^)]*)\)`)
	cites := 0
	for _, r := range rulebook.Rules() {
		for _, outside := range []string{"DOMAIN.md", "SCENARIO.md", "ARCHITECTURE.md", "STYLE.md"} {
			if strings.Contains(r.Source, outside) {
				t.Errorf("%s: its source cites %s, which is not in the repository: %q", r.ID, outside, r.Source)
			}
		}
		for _, part := range strings.Split(r.Source, "; ") {
			rest, ok := strings.CutPrefix(part, checks.DomainNotes+" §")
			if !ok {
				if strings.Contains(part, checks.DomainNotes) {
					t.Errorf("%s: %q cites the notes without a section", r.ID, part)
				}
				continue
			}
			cites++
			md := rulebook.MarkdownCitations(part)
			m := link.FindStringSubmatch(md)
			if m == nil || !anchors[m[1]] {
				t.Errorf("%s: %q links %q, not a heading of docs/domain.md", r.ID, part, md)
				continue
			}
			// What follows the linked citation is a parenthesis or nothing:
			// a ", Title" the link did not take names no subsection.
			if after := md[strings.Index(md, ")")+1:]; after != "" && !strings.HasPrefix(after, " (") {
				t.Errorf("%s: %q names a subsection docs/domain.md §%s does not have (left %q)", r.ID, part, rest, after)
			}
		}
	}
	if cites < len(rulebook.Rules()) {
		t.Errorf("only %d citations of the notes among %d rules", cites, len(rulebook.Rules()))
	}
}

// MarkdownCitations links each citation form the code and the rules use,
// relative to docs/, and leaves a section the notes lack as it is.
func TestMarkdownCitations(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"docs/domain.md §1; MCP specification", "[domain.md §1](domain.md#1-request-cancellation-per-transport); MCP specification"},
		{"docs/domain.md §1, The race: both orders are valid (one terminal state)", "[domain.md §1, The race: both orders are valid](domain.md#the-race-both-orders-are-valid) (one terminal state)"},
		{"docs/domain.md §11 (failure no-timeout)", "[domain.md §11](domain.md#11-failure-modes-the-lab-shows) (failure no-timeout)"},
		{"the life of one request (DOMAIN.md §1–3): the", "the life of one request ([domain.md §1–3](domain.md#1-request-cancellation-per-transport)): the"},
		{`(DOMAIN.md, "The two protocol eras"): the`, `([domain.md, "The two protocol eras"](domain.md#the-two-protocol-eras)): the`},
		{`(DOMAIN.md §1, "The server's side of a cancellation"; SCENARIO.md, "Handlers")`, `([domain.md §1, "The server's side of a cancellation"](domain.md#the-servers-side-of-a-cancellation); [scenario.md](scenario.md), "Handlers")`},
		{"the ledger of DOMAIN.md §4: what", "the ledger of [domain.md §4](domain.md#4-idempotency-a-new-json-rpc-id-is-not-deduplication): what"},
		{"the rules of DOMAIN.md on a trace", "the rules of [domain.md](domain.md) on a trace"},
		{"the one entry (ARCHITECTURE.md): every", "the one entry ([architecture.md](architecture.md)): every"},
		{"DOMAIN.md §13 is not a section", "DOMAIN.md §13 is not a section"},
		{"no citation here", "no citation here"},
	} {
		if got := rulebook.MarkdownCitations(c.in); got != c.want {
			t.Errorf("MarkdownCitations(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
