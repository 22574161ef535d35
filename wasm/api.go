//go:build js && wasm

// Command wasm is mcplab's browser entry point, compiled with GOOS=js
// GOARCH=wasm into the site's main.wasm. It is glue only (ARCHITECTURE.md):
// it hands JSON to the engine, hands the trace to the templates, and puts
// the HTML in the page. Every decision lives in engine/ or templates/.
//
// The same binary runs twice on a page (site/static/app.js compiles it
// once): on the page, and in a Web Worker (site/static/worker.js), where
// every run and render of a control change happens, so the page never
// freezes. The files fall along that seam:
//
//   - api.go, api_playground.go, api_import.go: the JavaScript API. On the
//     page, the synchronous functions below; in the worker, mcplabServe,
//     which answers the page controllers' requests with HTML strings.
//   - page.go, lab.go, playground.go, import.go: the page controllers, on
//     the page: they read the controls, ask the worker (page.go's ask,
//     through app.js's mcplabEngine: one run at a time, the newest input
//     winning, a run past its budget stopped) and show the answer.
//   - dom.go, output.go: the DOM helpers, among them the pane that patches
//     #lab-output block by block, only what changed.
//
// On the page it exposes
//
//	globalThis.mcplab.run(json)    -> {trace: string|null, error: string|null}
//	globalThis.mcplab.render(json) -> {html: string|null, error: string|null}
//	globalThis.mcplab.share(json)  -> {fragment: string|null, error: string|null}
//	globalThis.mcplab.import(text, side) -> {trace: string|null, error: string|null}  (import.wasm only)
//
// (synchronous, on the calling thread: for tests and scripts, never used by
// the page's own controls), and starts the page it finds: the playground
// (#playground, playground.go), the transcript import page (#import,
// import.go), or a scenario page (#lab, lab.go). In the worker it exposes
//
//	self.mcplabServe(req) -> reply
//
// where req.page names the controller asking ("lab", "playground",
// "import") and the reply is described by serveLab, servePlayground and
// serveImport. A panic anywhere becomes a visible error, never a dead page.
//
// Built plainly it is main.wasm, the scenario pages' simulator; built with
// -tags playground it also links the playground (api_playground.go,
// playground.go) and is playground.wasm, which only the playground loads;
// built with -tags ledger it links the playground, the review and the
// ledger on the browser's SQLite (ledger.go, ledgerdb.go) and is
// ledger.wasm, which only the pages of scenarios with a ledger load (and
// the playground, for such a scenario, and the review page), with SQLite
// itself (site/static/sqlite.js and sqlite3.wasm, about 410 KB of brotli); built with -tags transcript it links the
// transcript importer (api_import.go, import.go) and neither the
// playground nor the scenario runner (api_lab.go, lab.go) and is
// import.wasm, which only the import page loads. So each page saves what it
// does not use (ARCHITECTURE.md's transfer budget).
package main

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/templates"
)

// options are what this binary links into a run: nothing by default, the
// in-memory SQLite ledger when built with -tags ledger (ledger.go), which
// only the pages of ledger scenarios load.
var options engine.Options

// startImport starts the transcript import page and importAPI is
// mcplab.import; both are nil unless the binary is built with -tags
// transcript (import.go sets them).
//
// startPlayground starts the playground, startLab a scenario page, and
// labAPI holds mcplab.run and mcplab.render; all nil in import.wasm
// (api_lab.go, lab.go and playground.go are built without -tags
// transcript), which so links no scenario runner: the import page judges
// transcripts, it runs no scenario.
var (
	startPlayground func(doc js.Value)
	startLab        func(doc js.Value)
	startImport     func(doc js.Value)
	importAPI       func(this js.Value, args []js.Value) any
	labAPI          map[string]any
	// startReviewPage starts the review page (review.go); set only in
	// ledger.wasm, which the review page loads.
	startReviewPage func(doc js.Value)
)

// servers answer the worker's requests by req.page (serve): "lab" here,
// "playground" and "import" from the files of the binaries that have them.
var servers = map[string]func(req js.Value) map[string]any{}

func main() {
	doc := js.Global().Get("document")
	if !doc.Truthy() {
		// In the engine worker: answer requests, touch no DOM.
		js.Global().Set("mcplabServe", js.FuncOf(serve))
		select {}
	}
	api := map[string]any{"share": js.FuncOf(jsShare)}
	for name, fn := range labAPI {
		api[name] = fn
	}
	js.Global().Set("mcplab", js.ValueOf(api))
	if importAPI != nil {
		js.Global().Get("mcplab").Set("import", js.FuncOf(importAPI))
	}
	func() {
		defer recoverInto(func(err error) { showFatal(doc, err) })
		switch {
		case doc.Call("getElementById", "playground").Truthy():
			if startPlayground == nil {
				panic("this page needs playground.wasm or ledger.wasm")
			}
			startPlayground(doc)
		case doc.Call("getElementById", "import").Truthy():
			if startImport == nil {
				panic("this page needs import.wasm (the build with -tags transcript), not main.wasm")
			}
			startImport(doc)
		case doc.Call("getElementById", "review-live").Truthy():
			if startReviewPage == nil {
				panic("the review page needs ledger.wasm (the build with -tags ledger)")
			}
			startReviewPage(doc)
		case doc.Call("getElementById", "lab").Truthy():
			if startLab == nil {
				panic("this page needs main.wasm or ledger.wasm, not import.wasm")
			}
			startLab(doc)
		}
	}()
	select {} // keep the callbacks alive
}

