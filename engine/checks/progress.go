// Rules of DOMAIN.md §3, progress.

package checks

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// progressIncreases: for each token (within its session), progress values on the wire strictly
// increase (DOMAIN.md §3). A 2025-11-25 replay of an event the server
// wrote before (same eventId) is that value again, not a new one.
//
// Rule: progressIncreases.
func progressIncreases(v *view) (trace.Check, bool) {
	last := map[string]float64{}
	var bad []int
	n := 0
	for i := range v.ev {
		m := v.msg(i)
		if !v.serverSends(i) || m.method != jsonrpc.MethodProgress || m.progress == nil || v.replay(i) {
			continue
		}
		n++
		k := inSession(v.ev[i].Session, m.token)
		if l, ok := last[k]; ok && *m.progress <= l {
			bad = append(bad, i)
			continue
		}
		last[k] = *m.progress
	}
	if n == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(ProgressIncreases, strconv.Itoa(len(bad))+" progress value(s) did not increase ("+seqList(bad)+").", bad...), true
	}
	return pass(ProgressIncreases, "All "+strconv.Itoa(n)+" progress values strictly increase per token."), true
}

// staleProgressIgnored: a non-increasing progress value must not reset the
// client's idle clock (DOMAIN.md §3): after its delivery the client ignores
// it rather than recording activity.
//
// Rule: staleProgressIgnored.
func staleProgressIgnored(v *view) (trace.Check, bool) {
	last := map[string]float64{}
	var bad, good []int
	for i, e := range v.ev {
		m := v.msg(i)
		if e.Type != trace.TypeDeliver || e.To != trace.ActorClient || m.method != jsonrpc.MethodProgress || m.progress == nil {
			continue
		}
		k := inSession(e.Session, m.token)
		l, seen := last[k]
		if !seen || *m.progress > l {
			last[k] = *m.progress
			continue
		}
		react := v.clientReaction(i)
		switch {
		case react < 0:
			return undecided(StaleProgressIgnored, "The trace does not show how the client reacted to stale progress."), true
		case v.ev[react].Type == trace.TypeActivity:
			bad = append(bad, react)
		default:
			good = append(good, react)
		}
	}
	return verdict(StaleProgressIgnored, bad, good, "The client let non-increasing progress reset its idle clock ("+seqList(bad)+"): a stuck server can keep the request alive.", "The client ignored non-increasing progress; its idle clock was not reset.")
}

// noProgressAfterFinal: progress stops after the final response (DOMAIN.md §3).
//
// Rule: noProgressAfterFinal.
func noProgressAfterFinal(v *view) (trace.Check, bool) {
	final := map[string]bool{}
	var bad []int
	progress := false
	for i := range v.ev {
		if !v.serverSends(i) {
			continue
		}
		m := v.msg(i)
		if m.response {
			final[inSession(v.ev[i].Session, m.id)] = true
		}
		if m.method == jsonrpc.MethodProgress {
			progress = true
			if id := v.tokenReq(i); id != "" && final[inSession(v.ev[i].Session, id)] {
				bad = append(bad, i)
			}
		}
	}
	if !progress || len(final) == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(NoProgressAfterFinal, "Progress was sent after the final response ("+seqList(bad)+").", bad...), true
	}
	return pass(NoProgressAfterFinal, "No progress followed a final response."), true
}
