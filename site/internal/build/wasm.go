package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcplab/mcplab/site/internal/trim"
)

// wasmPackages are the browser binaries' mains, one per page
// (wasm/cmd/<page>), as go list reads the pattern: the templ trim covers
// what any of them links.
const wasmPackages = "github.com/mcplab/mcplab/wasm/cmd/..."

// wasmBinary is one browser binary: the main package each page loads.
type wasmBinary struct {
	file string // name in the site root
	pkg  string // its main package (wasm/cmd/<page>)
}

var (
	// mainWasm is the scenario pages' simulator without SQLite.
	mainWasm = wasmBinary{file: "main.wasm", pkg: "github.com/mcplab/mcplab/wasm/cmd/lab"}
	// playgroundWasm is the playground's (wasm/cmd/playground).
	playgroundWasm = wasmBinary{file: "playground.wasm", pkg: "github.com/mcplab/mcplab/wasm/cmd/playground"}
	// ledgerWasm runs the ledger on the browser's SQLite (wasm/jsledger:
	// SQLite itself is site/static/sqlite.js and sqlite3.wasm, loaded
	// beside it): the pages of scenarios with a ledger, the playground for
	// such a scenario, and the review page load it.
	ledgerWasm = wasmBinary{file: "ledger.wasm", pkg: "github.com/mcplab/mcplab/wasm/cmd/ledger"}
	// importWasm is the transcript import page's (wasm/cmd/import).
	importWasm = wasmBinary{file: "import.wasm", pkg: "github.com/mcplab/mcplab/wasm/cmd/import"}
	// exploreWasm is the race explorer page's (wasm/cmd/explore): the
	// only binary that links engine/explore.
	exploreWasm = wasmBinary{file: "explore.wasm", pkg: "github.com/mcplab/mcplab/wasm/cmd/explore"}
)

// wasmLDFlags are the link flags of every wasm binary: no symbol table, no
// DWARF (the page never needs them; -s -w saves about a fifth of the size).
const wasmLDFlags = "-s -w"

// wasmGCFlags compile every package of a wasm binary without inlining, except the Go runtime (runtime,
// internal/runtime/...; the last -gcflags pattern that matches a package
// wins). Inlining copies a callee's body
// into each call site, and the copies, each with its own registers and
// locals, compress badly: measured on playground.wasm (Go 1.26.8, brotli
// q11) it is 1,420,185 B with inlining and 1,312,292 B without it outside
// the runtime, which brings the playground under ARCHITECTURE.md's 1.5 MB
// transfer budget. The cost is speed, in the worker and in the
// page's own Go (controls, DOM patch): lesson scenarios ran about 10-15%
// slower under wasm (BenchmarkLessonScenario), and the main thread's
// longest task stayed within TestHeaviestHerdNeverBlocksThePage's and
// TestImportLongTranscriptStaysResponsive's budgets (16.8 and 42.6 ms);
// without inlining in the runtime too (1,280,243 B) they ran 2-2.7x
// slower, so the runtime keeps it. make bench's wasm figures come from
// go test, which inlines as usual.
var wasmGCFlags = []string{"-gcflags=all=-l", "-gcflags=runtime=", "-gcflags=internal/runtime/...="}

