# mcplab: the verbs a person types.
#
#   make serve   generate templates, build the site into dist/, serve it on
#                http://localhost:$(PORT) (PORT=8080 unless set) as soon as
#                its files are written (compressed copies follow)
#   make site    generate templates and build the site into dist/, no server
#                (BASE_URL=https://... adds an oEmbed JSON to every scenario page and absolute run links to the review pages' Markdown)
#   make mcplab  build the command as bin/mcplab (build, serve, run, review,
#                explore, probe, proxy, mock, probe-client, links, version; bin/mcplab help VERB for one)
#   make test    everything CI runs (.ci/run calls exactly this)
#   make bench   the engine's benchmarks, share link lengths, per-page
#                transfer, time to ready and change-to-repaint, and make
#                serve's time to listen from a clean clone and unchanged
#   make bench-wasm  only the WebAssembly/native ratio of make bench
#   make bench-serve  only make serve's two times of make bench
#   make fmt     format Go and templ sources
#   make screenshot  rewrite the README's screenshot (scenario A, 1280 px)
#   make editor  rebuild site/static/editor.js, the playground's code editor
#                (CodeMirror 6 from npm, pinned by site/editor/package-lock.json)
#
# Every recipe runs in bash with -euo pipefail, so the first failing step
# stops the target with its own error.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

GO     ?= go
PORT   ?= 8080
CHROME ?= /usr/bin/chromium
export PORT CHROME

GOROOT_DIR := $(shell $(GO) env GOROOT)
WASM_EXEC  := $(GOROOT_DIR)/lib/wasm/go_js_wasm_exec
FUZZTIME   ?= 20s

# Run from the repository root, so the file names in the generated code
# read templates/x.templ (as committed). Running it inside templates/ or with
# -path templates writes x.templ instead and fails check-generate.
# -log-level warn: errors and warnings only, not a "Post-generation event"
# line per file.
TEMPL_GENERATE = $(GO) tool templ generate -log-level warn

# Generated templ files outside dist/, listed with their content hashes.
TEMPL_HASHES = find . -name '*_templ.go' -not -path './dist/*' -print0 | sort -z | xargs -0r sha256sum

# Where `make chromium` writes apt-get's output.
APT_LOG ?= $(or $(TMPDIR),/tmp)/mcplab-apt.log

.PHONY: help serve site mcplab generate test bench bench-wasm bench-serve fmt \
	check-generate vet test-native test-wasm fuzz chromium test-browser screenshot editor npm

help:
	@echo "make serve   build the site into dist/ and serve it on http://localhost:$(PORT) (PORT=... to change)"
	@echo "make site    build the site into dist/ without serving it"
	@echo "make mcplab  build the command as bin/mcplab (mcplab build|serve|run|review|explore|probe|proxy|mock|probe-client|links|version)"
	@echo "make test    vet, engine tests (native, -race), the same tests under Node/wasm, fuzz, browser tests"
	@echo "make bench   engine benchmarks"
	@echo "make bench-wasm  only the WebAssembly/native ratio of the lesson runs (WASM_ROUNDS=5)"
	@echo "make bench-serve  only make serve's time to listen, from a clean clone (< 90 s) and with nothing changed (< 10 s)"
	@echo "make fmt     gofmt and templ fmt"
	@echo "make editor  rebuild site/static/editor.js (the playground's code editor) and sqlite.js (the browser's SQLite) with npm from the lockfile"

## ---- the main job -------------------------------------------------------

# The build caches compressed copies and wasm binaries in ~/.cache/mcplab
# (docs/building.md, "The build cache"): with nothing changed it takes seconds. serve
# -build builds and serves in one process, from the moment every file is
# written: the .br and .gz copies (brotli at quality 11 of the wasm, a
# minute of CPU from a cold cache) follow in the background, and a file is
# served uncompressed until its copy is there.
serve: generate
	$(GO) run ./site/cmd/mcplab serve -build -dir dist

site: generate
	$(GO) run ./site/cmd/mcplab build -out dist $(if $(BASE_URL),-base-url $(BASE_URL))

# -buildvcs=auto: the binary names its commit (mcplab version) when built
# in a git checkout, whatever GOFLAGS says (some machines set
# -buildvcs=false), and builds without it elsewhere.
mcplab:
	$(GO) build -buildvcs=auto -o bin/mcplab ./site/cmd/mcplab
	@echo "built bin/mcplab: bin/mcplab help"

generate:
	@echo "==> go tool templ generate"
	@$(TEMPL_GENERATE)

## ---- tests --------------------------------------------------------------

