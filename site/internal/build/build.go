// Package build writes the static site: every page prerendered natively
// from the built-in scenarios, the browser binaries, the static assets and
// a brotli and a gzip copy of everything compressible, into one directory
// that any static host (or package serve) serves as it is.
//
// It owns the site's layout (ScenarioPath, ReviewPath, the 404 page's
// SiteRootPath), the build cache (cache.go: compressed copies by content,
// wasm binaries by the build IDs of what they link, the templ trim), the
// compressor (compress.go) and the served forms of the hand-written CSS
// and scripts (cssmin.go) and of the toolchain's wasm_exec.js
// (wasmexec.go). The `mcplab build` and `mcplab serve -build` verbs parse
// their flags and call Site or Start; this package prints the build's
// progress and returns plain errors that name the file or scenario at
// fault.
//
// The steps, in order (Start; each is a small function):
//
//  1. the wasm binaries start compiling in the background (buildWasm,
//     from the cache when nothing they link changed), the slow part;
//  2. the pages render into memory and are written: one per built-in
//     scenario with its explore panel and oEmbed response (scenarioPage),
//     the playground and import page (buildTools), the rules reference
//     (buildRules), the race explorer (buildExplore), the reviews
//     (buildReviews), the index and the 404 page;
//  3. the static assets are copied (assets: package static's files, the
//     JSON Schemas, wasm_exec.js, _headers);
//  4. the build waits for the binaries, which are written in turn;
//  5. finish waits for the .br and .gz copies (made in the background
//     from step 2 on) and prunes the cache.
package build

import (
	"bytes"
	"context"
	_ "embed" // ImportExample
	"fmt"
	"html"
	"io"
	"net/url"
	"os/exec"
	"slices"
	"strings"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/serve"
	"github.com/mcplab/mcplab/templates"
)

// ImportExample is what the import page opens with: the server side of
// a real exchange between go-sdk v1.8.0 peers over mcp.LoggingTransport
// (engine/transcript's TestGoSDKResponseAfterCancel makes the same): the
// client's context times out, it sends notifications/cancelled, and the
// server still writes a result for the request.
//
//go:embed transcripts/go-sdk-v1.8.0-cancel-server.log
var ImportExample string

// ScenarioPath is the page of built-in scenario name, relative to the site
// root: s/<name>/index.html, served as s/<name>/.
func ScenarioPath(name string) string { return "s/" + name + "/index.html" }

// Options is one build of the site.
type Options struct {
	// Out is the directory the site is written into (created if missing;
	// files in it are overwritten, a file whose bytes did not change keeps
	// its modification time).
	Out string
	// BaseURL is the absolute URL the site will be served from, as
	// ParseBaseURL returns it (ending in "/"), or "" for none. With it
	// every scenario page gets an oEmbed response and its discovery link,
	// every review page's Markdown links its runs absolutely, and the 404
	// page links from its path (SiteRootPath).
	BaseURL string
	// CacheDir is the build cache's directory (DefaultCacheDir), or "" for
	// none: with it, a build with nothing changed takes seconds.
	CacheDir string
	// Log gets the build's progress, one line per phase as it ends with its
	// time (a slow step also says when it starts), and its warnings (a
	// cache that cannot be created or pruned); nil discards them.
	Log io.Writer
}

