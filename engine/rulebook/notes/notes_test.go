package notes_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/rulebook/notes"
)

// domainFile is the lab's domain notes in the repository.
var domainFile = filepath.Join("..", "..", "..", "docs", "domain.md")

// headings returns the Markdown headings of path in order, each as its
// level and its text (notes.Headings).
func headings(t *testing.T, path string) (levels []int, texts []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range notes.Headings(string(b)) {
		levels, texts = append(levels, h.Level), append(texts, h.Text)
	}
	return levels, texts
}

// Rule (docs/domain.md's opening: its numbers and subsection titles are
// stable): DomainSections is exactly the numbered sections of
// docs/domain.md, §1 to §12 in order, each subsection it names a "###"
// heading inside its own section.
func TestDomainSectionsAreTheNotesHeadings(t *testing.T) {
	levels, texts := headings(t, domainFile)
	numbered := regexp.MustCompile(`^(\d+)\. `)
	var got []notes.Section
	for i, text := range texts {
		switch {
		case levels[i] == 2 && numbered.MatchString(text):
			n, _ := strconv.Atoi(numbered.FindStringSubmatch(text)[1])
			got = append(got, notes.Section{N: n, Title: strings.TrimPrefix(text, numbered.FindString(text))})
		case levels[i] == 3 && len(got) > 0:
			got[len(got)-1].Subsections = append(got[len(got)-1].Subsections, text)
		}
	}
	if len(got) != 12 || len(notes.DomainSections) != 12 {
		t.Fatalf("docs/domain.md has %d numbered sections and DomainSections %d, want 12 each", len(got), len(notes.DomainSections))
	}
	for i, want := range notes.DomainSections {
		g := got[i]
		if g.N != i+1 || want.N != i+1 || g.Title != want.Title {
			t.Errorf("section %d: docs/domain.md has %q, DomainSections %d %q", i+1, g.Heading(), want.N, want.Heading())
		}
		for _, sub := range want.Subsections {
			if !slices.Contains(g.Subsections, sub) {
				t.Errorf("§%d: docs/domain.md has no subsection %q under it (it has %q)", want.N, sub, g.Subsections)
			}
		}
	}
	for _, cited := range []string{"The server's side of a cancellation", "The race: both orders are valid", "The two protocol eras"} {
		if !slices.Contains(notes.DomainSections[0].Subsections, cited) {
			t.Errorf("§1 lacks the subsection the code cites, %q", cited)
		}
	}
	if !slices.Contains(texts, "Glossary") {
		t.Error("docs/domain.md has no glossary")
	}
}

// Anchor gives GitHub's fragment for a heading.
func TestAnchor(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1. Request cancellation, per transport", "1-request-cancellation-per-transport"},
		{"The server's side of a cancellation", "the-servers-side-of-a-cancellation"},
		{"Practice lab: `reserve_inventory`", "practice-lab-reserve_inventory"},
		{"4. Idempotency: a new JSON-RPC id is not deduplication", "4-idempotency-a-new-json-rpc-id-is-not-deduplication"},
	} {
		if got := notes.Anchor(c.in); got != c.want {
			t.Errorf("Anchor(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Citations splits a rule's source into its plain runs and its citations,
// each with the file of docs/ and the heading it opens; the runs' texts
// give the source back.
func TestCitations(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []notes.Cite
	}{
		{"docs/domain.md §1; docs/domain.md §11 (failure cancel-blocked)", []notes.Cite{
			{Text: "docs/domain.md §1", Label: "domain.md §1", File: "domain.md", Anchor: "1-request-cancellation-per-transport"},
			{Text: "; "},
			{Text: "docs/domain.md §11", Label: "domain.md §11", File: "domain.md", Anchor: "11-failure-modes-the-lab-shows"},
			{Text: " (failure cancel-blocked)"},
		}},
		{"MCP specification; docs/domain.md §1, The two protocol eras", []notes.Cite{
			{Text: "MCP specification; "},
			{Text: "docs/domain.md §1, The two protocol eras", Label: "domain.md §1, The two protocol eras", File: "domain.md", Anchor: "the-two-protocol-eras"},
		}},
		{"docs/domain.md §2–3", []notes.Cite{{Text: "docs/domain.md §2–3", Label: "domain.md §2–3", File: "domain.md", Anchor: "2-timeouts-need-two-clocks"}}},
		{"see SCENARIO.md", []notes.Cite{{Text: "see "}, {Text: "SCENARIO.md", Label: "scenario.md", File: "scenario.md"}}},
		{"DOMAIN.md §13 is not a section", []notes.Cite{{Text: "DOMAIN.md §13 is not a section"}}},
		{"", []notes.Cite{{Text: ""}}},
	} {
		got := notes.Citations(c.in)
		if !slices.Equal(got, c.want) {
			t.Errorf("Citations(%q)\n got %+v\nwant %+v", c.in, got, c.want)
		}
		var joined strings.Builder
		for _, p := range got {
			joined.WriteString(p.Text)
		}
		if joined.String() != c.in {
			t.Errorf("Citations(%q): the texts join to %q", c.in, joined.String())
		}
	}
}

// Rule (GitHub's heading anchors, which docs/ links): a heading's anchor
// is Anchor of its text, a repeat numbered "-1", "-2" in order, and a
// "#" line inside fenced code is not a heading.
func TestHeadingsNumberRepeatsAndSkipCode(t *testing.T) {
	got := notes.Headings("# The scenario format\n## `client`\n```\n# not a heading\n```\n### `progress`\n### `progress`\n")
	want := []notes.Heading{
		{1, "The scenario format", "the-scenario-format"},
		{2, "`client`", "client"},
		{3, "`progress`", "progress"},
		{3, "`progress`", "progress-1"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Headings = %+v, want %+v", got, want)
	}
}