# Two lanes on a 2-core machine, run side by side (make -j), each in order:
#
#   static   npm, check-generate, vet (cheap checks first; vet compiles every
#            package natively and for js/wasm, once, for the lanes below)
#   browser  chromium (apt-get, waiting on the network and the disk, runs
#            beside the static lane), then after static: test-browser
#   engine   after static: test-native, test-wasm, fuzz
#
# Why side by side: the browser suite is the long step and leaves a core
# idle much of the time (a tab waits on its page, the test on the tab),
# while the engine lane is CPU-bound; one after the other the machine sat
# half idle for most of 17 minutes. Why static first: two go commands that
# build the same package at once each compile it; after vet both lanes find
# the shared packages in the build cache. The fuzz times are unchanged;
# the fuzzers share the cores with the browser suite. The timing budgets
# of the browser tests scale with the load average (site/worker_test.go).
# A failing step stops its lane; make then lets the running step of the
# other lane end and fails. Each lane is a sub-make with one goal at a
# time, so its steps keep their order.
test:
	@$(MAKE) --no-print-directory -j3 test-lane-browser test-lane-engine
	@echo "make test: all steps passed"

.PHONY: test-lane-static test-lane-browser test-lane-engine

test-lane-static: npm
	@$(MAKE) --no-print-directory check-generate
	@$(MAKE) --no-print-directory vet

test-lane-browser: chromium test-lane-static
	@$(MAKE) --no-print-directory test-browser

test-lane-engine: test-lane-static
	@$(MAKE) --no-print-directory test-native
	@$(MAKE) --no-print-directory test-wasm
	@$(MAKE) --no-print-directory fuzz

# The committed *_templ.go files must be what `templ generate` writes from the
# committed .templ files. Compared before/after rather than against git HEAD,
# so it works on a tarball and does not flag uncommitted work in progress
# that was already regenerated.
check-generate:
	@echo "==> $(TEMPL_GENERATE) (generated files must not change)"
	@before="$$($(TEMPL_HASHES))"; \
	$(TEMPL_GENERATE); \
	after="$$($(TEMPL_HASHES))"; \
	if [ "$$before" != "$$after" ]; then \
		echo "FAIL: go tool templ generate changed generated files (now regenerated; review and commit them):" >&2; \
		diff <(echo "$$before") <(echo "$$after") >&2 || true; \
		exit 1; \
	fi

vet:
	@echo "==> gofmt -l (every tracked Go file formatted)"
	@unformatted="$$(gofmt -l $$(git ls-files '*.go'))"; if [ -n "$$unformatted" ]; then echo "FAIL: gofmt would change these files (run make fmt):" >&2; echo "$$unformatted" >&2; exit 1; fi
	@echo "==> go vet ./..."
	$(GO) vet ./...
	@echo "==> GOOS=js GOARCH=wasm go vet ./wasm/... (every browser binary: wasm/cmd/<page>)"
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/...

test-native:
	@echo "==> go test -race ./engine/... ./templates/..."
	$(GO) test -race ./engine/... ./templates/...
	@echo "==> go test ./site/internal/... ./wasm/... (the templ trim of the wasm build; the live verbs' packages against real peers; the protocol, the worker and the page state, natively)"
	$(GO) test ./site/internal/... ./wasm/...

# The same engine tests, golden traces included, compiled to js/wasm and run
# under Node: a wasm trace that differs by one byte from the native golden
# fails here.

test-wasm:
	@command -v node >/dev/null || { echo "FAIL: node is missing; run: apt-get install -y nodejs" >&2; exit 1; }
	@echo "==> GOOS=js GOARCH=wasm go test ./engine/... (under Node $$(node --version))"
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" ./engine/...

# FuzzScenarios (structural: valid scenarios built from the built-in ones,
# run through the whole engine) gets a short run of its own.
FUZZTIME_ENGINE ?= 15s
# The hand-written fast paths of scenario.Decode and jsonrpc.Parse are fuzzed
# against encoding/json (same result or both refuse), briefly each.
FUZZTIME_FAST ?= 10s

fuzz:
	@echo "==> go test -fuzz=^FuzzDecode$$ -fuzztime=$(FUZZTIME) ./engine/scenario"
	$(GO) test -run=NONE -fuzz='^FuzzDecode$$' -fuzztime=$(FUZZTIME) ./engine/scenario
	@echo "==> go test -fuzz=FuzzDecodeFastMatchesSlow, FuzzParseFastMatchesSlow -fuzztime=$(FUZZTIME_FAST) (the fast readers agree with encoding/json)"
	$(GO) test -run=NONE -fuzz='^FuzzDecodeFastMatchesSlow$$' -fuzztime=$(FUZZTIME_FAST) ./engine/scenario
	$(GO) test -run=NONE -fuzz='^FuzzParseFastMatchesSlow$$' -fuzztime=$(FUZZTIME_FAST) ./engine/jsonrpc
	@echo "==> go test -fuzz=FuzzScenarios -fuzztime=$(FUZZTIME_ENGINE) ./engine"
	$(GO) test -run=NONE -fuzz='^FuzzScenarios$$' -fuzztime=$(FUZZTIME_ENGINE) ./engine

