package templates

import (
	"context"
	"io"
	"strings"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/rulebook/notes"
)

// rootKey carries, in a render's context, the relative path from the page
// to the site root, so a check line deep in a page links its rule's page.
type rootKey struct{}

// rooted renders c with root in its context (ruleHref reads it).
func rooted(root string, c templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return c.Render(context.WithValue(ctx, rootKey{}, root), w)
	})
}

// ruleHref is the address of rule's reference page, root+"rules/<rule>/":
// relative to the page for a prerendered page (rooted), the site path
// "/rules/<rule>/" for a block the browser renders on its own.
func ruleHref(ctx context.Context, rule string) templ.SafeURL {
	root, ok := ctx.Value(rootKey{}).(string)
	if !ok {
		root = "/"
	}
	return templ.SafeURL(root + "rules/" + rule + "/")
}

// domainNotes is how a page names the lab's domain notes in words.
const domainNotes = "the lab's domain notes"

// sourceParts is a rule's source as its page draws it: each citation of
// the design notes (notes.Citations) a link to its heading on the site's
// page of that file of docs/ (root+DocPath(file)+"#"+anchor). The domain
// notes are named in words once: the first citation reads "the lab's
// domain notes, §1", a later one "§11", so a source citing two sections
// does not repeat whose they are. Cost: O(len(s) × subsections).
func sourceParts(s, root string) []textPart {
	var out []textPart
	named := false
	for _, c := range notes.Citations(s) {
		if c.File == "" {
			out = append(out, textPart{Text: c.Text})
			continue
		}
		text := c.Label
		if c.File == domainNotesFile {
			at := strings.TrimLeft(strings.TrimPrefix(c.Label, c.File), " ,") // "§1, Title", `"Title"` or ""
			switch {
			case at == "":
				text = domainNotes
			case named:
				text = at
			default:
				text = domainNotes + ", " + at
			}
			named = true
		}
		href := root + DocPath(c.File)
		if c.Anchor != "" {
			href += "#" + c.Anchor
		}
		out = append(out, textPart{Text: text, Href: href})
	}
	return out
}

// domainNotesFile is the file of docs/ that holds the domain notes, as
// notes.Citations names it (checks.DomainNotes without "docs/").
var domainNotesFile = strings.TrimPrefix(checks.DomainNotes, "docs/")

// DocPath is the page the site serves for file, a Markdown file of the
// repository's docs/ ("domain.md"), relative to the site root:
// "docs/<name>/" ("docs/domain/"), "docs/" for README.md (the docs'
// index), and "rules/" for rules.md, which the site's own rules reference
// serves (both are generated from the same rules).
func DocPath(file string) string {
	switch file {
	case "README.md":
		return "docs/"
	case "rules.md":
		return "rules/"
	}
	return "docs/" + strings.TrimSuffix(file, ".md") + "/"
}

// more is how many names follow the first n shown.
func more(names []string, n int) int { return max(len(names)-n, 0) }

// firstN is names cut to n.
func firstN(names []string, n int) []string { return names[:min(len(names), n)] }

// maxListed bounds the built-ins a rule's page lists per verdict; the
// rest are counted.
const maxListed = 12
