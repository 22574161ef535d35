package docsite

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/rulebook"
	"github.com/mcplab/mcplab/engine/rulebook/notes"
	"github.com/mcplab/mcplab/templates"
)

// docsDir is the repository's docs/; the test runs in site/internal/docsite.
var docsDir = filepath.Join("..", "..", "..", "docs")

func renderDocs(t *testing.T) []Page {
	t.Helper()
	pages, err := Render(os.DirFS(docsDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 9 {
		t.Fatalf("%d pages rendered, want every file of docs/ but rules.md", len(pages))
	}
	return pages
}

// site is every page a link of a rendered doc may open, by its path from
// the site root ("/docs/domain/"), each with the ids a fragment may name.
func site(pages []Page) map[string][]string {
	out := map[string][]string{"/rules/": nil}
	for _, p := range pages {
		out["/"+p.Path] = p.IDs
	}
	for _, r := range rulebook.Rules() {
		out["/rules/"+string(r.ID)+"/"] = nil
	}
	for _, ex := range examples.All() {
		out["/s/"+ex.Name+"/"] = nil
	}
	return out
}

var hrefAttr = regexp.MustCompile(`href="([^"]*)"`)

// resolves says what is wrong with href, a link on the page at base (a
// path from the site root), or "" when it opens a page of pages and, with
// a fragment, an id of that page.
func resolves(base, href string, pages map[string][]string) string {
	ref, err := url.Parse(href)
	if err != nil {
		return err.Error()
	}
	to := (&url.URL{Path: base}).ResolveReference(ref)
	ids, ok := pages[to.Path]
	switch {
	case !ok:
		return "no page " + to.Path
	case to.Fragment != "" && !slices.Contains(ids, to.Fragment):
		return to.Path + " has no id " + strconv.Quote(to.Fragment)
	}
	return ""
}

// Rule: every relative link of every rendered doc opens a page the site
// serves (a page of docs/, the rules reference, a rule's page, a built-in
// scenario's page) and, with a fragment, an id that page has; none names
// a Markdown file or a file of the repository the site does not serve.
func TestLinksResolveOnTheSite(t *testing.T) {
	pages := renderDocs(t)
	served := site(pages)
	links := 0
	for _, p := range pages {
		for _, m := range hrefAttr.FindAllStringSubmatch(p.Body, -1) {
			href := m[1]
			if strings.Contains(href, "://") || strings.HasPrefix(href, "mailto:") {
				continue
			}
			links++
			if strings.Contains(href, ".md") || strings.Contains(href, "engine/") {
				t.Errorf("%s links %q, a file of the repository", p.File, href)
			}
			if bad := resolves("/"+p.Path, href, served); bad != "" {
				t.Errorf("%s links %q: %s", p.File, href, bad)
			}
		}
	}
	if links < 200 {
		t.Errorf("only %d relative links across docs/, want the docs' hundreds", links)
	}
}

// githubAnchors returns the fragments GitHub gives the headings of a
// Markdown text in order (notes.Headings).
func githubAnchors(src string) []string {
	var out []string
	for _, h := range notes.Headings(src) {
		out = append(out, h.Anchor)
	}
	return out
}

// Rule (the docs link headings by GitHub's anchors): every heading of a
// rendered doc carries the anchor GitHub gives it, in order, and the
// domain notes' page has the headings the rules cite.
func TestHeadingsCarryGitHubAnchors(t *testing.T) {
	for _, p := range renderDocs(t) {
		src, err := os.ReadFile(filepath.Join(docsDir, p.File))
		if err != nil {
			t.Fatal(err)
		}
		if want := githubAnchors(string(src)); !slices.Equal(p.IDs, want) {
			t.Errorf("%s: heading ids %q, want GitHub's %q", p.File, p.IDs, want)
		}
		for _, id := range p.IDs {
			if !strings.Contains(p.Body, `id="`+id+`"`) {
				t.Errorf("%s: no element has id %q", p.File, id)
			}
		}
		if p.File == "domain.md" {
			for _, want := range []string{"1-request-cancellation-per-transport", "the-two-protocol-eras", "11-failure-modes-the-lab-shows", "practice-lab-reserve_inventory"} {
				if !slices.Contains(p.IDs, want) {
					t.Errorf("domain.md: no heading %q among %q", want, p.IDs)
				}
			}
		}
	}
}

// Rule (a rule's source cites the domain notes): on every rule's page
// each citation of the notes is a link, and it opens the site's page of
// the notes at a heading that page has.
func TestRuleSourcesOpenTheRenderedNotes(t *testing.T) {
	served := site(renderDocs(t))
	for _, r := range rulebook.Rules() {
		var b bytes.Buffer
		if err := templates.RulePage("../../", checks.RuleEntry{Rule: r}).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		_, dd, _ := strings.Cut(b.String(), `<dd id="rule-source">`)
		dd, _, _ = strings.Cut(dd, "</dd>")
		hrefs := hrefAttr.FindAllStringSubmatch(dd, -1)
		if want := len(notes.Citations(r.Source)) > 1 || strings.Contains(r.Source, checks.DomainNotes); want && len(hrefs) == 0 {
			t.Errorf("%s: its source %q links nothing", r.ID, r.Source)
		}
		for _, m := range hrefs {
			if !strings.Contains(m[1], "docs/domain/#") {
				t.Errorf("%s: its source links %q, not a heading of the notes' page", r.ID, m[1])
			}
			if bad := resolves("/rules/"+string(r.ID)+"/", m[1], served); bad != "" {
				t.Errorf("%s: its source links %q: %s", r.ID, m[1], bad)
			}
		}
	}
}

// The rules index links, in its text, the notes' page and the docs'
// index, both pages the site renders (the header's link to the docs, on
// every page, is apart from its text).
func TestRulesIndexOpensTheDocs(t *testing.T) {
	served := site(renderDocs(t))
	var b bytes.Buffer
	if err := templates.RulesIndex("../", nil).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	text = text[strings.Index(text, "<main"):]
	var docs []string
	for _, m := range hrefAttr.FindAllStringSubmatch(text, -1) {
		if strings.Contains(m[1], "docs/") {
			docs = append(docs, m[1])
			if bad := resolves("/rules/", m[1], served); bad != "" {
				t.Errorf("the rules index links %q: %s", m[1], bad)
			}
		}
	}
	if !slices.Equal(docs, []string{"../docs/domain/", "../docs/"}) {
		t.Errorf("the rules index links %q of docs/, want the notes' page and the docs' index", docs)
	}
}

// Each kind of link a doc holds goes where the site has it, and a link
// to a file the site does not serve reads as its text.
func TestSiteHrefs(t *testing.T) {
	served := map[string]bool{"README.md": true, "domain.md": true, "rules.md": true}
	for _, c := range []struct{ in, want string }{
		{"[a](domain.md#the-two-protocol-eras)", `<a href="../../docs/domain/#the-two-protocol-eras">a</a>`},
		{"[a](README.md)", `<a href="../../docs/">a</a>`},
		{"[a](rules.md)", `<a href="../../rules/">a</a>`},
		{"[a](rules.md#no-message-after-cancel)", `<a href="../../rules/no-message-after-cancel/">a</a>`},
		{"[a](../engine/examples/a-cancel-then-complete.json)", `<a href="../../s/a-cancel-then-complete/">a</a>`},
		{"[a](#here)", `<a href="#here">a</a>`},
		{"[a](https://modelcontextprotocol.io/)", `<a href="https://modelcontextprotocol.io/">a</a>`},
		{"[`x`](../engine/checks/rules.go)", `<code>x</code>`},
		{"[a](../engine/examples/not-a-builtin.json)", `a`},
		{"[a](missing.md)", `a`},
		{"opens #example=<name> there", `opens #example=&lt;name&gt; there`},
	} {
		p, err := render("x.md", []byte(c.in), served)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p.Body), "<p>"), "</p>")); got != c.want {
			t.Errorf("%s renders %q, want %q", c.in, got, c.want)
		}
	}
}

