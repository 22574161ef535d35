package trace

import (
	"errors"
	"strconv"

	"github.com/mcplab/mcplab/engine/sim"
)

// The error of a run stopped at one of the engine's bounds
// (engine.MaxActions, MaxEvents, MaxTraceBytes). It lives beside the Log
// whose bounds it reports, so the runner only names which bound was hit.

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
	// Err is the category: ErrTooLarge or sim.ErrTooManyActions (engine.MaxActions).
	Err error
}

// Error says that the scenario is valid, which bound its run went past,
// with the number, and what to change.
func (e *BoundError) Error() string {
	return BoundLead + Thousands(int64(e.Limit)) + " " + e.Unit + " (" + e.Bound + "), so it has no trace; to run it, " + e.Fix
}

// Unwrap returns the category (ErrTooLarge or sim.ErrTooManyActions (engine.MaxActions)).
func (e *BoundError) Unwrap() error { return e.Err }

// IsBoundMessage reports whether msg is the text of a *BoundError: a valid
// scenario stopped at a bound, not an invalid one.
func IsBoundMessage(msg string) bool {
	return len(msg) >= len(BoundLead) && msg[:len(BoundLead)] == BoundLead
}

// Thousands writes n with a comma between groups of three digits
// (100000 -> "100,000", -1500 -> "-1,500"), as every page and message of
// the lab writes counts and byte sizes.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// What to change, per bound.
const (
	fixSmaller = "make it smaller: fewer steps or produce values, fewer progress updates, a larger server.keepaliveEveryMs, shorter timeouts or an earlier last step"
	fixPayload = "make its payloads smaller (results, messages, notes) or send fewer of them"
)

// RunBound turns the error a run stopped with into a *BoundError when it
// is one of the runner's bounds: the queue's (sim.ErrTooManyActions:
// maxActions) or the log's (ErrTooLarge: maxEvents when the log holds
// more than that many events, else maxBytes of messages and notes). Any
// other error is returned as it is.
func RunBound(err error, events, maxActions, maxEvents, maxBytes int) error {
	switch {
	case errors.Is(err, sim.ErrTooManyActions):
		return &BoundError{Bound: "MaxActions", Limit: maxActions, Unit: "scheduled actions", Fix: fixSmaller + " (every step, delivery, deadline and keep-alive is an action)", Err: sim.ErrTooManyActions}
	case errors.Is(err, ErrTooLarge) && events > maxEvents:
		return &BoundError{Bound: "MaxEvents", Limit: maxEvents, Unit: "events", Fix: fixSmaller, Err: ErrTooLarge}
	case errors.Is(err, ErrTooLarge):
		return &BoundError{Bound: "MaxTraceBytes", Limit: maxBytes, Unit: "bytes of messages and notes", Fix: fixPayload, Err: ErrTooLarge}
	}
	return err
}

// EncodeBound is the *BoundError of a trace whose encoding passed
// maxBytes (engine.MaxTraceBytes).
func EncodeBound(maxBytes int) *BoundError {
	return &BoundError{Bound: "MaxTraceBytes", Limit: maxBytes, Unit: "bytes of trace JSON", Fix: fixPayload, Err: ErrTooLarge}
}

// EncodeWithin is Encode under maxBytes, whose overflow is the
// *BoundError EncodeBound (errors.Is ErrTooLarge) with no bytes; any other
// error is returned as it is.
func EncodeWithin(tr *Trace, maxBytes int) ([]byte, error) {
	out, err := Encode(tr, maxBytes)
	if errors.Is(err, ErrTooLarge) {
		return nil, EncodeBound(maxBytes)
	}
	return out, err
}
