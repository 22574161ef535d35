// Rules of DOMAIN.md §10 for the failures of the field (SCENARIO.md,
// "Switches for the failures real software shows"): a herd whose retries
// come back in lockstep.

package checks

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/trace"
)

// HerdJittered is the rule id of herdJittered: the delays the sampled
// clients drew for one attempt are not all equal: the rule a lockstep herd
// breaks (DOMAIN.md §10).
const HerdJittered trace.RuleID = "herd-jittered"

// herdJittered: the delays the sampled clients drew for one attempt are not
// all equal, so refused clients do not return together (DOMAIN.md §10;
// failure lockstep-backoff, bug-ops/zeph#4574). It is decided on the herd's sample
// (trace.HerdResult.Sample): an attempt that at least two sampled clients
// drew, all with the same delay from a one-point window, is lockstep.
//
// Rule: herdJittered.
func herdJittered(v *view) (trace.Check, bool) {
	h := v.tr.Herd
	if h == nil {
		return trace.Check{}, false
	}
	a, n, ok := lockstepAttempt(h, 0)
	switch {
	case n < 2:
		return undecided(HerdJittered, "Fewer than two sampled clients drew the same attempt; the sample cannot show whether delays are jittered."), true
	case ok:
		d := "With strategy " + h.Strategy + " all " + trace.Thousands(int64(n)) + " sampled clients drew the same delay for attempt " + strconv.Itoa(a) + ": refused clients come back in lockstep (lockstep-backoff)."
		if at, w, ok := lockstepWave(h); ok {
			d += " " + trace.Thousands(w) + " reconnects arrived in the one " + trace.Thousands(h.BucketMs) + " ms bucket at " + trace.Thousands(at) + " ms, with none around it, against a capacity of " + trace.Thousands(int64(h.CapacityPerSecond)) + " per second: each wave overloads the recovering server again."
		}
		if h.Exhausted == 0 && h.AllReconnectedAtMs != nil {
			d += " All " + trace.Thousands(int64(h.Clients)) + " clients got back in the end, the last at " + trace.Thousands(*h.AllReconnectedAtMs) + " ms; with more clients or fewer attempts some give up."
		}
		return fail(HerdJittered, d+" Add jitter to the capped exponential backoff."), true
	}
	return pass(HerdJittered, "With strategy "+h.Strategy+" the sampled clients drew different delays for every attempt they shared."), true
}

// lockstepAttempt returns the first attempt >= from at which at least two
// sampled clients drew and every one of them drew the same delay from a
// one-point window (ok), and how many sampled clients drew attempt from (n).
func lockstepAttempt(h *trace.HerdResult, from int) (attempt, n int, ok bool) {
	for a := from; ; a++ {
		var delays []int64
		point := true
		for _, s := range h.Sample {
			if a < len(s.Draws) {
				d := s.Draws[a]
				delays = append(delays, d.DelayMs)
				point = point && d.WindowMs[0] == d.WindowMs[1]
			}
		}
		if a == from {
			n = len(delays)
		}
		if len(delays) < 2 {
			return 0, n, false
		}
		same := point
		for _, d := range delays {
			same = same && d == delays[0]
		}
		if same {
			return a, n, true
		}
	}
}

// lockstepWave returns the start of the first bucket that holds a whole
// wave (ok), and its arrivals (n): more arrivals than the server admits in a second, with both
// neighbouring buckets empty. Jittered retries spread a wave over several
// buckets; lockstep ones (strategies none and exponential) land in one.
func lockstepWave(h *trace.HerdResult) (atMs, n int64, ok bool) {
	b := h.Buckets
	for k, x := range b {
		if x[1] <= int64(h.CapacityPerSecond) {
			continue
		}
		if (k == 0 || b[k-1][1] == 0) && (k+1 == len(b) || b[k+1][1] == 0) {
			return x[0], x[1], true
		}
	}
	return 0, 0, false
}