# Chromium for the browser tests: $CHROME, else /usr/bin/chromium. Installed
# from Debian's package when missing and apt-get is usable as root, with
# apt-get's output in $(APT_LOG) and one line on screen; otherwise, or if
# the install fails, the target fails with the command to run. Never silent.
chromium:
	@if [ -x "$(CHROME)" ]; then \
		echo "==> browser: $(CHROME)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "==> $(CHROME) is missing: installing Debian's chromium package (apt-get output in $(APT_LOG))"; \
		if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; } >"$(APT_LOG)" 2>&1; then \
			tail -n 20 "$(APT_LOG)" >&2; \
			echo "FAIL: could not install Chromium (full log: $(APT_LOG)); run: apt-get update && apt-get install -y chromium   (or set CHROME=/path/to/chromium)" >&2; \
			exit 1; \
		fi; \
		[ -x "$(CHROME)" ] || { echo "FAIL: apt-get installed chromium but $(CHROME) does not exist; set CHROME=/path/to/chromium" >&2; exit 1; }; \
		echo "==> browser: $(CHROME) (installed)"; \
	else \
		echo "FAIL: Chromium is missing at $(CHROME); run: sudo apt-get update && sudo apt-get install -y chromium   (or set CHROME=/path/to/chromium)" >&2; \
		exit 1; \
	fi

# -count=1: the tests build the site (a subprocess compiles the wasm), which
# go test's cache cannot see, so a cached pass could hide a broken page.
# -v, filtered: one "=== RUN" line per test as it starts and its result as
# it ends, so a long run shows where it is (the site build's progress lines
# come first, from the first test that needs the site).
# -timeout=40m: a hung test still ends the run well inside CI's 90 minutes,
# while a slow but passing suite on a loaded machine (the whole suite takes
# a few minutes on two idle cores) is not killed halfway.
test-browser: chromium
	@echo "==> go test -v ./site (chromedp, headless $(CHROME)); one line per test as it runs"
	$(GO) test -count=1 -v -timeout=40m ./site 2>&1 | grep --line-buffered -v -E '^=== (PAUSE|CONT) '

## ---- other verbs --------------------------------------------------------

# The performance budgets, read from the benchmark output: BenchmarkGrowth
# reports t(10n)/t(n) ("growth", <= 13) and BenchmarkFloor a whole run over
# stdlib generic decode+re-encode ("floor", <= 0.6), each pair timed
# alternately in one benchmark; BenchmarkExploreVsEntry the race
# explorer's CPU time per run over entry.Run's on the same scenarios
# ("explore/entry", <= 1.5).
BENCH_BUDGETS = awk ' \
  function verdict(v, max) { return v <= max ? "ok" : "OVER BUDGET" } \
  { for (i = 2; i < NF; i++) { \
      if ($$(i+1) == "growth") printf "  growth  %-44s t(10n)/t(n) = %6.2f  (budget <= 13)   %s\n", $$1, $$i, verdict($$i, 13); \
      if ($$(i+1) == "floor")  printf "  floor   %-44s run/stdlib  = %6.2f  (budget <= 0.6)  %s\n", $$1, $$i, verdict($$i, 0.6); \
      if ($$(i+1) == "explore/entry") printf "  explore %-44s per run     = %6.2f  (budget <= 1.5)  %s\n", $$1, $$i, verdict($$i, 1.5) } }'

# WebAssembly under Node over native on the lesson-sized runs (<= 3):
# site/internal/wasmratio compiles the engine's tests natively and for
# js/wasm (and as the site ships its wasm: no inlining, GOGC=400), then runs
# BenchmarkLessonScenario from those binaries in WASM_ROUNDS alternating
# rounds seconds apart, prints each round with the load average, and
# reports the median over the rounds of wasm's CPU time per run over
# native's in the same round.
WASM_ROUNDS ?= 5

# make serve until it listens, from a clean clone (< 90 s) and again with
# nothing changed (< 10 s): site/internal/servetime clones HEAD into a
# temporary directory and runs there what the serve target runs (templ
# generate, then serve -build) with an empty build cache of its own and
# Go's caches as they are, stops it once it listens, lets a complete
# build there make every compressed copy, and times serve again. Minutes:
# most of it the brotli copies of the complete build, which is not timed.
SERVETIME = $(GO) run ./site/internal/servetime

