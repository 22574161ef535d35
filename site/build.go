package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/andybalholm/brotli"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
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

// wasmPackage is the import path of the browser entry point.
const wasmPackage = "github.com/mcplab/mcplab/wasm"

// compressed lists the extensions precompressed as NAME.br and NAME.gz
// beside NAME.
var compressed = map[string]bool{".html": true, ".css": true, ".js": true, ".wasm": true, ".json": true, ".svg": true}

// scenarioPath is the page of built-in scenario name, relative to the site
// root: s/<name>/index.html, served as s/<name>/.
func scenarioPath(name string) string { return "s/" + name + "/index.html" }

func cmdBuild(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "dist", "output `directory` (created; files in it are overwritten)")
	base := fs.String("base-url", "", "the absolute `URL` the site will be served from (https://lab.example/); with it, every scenario page gets an oEmbed JSON and its discovery link")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: site build [-out dist] [-base-url URL]\n\nCompiles the wasm and prerenders every page. Run `go tool templ generate` first (make site does).")
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
	if err := build(*out, baseURL, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "built the site into %s\n", *out)
	return nil
}

// build writes the whole site into the directory out (created if missing):
//
//	main.wasm        the engine and templates for GOOS=js (go build -trimpath -ldflags=-s -w ./wasm)
//	ledger.wasm      the same with the SQLite ledger (-tags ledger), if a scenario has a ledger
//	import.wasm      the same with the transcript importer instead of the playground (-tags transcript), for import/
//	wasm_exec.js     copied from $(go env GOROOT)/lib/wasm
//	app.css, app.js, favicon.svg   from site/static
//	index.html       every built-in scenario (templates.IndexPage)
//	s/<name>/index.html   one page per built-in scenario (templates.ScenarioPage)
//	playground/index.html the editor (templates.PlaygroundPage), on the first example
//	import/index.html     the transcript judge (templates.ImportPage), on exampleTranscript
//	s/<name>/oembed.json  its oEmbed response (templates.NewOEmbed), only
//	                 with a baseURL ("" for none), which makes its URLs absolute
//	NAME.br, NAME.gz brotli (quality brotliQuality) and gzip copies of every
//	                 .html, .css, .js, .json, .svg and .wasm file
//
// Progress lines go to stderr. Each page is rendered into memory and then
// written, so a failing scenario or template never leaves half a page.
// Errors name the file or scenario at fault.
func build(out, baseURL string, stderr io.Writer) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	var written []string
	write := func(rel string, data []byte) error {
		dst := filepath.Join(out, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("build: %w", err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("build: %w", err)
		}
		written = append(written, rel)
		return nil
	}

	// Pages first: they are the fast part that fails on a bad scenario.
	exs := examples.All()
	if len(exs) == 0 {
		return fmt.Errorf("build: package examples has no built-in scenarios")
	}
	var entries []templates.IndexEntry
	var pgExamples []templates.PlaygroundExample
	needLedger := false
	for _, ex := range exs {
		res, err := engine.RunDocument(ex.JSON, engine.Document{Options: runOptions})
		if err != nil {
			return fmt.Errorf("build: example %s: %w", ex.Name, err)
		}
		s, tr := res.Scenario, res.Trace
		page := templates.Page{Root: "../../", Name: ex.Name, Title: ex.Title, Summary: ex.Summary, Scenario: ex.JSON, Trace: tr}
		if baseURL == "" {
			// A build with a base URL may have left oEmbed files that
			// point at it: without one, none may stay.
			stale := filepath.Join(out, filepath.FromSlash(path.Dir(scenarioPath(ex.Name))), "oembed.json")
			for _, ext := range []string{"", ".br", ".gz"} {
				if err := os.Remove(stale + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("build: %w", err)
				}
			}
		} else {
			dir := path.Dir(scenarioPath(ex.Name)) + "/"
			page.OEmbed = baseURL + dir + "oembed.json"
			js, err := json.MarshalIndent(templates.NewOEmbed(baseURL, baseURL+dir, ex.Title+" · mcplab"), "", "  ")
			if err != nil {
				return fmt.Errorf("build: oEmbed of example %s: %w", ex.Name, err)
			}
			if err := write(dir+"oembed.json", append(js, '\n')); err != nil {
				return err
			}
		}
		if s.Ledger != nil {
			page.Wasm = ledgerWasm.file
			needLedger = true
		}
		html, err := render(templates.ScenarioPage(page))
		if err != nil {
			return fmt.Errorf("build: page of example %s: %w", ex.Name, err)
		}
		if err := write(scenarioPath(ex.Name), html); err != nil {
			return err
		}
		entries = append(entries, templates.NewIndexEntry(ex.Name, ex.Title, ex.Summary, path.Dir(scenarioPath(ex.Name))+"/", tr))
		pgExamples = append(pgExamples, templates.PlaygroundExample{Name: ex.Name, Title: ex.Title, Summary: ex.Summary, Ledger: s.Ledger != nil})
	}
	if err := buildTools(write, pgExamples); err != nil {
		return err
	}
	html, err := render(templates.IndexPage("./", entries))
	if err != nil {
		return fmt.Errorf("build: index page: %w", err)
	}
	if err := write("index.html", html); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "site: rendered %d scenario pages and the index\n", len(exs))

	// Static assets.
	err = fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return fmt.Errorf("build: %w", err)
		}
		return write(strings.TrimPrefix(p, "static/"), b)
	})
	if err != nil {
		return err
	}

	// The public formats' JSON Schemas (SCENARIO.md: "JSON Schema for it
	// ships with the site").
	if err := write("scenario.schema.json", scenario.Schema); err != nil {
		return err
	}
	if err := write("transcript.schema.json", transcript.Schema); err != nil {
		return err
	}

	// wasm_exec.js from the toolchain that compiles main.wasm: they must match.
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	execJS, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("build: wasm_exec.js: %w", err)
	}
	if err := write("wasm_exec.js", execJS); err != nil {
		return err
	}

	// The simulator binaries: main.wasm for every page, ledger.wasm (with
	// SQLite) only when some page needs it.
	binaries := []wasmBinary{mainWasm, importWasm}
	if needLedger {
		binaries = append(binaries, ledgerWasm)
	}
	trimDir, err := os.MkdirTemp("", "mcplab-trim-")
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	defer os.RemoveAll(trimDir)
	modfile, err := trimmedModfile(trimDir)
	if err != nil {
		fmt.Fprintf(stderr, "site: warning: cannot trim templ's net/http and html/template helpers out of the wasm (%v); linking templ whole, which adds about 0.6 MB to every page's transfer\n", err)
		modfile = ""
	}
	for _, b := range binaries {
		if err := compileWasm(out, b, modfile, stderr); err != nil {
			return err
		}
		written = append(written, b.file)
	}

	// Precompressed copies, the files in parallel (brotli at quality 11
	// takes ~20 s for one wasm binary, and there are two).
	start := time.Now()
	if err := precompress(out, written); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "site: wrote %d files (and their .br and .gz copies) into %s; compression took %v\n", len(written), out, time.Since(start).Round(time.Millisecond))
	return nil
}

