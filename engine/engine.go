// Package engine runs a scenario on a virtual clock and returns its trace:
// Run(scenario) (trace, error), a pure function (ARCHITECTURE.md). The same
// scenario gives a byte-identical trace natively and in WebAssembly: no
// wall clock, no randomness, no map iteration reaches the output.
//
// The runner schedules the concepts on package sim's queue, emits every
// wire message and state change as a trace event with its note, summarizes,
// and evaluates package checks on the events. The rules, and the notes
// that state them, live in the concept packages: coordinator (a request's
// client half and server half, what each end makes of a raw message, the
// deadline alarm, which scripted steps cannot happen), handler (the
// server's handlers: work, checkpoints, held resources), tasks (durable
// tasks), sse (a response stream's buffer
// and proxy with their clocks, keep-alives, the 2025-11-25 event store and
// its replay), ledger (the idempotency ledger and its races), recovery
// (listen streams, reconnects, herds, the resume cursor), jsonrpc (the
// wire) and trace (the vocabulary, the bounded event log, the encoding). A
// run past any bound (MaxActions, MaxEvents, MaxTraceBytes) fails with an
// error and returns no trace, never a partial one.
//
// The runner's files stand in layers, each naming only what lies below it:
// run.go (steps, summary) > listen.go > client.go (the client's moves) >
// race.go, tasks.go, session.go (the 2025-11-25 lifecycle and a call's
// arrival at the server) > server.go (the server, which reaches the
// client only through clientEnd) > resume.go (2025-11-25 resumption) >
// engine.go, flow.go (a stream's flow) > world.go (the world, the wire,
// emit) > bounds.go. The one entry for a
// scenario document (decode, canonicalize, run, encode, a panic recovered
// as an error) is package entry, which imports this one: the runner takes
// a decoded *scenario.Scenario and has no entry of its own.
package engine

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/handler"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Run simulates s and returns its trace. s must come from scenario.Decode.
// The error is non-nil only when the run exceeds a bound (MaxActions,
// MaxEvents, MaxTraceBytes: a *BoundError) or its ledger cannot open
// (ErrNoLedger);
// behaviour that breaks a rule is not an error, it is a failed check in
// the trace.
func Run(s *scenario.Scenario) (*trace.Trace, error) { return RunWith(s, Options{}) }

// RunWith is Run with the given options.
func RunWith(s *scenario.Scenario, opts Options) (*trace.Trace, error) {
	if s == nil {
		return nil, fmt.Errorf("engine.Run: nil scenario")
	}
	w := newWorld(s, opts)
	w.client = clientEnd{progress: w.clientProgressArrives, response: w.clientResponse, streamClosed: w.streamClosedBy, receive: w.clientReceive}
	w.handlers = handler.NewServer(&w.q, s.Server)
	var err error
	if w.ledger, err = ledger.Open(opts.OpenLedger, s.Ledger, s.Server.Policy); err != nil {
		return nil, err
	}
	defer w.ledger.Close()
	if err = w.run(); err != nil {
		return nil, trace.RunBound(err, len(w.log.Events), MaxActions, MaxEvents, MaxTraceBytes)
	}
	tr := w.summary()
	tr.Herd, tr.HerdCompare = recovery.Herd(s.Herd)
	tr.Checks = checks.Evaluate(tr)
	return tr, nil
}
