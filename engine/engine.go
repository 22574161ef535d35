// Package engine runs a scenario on a virtual clock and returns its trace:
// Run(scenario) (trace, error), a pure function (ARCHITECTURE.md).
//
// The runner wires the coordinator's rules (package coordinator) to a
// simulated client, network and server over the discrete-event queue of
// package sim, records every wire message and state change as a trace event,
// summarizes each request, and evaluates the checks of package checks on the
// events. The same scenario gives a byte-identical trace natively and in
// WebAssembly: no wall clock, no randomness, no map iteration reaches the
// output.
//
// # Bounds
//
// A run past any bound fails with an error and returns no trace, never a
// partial one (issue 12). Every built-in scenario stays far inside them
// (the largest has 72 events and an 89 KB trace):
//   - [MaxActions]: at most 200000 scheduled actions (timers) per run,
//     counted when scheduled: steps, deliveries, deadlines, keep-alives,
//     drains, polls, whether they run, are stopped or stay pending.
//   - [MaxEvents]: at most 100000 events per trace ([ErrTooLarge]).
//   - [MaxTraceBytes]: at most 33554432 bytes (32 MiB) of encoded trace,
//     and of message and note bytes carried by the events during the run
//     ([ErrTooLarge]). Encode stops writing as soon as it passes it, so a
//     deeply nested payload costs at most that much.
//
// # Layout
//
// The runner's files stand in layers, each naming only what lies below it:
// engine.go (the entry points, which wire the two halves of a request) >
// run.go (steps and the summary) > race.go, listen.go, resume.go
// (2025-11-25 resumption), tasks.go (features)
// > client.go, field.go (a request's client half and its broken client
// reactions) > server.go (its server half, which reaches the client only
// through what arrives on the wire) > ledgerrun.go, flow.go (ledger calls;
// SSE buffer and proxy on a stream) > world.go (the world, the wire, emit)
// > bounds.go. The runner schedules, emits events with their notes and
// summarizes; the rules, and the notes that state them, live in the
// concept packages: coordinator (deadlines, progress, cancellation
// signals), tasks (task replies and wire shapes), sse (buffer and proxy
// decisions, headers), ledger (replicas, replies, the race's schedule),
// recovery (reconnect plan, retry class, herds, the resume cursor), sse's
// event store (2025-11-25 replay), jsonrpc (the wire) and
// trace (the vocabulary and the encoding).
package engine

import (
	"errors"
	"fmt"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/trace"
)

// Run simulates s and returns its trace. s must come from scenario.Decode.
// The error is non-nil only when the scenario exceeds a bound (MaxActions,
// MaxEvents, MaxTraceBytes) or its ledger cannot open (ErrNoLedger);
// behaviour that breaks a rule is not an error, it is a failed check in
// the trace.
func Run(s *scenario.Scenario) (*trace.Trace, error) { return RunWith(s, Options{}) }

// RunWith is Run with the given options.
func RunWith(s *scenario.Scenario, opts Options) (*trace.Trace, error) {
	if s == nil {
		return nil, fmt.Errorf("engine.Run: nil scenario")
	}
	w := newWorld(s, opts)
	w.client = clientEnd{progress: w.clientProgressArrives, response: w.clientResponse, streamClosed: w.streamClosedBy}
	if err := w.openLedger(); err != nil {
		return nil, err
	}
	defer w.closeLedger()
	if err := w.run(); err != nil {
		if errors.Is(err, sim.ErrTooManyActions) {
			return nil, fmt.Errorf("%w: the scenario schedules more than %d actions; shorten its timeouts or lengthen server.keepaliveEveryMs", err, MaxActions)
		}
		return nil, err
	}
	tr := w.summary()
	if h := s.Herd; h != nil {
		cfg := recovery.HerdConfig{Clients: h.Clients, Strategy: h.Strategy, BaseMs: h.BaseMs, CapMs: h.CapMs,
			CapacityPerSecond: h.ServerCapacityPerSecond, MaxAttempts: h.MaxAttempts, BucketMs: h.BucketMs}
		r, all := recovery.RunHerds(cfg, h.Compare)
		tr.Herd, tr.HerdCompare = &r, all
	}
	tr.Checks = checks.Evaluate(tr)
	return tr, nil
}

// RunJSON decodes a scenario, runs it, and encodes the trace as JSON indented
// by two spaces with a trailing newline: the exact bytes the golden files,
// `site run` and the browser hold. Errors are *scenario.Error for bad input.
func RunJSON(data []byte) ([]byte, error) { return RunJSONWith(data, Options{}) }

// RunJSONWith is RunJSON with the given options.
func RunJSONWith(data []byte, opts Options) ([]byte, error) {
	s, err := scenario.Decode(data)
	if err != nil {
		return nil, err
	}
	tr, err := RunWith(s, opts)
	if err != nil {
		return nil, err
	}
	return Encode(tr)
}
