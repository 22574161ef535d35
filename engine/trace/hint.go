package trace

import "github.com/mcplab/mcplab/engine/scenario"

// EventsHint is about how many events the engine's run of s emits, at
// most max (the engine passes its MaxEvents):
// the first capacity of its Log.Events, so that a long run fills one slice
// instead of doubling into it (30,000 events of 280 bytes allocated 18 MB
// doubling, 8 MB sized). It counts 4 events a step (a call's send, its
// delivery and the server's start; a completion's send, delivery and the
// client's reading), 4 more for a call a deadline can end (the timeout,
// the cancellation sent and delivered, the server's reading) and 3 a
// value of a produce step (send, delivery, the client's reading). A run
// that emits more grows the slice by doubling.
func EventsHint(s *scenario.Scenario, max int) int {
	n := 16
	deadline := s.Client.IdleTimeoutMs > 0 || s.Client.MaxTimeoutMs > 0
	for i := range s.Steps {
		st := &s.Steps[i]
		n += 4
		switch st.Do {
		case scenario.VerbCall, scenario.VerbRetry:
			if deadline || st.IdleTimeoutMs != nil || st.MaxTimeoutMs != nil {
				n += 4
			}
		case scenario.VerbProduce:
			n += 3 * st.Count
		}
	}
	return min(n, max)
}
