// Rules of DOMAIN.md §9 (reconnect means refetch) and §10 (preventing a
// reconnect herd).

package checks

import (
	"sort"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// noLastEventID: under 2026-07-28 there is no Last-Event-ID resumption; a
// client that sends the header resumes from state the server lacks
// (DOMAIN.md §9).
//
// Rule: noLastEventID.
func noLastEventID(v *view) (trace.Check, bool) {
	var with, without []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorClient || e.Type != trace.TypeReconnect {
			continue
		}
		if _, ok := e.Headers["Last-Event-ID"]; ok {
			with = append(with, i)
		} else {
			without = append(without, i)
		}
	}
	if len(with)+len(without) == 0 {
		return trace.Check{}, false
	}
	switch protocolOf(v.tr) {
	case "":
		return undecided(NoLastEventID, "The transcript does not say which protocol revision was in use."), true
	case trace.Protocol20251125:
		return trace.Check{}, false // resumption is the protocol's own there
	}
	if len(with) > 0 {
		return fail(NoLastEventID, "Under 2026-07-28 the client reconnected with Last-Event-ID; the server keeps no event ids, so nothing is resumed and stale state stays.", with...), true
	}
	return pass(NoLastEventID, "The client reconnected without Last-Event-ID.", without...), true
}

// reconnectRefetches: after a listen stream drops (2026-07-28) the client
// opens a new listen request with a new id and refetches every affected id
// from an authoritative method (DOMAIN.md §9), never resuming.
//
// Rule: reconnectRefetches.
func reconnectRefetches(v *view) (trace.Check, bool) {
	if len(v.tr.Reconnects) == 0 || (v.tr.Scenario != nil && v.tr.Scenario.Protocol == trace.Protocol20251125) {
		return trace.Check{}, false
	}
	listens := map[string]int{} // listen request id without quotes → its first send
	var refetches []int         // the client's refetch requests, in order
	for i := range v.ev {
		if !v.clientSends(i) {
			continue
		}
		m := v.msg(i)
		if m.method == jsonrpc.MethodListen {
			if _, ok := listens[strings.Trim(m.id, `"`)]; !ok {
				listens[strings.Trim(m.id, `"`)] = i
			}
		}
		if m.hasID && (m.method == methodResourcesRead || m.method == methodToolsList || m.method == jsonrpc.MethodTasksGet) {
			refetches = append(refetches, i)
		}
	}
	var bad []string
	var proof []int
	for _, rc := range v.tr.Reconnects {
		if rc.NewID == rc.PreviousID {
			bad = append(bad, "stream "+rc.PreviousID+" was resumed under its old id instead of a new listen request")
			continue
		}
		opened, ok := listens[rc.NewID]
		if !ok {
			bad = append(bad, "no new listen request "+rc.NewID+" was sent")
			continue
		}
		proof = append(proof, opened)
		// Every refetch after the new listen request proves it.
		after := sort.SearchInts(refetches, opened+1)
		proof = append(proof, refetches[after:]...)
	}
	if len(bad) > 0 {
		return fail(ReconnectRefetches, "After the drop, "+strings.Join(bad, "; ")+": the client must open a new listen request and refetch.", proof...), true
	}
	return pass(ReconnectRefetches, "After each drop the client opened a new listen request and refetched the affected state.", proof...), true
}

// herdAllReconnect: after a mass disconnect every client gets back within
// its attempts; a herd that keeps overloading the recovering server leaves
// clients behind (DOMAIN.md §10, failure herd-reconnect). It judges only
// that: a herd that all got back in lockstep waves passes here and fails
// herd-jittered, the rule SCENARIO.md names for lockstep (failure
// lockstep-backoff), whose detail gives the waves' numbers.
//
// Rule: herdAllReconnect.
func herdAllReconnect(v *view) (trace.Check, bool) {
	h := v.tr.Herd
	if h == nil {
		return trace.Check{}, false
	}
	if h.Exhausted > 0 || h.AllReconnectedAtMs == nil {
		return fail(HerdAllReconnect, trace.Thousands(int64(h.Exhausted))+" of "+trace.Thousands(int64(h.Clients))+" clients gave up after their attempts: with strategy "+h.Strategy+" the refused clients came back together (peak "+trace.Thousands(int64(h.PeakPerBucket))+" in one "+trace.Thousands(h.BucketMs)+" ms bucket) and overloaded the server again."), true
	}
	return pass(HerdAllReconnect, "All "+trace.Thousands(int64(h.Clients))+" clients reconnected within their attempts, the last at "+trace.Thousands(*h.AllReconnectedAtMs)+" ms."), true
}
