package engine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/trace"
)

// As a reader sees it: each of the three bounds stops a valid
// scenario's run with a message that names the bound, its number (with
// thousands separated) and what to change, and keeps its category for
// errors.Is. Any other error passes unchanged.
func TestBoundErrorNamesEachBound(t *testing.T) {
	many := &trace.Log{Events: make([]trace.Event, MaxEvents+1)}
	for _, c := range []struct {
		err      error
		log      *trace.Log
		category error
		want     string
	}{
		{fmt.Errorf("%w: more than %d", sim.ErrTooManyActions, MaxActions), &trace.Log{}, sim.ErrTooManyActions,
			"the scenario is valid, but its run went past the engine's bound of 200,000 scheduled actions (MaxActions), so it has no trace; to run it, make it smaller: "},
		{fmt.Errorf("%w: events", ErrTooLarge), many, ErrTooLarge,
			"the scenario is valid, but its run went past the engine's bound of 100,000 events (MaxEvents), so it has no trace; to run it, make it smaller: "},
		{fmt.Errorf("%w: bytes", ErrTooLarge), &trace.Log{Bytes: MaxTraceBytes + 1}, ErrTooLarge,
			"the scenario is valid, but its run went past the engine's bound of 33,554,432 bytes of messages and notes (MaxTraceBytes), so it has no trace; to run it, make its payloads smaller"},
	} {
		err := trace.RunBound(c.err, len(c.log.Events), MaxActions, MaxEvents, MaxTraceBytes)
		if !errors.Is(err, c.category) {
			t.Errorf("%v: lost its category %v", err, c.category)
		}
		if msg := err.Error(); len(msg) < len(c.want) || msg[:len(c.want)] != c.want || !trace.IsBoundMessage(msg) {
			t.Errorf("message %q\nwant it to begin %q", msg, c.want)
		}
	}
	other := errors.New("ledger: cannot open")
	if got := trace.RunBound(other, 0, MaxActions, MaxEvents, MaxTraceBytes); got != other || trace.IsBoundMessage(got.Error()) {
		t.Errorf("trace.RunBound(%v) = %v; want it unchanged", other, got)
	}
}

// Encode past MaxTraceBytes is a *BoundError naming the trace's bytes.
func TestEncodeBound(t *testing.T) {
	big := &trace.Trace{Events: []trace.Event{{Note: string(make([]byte, MaxTraceBytes))}}}
	out, err := Encode(big)
	var be *BoundError
	if out != nil || !errors.As(err, &be) || be.Bound != "MaxTraceBytes" || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Encode of a trace past MaxTraceBytes: %d bytes, %v; want a *BoundError naming MaxTraceBytes and no bytes", len(out), err)
	}
	want := "the scenario is valid, but its run went past the engine's bound of 33,554,432 bytes of trace JSON (MaxTraceBytes)"
	if msg := err.Error(); len(msg) < len(want) || msg[:len(want)] != want {
		t.Errorf("message %q\nwant it to begin %q", msg, want)
	}
}
