package engine

import (
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/trace"
)

// Bounds of one run. Past any of them a run fails with a
// *BoundError and returns no trace: never a partial one. The scenario is
// valid all the same (package scenario's limits, checked by Decode, are
// what makes one invalid); it is too large to run.
const (
	// MaxActions bounds the actions one run schedules: every timer counts
	// (steps, deliveries, deadlines, keep-alives, drains), whether it runs,
	// is stopped or is still pending when the run ends.
	MaxActions = 200_000
	// MaxEvents bounds the events of one trace.
	MaxEvents = 100_000
	// MaxTraceBytes bounds the encoded trace (Encode's output, indented),
	// and, during the run, the bytes of the messages and notes its events
	// carry: 32 MiB.
	MaxTraceBytes = 32 << 20
)

// ErrTooLarge is the category of a run or encoding past MaxEvents or
// MaxTraceBytes.
var ErrTooLarge = trace.ErrTooLarge

// BoundError is a run, or its trace's encoding, stopped at one of the
// bounds above; trace.BoundError says what it holds and how it reads.
type BoundError = trace.BoundError

// ErrNoLedger is returned by Run for a scenario with a ledger when no
// Options.OpenLedger was given (ledger.ErrNoLedger).
var ErrNoLedger = ledger.ErrNoLedger

// Options are what a binary links into a run.
type Options struct {
	// OpenLedger opens a fresh, empty ledger store for one run of a
	// scenario with "ledger" (package ledger/sqlite's OpenMemory under a
	// unique name, natively or in the browser). Nil makes such scenarios
	// fail with ErrNoLedger.
	OpenLedger func() (ledger.Store, error)
}

// Encode returns the canonical JSON encoding of a trace (two-space indent,
// trailing newline, HTML characters not escaped; trace.Encode). Past
// MaxTraceBytes it fails with a *BoundError (errors.Is ErrTooLarge) and
// returns no bytes.
func Encode(tr *trace.Trace) ([]byte, error) { return trace.EncodeWithin(tr, MaxTraceBytes) }
