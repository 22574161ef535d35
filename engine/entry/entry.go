// Package entry is the one entry (ARCHITECTURE.md): every binary that
// runs a scenario document (the site's build and `run` command, the
// browser's pages, playground and review page) goes through Decode, Run or
// RunJSON, which decode, canonicalize when asked, run (package engine, the
// runner), encode, and turn a panic into an *InternalError instead of a
// dead process or a dead tab.
package entry

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// ErrInternal is the category of an *InternalError: a bug in the lab, never
// a fault of the input. A caller tells it apart with errors.Is and says so
// (the `run` command exits 4, not 2).
var ErrInternal = errors.New("internal error")

// InternalError is a panic recovered while a document was decoded, run or
// encoded. The engine never panics on input (ARCHITECTURE.md), so one is a
// bug: its message asks for a report with the scenario that caused it.
type InternalError struct {
	// Value is what panicked (usually a runtime.Error).
	Value any
	// Stack is the panicking goroutine's stack, for the report.
	Stack []byte
}

// Error says what failed and asks for a bug report.
func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error: the simulator failed (%v); this is a bug in mcplab, not in your scenario: please report it with the scenario that caused it", e.Value)
}

// Unwrap returns ErrInternal, so errors.Is(err, ErrInternal) holds.
func (e *InternalError) Unwrap() error { return ErrInternal }

// Document is how Decode and Run read a scenario document.
type Document struct {
	// Options are what the binary links into the run (the ledger store).
	Options engine.Options
	// Canonical, when true, runs the document's canonical form
	// (scenario.Canonical: keys sorted, payloads included), the form a
	// share link carries, so the trace is byte for byte the one the link
	// replays anywhere. False runs the document as written, as the golden
	// traces and the prerendered pages do; the two differ only in the
	// member order of payloads.
	Canonical bool
}

// Result is one document's run.
type Result struct {
	// Scenario is the decoded, normalized scenario that ran.
	Scenario *scenario.Scenario
	// Canonical is the canonical document when Document.Canonical asked
	// for it, else nil.
	Canonical []byte
	// Trace is the run's trace.
	Trace *trace.Trace
}

// Decode is Run's first half, for a caller that runs the scenario its own
// way (the review page runs variants of it) or not at all: it decodes the
// scenario document data and, when doc.Canonical, canonicalizes it and
// decodes that, and returns a Result whose Trace is nil. Errors:
//   - *scenario.Error for bad input, located in data as given (path, offset,
//     line, column), never in its canonical form: an error only the
//     canonical form meets (a size limit it passes, as U+2028 is written
//     \u2028 there) keeps its path and loses its place, which
//     scenario.Locate finds again in data;
//   - *InternalError (errors.Is ErrInternal) for a panic.
//
// It never panics.
func Decode(data []byte, doc Document) (res *Result, err error) {
	defer recoverInternal(&err, func() { res = nil })
	s, err := scenario.Decode(data)
	if err != nil {
		return nil, err
	}
	var canon []byte
	if doc.Canonical {
		if canon, err = scenario.Canonical(data); err == nil {
			s, err = scenario.Decode(canon)
		}
		if err != nil {
			var se *scenario.Error
			if errors.As(err, &se) {
				se.Offset, se.End, se.Line, se.Column = 0, 0, 0, 0
			}
			return nil, err
		}
	}
	return &Result{Scenario: s, Canonical: canon}, nil
}

// Run decodes the scenario document data, canonicalizes it when
// doc.Canonical (Decode), and runs it. Errors:
//   - Decode's, for bad input;
//   - sim.ErrTooManyActions (wrapped) for a scenario past engine.MaxActions,
//     engine.ErrTooLarge past engine.MaxEvents or engine.MaxTraceBytes,
//     and engine.ErrNoLedger for a ledger scenario in a build without one;
//   - *InternalError (errors.Is ErrInternal) for a panic anywhere inside.
//
// It never panics and never returns a partial trace.
func Run(data []byte, doc Document) (res *Result, err error) {
	defer recoverInternal(&err, func() { res = nil })
	if res, err = Decode(data, doc); err != nil {
		return nil, err
	}
	if res.Trace, err = engine.RunWith(res.Scenario, doc.Options); err != nil {
		return nil, err
	}
	return res, nil
}

// RunJSON is Run followed by engine.Encode: the trace JSON, indented by two
// spaces with a trailing newline, that the golden files, `site run` and
// the browser hold. Its errors are Run's and Encode's (engine.ErrTooLarge
// past engine.MaxTraceBytes), and an encoding panic is an *InternalError
// too.
func RunJSON(data []byte, doc Document) (out []byte, err error) {
	defer recoverInternal(&err, func() { out = nil })
	res, err := Run(data, doc)
	if err != nil {
		return nil, err
	}
	return engine.Encode(res.Trace)
}

// recoverInternal turns a panic into an *InternalError in *err and calls
// clear to drop any partial result.
func recoverInternal(err *error, clear func()) {
	if r := recover(); r != nil {
		clear()
		*err = &InternalError{Value: r, Stack: debug.Stack()}
	}
}
