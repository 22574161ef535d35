# mcplab: the verbs a person types.
#
#   make serve   generate templates, build the site into dist/, serve it on
#                http://localhost:$(PORT) (PORT=8080 unless set)
#   make site    generate templates and build the site into dist/, no server
#                (BASE_URL=https://... adds an oEmbed JSON to every scenario page)
#   make test    everything CI runs (.ci/run calls exactly this)
#   make bench   the engine's benchmarks, share link lengths, per-page
#                transfer, time to ready and change-to-repaint
#   make fmt     format Go and templ sources
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
TEMPL_GENERATE = $(GO) tool templ generate

# Generated templ files outside dist/, listed with their content hashes.
TEMPL_HASHES = find . -name '*_templ.go' -not -path './dist/*' -print0 | sort -z | xargs -0r sha256sum

.PHONY: help serve site generate test bench fmt \
	check-generate vet test-native test-wasm fuzz chromium test-browser

help:
	@echo "make serve   build the site into dist/ and serve it on http://localhost:$(PORT) (PORT=... to change)"
	@echo "make site    build the site into dist/ without serving it"
	@echo "make test    vet, engine tests (native, -race), the same tests under Node/wasm, fuzz, browser tests"
	@echo "make bench   engine benchmarks"
	@echo "make fmt     gofmt and templ fmt"

## ---- the main job -------------------------------------------------------

serve: site
	$(GO) run ./site serve -dir dist

site: generate
	$(GO) run ./site build -out dist $(if $(BASE_URL),-base-url $(BASE_URL))

generate:
	$(TEMPL_GENERATE)

## ---- tests --------------------------------------------------------------

# Order matters: cheap static checks first, the browser last.
test: check-generate vet test-native test-wasm fuzz test-browser
	@echo "make test: all steps passed"

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
	@echo "==> go vet ./..."
	$(GO) vet ./...
	@echo "==> GOOS=js GOARCH=wasm go vet ./wasm/... (main.wasm, and with -tags ledger and -tags transcript)"
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/...
	GOOS=js GOARCH=wasm $(GO) vet -tags ledger ./wasm/...
	GOOS=js GOARCH=wasm $(GO) vet -tags transcript ./wasm/...

test-native:
	@echo "==> go test -race ./engine/... ./templates/..."
	$(GO) test -race ./engine/... ./templates/...

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

fuzz:
	@echo "==> go test -fuzz=FuzzDecode -fuzztime=$(FUZZTIME) ./engine/scenario"
	$(GO) test -run=NONE -fuzz=FuzzDecode -fuzztime=$(FUZZTIME) ./engine/scenario
	@echo "==> go test -fuzz=FuzzScenarios -fuzztime=$(FUZZTIME_ENGINE) ./engine"
	$(GO) test -run=NONE -fuzz='^FuzzScenarios$$' -fuzztime=$(FUZZTIME_ENGINE) ./engine

# Chromium for the browser tests: $CHROME, else /usr/bin/chromium. Installed
# from Debian's package when missing and apt-get is usable as root; otherwise
# the target fails with the one command to run. Never silent.
chromium:
	@if [ -x "$(CHROME)" ]; then \
		echo "==> browser: $(CHROME)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "==> $(CHROME) is missing: installing Debian's chromium package (apt-get update && apt-get install -y chromium)"; \
		apt-get update; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
		[ -x "$(CHROME)" ] || { echo "FAIL: apt-get installed chromium but $(CHROME) does not exist; set CHROME=/path/to/chromium" >&2; exit 1; }; \
	else \
		echo "FAIL: Chromium is missing at $(CHROME); run: sudo apt-get update && sudo apt-get install -y chromium   (or set CHROME=/path/to/chromium)" >&2; \
		exit 1; \
	fi

# -count=1: the tests build the site (a subprocess compiles the wasm), which
# go test's cache cannot see, so a cached pass could hide a broken page.
test-browser: chromium
	@echo "==> go test ./site (chromedp, headless $(CHROME))"
	$(GO) test -count=1 -timeout=15m ./site

## ---- other verbs --------------------------------------------------------

bench:
	@echo "==> go test -bench=. -benchmem ./engine/..."
	$(GO) test -run=NONE -bench=. -benchmem ./engine/...
	@echo "==> go run ./site links (share link length of every built-in scenario)"
	$(GO) run ./site links
	@echo "==> go test -run TestMeasurePages ./site (per page: transfer, navigation to ready, change to repainted SVG)"
	$(GO) test -count=1 -run 'TestMeasurePages' -v ./site | grep -v '^=== RUN'
	@echo "(machine load: $$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown))"

fmt:
	$(GO) tool templ fmt templates
	gofmt -w $$(find . -name '*.go' -not -path './dist/*')
