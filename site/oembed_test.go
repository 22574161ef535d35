package site

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/templates"
)

// TestOEmbed proves the static oEmbed: built with -base-url, every
// scenario page announces an oEmbed 1.0 "rich" response
// (<link rel="alternate" type="application/json+oembed">, oembed.com §4)
// whose URL is absolute under the base URL, and that file holds the page's
// title and an iframe of the page's ?embed=1 form, sized as the embed
// snippets are (templates.EmbedHeight).
func TestOEmbed(t *testing.T) {
	get := func(u string) string {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", u, resp.Status)
		}
		return string(b)
	}
	for _, ex := range examples.All() {
		page := get(pageURL(ex.Name))
		wantLink := `<link rel="alternate" type="application/json+oembed" href="` + testBaseURL + "s/" + ex.Name + `/oembed.json"`
		if !strings.Contains(page, wantLink) {
			t.Errorf("%s: page lacks the oEmbed discovery link %s", ex.Name, wantLink)
			continue
		}
		var o templates.OEmbed
		if err := json.Unmarshal([]byte(get(pageURL(ex.Name)+"oembed.json")), &o); err != nil {
			t.Fatalf("%s: oembed.json: %v", ex.Name, err)
		}
		src := `src="` + testBaseURL + "s/" + ex.Name + `/?embed=1"`
		if o.Version != "1.0" || o.Type != "rich" || o.ProviderURL != testBaseURL || !strings.HasPrefix(o.Title, ex.Title) ||
			!strings.Contains(o.HTML, src) || o.Width <= 0 || o.Height != templates.EmbedHeight {
			t.Errorf("%s: oEmbed %+v: want version 1.0, type rich, provider %s, title %q…, html with %s, height %d", ex.Name, o, testBaseURL, ex.Title, src, templates.EmbedHeight)
		}
	}
	// The tools have no oEmbed: they are not one embeddable scenario.
	if p := get(siteURL + "/playground/"); strings.Contains(p, "json+oembed") {
		t.Errorf("the playground announces an oEmbed response")
	}
}
