// Package docsite renders the repository's docs/ as pages of the site:
// each Markdown file of docs/ (but rules.md) becomes a page at
// templates.DocPath (docs/domain.md at docs/domain/, the README at
// docs/, the docs' index), so a citation of the lab's domain notes on a
// rule's page, and every link between the docs, opens something the site
// serves.
//
// The Markdown is rendered with goldmark and its GitHub extensions
// (tables, strikethrough, autolinks, task lists), raw HTML left out. A
// heading's id is the anchor GitHub gives it (notes.Anchor, "-1", "-2"
// for a repeated one), so the fragments the docs already link land. Links
// are rewritten for the site: a link to another file of docs/ opens its
// page; one to rules.md opens the site's own rules reference, /rules/
// (generated from the same rules), and a fragment naming a rule its page
// /rules/<id>/; a built-in scenario's file (../engine/examples/<name>.json)
// opens the scenario's page, s/<name>/. A link to any other file of the
// repository, which the site does not serve, is left as its text.
// Deterministic: the files in name order, no clock.
package docsite

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/a-h/templ"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/rulebook"
	"github.com/mcplab/mcplab/engine/rulebook/notes"
	"github.com/mcplab/mcplab/templates"
)

// Page is one file of docs/ as the site serves it.
type Page struct {
	// File is the Markdown file's name in docs/ ("domain.md").
	File string
	// Path is where the site serves it, relative to the site root
	// (templates.DocPath: "docs/domain/", "docs/" for README.md); the
	// page's file is Path+"index.html".
	Path string
	// Title is the text of its first level-1 heading, the file's name
	// when it has none.
	Title string
	// Body is its HTML, links rewritten for the site.
	Body string
	// IDs are its headings' ids in order: GitHub's anchors.
	IDs []string
}

// Root is the relative path from p's page to the site root ("../../" for
// docs/domain/, "../" for docs/).
func (p Page) Root() string { return strings.Repeat("../", strings.Count(p.Path, "/")) }

// Component is p's whole page (templates.DocPage).
func (p Page) Component() templ.Component {
	return templates.DocPage(p.Root(), p.Title, p.Body, p.File == "README.md")
}

// skipped is the file of docs/ the site does not render: the rules
// reference, which the site serves as its own /rules/ pages.
const skipped = "rules.md"

// Render reads every Markdown file (*.md) at the top of docs, the
// repository's docs/, and renders each but rules.md, in name order. An
// error names the file at fault; a docs/ without README.md is one (the
// docs' index would be missing).
func Render(docs fs.FS) ([]Page, error) {
	files, err := fs.Glob(docs, "*.md")
	if err != nil {
		return nil, fmt.Errorf("docs: %w", err)
	}
	sort.Strings(files)
	served := map[string]bool{}
	for _, f := range files {
		served[f] = true
	}
	if !served["README.md"] {
		return nil, fmt.Errorf("docs: no README.md, the docs' index, among %q", files)
	}
	var pages []Page
	for _, f := range files {
		if f == skipped {
			continue
		}
		src, err := fs.ReadFile(docs, f)
		if err != nil {
			return nil, fmt.Errorf("docs: %w", err)
		}
		p, err := render(f, src, served)
		if err != nil {
			return nil, fmt.Errorf("docs: %s: %w", f, err)
		}
		pages = append(pages, p)
	}
	return pages, nil
}

// markdown is the converter: GitHub's extensions, headings with ids.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(inlineHTMLAsText{}, 100))),
)

// inlineHTMLAsText draws what Markdown reads as inline raw HTML as the
// text it is: the docs write placeholders such as "#example=<name>" in
// prose, which a renderer that leaves raw HTML out would drop. Blocks of
// raw HTML (the generated files' opening comments) stay left out.
type inlineHTMLAsText struct{}

// RegisterFuncs draws ast.RawHTML escaped (renderer.NodeRenderer).
func (inlineHTMLAsText) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			segs := n.(*ast.RawHTML).Segments
			for i := 0; i < segs.Len(); i++ {
				seg := segs.At(i)
				_, _ = w.Write(util.EscapeHTML(seg.Value(src)))
			}
		}
		return ast.WalkSkipChildren, nil
	})
}

