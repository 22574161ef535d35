package build

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/rulebook"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/serve"
	"github.com/mcplab/mcplab/site/static"
	"github.com/mcplab/mcplab/templates"
)

// siteBuild is one build of the site into out: where it writes, the cache
// and compressor its files go through, and what it has written. Its
// methods are Start's steps.
type siteBuild struct {
	out, baseURL string
	stderr       io.Writer
	start        time.Time
	log          *progress
	cache        *buildCache
	comp         *compressor

	mu               sync.Mutex
	written, changed int
}

// newSiteBuild makes o.Out and opens the cache ("" for none).
func newSiteBuild(o Options) (*siteBuild, error) {
	stderr := o.Log
	if stderr == nil {
		stderr = io.Discard
	}
	b := &siteBuild{out: o.Out, baseURL: o.BaseURL, stderr: stderr, start: time.Now(), log: &progress{w: stderr}}
	if err := os.MkdirAll(b.out, 0o755); err != nil {
		return nil, fmt.Errorf("build: output directory %s: %w", b.out, err)
	}
	b.cache = openCache(o.CacheDir, stderr)
	b.comp = newCompressor(b.out, b.cache, b.log)
	return b, nil
}

// write puts data at rel in out, through a temporary name and only when
// its bytes changed, and queues its compressed copies (a changed file
// loses its old copies first). Safe for concurrent use.
func (b *siteBuild) write(rel string, data []byte) error {
	dst := filepath.Join(b.out, filepath.FromSlash(rel))
	var before []func() error
	if serve.Compressible(path.Ext(rel)) {
		before = append(before, func() error { return removeStale(dst) })
	}
	w, err := writeIfChanged(dst, data, before...)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	b.mu.Lock()
	b.written++
	if w {
		b.changed++
	}
	b.mu.Unlock()
	if serve.Compressible(path.Ext(rel)) {
		b.comp.add(rel, data)
	}
	return nil
}

// pages renders every page: one per built-in scenario, then the
// playground and import page, the reviews, the index and the 404 page.
func (b *siteBuild) pages(exs []examples.Example) error {
	start := time.Now()
	reviewedNames := map[string]bool{}
	for _, ex := range Reviewed() {
		reviewedNames[ex.Name] = true
	}
	var entries []templates.IndexEntry
	var pgExamples []templates.PlaygroundExample
	book := rulebook.New() // which built-ins pass and fail each rule
	for _, ex := range exs {
		e, ledger, err := b.scenarioPage(ex, reviewedNames[ex.Name], book)
		if err != nil {
			return err
		}
		entries = append(entries, e)
		pgExamples = append(pgExamples, templates.PlaygroundExample{Name: ex.Name, Title: ex.Title, Summary: ex.Summary, Ledger: ledger, Group: e.Group(), Page: e.Href})
	}
	if err := buildTools(b.write, pgExamples); err != nil {
		return err
	}
	if err := buildRules(b.write, book); err != nil { // rules/, rules/<id>/
		return err
	}
	docs, err := buildDocs(b.write) // docs/, docs/<name>/ (docs.go)
	if err != nil {
		return err
	}
	if err := buildExplore(b.write, exs); err != nil { // explore/
		return err
	}
	reviews, err := buildReviews(b.write, b.baseURL) // review/, review/<name>/, review.schema.json
	if err != nil {
		return err
	}
	if err := b.page("index.html", "index page", templates.IndexPage("./", entries)); err != nil {
		return err
	}
	if err := b.page(serve.NotFoundPage, "404 page", templates.NotFoundPage(SiteRootPath(b.baseURL))); err != nil {
		return err
	}
	b.log.donef("pages", start, "%d scenario pages, %d review pages, %d rule pages, %d docs pages, the index, the playground, the import page and the 404 page", len(exs), reviews, len(book.Entries()), docs)
	return nil
}

// page renders c and writes it at rel; what names the page in an error.
func (b *siteBuild) page(rel, what string, c templ.Component) error {
	html, err := render(c)
	if err != nil {
		return fmt.Errorf("build: %s: %w", what, err)
	}
	return b.write(rel, html)
}