// Site writes the whole site into o.Out: Start, then its finish. It
// writes:
//
//	main.wasm        the engine and templates for GOOS=js (go build -trimpath -buildvcs=false -ldflags=-s -w ./wasm/cmd/lab)
//	playground.wasm  the playground (./wasm/cmd/playground), for playground/
//	ledger.wasm      the scenario page, the playground and the review with the SQLite ledger (./wasm/cmd/ledger), if a scenario has a ledger
//	import.wasm      the transcript importer (./wasm/cmd/import), for import/
//	explore.wasm     the race explorer (./wasm/cmd/explore), for explore/
//	wasm_exec.js     $(go env GOROOT)/lib/wasm's, with fast text codecs (wasmexec.go)
//	app.css, app.js, favicon.svg, ...  package static's files (app.css
//	                 without its comments: servedCSS; the hand-written
//	                 scripts without their comment lines: servedJS)
//	index.html       every built-in scenario (templates.IndexPage)
//	s/<name>/index.html   one page per built-in scenario (templates.ScenarioPage)
//	s/<name>/oembed.json  its oEmbed response (templates.NewOEmbed), only
//	                 with a BaseURL, which makes its URLs absolute
//	playground/index.html the editor (templates.PlaygroundPage), on playgroundDefault
//	import/index.html     the transcript judge (templates.ImportPage), on ImportExample
//	explore/index.html    the race explorer (templates.ExplorePage), on exploreDefault
//	rules/index.html, rules/<id>/index.html   the rules reference (buildRules)
//	docs/index.html, docs/<name>/index.html   the repository's docs/ as pages (buildDocs)
//	review/index.html     the reliability review of ReviewDefault; review/<name>/ of the other Reviewed scenarios (buildReviews)
//	review.schema.json, scenario.schema.json, transcript.schema.json   the public formats' JSON Schemas
//	404.html         the page for an address the site has no page at
//	                 (templates.NotFoundPage; serve.NotFoundPage), its links
//	                 absolute from SiteRootPath
//	_headers         the HTTP headers a static host should send (serve.HeadersFile)
//	NAME.br, NAME.gz brotli (quality brotliQualityFor) and gzip copies of every
//	                 compressible file (serve.Compressible)
//
// Each page is rendered into memory and then written, so a failing
// scenario or template never leaves half a page. Errors name the file or
// scenario at fault.
func Site(ctx context.Context, o Options) error {
	finish, err := Start(ctx, o)
	if err != nil {
		return err
	}
	return finish()
}

// Start does Site's work up to the compressed copies: when it returns
// without error every file of the site is in o.Out, and the copies are
// being made in the background (by every core; a file whose copy is not
// written yet has none beside it, so a server sends it uncompressed, never
// a stale copy). finish waits for the copies, prunes the cache and prints
// the build's last lines; it must be called once. On an error the copies
// already queued are finished first (they write into o.Out). Cancelling
// ctx stops the compilers of the wasm binaries.
func Start(ctx context.Context, o Options) (finish func() error, err error) {
	if err := inCheckout(ctx); err != nil {
		return nil, err
	}
	b, err := newSiteBuild(o)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			b.comp.wait()
		}
	}()
	exs := examples.All()
	if len(exs) == 0 {
		return nil, fmt.Errorf("build: package examples has no built-in scenarios")
	}
	// The simulator binaries build in the background while the pages
	// render. A failing page stops them.
	binaries, err := wasmBinaries(exs)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	wasmDone := make(chan error, 1)
	go func() { wasmDone <- buildWasm(ctx, binaries, b.cache, b.log, b.write) }()
	defer func() {
		cancel()
		<-wasmDone // a no-op once received below: the channel is closed then
	}()
	if err := b.pages(exs); err != nil {
		return nil, err
	}
	if err := b.assets(); err != nil {
		return nil, err
	}
	err = <-wasmDone
	close(wasmDone)
	if err != nil {
		return nil, err
	}
	b.comp.growToCPUs()
	b.log.donef("written", b.start, "%d files in %s, %d changed; their .br and .gz copies follow", b.written, b.out, b.changed)
	return b.finish, nil
}

// playgroundDefault is the scenario the playground opens on without a
// fragment (it is prerendered on it).
const playgroundDefault = "a-cancel-then-complete"

