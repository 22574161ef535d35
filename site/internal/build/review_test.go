package build

import (
	"strings"
	"testing"
)

// TestBuildReviewsBaseURL: the prerendered review pages' Markdown (the
// text "Copy Markdown" copies into a pull request) links every derived run
// absolutely when the site is built with -base-url, and names them in
// plain text without one (a relative link is dead in a pull request:
// review.Markdown); the page's own run links stay relative either way, so
// the site works under any subpath.
func TestBuildReviewsBaseURL(t *testing.T) {
	const base = "https://lab.example/mcplab/"
	pages := func(baseURL string) map[string]string {
		files := map[string]string{}
		if _, err := buildReviews(func(rel string, data []byte) error { files[rel] = string(data); return nil }, baseURL); err != nil {
			t.Fatal(err)
		}
		return files
	}
	markdown := func(html string) string {
		_, md, ok := strings.Cut(html, `id="review-markdown"`)
		md, _, ok2 := strings.Cut(md, "</textarea>")
		if !ok || !ok2 {
			t.Fatalf("no #review-markdown in the page:\n%.400s", html)
		}
		return md
	}
	with, without := pages(base), pages("")
	for _, ex := range Reviewed() {
		rel := ReviewPath(ex.Name)
		link := "](" + base + ReviewLinkBase(ex) + "#s="
		if md := markdown(with[rel]); !strings.Contains(md, link) {
			t.Errorf("%s built with -base-url %s: the Markdown has no run link %s...:\n%.600s", rel, base, link, md)
		}
		if md := markdown(without[rel]); strings.Contains(md, "](") {
			t.Errorf("%s built without a base URL: the Markdown links a run relatively:\n%.600s", rel, md)
		}
		outside := strings.Replace(with[rel], markdown(with[rel]), "", 1)
		if strings.Contains(outside, base) {
			t.Errorf("%s: the page outside its Markdown names the base URL %s: its links must stay relative", rel, base)
		}
	}
}
