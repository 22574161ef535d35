package engine

import (
	"errors"
	"strconv"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/trace"
)

// Bounds of one run (issue 12). Past any of them a run fails with a
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

// BoundLead begins the message of every *BoundError. A page that holds
// only an error's text (the browser's worker answers with text) tells a
// valid scenario whose run was stopped at a bound from an invalid one by
// it (IsBoundMessage).
const BoundLead = "the scenario is valid, but its run went past the engine's bound of "

// BoundError is a run, or the encoding of its trace, stopped at one of the
// engine's bounds (MaxActions, MaxEvents, MaxTraceBytes). Its message says
// plainly that the scenario is valid, names the bound with its number and
// says what to change, e.g.
//
//	the scenario is valid, but its run went past the engine's bound of
//	100,000 events (MaxEvents), so it has no trace; to run it, make it
//	smaller: ...
//
// errors.Is(err, ErrTooLarge) holds past MaxEvents or MaxTraceBytes, and
// errors.Is(err, sim.ErrTooManyActions) past MaxActions.
type BoundError struct {
	// Bound names the bound's constant: "MaxActions", "MaxEvents" or
	// "MaxTraceBytes".
	Bound string
	// Limit is the bound's number (MaxActions, MaxEvents, MaxTraceBytes).
	Limit int
	// Unit is what the bound counts: "scheduled actions", "events",
	// "bytes of messages and notes" (the events, during the run) or
	// "bytes of trace JSON" (Encode).
	Unit string
	// Fix says what to change in the scenario to bring its run within the
	// bound.
	Fix string
	// Err is the category: ErrTooLarge or sim.ErrTooManyActions.
	Err error
}

// Error says that the scenario is valid, which bound its run went past,
// with the number, and what to change.
func (e *BoundError) Error() string {
	return BoundLead + thousands(e.Limit) + " " + e.Unit + " (" + e.Bound + "), so it has no trace; to run it, " + e.Fix
}

// Unwrap returns the category (ErrTooLarge or sim.ErrTooManyActions).
func (e *BoundError) Unwrap() error { return e.Err }

// IsBoundMessage reports whether msg is the text of a *BoundError: a valid
// scenario stopped at a bound, not an invalid one.
func IsBoundMessage(msg string) bool {
	return len(msg) >= len(BoundLead) && msg[:len(BoundLead)] == BoundLead
}

// What to change, per bound.
const (
	fixSmaller = "make it smaller: fewer steps or produce values, fewer progress updates, a larger server.keepaliveEveryMs, shorter timeouts or an earlier last step"
	fixPayload = "make its payloads smaller (results, messages, notes) or send fewer of them"
)

// boundError turns the error a run stopped with into a *BoundError when
// it is one of the bounds: the queue's (sim.ErrTooManyActions: MaxActions)
// or the log's (ErrTooLarge: MaxEvents when log holds more events than
// that, else MaxTraceBytes of messages and notes). Any other error is
// returned as it is.
func boundError(err error, log *trace.Log) error {
	switch {
	case errors.Is(err, sim.ErrTooManyActions):
		return &BoundError{Bound: "MaxActions", Limit: MaxActions, Unit: "scheduled actions", Fix: fixSmaller + " (every step, delivery, deadline and keep-alive is an action)", Err: sim.ErrTooManyActions}
	case errors.Is(err, ErrTooLarge) && len(log.Events) > MaxEvents:
		return &BoundError{Bound: "MaxEvents", Limit: MaxEvents, Unit: "events", Fix: fixSmaller, Err: ErrTooLarge}
	case errors.Is(err, ErrTooLarge):
		return &BoundError{Bound: "MaxTraceBytes", Limit: MaxTraceBytes, Unit: "bytes of messages and notes", Fix: fixPayload, Err: ErrTooLarge}
	}
	return err
}

// thousands writes n with a comma between groups of three digits
// (100000 -> "100,000").
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

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
func Encode(tr *trace.Trace) ([]byte, error) {
	out, err := trace.Encode(tr, MaxTraceBytes)
	if errors.Is(err, ErrTooLarge) {
		return nil, &BoundError{Bound: "MaxTraceBytes", Limit: MaxTraceBytes, Unit: "bytes of trace JSON", Fix: fixPayload, Err: ErrTooLarge}
	}
	return out, err
}
