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
//	self.mcplabServeMore() -> the second step of a reply with more: true
//	self.mcplabCollect()   a garbage collection, when the worker is idle
//
// where req.page names the controller asking ("lab", "playground",
// "import") and the reply is described by serveLab, servePlayground and
// serveImport. A panic anywhere becomes a visible error, never a dead page.
//
// Built plainly it is main.wasm, the scenario pages' simulator; built with
// -tags playground it also links the playground (api_playground.go,
// playground.go) and not the scenario page's controller (lab.go,
// labshare.go: 14 KB of brotli, which the playground's transfer budget
// needs) and is playground.wasm, which only the playground loads;
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
	"runtime"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/internal/wire"
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
		js.Global().Set("mcplabServeMore", js.FuncOf(serveMore))
		js.Global().Set("mcplabCollect", js.FuncOf(collect))
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
// of req.page and returns its reply, on the wire (toWire); an unknown page or
// a panic is {error: "..."}. A server that answers in two steps (serveLab:
// the picture now, the tables next) sets serveRest: its reply then says
// more: true, and the worker asks self.mcplabServeMore() for the rest
// before it takes another request. ms is what the step took, in
// milliseconds, its encoding included.
func serve(_ js.Value, args []js.Value) (result any) {
	serveRest = nil
	defer recoverInto(func(err error) { result = toWire(map[string]any{"error": err.Error()}, 0) })
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return toWire(map[string]any{"error": "mcplabServe expects one request object"}, 0)
	}
	page := args[0].Get("page")
	s, ok := servers[page.String()]
	if page.Type() != js.TypeString || !ok {
		return toWire(map[string]any{"error": fmt.Sprintf("this simulator serves no page %q", page.String())}, 0)
	}
	start := now()
	r := s(args[0])
	if serveRest != nil {
		r["more"] = true
	}
	return toWire(r, start)
}

// serveRest is the second step of the last request served, nil when it
// has none or it was taken.
var serveRest func() map[string]any

// serveMore is self.mcplabServeMore() in the worker: the second step of
// the request mcplabServe just answered with more: true (its reply, on
// the wire, with ms), or {error} when there is none or it failed.
func serveMore(js.Value, []js.Value) (result any) {
	rest := serveRest
	serveRest = nil
	defer recoverInto(func(err error) { result = toWire(map[string]any{"error": err.Error()}, 0) })
	if rest == nil {
		return toWire(map[string]any{"error": "mcplabServeMore: no request waits for a second step"}, 0)
	}
	start := now()
	return toWire(rest(), start)
}

// toWire puts a reply on the wire from the worker to the page:
//
//	{bytes: Uint8Array, the reply as JSON text in UTF-8; more: bool; error: bool}
//
// The worker reads more and error (worker.js) and hands the bytes over to
// the page (a transfer, not a copy); the page's bridge decodes and parses
// them (app.js). So a reply crosses from Go to JavaScript in one copy of
// its bytes, and no string is made in the worker: as nested values, a
// lesson page's change was a few hundred strings converted one by one
// (each a TextDecoder call) and a structured clone of every one, 3-4 ms
// of the worker's time per change, and even as one string its decode and
// copy between the threads were a few ms more under load (issue 11: a
// change within a frame). The JSON is written by wire.Append, which
// encoding/json would write 5-10 times slower here. A reply from a start
// (now() when the step began, 0 for none) carries ms: what the step took,
// in milliseconds, up to its encoding included.
func toWire(r map[string]any, start float64) map[string]any {
	failed := r["error"] != nil
	more := r["more"] == true
	b, err := wire.Append(wireBuf.b[:0], r)
	if err == nil && start > 0 {
		// ms goes last, after the encoding it measures.
		b = b[:len(b)-1]
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(append(b, `"ms":`...), now()-start, 'f', 3, 64)
		b = append(b, '}')
	}
	if err != nil {
		// Only a value no JSON can hold (a bug in a server).
		failed = true
		b = wire.AppendString(append(b[:0], `{"error":`...), "internal error: encoding the reply: "+err.Error())
		b = append(b, '}')
	}
	if wireBuf.b = b; cap(b) > wireBufMax {
		wireBuf.b = nil // a heavy herd's reply: not kept
	}
	bytes := uint8Array.New(len(b))
	js.CopyBytesToJS(bytes, b)
	return map[string]any{"bytes": bytes, "more": more && !failed, "error": failed}
}

// wireBuf is the buffer toWire writes each reply in, kept between replies
// (the worker serves one request at a time) when it holds at most
// wireBufMax bytes.
var wireBuf struct{ b []byte }

// wireBufMax is the largest buffer wireBuf keeps, 1 MiB: a lesson page's
// replies are tens of KB; the heaviest herd's, a few MB, is not kept.
const wireBufMax = 1 << 20

