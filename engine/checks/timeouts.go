// Rules of DOMAIN.md §2, timeouts need two clocks (idle and maximum).

package checks

import (
	"strconv"

	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// maxTimeoutEnforced: a request with a maximum timeout stops being waited
// for no later than start + max, whatever progress arrives (DOMAIN.md §2).
// From a server's or a wire's view of real traffic, the client's
// cancellation may arrive up to MaximumGraceMs after that: its timer fires
// a few ms late and the signal crosses the path.
//
// Rule: maxTimeoutEnforced.
func maxTimeoutEnforced(v *view) (trace.Check, bool) {
	var bad, good []int
	var grace int64 // a server's or a wire's view sees the client's end late (MaximumGraceMs)
	if v.tr.Source != nil && observer(v.tr) != trace.ObserverClient {
		grace = MaximumGraceMs
	}
	var details []string
	for _, r := range v.tr.Requests {
		if r.MaxTimeoutMs <= 0 {
			continue
		}
		deadline := r.SentAt + r.MaxTimeoutMs
		if r.EndedAt != nil && *r.EndedAt <= deadline+grace {
			good = append(good, v.timeoutEvent(r.ID.Raw(), trace.CauseMaxTimeout)...)
			continue
		}
		if r.EndedAt == nil && v.tr.EndMs < deadline {
			continue // the trace ends before the deadline: nothing to judge
		}
		ended := "was still waiting"
		if r.EndedAt != nil {
			ended = "stopped only at " + strconv.FormatInt(*r.EndedAt, 10) + " ms"
		}
		details = append(details, "request "+r.ID.Raw()+" (started "+strconv.FormatInt(r.SentAt, 10)+", maximum "+strconv.FormatInt(r.MaxTimeoutMs, 10)+" ms) "+ended+", past its deadline "+strconv.FormatInt(deadline, 10))
		bad = append(bad, v.timeoutEvent(r.ID.Raw(), "")...)
	}
	if len(details) > 0 {
		return fail(MaxTimeoutEnforced, "The maximum timeout was not enforced: "+strings.Join(details, "; ")+".", bad...), true
	}
	if len(good) == 0 {
		if hasMax(v.tr) {
			return pass(MaxTimeoutEnforced, "Every request with a maximum timeout ended by its deadline."), true
		}
		return trace.Check{}, false
	}
	return pass(MaxTimeoutEnforced, "The maximum timeout cut the request at exactly start + maximum, whatever progress arrived.", good...), true
}

func hasMax(tr *trace.Trace) bool {
	for _, r := range tr.Requests {
		if r.MaxTimeoutMs > 0 {
			return true
		}
	}
	return false
}

// idleTimeoutEnforced: a request with an idle timeout is abandoned once no
// valid progress arrived for that long (DOMAIN.md §2). Activity is read
// from the client's activity events.
//
// Rule: idleTimeoutEnforced.
func idleTimeoutEnforced(v *view) (trace.Check, bool) {
	var bad, good []int
	any := false
	for _, r := range v.tr.Requests {
		if r.IdleTimeoutMs <= 0 {
			continue
		}
		any = true
		last := r.SentAt
		end := v.tr.EndMs
		if r.EndedAt != nil {
			end = *r.EndedAt
		}
		violated := -1
		stop := v.until(end)
		for _, i := range v.eventsOf(r.ID.Raw()) {
			e := v.ev[i]
			if i >= stop {
				break
			}
			if e.Actor != trace.ActorClient {
				continue
			}
			if e.At-last > r.IdleTimeoutMs && violated < 0 {
				violated = i
			}
			if e.Type == trace.TypeActivity {
				last = e.At
			}
		}
		if violated < 0 && end-last > r.IdleTimeoutMs {
			violated = len(v.ev) - 1
		}
		if violated >= 0 {
			bad = append(bad, violated)
		} else {
			good = append(good, v.timeoutEvent(r.ID.Raw(), trace.CauseIdleTimeout)...)
		}
	}
	if !any {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(IdleTimeoutEnforced, "A request went longer than its idle timeout without valid progress and was still waited for ("+seqList(bad)+").", bad...), true
	}
	return pass(IdleTimeoutEnforced, "No request was waited for longer than its idle timeout without valid progress.", good...), true
}
