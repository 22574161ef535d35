package site

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/checks"
)

// fetchPage returns the HTML the site serves at u, failing the test
// unless it answers 200.
func fetchPage(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	return string(b)
}

// docShot keeps a screenshot of the whole page for a person to look at.
func docShot(t *testing.T, ctx context.Context, name string, width int64) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	file := filepath.Join(os.TempDir(), fmt.Sprintf("mcplab-docs-%s-%d.jpg", name, width))
	if err := os.WriteFile(file, png, 0o644); err == nil {
		t.Logf("screenshot: %s", file)
	}
}

// TestDocsPages: the site serves the repository's docs/ under /docs/, and
// a rule's page links its citations of the domain notes there. At 1,280
// and 390 px the notes' page and a rule's page do not scroll sideways
// (a wide table scrolls in its own box); every link of every docs page
// opens a page of the site and, with a fragment, an element of it; and a
// rule's source cites the notes once in words, each section a link that
// lands on its heading.
func TestDocsPages(t *testing.T) {
	for _, width := range []int64{1280, 390} {
		ctx := openAt(t, "docs-domain", "/docs/domain/", false, width, 900)
		docShot(t, ctx, "domain", width)
		w := evalJSON[[3]float64](t, ctx, `[document.documentElement.scrollWidth, innerWidth, document.querySelectorAll("#doc table").length - document.querySelectorAll("#doc .table-scroll > table").length]`)
		if w[0] > w[1] || w[2] != 0 {
			t.Errorf("%d px: the notes' page is %v px wide in a %v px window, %v tables outside a scroll box", width, w[0], w[1], w[2])
		}
		if !evalJSON[bool](t, ctx, `!!document.getElementById("the-two-protocol-eras") && document.title.startsWith("The domain")`) {
			t.Errorf("%d px: the notes' page has no heading the-two-protocol-eras, or its title is %q", width, evalJSON[string](t, ctx, `document.title`))
		}

		ctx = openAt(t, "rule-source", "/rules/"+string(checks.CancelNotBlocked)+"/", false, width, 900)
		docShot(t, ctx, "rule", width)
		src := evalJSON[[]string](t, ctx, `[document.getElementById("rule-source").textContent.trim(), ...Array.from(document.querySelectorAll("#rule-source a")).map(a => a.href)]`)
		if src[0] != "the lab's domain notes, §1; §11 (failure cancel-blocked)" || len(src) != 3 {
			t.Fatalf("%d px: the rule's source says %q", width, src)
		}
		if w := evalJSON[[]float64](t, ctx, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
			t.Errorf("%d px: the rule page scrolls sideways (%v > %v)", width, w[0], w[1])
		}
		evalJSON[bool](t, ctx, `(document.querySelectorAll("#rule-source a")[1].click(), true)`)
		waitFor(t, ctx, "the notes' page", `location.pathname.endsWith("/docs/domain/") && document.readyState === "complete"`)
		top := evalJSON[float64](t, ctx, `(document.getElementById(location.hash.slice(1)) || {getBoundingClientRect: () => ({top: -1e6})}).getBoundingClientRect().top`)
		if top < -2 || top > 60 {
			t.Errorf("%d px: following §11 lands with its heading at %v px from the top, want it at the top", width, top)
		}
	}
	checkDocsLinks(t)
}

// checkDocsLinks opens every page of /docs/ linked from the docs' index
// at 390 px and checks that none scrolls sideways (a code block or a
// table scrolls in its own box) and that each of their links of the site
// opens a page and, with a fragment, an element that page has.
func checkDocsLinks(t *testing.T) {
	ctx := openAt(t, "docs-index", "/docs/", false, 390, 900)
	pages := evalJSON[[]string](t, ctx, `[location.href, ...new Set(Array.from(document.querySelectorAll("#doc a[href]")).map(a => a.href.split("#")[0]).filter(h => h.includes("/docs/")))]`)
	if len(pages) < 9 {
		t.Fatalf("the docs' index links %d pages of docs/: %q", len(pages)-1, pages)
	}
	html := map[string]string{}
	links := 0
	for _, p := range pages {
		navigate(t, ctx, p)
		if w := evalJSON[[]float64](t, ctx, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
			t.Errorf("390 px: %s scrolls sideways (%v > %v)", p, w[0], w[1])
		}
		for _, href := range evalJSON[[]string](t, ctx, `Array.from(document.querySelectorAll("#doc a[href]")).map(a => a.href).filter(h => h.startsWith(location.origin))`) {
			u, err := url.Parse(href)
			if err != nil {
				t.Fatal(err)
			}
			page := strings.TrimSuffix(href, "#"+u.Fragment)
			body, ok := html[page]
			if !ok {
				body = fetchPage(t, page)
				html[page] = body
			}
			links++
			switch {
			case body == "":
				t.Errorf("%s links %s, which the site does not serve", p, href)
			case u.Fragment != "" && !strings.Contains(body, `id="`+u.Fragment+`"`):
				t.Errorf("%s links %s: that page has no id %q", p, href, u.Fragment)
			}
		}
	}
	if links < 200 {
		t.Errorf("only %d links across the docs' pages", links)
	}
}
