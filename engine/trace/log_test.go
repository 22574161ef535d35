package trace_test

import (
	"errors"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestLogBounds proves the bounds of a run's events: each event
// gets its index as Seq; the event past MaxEvents, and every event once
// the messages and notes pass MaxBytes, is an ErrTooLarge, and is kept
// all the same (the run stops at its next action).
func TestLogBounds(t *testing.T) {
	l := trace.Log{MaxEvents: 2, MaxBytes: 10}
	for i, note := range []string{"abc", "defg"} {
		if seq, err := l.Append(trace.Event{Note: note}); seq != i || err != nil {
			t.Fatalf("event %d: seq %d, err %v; want seq %d within the bounds", i, seq, err, i)
		}
	}
	if seq, err := l.Append(trace.Event{}); seq != 2 || !errors.Is(err, trace.ErrTooLarge) || len(l.Events) != 3 {
		t.Errorf("third event with MaxEvents 2: seq %d, err %v, %d kept; want seq 2, ErrTooLarge, kept", seq, err, len(l.Events))
	}
	b := trace.Log{MaxEvents: 10, MaxBytes: 10}
	if _, err := b.Append(trace.Event{Message: []byte(`"123456"`), Note: "ab"}); err != nil {
		t.Errorf("10 bytes with MaxBytes 10: %v; want within the bound", err)
	}
	if _, err := b.Append(trace.Event{Note: "x"}); !errors.Is(err, trace.ErrTooLarge) || b.Bytes != 11 {
		t.Errorf("11 bytes with MaxBytes 10: err %v, bytes %d; want ErrTooLarge at 11", err, b.Bytes)
	}
}

// TestLogWritten proves what a log gives its trace: events[] is never
// null, and endMs is the time of the last event.
func TestLogWritten(t *testing.T) {
	var empty trace.Log
	if events, end := empty.Written(); events == nil || len(events) != 0 || end != 0 {
		t.Errorf("empty log: %v, %d; want [] and 0", events, end)
	}
	l := trace.Log{MaxEvents: 10, MaxBytes: 10}
	l.Append(trace.Event{At: 5})
	l.Append(trace.Event{At: 40})
	if events, end := l.Written(); len(events) != 2 || end != 40 {
		t.Errorf("two events: %d, end %d; want 2 and 40", len(events), end)
	}
}
