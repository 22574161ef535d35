package trace

import "fmt"

// Log is a trace's events as a run writes them, in order, under two
// bounds: at most MaxEvents events, and at most MaxBytes bytes
// of the messages and notes they carry (the part of a trace a scenario
// can make large). The engine sets them to engine.MaxEvents (100,000) and
// engine.MaxTraceBytes (32 MiB).
type Log struct {
	Events []Event
	// Bytes counts the message and note bytes of Events.
	Bytes int
	// MaxEvents and MaxBytes are the bounds.
	MaxEvents, MaxBytes int
}

// Append keeps e as the next event, with its Seq (its index), and returns
// that seq. err wraps ErrTooLarge once the log passes a bound: e is kept
// all the same, and the caller stops the run (which then returns no trace,
// never a partial one).
//
// Growth doubles the capacity, where append grows a long slice by a
// quarter: 30,000 events (264 bytes each) allocated 41 MB on the way, half
// of the run's garbage; doubling allocates 16 MB. Cost: O(1) amortized.
func (l *Log) Append(e Event) (seq int, err error) {
	l.Bytes += len(e.Message) + len(e.Note)
	switch {
	case len(l.Events) == l.MaxEvents:
		err = fmt.Errorf("%w: the scenario generates more than %d events", ErrTooLarge, l.MaxEvents)
	case l.Bytes > l.MaxBytes:
		err = fmt.Errorf("%w: the scenario's events carry more than %d bytes of messages and notes", ErrTooLarge, l.MaxBytes)
	}
	e.Seq = len(l.Events)
	if len(l.Events) == cap(l.Events) {
		l.Events = append(make([]Event, 0, max(64, 2*cap(l.Events))), l.Events...)
	}
	l.Events = append(l.Events, e)
	return e.Seq, err
}

// Written is what the log gives its trace: the events (never nil: a trace
// always writes events[]) and endMs, the time of the last one (0 when
// there is none).
func (l *Log) Written() (events []Event, endMs int64) {
	if l.Events == nil {
		return []Event{}, 0
	}
	if n := len(l.Events); n > 0 {
		endMs = l.Events[n-1].At
	}
	return l.Events, endMs
}