// buildTools renders the playground on playgroundDefault and the import
// page on ImportExample.
func buildTools(write func(rel string, data []byte) error, exs []templates.PlaygroundExample) error {
	ex, ok := examples.Get(playgroundDefault)
	if !ok {
		return fmt.Errorf("build: playground: no built-in scenario %s", playgroundDefault)
	}
	res, err := entry.Run(ex.JSON, entry.Document{Options: runOptions})
	if err != nil {
		return fmt.Errorf("build: playground: %w", err)
	}
	tr := res.Trace
	html, err := render(templates.PlaygroundPage(templates.Playground{Root: "../", Scenario: ex.JSON, Trace: tr, Examples: exs}))
	if err != nil {
		return fmt.Errorf("build: playground page: %w", err)
	}
	if err := write("playground/index.html", html); err != nil {
		return err
	}
	imported, err := transcript.Import([]byte(ImportExample), transcript.Options{})
	if err != nil {
		return fmt.Errorf("build: import page: the example transcript: %w", err)
	}
	frag, err := transcript.ShareFragment(imported, true)
	if err != nil {
		return fmt.Errorf("build: import page: the example as a scenario: %w", err)
	}
	html, err = render(templates.ImportPage(templates.Import{Root: "../", Transcript: ImportExample, Trace: imported, Scenario: frag}))
	if err != nil {
		return fmt.Errorf("build: import page: %w", err)
	}
	return write("import/index.html", html)
}

// wasmBinaries are the binaries the site needs: main.wasm, playground.wasm,
// import.wasm and explore.wasm, and ledger.wasm when a scenario of exs has
// a ledger.
func wasmBinaries(exs []examples.Example) ([]wasmBinary, error) {
	binaries := []wasmBinary{mainWasm, playgroundWasm, importWasm, exploreWasm}
	for _, ex := range exs {
		s, err := scenario.Decode(ex.JSON)
		if err != nil {
			return nil, fmt.Errorf("build: example %s: %w", ex.Name, err)
		}
		if s.Ledger != nil {
			return append(binaries, ledgerWasm), nil
		}
	}
	return binaries, nil
}

// runOptions are the engine options of the prerendered runs: the
// in-memory SQLite ledger for scenarios that have one, as the run, review
// and explore verbs run them, so a page shows what the command prints.
var runOptions = engine.Options{OpenLedger: sqlite.NewMemory}

// ParseBaseURL checks a base URL for Options.BaseURL: "" (none) or an
// absolute http or https URL with no query or fragment, returned ending
// in "/". Its error quotes s and shows the form wanted; the caller says
// where s came from (`mcplab build` prefixes "-base-url").
func ParseBaseURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q: want an absolute http or https URL without query or fragment, like https://lab.example/mcplab/", s)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String(), nil
}

// SiteRootPath is the absolute path of the site root that baseURL (from
// ParseBaseURL, "" for none) names: "/mcplab/" for
// https://lab.example/mcplab/, "/" without one. The 404 page links from it,
// because it is served at any depth, where a relative link would miss.
func SiteRootPath(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil && strings.HasPrefix(u.Path, "/") {
		return u.Path
	}
	return "/"
}

// render renders a page component into memory, with its CSP added as a
// meta element (withMetaCSP).
func render(c templ.Component) ([]byte, error) {
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		return nil, err
	}
	return withMetaCSP(buf.Bytes())
}

// charsetMeta is how every page's head begins (templates/page.templ).
const charsetMeta = `<head><meta charset="utf-8">`

// withMetaCSP inserts <meta http-equiv="Content-Security-Policy"
// content=serve.MetaCSP> right after the page's charset declaration, before
// anything the policy governs, so a page served by a host that sends no CSP
// header still refuses inline script, foreign requests and the rest of
// serve.MetaCSP. A page whose head does not begin with charsetMeta is an error:
// the build must not write a page without its policy.
func withMetaCSP(page []byte) ([]byte, error) {
	i := bytes.Index(page, []byte(charsetMeta))
	if i < 0 {
		return nil, fmt.Errorf("the page's head does not begin with %s, so its CSP meta has nowhere to go", charsetMeta)
	}
	meta := `<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(serve.MetaCSP) + `">`
	i += len(charsetMeta)
	return slices.Concat(page[:i], []byte(meta), page[i:]), nil
}

// goEnv returns `go env NAME`.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("build: go env %s: %w", name, err)
	}
	v := strings.TrimSpace(string(out))
	if v == "" {
		return "", fmt.Errorf("build: go env %s is empty", name)
	}
	return v, nil
}