// uint8Array is JavaScript's Uint8Array constructor.
var uint8Array = js.Global().Get("Uint8Array")

// collect is self.mcplabCollect() in the worker, which calls it when idle
// after a reply (worker.js): a garbage collection there, between
// requests, so that the next run seldom pays for one (a run and its
// render allocate a few MB; a collection of the worker's heap takes a few
// ms, which in a run would be most of a frame: issue 11).
func collect(js.Value, []js.Value) any {
	runtime.GC()
	return nil
}

// viewSlot stands in a block's HTML for each of its views (in order),
// which the reply carries apart (outputReply; output.go puts them back,
// and so does site/static/app.js's mcplabMorph.whole, which splits a
// block on this same text: change both together).
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
	out, _, err := splitOutput(tr, false, "", false)
	return out, err
}

// splitOutput renders a trace's output, all in out when twoSteps is
// false (outputReply), else in two steps (issue 11: a lesson page shows a
// control change within a frame): out, now, holds what a reader watches
// while dragging a control (the blocks that are not Later, and of the
// timeline's views only the one with id shown when known is true); rest,
// later, renders the others. In out, a block left for later
// is {key, later, pending: true} and a view {id, pending: true}; rest
// returns the fill (output.go's pane.fill):
//
//	[{key, html?, sum?, views: [{id, html, sum}]}]
//
// one entry per block with something left: html and sum when the block
// itself was left, and the views that were. rest is nil when nothing was
// left.
func splitOutput(tr *trace.Trace, twoSteps bool, shown string, known bool) (out map[string]any, rest func() ([]any, error), err error) {
	v := templates.NewView(tr)
	parts := templates.OutputParts(v, templates.NewCharts(tr, v))
	shell, err := renderHTML(templates.OutputWith(v, nil))
	if err != nil {
		return nil, nil, err
	}
	attrs := []any{}
	for _, a := range v.OutputData() {
		attrs = append(attrs, []any{a[0], a[1]})
	}
	known = known && twoSteps
	// later lists, by block, what rest renders: the block itself (whole),
	// or the indexes of the views left.
	type left struct {
		part  int
		whole bool
		views []int
	}
	var later []left
	list := make([]any, len(parts))
	for i, part := range parts {
		if twoSteps && part.Later {
			list[i] = map[string]any{"key": part.Key, "later": true, "pending": true, "views": []any{}}
			later = append(later, left{part: i, whole: true})
			continue
		}
		views := make([]any, len(part.Views))
		l := left{part: i}
		for j, view := range part.Views {
			if known && view.ID != shown {
				views[j] = map[string]any{"id": view.ID, "pending": true}
				l.views = append(l.views, j)
				continue
			}
			if views[j], err = renderView(view); err != nil {
				return nil, nil, err
			}
		}
		if len(l.views) > 0 {
			later = append(later, l)
		}
		s, err := renderHTML(blockComponent(part))
		if err != nil {
			return nil, nil, err
		}
		list[i] = map[string]any{"key": part.Key, "later": part.Later, "html": s, "sum": htmlSum(s), "views": views}
	}
	out = map[string]any{"attrs": attrs, "shell": shell, "parts": list}
	if len(later) == 0 {
		return out, nil, nil
	}
	return out, func() ([]any, error) {
		fill := make([]any, len(later))
		for k, l := range later {
			part := parts[l.part]
			entry := map[string]any{"key": part.Key}
			idx := l.views
			if l.whole {
				s, err := renderHTML(blockComponent(part))
				if err != nil {
					return nil, err
				}
				entry["html"], entry["sum"] = s, htmlSum(s)
				idx = make([]int, len(part.Views))
				for j := range idx {
					idx[j] = j
				}
			}
			views := make([]any, len(idx))
			for n, j := range idx {
				var err error
				if views[n], err = renderView(part.Views[j]); err != nil {
					return nil, err
				}
			}
			entry["views"] = views
			fill[k] = entry
		}
		return fill, nil
	}, nil
}

// blockComponent is a block's component, with a viewSlot for each of its
// views (which the reply carries apart).
func blockComponent(part templates.OutputPart) templ.Component {
	if len(part.Views) == 0 {
		return part.Component
	}
	slots := make([]templ.Component, len(part.Views))
	for j := range slots {
		slots[j] = templ.Raw(viewSlot)
	}
	return part.Shell(slots)
}

// renderView renders one view of a block: {id, html, sum}.
func renderView(view templates.OutputView) (map[string]any, error) {
	s, err := renderHTML(view.Component)
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": view.ID, "html": s, "sum": htmlSum(s)}, nil
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