// jsShare is mcplab.share(json): the canonical "s=..." share fragment of a
// scenario document (scenario.ShareFragment), or its error.
func jsShare(_ js.Value, args []js.Value) (result any) {
	defer recoverInto(func(err error) { result = reply("fragment", "", err) })
	data, err := stringArg(args)
	if err != nil {
		return reply("fragment", "", err)
	}
	frag, err := scenario.ShareFragment([]byte(data))
	return reply("fragment", frag, err)
}

// serve is self.mcplabServe(req) in the worker: it hands req to the server
// of req.page and returns its reply; an unknown page or a panic is
// {error: "..."}.
func serve(_ js.Value, args []js.Value) (result any) {
	defer recoverInto(func(err error) { result = map[string]any{"error": err.Error()} })
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return map[string]any{"error": "mcplabServe expects one request object"}
	}
	page := args[0].Get("page")
	s, ok := servers[page.String()]
	if page.Type() != js.TypeString || !ok {
		return map[string]any{"error": fmt.Sprintf("this simulator serves no page %q", page.String())}
	}
	start := now()
	r := s(args[0])
	r["ms"] = now() - start
	return r
}

// viewSlot stands in a block's HTML for each of its views (in order),
// which the reply carries apart (outputReply; output.go puts them back).
const viewSlot = "<!--mcplab-view-->"

// outputReply renders templates.Output of a trace block by block
// (templates.OutputParts), for output.go's pane:
//
//	{attrs: [[name, value], ...]   div#output's attributes (View.OutputData)
//	 shell: "<div ...></div>"      div#output, empty
//	 parts: [{key, later, html, sum, views: [{id, html, sum}]}]}
//
// where a part with views has html with a viewSlot where each view goes,
// and sum is a digest of html (htmlSum): the page compares digests, so the
// HTML itself (a megabyte for the heaviest herd's chart) never has to be
// copied into the page's Go and back out to the DOM (issue 12: that copy
// was most of the main thread's work per change).
func outputReply(tr *trace.Trace) (map[string]any, error) {
	v := templates.NewView(tr)
	parts := templates.OutputParts(v, templates.NewCharts(tr, v))
	shell, err := renderHTML(templates.OutputWith(v, nil))
	if err != nil {
		return nil, err
	}
	attrs := []any{}
	for _, a := range v.OutputData() {
		attrs = append(attrs, []any{a[0], a[1]})
	}
	list := make([]any, len(parts))
	for i, part := range parts {
		c := part.Component
		views := make([]any, len(part.Views))
		if len(part.Views) > 0 {
			slots := make([]templ.Component, len(part.Views))
			for j, view := range part.Views {
				s, err := renderHTML(view.Component)
				if err != nil {
					return nil, err
				}
				views[j] = map[string]any{"id": view.ID, "html": s, "sum": htmlSum(s)}
				slots[j] = templ.Raw(viewSlot)
			}
			c = part.Shell(slots)
		}
		s, err := renderHTML(c)
		if err != nil {
			return nil, err
		}
		list[i] = map[string]any{"key": part.Key, "later": part.Later, "html": s, "sum": htmlSum(s), "views": views}
	}
	return map[string]any{"attrs": attrs, "shell": shell, "parts": list}, nil
}

// htmlSum is a digest of one block's HTML for the page's comparison
// (outputReply): its length and its 64-bit FNV-1a hash, in hex. Two
// different blocks of one page that share it are as likely as a random
// 64-bit collision.
func htmlSum(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return strconv.Itoa(len(s)) + ":" + strconv.FormatUint(h.Sum64(), 16)
}

// showFatal shows an error that stopped a page from starting and marks the
// page as failed, without killing it: the prerendered content stays.
func showFatal(doc js.Value, err error) {
	if box := doc.Call("getElementById", "lab-error"); box.Truthy() {
		box.Set("textContent", "Simulator error: "+err.Error())
		box.Set("hidden", false)
	}
	doc.Get("documentElement").Get("dataset").Set("ready", "error")
}

func stringArg(args []js.Value) (string, error) {
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return "", errors.New("expected one argument: the scenario JSON as a string")
	}
	return args[0].String(), nil
}

func reply(key, value string, err error) map[string]any {
	if err != nil {
		return map[string]any{key: nil, "error": err.Error()}
	}
	return map[string]any{key: value, "error": nil}
}

// recoverInto turns a panic into an error handed to set.
func recoverInto(set func(error)) {
	if r := recover(); r != nil {
		set(fmt.Errorf("internal error: %v", r))
	}
}

// trimFragment is href without its fragment.
func trimFragment(href string) string {
	if i := strings.IndexByte(href, '#'); i >= 0 {
		return href[:i]
	}
	return href
}
