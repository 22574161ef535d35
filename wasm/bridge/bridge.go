//go:build js && wasm

// Package bridge is where a browser binary meets JavaScript: Main starts
// it as the engine worker (site/static/worker.js: self.mcplabServe and
// friends over a worker.Server) or on a page (globalThis.mcplab's
// synchronous functions, and the page controller whose element the page
// has). Each binary's main (wasm/cmd/<page>) hands it only what its pages
// need.
package bridge

import (
	"fmt"
	"runtime"
	"strconv"
	"syscall/js"

	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

// Binary is what one browser binary serves.
type Binary struct {
	// Server and Handlers answer the worker's requests, by page.
	Server   *worker.Server
	Handlers worker.Handlers
	// API is globalThis.mcplab on the page: synchronous functions of
	// strings (for tests and scripts, never the page's own controls),
	// each answering {<result>: string|null, error: string|null}.
	API []Func
	// Pages start the page controller of the first element (by id) the
	// page has.
	Pages []Page
	// Fatal shows an error that stopped a page from starting.
	Fatal func(doc js.Value, err error)
}

// Func is one function of globalThis.mcplab: Name(args...) calls Do with
// the string arguments and answers {Result: value, error}.
type Func struct {
	Name, Result string
	Do           func(args []string) (string, error)
}

// Page is a page controller and the id of the element that marks its page.
type Page struct {
	ID    string
	Start func(doc js.Value)
}

// Main runs b: in the worker (no document) it answers requests, on a page
// it sets globalThis.mcplab and starts the page's controller. It never
// returns (the callbacks stay alive).
func Main(b Binary) {
	doc := js.Global().Get("document")
	if !doc.Truthy() {
		listen(b.Server, b.Handlers)
		select {}
	}
	api := map[string]any{}
	for _, f := range b.API {
		api[f.Name] = js.FuncOf(f.call)
	}
	js.Global().Set("mcplab", js.ValueOf(api))
	func() {
		defer Recover(func(err error) { b.Fatal(doc, err) })
		for _, p := range b.Pages {
			if doc.Call("getElementById", p.ID).Truthy() {
				p.Start(doc)
				return
			}
		}
	}()
	select {}
}

// call is f on the JavaScript side, under recover.
func (f Func) call(_ js.Value, args []js.Value) (result any) {
	defer Recover(func(err error) { result = map[string]any{f.Result: nil, "error": err.Error()} })
	strs := make([]string, 0, len(args))
	for _, a := range args {
		if a.Type() == js.TypeString {
			strs = append(strs, a.String())
		}
	}
	if len(strs) == 0 || args[0].Type() != js.TypeString {
		return map[string]any{f.Result: nil, "error": "expected one argument: the scenario JSON as a string"}
	}
	v, err := f.Do(strs)
	if err != nil {
		return map[string]any{f.Result: nil, "error": err.Error()}
	}
	return map[string]any{f.Result: v, "error": nil}
}

// Recover turns a panic into an error handed to set.
func Recover(set func(error)) {
	if r := recover(); r != nil {
		set(fmt.Errorf("internal error: %v", r))
	}
}

// Now is performance.now() in milliseconds.
func Now() float64 { return js.Global().Get("performance").Call("now").Float() }

// listen sets the worker's functions:
//
//	self.mcplabServe(req) -> reply   (Server.Serve)
//	self.mcplabServeMore() -> reply  the second step of a reply with more: true
//	self.mcplabCollect()             a garbage collection, when the worker is idle
func listen(s *worker.Server, h worker.Handlers) {
	js.Global().Set("mcplabServe", js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
		defer Recover(func(err error) { result = toWire(internal(err), false, 0) })
		if len(args) < 1 || args[0].Type() != js.TypeObject {
			return toWire(internal(fmt.Errorf("mcplabServe expects one request object")), false, 0)
		}
		start := Now()
		r, more := s.Serve(h, Object{args[0]})
		return toWire(r, more, start)
	}))
	js.Global().Set("mcplabServeMore", js.FuncOf(func(js.Value, []js.Value) (result any) {
		defer Recover(func(err error) { result = toWire(internal(err), false, 0) })
		start := Now()
		return toWire(s.More(), false, start)
	}))
	// A collection between requests, so that the next run seldom pays
	// for one (a run and its render allocate a few MB; a collection takes
	// a few ms, which in a run would be most of a frame).
	js.Global().Set("mcplabCollect", js.FuncOf(func(js.Value, []js.Value) any {
		runtime.GC()
		return nil
	}))
}

func internal(err error) protocol.Reply {
	return protocol.Failure{Err: &protocol.Error{Kind: protocol.KindInternal, Message: err.Error()}}
}

// toWire puts a reply on the wire from the worker to the page:
//
//	{bytes: Uint8Array, the reply as JSON text in UTF-8; more: bool; error: bool}
//
// worker.js parses the bytes off the page's thread and posts the object,
// so a reply crosses from Go to JavaScript in one copy of its bytes and
// no string is made here (as nested values, a lesson page's change was a
// few hundred strings converted one by one, 3-4 ms of the worker's time).
// A reply from a start (Now() when the step began, 0 for none) carries
// ms: what the step took, its encoding included.
func toWire(r protocol.Reply, more bool, start float64) map[string]any {
	b := r.AppendJSON(wireBuf[:0])
	if start > 0 {
		// ms goes last, after the encoding it measures.
		b = b[:len(b)-1]
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(append(b, `"ms":`...), Now()-start, 'f', 3, 64)
		b = append(b, '}')
	}
	if wireBuf = b; cap(b) > wireBufMax {
		wireBuf = nil // a heavy herd's reply: not kept
	}
	bytes := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(bytes, b)
	failed := r.Failed()
	return map[string]any{"bytes": bytes, "more": more && !failed, "error": failed}
}

// wireBuf is the buffer toWire writes each reply in, kept between replies
// (the worker serves one request at a time) when it holds at most
// wireBufMax bytes: 1 MiB, where a lesson page's replies are tens of KB
// and the heaviest herd's a few MB.
var wireBuf []byte

const wireBufMax = 1 << 20
