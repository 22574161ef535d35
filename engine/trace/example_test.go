package trace_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcplab/mcplab/engine/trace"
)

// A run writes its events into a bounded Log (at most MaxEvents
// events and MaxBytes of messages and notes), numbered from 0. The event
// that passes a bound is kept, and Append's ErrTooLarge tells the run to
// stop: the engine then returns no trace, never a partial one.
func ExampleLog() {
	log := trace.Log{MaxEvents: 2, MaxBytes: 1 << 20}
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)
	for _, e := range []trace.Event{
		{At: 0, Actor: trace.ActorClient, Type: trace.TypeSend, Message: msg},
		{At: 5, Actor: trace.ActorServer, Type: trace.TypeDeliver, Message: msg},
		{At: 9, Actor: trace.ActorServer, Type: trace.TypeStart},
	} {
		seq, err := log.Append(e)
		fmt.Println(seq, errors.Is(err, trace.ErrTooLarge))
	}
	events, endMs := log.Written()
	fmt.Println(len(events), "events, last at", endMs, "ms")
	// Output:
	// 0 false
	// 1 false
	// 2 true
	// 3 events, last at 9 ms
}

// Encode writes the canonical bytes of a trace: two-space indentation and a
// trailing newline, the form of the golden traces, or ErrTooLarge and
// nothing past the limit.
func ExampleEncode() {
	tr := &trace.Trace{Mcplab: 1, Events: []trace.Event{{Seq: 1, At: 0, Actor: trace.ActorClient, Type: trace.TypeSend}}, EndMs: 0}
	b, err := trace.Encode(tr, 1<<20)
	fmt.Println(len(b) > 0, b[len(b)-1] == '\n', err)
	_, err = trace.Encode(tr, 10)
	fmt.Println(errors.Is(err, trace.ErrTooLarge))
	// Output:
	// true true <nil>
	// true
}

// A run stopped past the engine's bound of events is a *BoundError that
// says the scenario is valid and what to change; any other error passes
// unchanged.
func ExampleRunBound() {
	err := trace.RunBound(fmt.Errorf("%w: events", trace.ErrTooLarge), 100_001, 200_000, 100_000, 32<<20)
	fmt.Println(trace.IsBoundMessage(err.Error()), err.(*trace.BoundError).Bound)
	other := errors.New("ledger: cannot open")
	fmt.Println(trace.RunBound(other, 0, 200_000, 100_000, 32<<20) == other)
	// Output:
	// true MaxEvents
	// true
}