// scenarioPage runs built-in ex, adds its checks to book, writes its page
// (and its oEmbed response with a base URL) and returns its index entry
// and whether it has a ledger.
func (b *siteBuild) scenarioPage(ex examples.Example, reviewed bool, book *rulebook.Book) (templates.IndexEntry, bool, error) {
	res, err := entry.Run(ex.JSON, entry.Document{Options: runOptions})
	if err != nil {
		return templates.IndexEntry{}, false, fmt.Errorf("build: example %s: %w", ex.Name, err)
	}
	s, tr := res.Scenario, res.Trace
	if err := book.Add(ex.Name, tr); err != nil {
		return templates.IndexEntry{}, false, fmt.Errorf("build: %w", err)
	}
	page := templates.Page{Root: "../../", Name: ex.Name, Title: ex.Title, Summary: ex.Summary, Scenario: ex.JSON, Trace: tr}
	if reviewed {
		page.Review = "../../" + path.Dir(ReviewPath(ex.Name)) + "/"
	}
	oembed, err := b.oEmbed(ex)
	if err != nil {
		return templates.IndexEntry{}, false, err
	}
	page.OEmbed = oembed
	if s.Ledger != nil {
		page.Wasm = ledgerWasm.file
	}
	if err := explorePanel(&page, ex.JSON, s.Explore != nil, s.Ledger != nil); err != nil {
		return templates.IndexEntry{}, false, fmt.Errorf("build: example %s: %w", ex.Name, err)
	}
	if err := b.page(ScenarioPath(ex.Name), "page of example "+ex.Name, templates.ScenarioPage(page)); err != nil {
		return templates.IndexEntry{}, false, err
	}
	e := templates.NewIndexEntry(ex.Name, ex.Title, ex.Summary, path.Dir(ScenarioPath(ex.Name))+"/", tr)
	return e, s.Ledger != nil, nil
}

// oEmbed writes ex's oembed.json and returns its URL when the build has a
// base URL; without one there is nothing absolute to point at, so it
// removes any an earlier build left and returns "".
func (b *siteBuild) oEmbed(ex examples.Example) (string, error) {
	dir := path.Dir(ScenarioPath(ex.Name)) + "/"
	if b.baseURL == "" {
		stale := filepath.Join(b.out, filepath.FromSlash(dir), "oembed.json")
		for _, ext := range []string{"", ".br", ".gz"} {
			if err := os.Remove(stale + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("build: %w", err)
			}
		}
		return "", nil
	}
	js, err := json.MarshalIndent(templates.NewOEmbed(b.baseURL, b.baseURL+dir, ex.Title+" · mcplab"), "", "  ")
	if err != nil {
		return "", fmt.Errorf("build: oEmbed of example %s: %w", ex.Name, err)
	}
	if err := b.write(dir+"oembed.json", append(js, '\n')); err != nil {
		return "", err
	}
	return b.baseURL + dir + "oembed.json", nil
}

// assets copies package static's files (comments stripped from the hand-written
// CSS and scripts), the public formats' JSON Schemas (SCENARIO.md: "JSON
// Schema for it ships with the site"), wasm_exec.js from the toolchain
// that compiles the binaries (they must match; with fast text codecs for
// short ASCII strings, wasmExecJS) and _headers.
func (b *siteBuild) assets() error {
	start := time.Now()
	err := fs.WalkDir(static.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := static.FS.ReadFile(p)
		if err != nil {
			return fmt.Errorf("build: %w", err)
		}
		switch {
		case strings.HasSuffix(p, ".css"):
			data = servedCSS(data)
		case strings.HasSuffix(p, ".js") && !generatedScripts[path.Base(p)]:
			data = servedJS(data)
		}
		return b.write(p, data)
	})
	if err != nil {
		return err
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	execJS, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("build: wasm_exec.js: %w", err)
	}
	for _, f := range []struct {
		rel  string
		data []byte
	}{
		{"scenario.schema.json", scenario.Schema},
		{"transcript.schema.json", transcript.Schema},
		{"wasm_exec.js", wasmExecJS(execJS)},
		{"_headers", serve.HeadersFile()},
	} {
		if err := b.write(f.rel, f.data); err != nil {
			return err
		}
	}
	b.log.donef("assets", start, "static files, JSON Schemas, wasm_exec.js, _headers")
	return nil
}

// finish waits for the compressed copies, prunes the cache and prints the
// build's last lines.
func (b *siteBuild) finish() error {
	start := time.Now()
	b.log.linef("compress", "waiting for the .br and .gz copies…")
	if err := b.comp.wait(); err != nil {
		return err
	}
	b.log.donef("compress", start, "%d copies: %d from the cache, %d compressed (%s of compression)", b.comp.files, b.comp.hits, b.comp.files-b.comp.hits, seconds(b.comp.busy))
	if b.cache.dir != "" {
		size, err := b.cache.prune(time.Now(), cacheMaxBytes)
		if err != nil {
			fmt.Fprintf(b.stderr, "build: warning: pruning the build cache: %v\n", err)
		}
		b.log.linef("cache", "%s holds %.0f MiB (bound %d MiB)", b.cache.dir, float64(size)/(1<<20), cacheMaxBytes>>20)
	}
	b.log.donef("done", b.start, "%d files in %s, %d changed", b.written, b.out, b.changed)
	return nil
}
