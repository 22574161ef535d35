package site

// site serve and the site on any host: every built page
// carries its CSP itself, the build writes the headers a static host should
// send, and site serve never redirects to another host and serves the
// precompressed copies.

import (
	"bytes"
	"html"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/site/internal/build"
	"github.com/mcplab/mcplab/site/internal/serve"
)

// cspMetaRE finds a CSP meta element and captures its content.
var cspMetaRE = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)

// Rule: every page the build writes carries serve.MetaCSP as
// a <meta http-equiv> before any element the policy governs (right after
// the charset), exactly once, so a static host that sends no header still
// enforces it; and the build's _headers file sends the whole policy (with
// frame-ancestors, which a meta cannot carry) and the other security
// headers to every path.
func TestBuiltPagesCarryMetaCSP(t *testing.T) {
	dir := ensureSite(t)
	pages := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		metas := cspMetaRE.FindAllSubmatch(b, -1)
		if len(metas) != 1 {
			t.Errorf("%s: %d CSP meta elements, want 1", rel, len(metas))
			return nil
		}
		if got := html.UnescapeString(string(metas[0][1])); got != serve.MetaCSP {
			t.Errorf("%s: CSP meta content %q, want %q", rel, got, serve.MetaCSP)
		}
		head := `<head><meta charset="utf-8">` + string(metas[0][0])
		if !bytes.Contains(b, []byte(head)) {
			t.Errorf("%s: the CSP meta is not the first element after the charset", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The index, the playground, the import page and one per scenario.
	if pages < 4 {
		t.Errorf("found %d pages in the built site, want at least 4", pages)
	}
	if !strings.Contains(serve.MetaCSP, "script-src 'self' 'wasm-unsafe-eval'") || strings.Contains(serve.MetaCSP, "unsafe-inline") || strings.Contains(serve.MetaCSP, "frame-ancestors") {
		t.Errorf("serve.MetaCSP %q: want scripts from the origin only and no frame-ancestors (a meta cannot carry it)", serve.MetaCSP)
	}

	headers, err := os.ReadFile(filepath.Join(dir, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	want := "/*\n  Content-Security-Policy: " + serve.CSP + "\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: same-origin\n"
	if !strings.Contains(string(headers), want) || !strings.Contains(serve.CSP, "frame-ancestors *") {
		t.Errorf("_headers =\n%s\nwant it to contain\n%s", headers, want)
	}
}

// Rule: on a host that sends no CSP header, a built page
// still refuses inline script (its meta CSP), and the page's own scripts and
// WebAssembly still run under it (it reaches ready).
func TestInlineScriptRefusedWithoutHeaders(t *testing.T) {
	dir := ensureSite(t)
	page, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(build.ScenarioPath("a-cancel-then-complete"))))
	if err != nil {
		t.Fatal(err)
	}
	const inline = `<script>document.documentElement.dataset.inline = "ran"</script>`
	injected := bytes.Replace(page, []byte("</body>"), []byte(inline+"</body>"), 1)
	if bytes.Equal(injected, page) {
		t.Fatal("the page has no </body> to inject before")
	}
	files := http.FileServer(http.Dir(dir)) // no CSP header, like a bare static host
	mux := http.NewServeMux()
	mux.HandleFunc("/s/a-cancel-then-complete/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(injected)
	})
	mux.Handle("/", files)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, w := newTab(t, srv.URL)
	navigate(t, ctx, srv.URL+"/s/a-cancel-then-complete/")
	waitReady(t, ctx)
	if ran := evalJSON[string](t, ctx, `document.documentElement.dataset.inline || ""`); ran != "" {
		t.Errorf("the inline script ran (data-inline=%q) under the page's meta CSP", ran)
	}
	// The refusal is the one problem the watcher may see.
	refused := false
	for _, p := range w.Problems() {
		if strings.Contains(p, "Content Security Policy") {
			refused = true
			continue
		}
		t.Errorf("page problem: %s", p)
	}
	if !refused {
		t.Errorf("no CSP violation reported for the inline script; watcher saw %q", w.Problems())
	}
}

// Rule (README "Serve"): an address the site has no page at gets the
// site's own page, with status 404, in the site's layout (its header's
// links, absolute from the site root, since it is served at any depth,
// and its CSP), not Go's one-line "404 page not found"; a HEAD gets the
// status without the body; a directory built without one gets Go's text.
func TestServeSendsTheSitesNotFoundPage(t *testing.T) {
	srv := httptest.NewServer(serve.Handler(os.DirFS(ensureSite(t))))
	defer srv.Close()
	for _, p := range []string{"/s/no-such-scenario/", "/nope", "/s/a-cancel-then-complete/missing.js", "/app.js.br"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body := new(bytes.Buffer)
		body.ReadFrom(resp.Body)
		resp.Body.Close()
		b := body.String()
		if resp.StatusCode != 404 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %q, want 404 text/html", p, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		// The test site is built for testBaseURL, whose path is /mcplab/.
		root := build.SiteRootPath(testBaseURL)
		for _, want := range []string{"<h1>No page at this address</h1>", `href="` + root + `playground/"`, `href="` + root + `import/"`, `href="` + root + `review/"`, `<link rel="stylesheet" href="` + root + `app.css">`, `http-equiv="Content-Security-Policy"`} {
			if !strings.Contains(b, want) {
				t.Errorf("GET %s: the 404 page lacks %s", p, want)
			}
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: the 404 lacks the security headers", p)
		}
	}
	req, _ := http.NewRequest(http.MethodHead, srv.URL+"/nope", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("HEAD /nope: %d, want 404", resp.StatusCode)
	}

	bare := httptest.NewServer(serve.Handler(os.DirFS(t.TempDir())))
	defer bare.Close()
	resp, err = http.Get(bare.URL + "/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("a site without 404.html: %d %q, want 404 text/plain", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