bench:
	@echo "==> go test -bench=. -benchmem ./engine/..."
	@out=$$(mktemp); ratio=$$(mktemp); serve=$$(mktemp); trap 'rm -f "$$out" "$$ratio" "$$serve"' EXIT; \
	$(GO) test -run=NONE -bench=. -benchmem ./engine/... | tee "$$out"; \
	echo "==> go run ./site/internal/wasmratio -rounds $(WASM_ROUNDS) (BenchmarkLessonScenario natively and under Node, alternating)"; \
	$(GO) run ./site/internal/wasmratio -rounds $(WASM_ROUNDS) | tee "$$ratio"; \
	echo "==> go run ./site/internal/servetime (make serve until it listens: in a git clone of HEAD with an empty build cache, then again with nothing changed; progress on stderr)"; \
	$(SERVETIME) | tee "$$serve"; \
	echo "==> performance budgets (machine load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown))"; \
	sed 's/-[0-9]*\([[:space:]]\)/\1/' "$$out" | $(BENCH_BUDGETS); \
	sed -n '/^wasm budget, WebAssembly/,$$p' "$$ratio"; \
	cat "$$serve"
	@echo "==> go run ./site/cmd/mcplab links (share link length of every built-in scenario)"
	$(GO) run ./site/cmd/mcplab links
	@echo "==> go test -run 'TestMeasurePages|TestMeasureLedgerPage' ./site (per page: transfer, navigation to ready, change to repainted SVG; the ledger lesson page's budgets: ready <= 2 s, warm change to frame <= 16 ms)"
	$(GO) test -count=1 -run 'TestMeasurePages|TestMeasureLedgerPage' -v ./site | grep -v '^=== RUN'
	@echo "==> go test -run TestMeasureExplorePage ./site (the race explorer page: a 64 x 64 map with its boundaries refined, budget 1 s on localhost; the runs it needed against the 4,096 of the full grid)"
	$(GO) test -count=1 -run 'TestMeasureExplorePage' -v ./site | grep -E 'explore|^(---|ok|FAIL)'
	@echo "==> the 50 ms long-task budget, unscaled: the heaviest herd and a 20,000-line paste (make test scales 50 ms by the machine's load average per core)"
	MCPLAB_LONG_TASK_MS=50 $(GO) test -count=1 -run 'TestHeaviestHerdNeverBlocksThePage|TestImportLongTranscriptStaysResponsive' -v ./site | grep -E 'main thread|^(---|ok|FAIL)' || true
	@echo "(machine load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown))"

# The wasm/native ratio alone, as make bench measures it.
bench-wasm:
	$(GO) run ./site/internal/wasmratio -rounds $(WASM_ROUNDS)

# make serve's two times alone, as make bench measures them.
bench-serve:
	@echo "==> go run ./site/internal/servetime (make serve until it listens: in a git clone of HEAD with an empty build cache, then again with nothing changed; progress on stderr)"
	$(SERVETIME)

# The README's screenshot, site/testdata/screenshot.png: scenario A at
# 1,280 px in headless Chromium (site/screenshot_test.go).
screenshot: chromium
	$(GO) test -count=1 -run 'TestREADMEScreenshot' ./site -update-screenshot

# npm, checked before the long steps: the browser suite installs the
# editor's and the probe's packages from their lockfiles (npm ci) and fails
# without it.
npm:
	@command -v npm >/dev/null || { echo "FAIL: npm is missing (the browser tests install site/editor's packages, the live tests site/testdata/probe/ts's, from their lockfiles); run: apt-get install -y nodejs npm" >&2; exit 1; }
	@echo "==> npm $$(npm --version)"

# The playground's code editor: CodeMirror 6 and its glue
# (site/editor/editor.js) bundled by esbuild into site/static/editor.js,
# which is committed, so `make serve` needs only Go. npm ci installs exactly
# the lockfile's versions (esbuild included), so the same inputs give the
# same bytes; TestEditorBundleIsCurrent (site/editor_test.go, part of
# `make test`) rebuilds it into a temporary file and compares. The same
# lockfile pins the browser's SQLite (@sqlite.org/sqlite-wasm), which
# build-sqlite.mjs bundles into site/static/sqlite.js beside sqlite3.wasm
# for ledger.wasm's worker (wasm/jsledger/jsledger.go; TestSQLiteBundleIsCurrent).
editor:
	@command -v npm >/dev/null || { echo "FAIL: npm is missing; run: apt-get install -y nodejs npm" >&2; exit 1; }
	@echo "==> npm ci in site/editor (versions from site/editor/package-lock.json)"
	cd site/editor && npm ci --no-audit --no-fund --loglevel=error
	@echo "==> node site/editor/build.mjs (esbuild) -> site/static/editor.js"
	cd site/editor && node build.mjs
	@echo "==> node site/editor/build-sqlite.mjs -> site/static/sqlite.js, sqlite3.wasm (the browser's SQLite)"
	cd site/editor && node build-sqlite.mjs
	@wc -c site/static/editor.js site/static/sqlite.js site/static/sqlite3.wasm

fmt:
	$(GO) tool templ fmt templates
	gofmt -w $$(find . -name '*.go' -not -path './dist/*')