// render converts file's Markdown src into its page; served holds the
// files of docs/.
func render(file string, src []byte, served map[string]bool) (Page, error) {
	p := Page{File: file, Path: templates.DocPath(file), Title: file}
	ids := &githubIDs{seen: map[string]int{}}
	doc := markdown.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext(parser.WithIDs(ids))))
	titled := false
	var unlinked []*ast.Link
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if id, ok := n.AttributeString("id"); ok {
				p.IDs = append(p.IDs, string(id.([]byte)))
			}
			if n.Level == 1 && !titled {
				p.Title, titled = plainText(n, src), true
			}
		case *ast.Link:
			href, ok := siteHref(string(n.Destination), p.Root(), served)
			if !ok {
				unlinked = append(unlinked, n)
				break
			}
			n.Destination = []byte(href)
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return Page{}, err
	}
	for _, l := range unlinked {
		unlink(l)
	}
	var b bytes.Buffer
	if err := markdown.Renderer().Render(&b, src, doc); err != nil {
		return Page{}, err
	}
	p.Body = scrollTables(b.String())
	return p, nil
}

// unlink puts l's children in its place: a link the site cannot open
// reads as its text.
func unlink(l *ast.Link) {
	parent := l.Parent()
	for c := l.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, l, c)
		c = next
	}
	parent.RemoveChild(parent, l)
}

// plainText is the text of n's inline content (a heading's words, code
// spans included).
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// siteHref is where a link of a file of docs/ to dest goes on the site,
// from a page whose root is root; ok false for a link to a file the site
// does not serve. Absolute links and fragments of the same page stay.
func siteHref(dest, root string, served map[string]bool) (string, bool) {
	if dest == "" || strings.HasPrefix(dest, "#") || strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") {
		return dest, true
	}
	target, frag, _ := strings.Cut(dest, "#")
	file := path.Join("docs", target)
	switch {
	case file == "docs/"+skipped:
		if isRule(frag) {
			return root + templates.DocPath(skipped) + frag + "/", true
		}
		return root + templates.DocPath(skipped), true
	case path.Dir(file) == "docs" && served[path.Base(file)]:
		href := root + templates.DocPath(path.Base(file))
		if frag != "" {
			href += "#" + frag
		}
		return href, true
	case path.Dir(file) == "engine/examples" && path.Ext(file) == ".json":
		if name := strings.TrimSuffix(path.Base(file), ".json"); examples.IsBuiltin(name) {
			return root + "s/" + name + "/", true
		}
	}
	return "", false
}

// isRule reports whether id names a rule of the reference.
func isRule(id string) bool {
	for _, r := range rulebook.Rules() {
		if string(r.ID) == id {
			return true
		}
	}
	return false
}

// tableOpen is how goldmark opens a table; scrollTables wraps each in a
// box that scrolls sideways, as the site's other tables do (.table-scroll),
// so a wide table never pushes a phone's page sideways.
const tableOpen = "<table>"

// scrollTables wraps every table of body in a .table-scroll box.
func scrollTables(body string) string {
	body = strings.ReplaceAll(body, tableOpen, `<div class="table-scroll" tabindex="0" role="region" aria-label="Table (scrolls sideways on a narrow screen)">`+tableOpen)
	return strings.ReplaceAll(body, "</table>", "</table></div>")
}

// githubIDs gives each heading the anchor GitHub gives it: notes.Anchor
// of its text, a repeated one numbered "-1", "-2", … (parser.IDs).
type githubIDs struct{ seen map[string]int }

// Generate returns the id of a heading with Markdown text value.
func (g *githubIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	a := notes.Anchor(strings.TrimSpace(string(value)))
	n := g.seen[a]
	g.seen[a]++
	if n > 0 {
		return []byte(fmt.Sprintf("%s-%d", a, n))
	}
	return []byte(a)
}

// Put records an id a heading was given by hand.
func (g *githubIDs) Put(value []byte) { g.seen[string(value)]++ }
