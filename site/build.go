package site

import (
	"bytes"
	"context"
	"embed"
	"flag"
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

// static holds the hand-written assets copied to the site root: the
// stylesheet, the loader script and the icon.
//
//go:embed static
var static embed.FS

// exampleTranscript is what the import page opens with: the server side of
// a real exchange between go-sdk v1.8.0 peers over mcp.LoggingTransport
// (engine/transcript's TestGoSDKResponseAfterCancel makes the same): the
// client's context times out, it sends notifications/cancelled, and the
// server still writes a result for the request.
//
//go:embed transcripts/go-sdk-v1.8.0-cancel-server.log
var exampleTranscript string

// scenarioPath is the page of built-in scenario name, relative to the site
// root: s/<name>/index.html, served as s/<name>/.
func scenarioPath(name string) string { return "s/" + name + "/index.html" }

func cmdBuild(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "dist", "output `directory` (created; files in it are overwritten)")
	base := fs.String("base-url", "", "the absolute `URL` the site will be served from (https://lab.example/); with it, every scenario page gets an oEmbed JSON and its discovery link, and every review page's Markdown links its runs")
	cacheDir := fs.String("cache", defaultCacheDir(), "build cache `directory` (compressed copies, wasm binaries, the templ trim); \"\" for none")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcplab build [-out dist] [-base-url URL] [-cache DIR]\n\nCompiles the wasm and prerenders every page. Run `go tool templ generate` first (make site does).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return &usageError{fmt.Errorf("build takes no arguments, got %q", fs.Args())}
	}
	baseURL, err := parseBaseURL(*base)
	if err != nil {
		return &usageError{err}
	}
	if err := build(*out, baseURL, *cacheDir, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "built the site into %s\n", *out)
	return nil
}

// build writes the whole site into the directory out (created if missing):
//
//	main.wasm        the engine and templates for GOOS=js (go build -trimpath -buildvcs=false -ldflags=-s -w ./wasm/cmd/lab)
//	playground.wasm  the playground (./wasm/cmd/playground), for playground/
//	ledger.wasm      the scenario page, the playground and the review with the SQLite ledger (./wasm/cmd/ledger), if a scenario has a ledger
//	import.wasm      the transcript importer (./wasm/cmd/import), for import/
//	wasm_exec.js     $(go env GOROOT)/lib/wasm's, with fast text codecs (wasmexec.go)
//	app.css, app.js, favicon.svg   from site/static (app.css without its
//	                               comments: servedCSS; the hand-written
//	                               scripts without their comment lines:
//	                               servedJS)
//	index.html       every built-in scenario (templates.IndexPage)
//	s/<name>/index.html   one page per built-in scenario (templates.ScenarioPage)
//	playground/index.html the editor (templates.PlaygroundPage), on the first example
//	import/index.html     the transcript judge (templates.ImportPage), on exampleTranscript
//	explore/index.html    the race explorer (templates.ExplorePage), on exploreDefault
//	explore.wasm     the race explorer (./wasm/cmd/explore), for explore/
//	review/index.html     the reliability review of reviewDefault; review/<name>/ of the other reviewed scenarios (buildReviews; with a baseURL their Markdown links every run absolutely)
//	review.schema.json    the JSON Schema of a review (engine/review.Schema)
//	s/<name>/oembed.json  its oEmbed response (templates.NewOEmbed), only
//	                 with a baseURL ("" for none), which makes its URLs absolute
//	404.html         the page for an address the site has no page at
//	                 (templates.NotFoundPage; serve.NotFoundPage), its links
//	                 absolute from the site root (siteRootPath)
//	_headers         the HTTP headers a static host should send (headersFile)
//	NAME.br, NAME.gz brotli (quality brotliQualityFor) and gzip copies of every
//	                 .html, .css, .js, .json, .svg and .wasm file
//
// cacheDir ("" for none) is the build cache (cache.go): compressed copies
// by content, wasm binaries by the build IDs of everything they link, the
// templ trim; with it, a build with nothing changed takes seconds. A file
// whose bytes did not change is not rewritten (it keeps its modification
// time).
//
// Each phase prints one line to stderr as it ends, with its time; a slow
// step (compiling a binary, compressing a large file that is not cached)
// also says when it starts. Each page is rendered into memory and then
// written, so a failing scenario or template never leaves half a page.
// Errors name the file or scenario at fault.
func build(out, baseURL, cacheDir string, stderr io.Writer) error {
	finish, err := writeSite(out, baseURL, cacheDir, stderr)
	if err != nil {
		return err
	}
	return finish()
}

// writeSite does build's work up to the compressed copies: when it returns
// without error every file of the site is in out, and the copies are being
// made in the background (by every core; a file whose copy is not written
// yet has none beside it, so a server sends it uncompressed, never a stale
// copy). finish waits for the copies, prunes the cache and prints the
// build's last lines; it must be called once. On an error the copies
// already queued are finished first (they write into out).
//
// The steps run in this order: the wasm binaries start compiling in the
// background (the slow part), the pages render (scenarioPages, then the
// tools, reviews, index and 404 in otherPages), the static assets are
// copied (assets), and the build waits for the binaries.
func writeSite(out, baseURL, cacheDir string, stderr io.Writer) (finish func() error, err error) {
	b, err := newSiteBuild(out, baseURL, cacheDir, stderr)
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
	ctx, cancel := context.WithCancel(context.Background())
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
	b.log.donef("written", b.start, "%d files in %s, %d changed; their .br and .gz copies follow", b.written, out, b.changed)
	return b.finish, nil
}

// playgroundDefault is the scenario the playground opens on without a
// fragment (it is prerendered on it).
const playgroundDefault = "a-cancel-then-complete"

// buildTools renders the playground on playgroundDefault and the import
// page on exampleTranscript.
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
	imported, err := transcript.Import([]byte(exampleTranscript), transcript.Options{})
	if err != nil {
		return fmt.Errorf("build: import page: the example transcript: %w", err)
	}
	frag, err := transcript.ShareFragment(imported, true)
	if err != nil {
		return fmt.Errorf("build: import page: the example as a scenario: %w", err)
	}
	html, err = render(templates.ImportPage(templates.Import{Root: "../", Transcript: exampleTranscript, Trace: imported, Scenario: frag}))
	if err != nil {
		return fmt.Errorf("build: import page: %w", err)
	}
	return write("import/index.html", html)
}

// wasmBinaries are the binaries the site needs: main.wasm, playground.wasm
// and import.wasm, and ledger.wasm when a scenario of exs has a ledger.
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

// runOptions are the engine options of native runs (prerendering and the
// run command): the in-memory SQLite ledger for scenarios that have one.
var runOptions = engine.Options{OpenLedger: sqlite.NewMemory}

// parseBaseURL checks the -base-url flag: "" (no oEmbed) or an absolute
// http or https URL with no query or fragment, returned ending in "/".
func parseBaseURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("-base-url %q: want an absolute http or https URL without query or fragment, like https://lab.example/mcplab/", s)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String(), nil
}

// siteRootPath is the absolute path of the site root that baseURL (from
// parseBaseURL, "" for none) names: "/mcplab/" for
// https://lab.example/mcplab/, "/" without one. The 404 page links from it,
// because it is served at any depth, where a relative link would miss.
func siteRootPath(baseURL string) string {
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
