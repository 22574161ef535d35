// Package worker answers the pages' requests in the engine worker
// (site/static/worker.js): each request (wasm/protocol) is decoded, run
// through the one entry (engine/entry) and rendered by templates into a
// typed reply. It holds no DOM and no syscall/js (wasm/bridge puts it on
// the JavaScript side), so every answer is tested natively.
//
// A binary's main makes a Server and registers the pages it serves
// (Handlers), so a binary links only the servers its pages ask.
package worker

import (
	"fmt"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// Server is the worker's state between requests: what a binary links into
// a run, the second step of the last request, the last import and the
// review being made. One request at a time (the worker is one thread).
type Server struct {
	// Options are what every run gets (engine.Options): ledger.wasm sets
	// OpenLedger to the browser's SQLite.
	Options engine.Options
	// Charts are the summary charts its runs draw: templates.ScenarioCharts
	// where the engine has no ledger (main.wasm, playground.wasm), so a
	// trace never holds one, templates.AllCharts where it has.
	Charts templates.Drawing

	rest      func() protocol.Reply // the second step of the last request, if any
	reviewing reviewing
}

// Handler answers one page's requests (a method value of Server), read
// from the object the worker received.
type Handler func(protocol.Object) protocol.Reply

// Handlers are the pages a binary serves, by page.
type Handlers map[protocol.Page]Handler

// Serve answers req (a request object as the worker received it) with the
// handler of its page. more is true when the reply has a second step,
// which More makes. A page this binary does not serve is a KindInternal
// failure.
func (s *Server) Serve(h Handlers, o protocol.Object) (r protocol.Reply, more bool) {
	s.rest = nil
	page := protocol.PageOf(o)
	handle, ok := h[page]
	if !ok {
		return protocol.Failure{Err: &protocol.Error{Kind: protocol.KindInternal, Message: fmt.Sprintf("this simulator serves no page %q", page)}}, false
	}
	r = handle(o)
	return r, s.rest != nil && !r.Failed()
}

// More is the second step of the request Serve just answered with more,
// or a KindInternal failure when none waits.
func (s *Server) More() protocol.Reply {
	rest := s.rest
	s.rest = nil
	if rest == nil {
		return protocol.Failure{Err: &protocol.Error{Kind: protocol.KindInternal, Message: "no request waits for a second step"}}
	}
	return rest()
}
