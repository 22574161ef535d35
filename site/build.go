package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// static holds the hand-written assets copied to the site root: the
// stylesheet, the loader script and the icon.
//
//go:embed static
var static embed.FS

// wasmPackage is the import path of the browser entry point.
const wasmPackage = "github.com/mcplab/mcplab/wasm"

// compressed lists the extensions precompressed as NAME.gz beside NAME.
var compressed = map[string]bool{".html": true, ".css": true, ".js": true, ".wasm": true, ".json": true, ".svg": true}

// ScenarioPath is the page of built-in scenario name, relative to the site
// root: s/<name>/index.html, served as s/<name>/.
func scenarioPath(name string) string { return "s/" + name + "/index.html" }

func cmdBuild(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "dist", "output `directory` (created; files in it are overwritten)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: site build [-out dist]\n\nCompiles the wasm and prerenders every page. Run `go tool templ generate` first (make site does).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return &usageError{fmt.Errorf("build takes no arguments, got %q", fs.Args())}
	}
	if err := build(*out, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "built the site into %s\n", *out)
	return nil
}

// build writes the whole site into the directory out (created if missing):
//
//	main.wasm        the engine and templates for GOOS=js (go build -trimpath -ldflags=-s -w ./wasm)
//	wasm_exec.js     copied from $(go env GOROOT)/lib/wasm
//	app.css, app.js, favicon.svg   from site/static
//	index.html       every built-in scenario (templates.IndexPage)
//	s/<name>/index.html   one page per built-in scenario (templates.ScenarioPage)
//	NAME.gz          a gzip copy of every .html, .css, .js, .svg and .wasm file
//
// Progress lines go to stderr. Each page is rendered into memory and then
// written, so a failing scenario or template never leaves half a page.
// Errors name the file or scenario at fault.
func build(out string, stderr io.Writer) error {
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
	for _, ex := range exs {
		s, err := scenario.Decode(ex.JSON)
		if err != nil {
			return fmt.Errorf("build: example %s: %w", ex.Name, err)
		}
		tr, err := engine.Run(s)
		if err != nil {
			return fmt.Errorf("build: example %s: %w", ex.Name, err)
		}
		page := templates.Page{Root: "../../", Name: ex.Name, Title: ex.Title, Summary: ex.Summary, Scenario: ex.JSON, Trace: tr}
		html, err := render(templates.ScenarioPage(page))
		if err != nil {
			return fmt.Errorf("build: page of example %s: %w", ex.Name, err)
		}
		if err := write(scenarioPath(ex.Name), html); err != nil {
			return err
		}
		entries = append(entries, templates.NewIndexEntry(ex.Name, ex.Title, ex.Summary, path.Dir(scenarioPath(ex.Name))+"/", tr))
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

	// The wasm, into a temporary name, renamed once complete.
	fmt.Fprintf(stderr, "site: compiling %s for js/wasm\n", wasmPackage)
	wasmTmp := filepath.Join(out, "main.wasm.tmp")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasmTmp, wasmPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		os.Remove(wasmTmp)
		return fmt.Errorf("build: go build %s for js/wasm: %w", wasmPackage, err)
	}
	if err := os.Rename(wasmTmp, filepath.Join(out, "main.wasm")); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	written = append(written, "main.wasm")

	// Precompressed copies.
	for _, rel := range written {
		if !compressed[path.Ext(rel)] {
			continue
		}
		src := filepath.Join(out, filepath.FromSlash(rel))
		b, err := os.ReadFile(src)
		if err != nil {
			return fmt.Errorf("build: %w", err)
		}
		gz, err := gzipBytes(b)
		if err != nil {
			return fmt.Errorf("build: gzip %s: %w", rel, err)
		}
		if err := os.WriteFile(src+".gz", gz, 0o644); err != nil {
			return fmt.Errorf("build: %w", err)
		}
	}
	fmt.Fprintf(stderr, "site: wrote %d files (and their .gz copies) into %s\n", len(written), out)
	return nil
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
