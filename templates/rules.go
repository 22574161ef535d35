package templates

import (
	"context"
	"io"
	"strings"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/checks"
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

// ruleSource is a rule's source as a rule's page says it. The site serves
// no pages of docs/, so a citation of the domain notes
// (checks.DomainNotes + " §N") names them in words, "the lab's domain
// notes, §N", rather than linking a page that is not there; docs/rules.md
// links the same citations to docs/domain.md.
func ruleSource(s string) string {
	return strings.ReplaceAll(s, checks.DomainNotes+" §", "the lab's domain notes, §")
}

// more is how many names follow the first n shown.
func more(names []string, n int) int { return max(len(names)-n, 0) }

// firstN is names cut to n.
func firstN(names []string, n int) []string { return names[:min(len(names), n)] }

// maxListed bounds the built-ins a rule's page lists per verdict; the
// rest are counted.
const maxListed = 12
