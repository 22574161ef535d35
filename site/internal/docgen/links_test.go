package docgen

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/rulebook/notes"
)

// anchors returns the fragments GitHub gives the headings of a Markdown
// text (notes.Headings).
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, h := range notes.Headings(text) {
		out[h.Anchor] = true
	}
	return out
}

// docFiles is every Markdown file of docs/ and the README, by path from
// the repository's root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(repoFile("docs/*.md"))
	if err != nil || len(files) < 10 {
		t.Fatalf("docs/: %d files, %v", len(files), err)
	}
	return append(files, repoFile("README.md"))
}

// A maintainer needs nothing outside the repository: every relative link
// of docs/ and the README opens a file of the repository and, with a
// fragment into a Markdown file, a heading of it; every "§N" citation of
// the domain notes names one of its twelve sections; and no page names a
// design file the repository does not hold, but as code (`DOMAIN.md §N`)
// where it explains how the code's comments cite docs/domain.md.
func TestDocsResolveInTheRepository(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	cite := regexp.MustCompile(`(?:domain\.md|DOMAIN\.md|domain notes,) §(\d+)`)
	links := 0
	for _, path := range docFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		name := strings.TrimPrefix(filepath.ToSlash(path), filepath.ToSlash(repoFile("."))+"/")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, frag, _ := strings.Cut(target, "#")
			full := path
			if file != "" {
				full = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
			}
			got, err := os.ReadFile(full)
			if err != nil {
				t.Errorf("%s links %s: %v", name, target, err)
				continue
			}
			if frag != "" && strings.HasSuffix(full, ".md") && !anchors(string(got))[frag] {
				t.Errorf("%s links %s: %s has no heading #%s", name, target, file, frag)
			}
		}
		for _, m := range cite.FindAllStringSubmatch(text, -1) {
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > len(notes.DomainSections) {
				t.Errorf("%s cites %q: the domain notes have §1 to §%d", name, m[0], len(notes.DomainSections))
			}
		}
		for _, outside := range []string{"DOMAIN.md", "SCENARIO.md", "ARCHITECTURE.md", "STYLE.md"} {
			if strings.Count(text, outside) > strings.Count(text, "`"+outside) {
				t.Errorf("%s names %s, a file the repository does not hold: cite docs/ instead", name, outside)
			}
		}
	}
	if links < 100 {
		t.Errorf("only %d relative links found: the scan is not over docs/", links)
	}
}

// The anchors a link may name are GitHub's, repeats numbered.
func TestAnchors(t *testing.T) {
	got := anchors("# The scenario format\n## `client`\n```\n# not a heading\n```\n### `progress`\n### `progress`\n")
	for _, want := range []string{"the-scenario-format", "client", "progress", "progress-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] || len(got) != 4 {
		t.Errorf("anchors %v, want 4 and none from a code block", got)
	}
}
