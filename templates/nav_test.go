package templates

import (
	"regexp"
	"strings"
	"testing"
)

// Every page's header links every section of the site, relative to the
// page: the scenarios, the playground, the explorer, the import and
// review pages, the rules' reference and the docs (the repository's docs/
// rendered as pages), so none is reachable only through another page.
func TestHeaderLinksEverySection(t *testing.T) {
	navOf := regexp.MustCompile(`(?s)<nav class="site-nav"[^>]*>(.*?)</nav>`)
	for _, tc := range []struct {
		name, root, html string
	}{
		{"the index", "./", renderString(t, IndexPage("./", nil))},
		{"a docs page", "../../", renderString(t, DocPage("../../", "Domain", "<h1>Domain</h1>", false))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := navOf.FindStringSubmatch(tc.html)
			if m == nil {
				t.Fatal("no site navigation in the header")
			}
			for _, section := range []string{"", "playground/", "explore/", "import/", "review/", "rules/", "docs/"} {
				if !strings.Contains(m[1], `href="`+tc.root+section+`"`) {
					t.Errorf("the header's navigation does not link %q: %s", tc.root+section, m[1])
				}
			}
		})
	}
}
