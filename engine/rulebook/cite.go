package rulebook

import (
	"strings"

	"github.com/mcplab/mcplab/engine/rulebook/notes"
)

// MarkdownCitations returns s with each citation of the design notes
// (notes.Citations) turned into a Markdown link relative to docs/: "docs/domain.md
// §N" and "DOMAIN.md §N" (with an optional ", Subsection") link their
// section of domain.md, "SCENARIO.md" links scenario.md and
// "ARCHITECTURE.md" architecture.md; the link's text is the citation's
// Label, naming the file as docs/ holds it ("domain.md §1"). A citation of
// a section the notes do not have is left as it is. Cost: O(len(s) ×
// subsections).
func MarkdownCitations(s string) string {
	var b strings.Builder
	for _, c := range notes.Citations(s) {
		if c.File == "" {
			b.WriteString(c.Text)
			continue
		}
		href := c.File
		if c.Anchor != "" {
			href += "#" + c.Anchor
		}
		b.WriteString("[" + c.Label + "](" + href + ")")
	}
	return b.String()
}