// A table scrolls in its own box; the title is the first heading's text;
// a docs/ without its index is an error.
func TestRenderPage(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md": {Data: []byte("# The `lab` docs\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Again\n\n## Again\n")},
		"rules.md":  {Data: []byte("# Rules\n")},
	}
	pages, err := Render(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 {
		t.Fatalf("%d pages, want the README alone (rules.md is the site's /rules/)", len(pages))
	}
	p := pages[0]
	if p.Title != "The lab docs" || p.Path != "docs/" || p.Root() != "../" || !slices.Equal(p.IDs, []string{"the-lab-docs", "again", "again-1"}) {
		t.Errorf("page %+v", p)
	}
	if !strings.Contains(p.Body, `<div class="table-scroll" tabindex="0" role="region"`) || !strings.Contains(p.Body, "</table></div>") {
		t.Errorf("the table is not in a .table-scroll box: %s", p.Body)
	}
	if _, err := Render(fstest.MapFS{"domain.md": {Data: []byte("# x")}}); err == nil || !strings.Contains(err.Error(), "README.md") {
		t.Errorf("docs/ without README.md: error %v, want one naming README.md", err)
	}
}

// Every page of docs/ reads right in both places it is read: in the
// repository (GitHub renders the folder) and on the site (/docs/), so no
// page calls itself "this folder" or "this directory", which is true of
// the repository only; the index opens by saying what these pages are.
func TestDocsReadRightOnTheSite(t *testing.T) {
	for _, p := range renderDocs(t) {
		text := strings.ToLower(p.Body)
		for _, word := range []string{"this folder", "this directory"} {
			if strings.Contains(text, word) {
				i := strings.Index(text, word)
				t.Errorf("%s says %q, true of the repository only: …%s…", p.File, word, p.Body[max(i-80, 0):min(i+80, len(p.Body))])
			}
		}
		if p.File == "README.md" && !strings.Contains(p.Body, "Everything a maintainer needs is in these pages and the code") {
			t.Errorf("the docs' index opens %.200q, want it to say what these pages hold", p.Body)
		}
	}
}
