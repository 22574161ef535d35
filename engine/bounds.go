package engine

import (
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Bounds of one run (issue 12). Past any of them a run fails with an error
// and returns no trace: never a partial one.
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

// eventsHint is about how many events a run of s emits, at most MaxEvents:
// the first capacity of its events, so that a long run fills one slice
// instead of doubling into it (30,000 events of 280 bytes allocated 18 MB
// doubling, 8 MB sized). It counts 4 events a step (a call's send, its
// delivery and the server's start; a completion's send, delivery and the
// client's reading), 4 more for a call a deadline can end (the timeout,
// the cancellation sent and delivered, the server's reading) and 3 a
// value of a produce step (send, delivery, the client's reading). A run
// that emits more grows the slice by doubling.
func eventsHint(s *scenario.Scenario) int {
	n := 16
	deadline := s.Client.IdleTimeoutMs > 0 || s.Client.MaxTimeoutMs > 0
	for i := range s.Steps {
		st := &s.Steps[i]
		n += 4
		switch st.Do {
		case "call", "retry":
			if deadline || st.IdleTimeoutMs != nil || st.MaxTimeoutMs != nil {
				n += 4
			}
		case "produce":
			n += 3 * st.Count
		}
	}
	return min(n, MaxEvents)
}

// ErrTooLarge is the category of a run or encoding past MaxEvents or
// MaxTraceBytes.
var ErrTooLarge = trace.ErrTooLarge

// Options are what a binary links into a run.
type Options struct {
	// OpenLedger opens a fresh, empty ledger store for one run of a
	// scenario with "ledger" (package ledger/sqlite's OpenMemory under a
	// unique name, natively or in the browser). Nil makes such scenarios
	// fail with ErrNoLedger.
	OpenLedger func() (ledger.Store, error)
}

// Encode returns the canonical JSON encoding of a trace (two-space indent,
// trailing newline, HTML characters not escaped; trace.Encode). It fails
// with ErrTooLarge, and returns no bytes, past MaxTraceBytes.
func Encode(tr *trace.Trace) ([]byte, error) { return trace.Encode(tr, MaxTraceBytes) }