// buildWasm compiles each binary for js/wasm and hands it to write (which
// writes it into the site and queues its compressed copies). The templ
// runtime is trimmed first (package trim; if that fails the build warns and
// links templ whole).
//
// A binary is reused from the cache when its wasmKey is there: the key
// hashes the content ID of every package it links, from the build ID that
// `go list -export` gives it (go's own hash of the compiled package, which
// is what the linker reads: go keys its link step the same way), the
// toolchain, the build flags and the link flags. Any change to a package's
// sources, embedded files or flags that changes its code changes the key. -buildvcs=false keeps the
// commit out of the binary, so the binary is a function of that key alone.
// On a miss `go list -export` has just compiled every package into go's
// build cache, and `go build` links.
func buildWasm(ctx context.Context, binaries []wasmBinary, cache *buildCache, log *progress, write func(rel string, data []byte) error) error {
	start := time.Now()
	trimRoot := cache.path("trim", "")
	if trimRoot == "" {
		tmp, err := os.MkdirTemp("", "mcplab-trim-")
		if err != nil {
			return fmt.Errorf("build: %w", err)
		}
		defer os.RemoveAll(tmp)
		trimRoot = tmp
	}
	modfile, reused, err := trim.Modfile(trimRoot, wasmPackages)
	switch {
	case err != nil:
		log.linef("trim", "warning: cannot trim templ's net/http and html/template helpers out of the wasm (%v); linking templ whole, which adds about 0.6 MB to every page's transfer", err)
		modfile = ""
	case reused:
		log.donef("trim", start, "templ without its net/http and html/template helpers: reused")
	default:
		log.donef("trim", start, "templ without its net/http and html/template helpers: written")
	}
	toolchain, err := goToolchain(ctx)
	if err != nil {
		return err
	}
	// The first binary alone (from a cold go build cache it compiles what
	// all share), then the others together (what each adds is its own).
	errs := make([]error, len(binaries))
	var wg sync.WaitGroup
	for i, b := range binaries {
		if i == 0 {
			errs[0] = buildOneWasm(ctx, b, modfile, toolchain, cache, log, write)
			if errs[0] != nil {
				return errs[0]
			}
			continue
		}
		wg.Go(func() { errs[i] = buildOneWasm(ctx, b, modfile, toolchain, cache, log, write) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// buildOneWasm makes binary b (from the cache or by linking) and writes it.
func buildOneWasm(ctx context.Context, b wasmBinary, modfile, toolchain string, cache *buildCache, log *progress, write func(rel string, data []byte) error) error {
	start := time.Now()
	flags := append([]string{"-trimpath", "-buildvcs=false"}, wasmGCFlags...)
	if modfile != "" {
		flags = append(flags, "-modfile", modfile)
	}
	// Say so when checking takes long: that is go compiling.
	slow := time.AfterFunc(3*time.Second, func() {
		log.linef("wasm", "%s: compiling the packages it links (GOOS=js GOARCH=wasm go list -export %s)…", b.file, strings.Join(flags, " "))
	})
	key, err := wasmKey(ctx, b.pkg, flags, toolchain)
	slow.Stop()
	if err != nil {
		return err
	}
	name := key + ".wasm"
	data, ok := cache.get("wasm", name)
	how := "up to date"
	if !ok {
		log.linef("wasm", "%s: linking…", b.file)
		if data, err = linkWasm(ctx, b.pkg, flags); err != nil {
			return err
		}
		cache.put("wasm", name, data)
		how = "built"
	}
	if err := write(b.file, data); err != nil {
		return err
	}
	log.donef("wasm", start, "%s: %s, %.1f MB (key %s)", b.file, how, float64(len(data))/1e6, key[:12])
	return nil
}

// modulePath is the import path of mcplab's module, whose source the wasm
// binaries compile from.
const modulePath = "github.com/mcplab/mcplab"

// inCheckout returns nil when the go command's main module (that of the
// working directory) is mcplab's, and otherwise an error saying that the
// build compiles the simulator from mcplab's source, so it runs inside a
// checkout: an installed mcplab run elsewhere has no source to compile.
func inCheckout(ctx context.Context) error {
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Path}}").Output()
	if err != nil || strings.TrimSpace(string(out)) != modulePath {
		here, _ := os.Getwd()
		return fmt.Errorf("build: the site's WebAssembly is compiled from mcplab's source, and %s is not in a checkout of %s: run mcplab build inside one (git clone https://%s), or make site there", here, modulePath, modulePath)
	}
	return nil
}

// goToolchain describes the go command's toolchain, the environment that
// changes what it builds, and the main module's go.mod and go.sum (the
// module versions a binary's build info names): part of every wasmKey.
func goToolchain(ctx context.Context) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOROOT", "GOFLAGS", "GOWASM", "GOEXPERIMENT", "GOTOOLCHAIN", "GOMOD")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("build: go env: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	gomod := lines[len(lines)-1]
	mod, err := os.ReadFile(gomod)
	if err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	sum, err := os.ReadFile(filepath.Join(filepath.Dir(gomod), "go.sum"))
	if err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	return fmt.Sprintf("%s\ngo.mod %d\n%s\ngo.sum %d\n%s", out, len(mod), mod, len(sum), sum), nil
}

// wasmKey returns the cache key of pkg built for js/wasm with the
// go build flags (see buildWasm): a hex SHA-256 over toolchain, flags,
// wasmLDFlags and the import path and content ID of every package linked.
func wasmKey(ctx context.Context, pkg string, flags []string, toolchain string) (string, error) {
	args := append([]string{"list", "-deps", "-export", "-f", "{{.ImportPath}} {{.BuildID}}"}, flags...)
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("build: GOOS=js GOARCH=wasm go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	h := sha256.New()
	fmt.Fprintf(h, "mcplab wasm 3\n%s\nflags %q\nldflags %q\n", toolchain, flags, wasmLDFlags)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, id, _ := strings.Cut(line, " ")
		if id == "" && pkg != "unsafe" { // unsafe is the one package with nothing to compile
			return "", fmt.Errorf("build: go list -export gave no build ID for %s", pkg)
		}
		// A build ID is actionID/contentID; the linker reads the compiled
		// package, so its content ID is what the binary depends on (go's
		// own link step is keyed the same way). A change that compiles to
		// the same code, such as a comment, keeps the binary.
		fmt.Fprintf(h, "%s %s\n", pkg, id[strings.LastIndex(id, "/")+1:])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// linkWasm runs `go build` of pkg for js/wasm with flags and
// wasmLDFlags into a temporary file and returns the binary.
func linkWasm(ctx context.Context, pkg string, flags []string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "mcplab-wasm-")
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "out.wasm")
	args := append([]string{"build", "-ldflags=" + wasmLDFlags}, flags...)
	args = append(args, "-o", bin, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build: GOOS=js GOARCH=wasm go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return os.ReadFile(bin)
}