// brotliQuality is the quality of the .br copies. Measured with Go 1.26 on
// 2 shared cores (size, time):
//
//	                 raw      gzip -9        br q6          br q9          br q11
//	main.wasm    9.92 MB  2.57 MB 1.0 s  2.13 MB 0.7 s  2.09 MB 1.5 s  1.86 MB 24 s
//	ledger.wasm 20.73 MB  5.48 MB 1.5 s  4.50 MB 1.2 s  4.41 MB 3.8 s  3.85 MB 56 s
//
// (measured before the templ trim, trimmedModfile; main.wasm is now 8.2 MB
// raw, 1.45 MB at q11 in ~23 s, and import.wasm, the same plus the
// transcript importer, 1.47 MB.)
//
// Only q10 and q11 use brotli's slow optimal parser, which is where the gain
// is (-27% against gzip for main.wasm, which every page loads); the site is
// built once and every reader downloads it, so the build pays those 24 s,
// in parallel with everything else. Files over brotliSlowLimit
// (ledger.wasm, loaded only by the pages of ledger scenarios) get
// brotliLargeQuality, which keeps the whole build near a minute.
const (
	brotliQuality      = 11
	brotliLargeQuality = 9
	brotliSlowLimit    = 12 << 20
)

// precompress writes NAME.br and NAME.gz beside every file of rels (paths
// relative to out) whose extension is in compressed, one goroutine per
// file; the first error wins.
func precompress(out string, rels []string) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for _, rel := range rels {
		if !compressed[path.Ext(rel)] {
			continue
		}
		wg.Go(func() {
			if err := precompressFile(filepath.Join(out, filepath.FromSlash(rel))); err != nil {
				mu.Lock()
				if first == nil {
					first = fmt.Errorf("build: compress %s: %w", rel, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

// precompressFile writes src.br and src.gz.
func precompressFile(src string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	gz, err := gzipBytes(b)
	if err != nil {
		return err
	}
	if err := os.WriteFile(src+".gz", gz, 0o644); err != nil {
		return err
	}
	br, err := brotliBytes(b)
	if err != nil {
		return err
	}
	return os.WriteFile(src+".br", br, 0o644)
}

// brotliBytes compresses b with brotli at brotliQuality, or
// brotliLargeQuality past brotliSlowLimit bytes (deterministic: brotli has
// no header fields that vary).
func brotliBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	q := brotliQuality
	if len(b) > brotliSlowLimit {
		q = brotliLargeQuality
	}
	w := brotli.NewWriterLevel(&buf, q)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
	res, err := engine.RunDocument(ex.JSON, engine.Document{Options: runOptions})
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

// wasmBinary is one build of the browser entry point.
type wasmBinary struct {
	file string // name in the site root
	tags string // go build -tags
}

var (
	// mainWasm is the simulator without SQLite: every page that needs no ledger.
	mainWasm = wasmBinary{file: "main.wasm"}
	// ledgerWasm links the SQLite ledger (wasm/ledger.go): only pages of
	// scenarios with a ledger load it.
	ledgerWasm = wasmBinary{file: "ledger.wasm", tags: "ledger"}
	// importWasm links the transcript importer (wasm/import.go) and not the
	// playground: only the import page loads it, so every other page saves
	// the importer's ~30 KB of brotli and the import page the playground's.
	importWasm = wasmBinary{file: "import.wasm", tags: "transcript"}
)

// runOptions are the engine options of native runs (prerendering and the
// run command): the in-memory SQLite ledger for scenarios that have one.
var runOptions = engine.Options{OpenLedger: sqlite.NewMemory}

// compileWasm builds wasmPackage for js/wasm into out/b.file (trimpath,
// stripped, with `go build -modfile modfile` unless modfile is ""; see
// trimmedModfile), through a temporary name so a failed build leaves no
// half-written binary.
func compileWasm(out string, b wasmBinary, modfile string, stderr io.Writer) error {
	fmt.Fprintf(stderr, "site: compiling %s for js/wasm into %s\n", wasmPackage, b.file)
	tmp := filepath.Join(out, b.file+".tmp")
	args := []string{"build", "-trimpath", "-ldflags=-s -w"}
	if modfile != "" {
		args = append(args, "-modfile", modfile)
	}
	if b.tags != "" {
		args = append(args, "-tags", b.tags)
	}
	args = append(args, "-o", tmp, wasmPackage)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("build: go %s: %w", strings.Join(args, " "), err)
	}
	if err := os.Rename(tmp, filepath.Join(out, b.file)); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

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

// render renders a component into memory.
func render(c templ.Component) ([]byte, error) {
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// gzipBytes compresses b at the best compression, with no name or time in
// the header, so the output is byte-stable.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
