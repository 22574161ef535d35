// Rules of 2025-11-25 resumption (DOMAIN.md §9; SCENARIO.md, "Switches for
// the failures real software shows": forget-resume-token,
// replay-other-streams) and of DOMAIN.md §2's "a request must have a
// timeout" (no-timeout). Each reads events only: the SSE event ids
// (events[].eventId), the client's reconnects with their Last-Event-ID
// header, the streams closed under a request, and requests[]'s timeouts.

package checks

import (
	"sort"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule ids of this file.
const (
	// ResumeKeepsPosition: A client resumes a stream with the id of the last
	// event it received there as Last-Event-ID, also after a second drop
	// (SCENARIO.md, Switches for the failures real software shows (failure
	// forget-resume-token)).
	ResumeKeepsPosition trace.RuleID = "resume-keeps-position"
	// ResumeReplaysOwnStream: A resumed stream carries only its own stream's
	// events after the Last-Event-ID; no event reaches the client twice
	// (SCENARIO.md, Switches for the failures real software shows (failure
	// replay-other-streams)).
	ResumeReplaysOwnStream trace.RuleID = "resume-replays-own-stream"
	// DroppedCallResumed: under 2025-11-25 a call whose stream dropped is
	// resumed or reported failed, never left pending (SCENARIO.md, The client
	// decides when it gives up, retries and resumes (failure dropped-call-not-
	// resumed)).
	DroppedCallResumed trace.RuleID = "dropped-call-resumed"
	// RequestHasTimeout: A call carries an idle or a maximum timeout (DOMAIN.md
	// §2).
	RequestHasTimeout trace.RuleID = "request-has-timeout"
)

// lastEventIDHeader is the header a resuming GET carries.
const lastEventIDHeader = "Last-Event-ID"

// under2026 reports whether the trace says it ran under 2026-07-28, which
// has no resumption (no-last-event-id judges a Last-Event-ID there).
func (v *view) under2026() bool {
	return v.tr.Scenario != nil && v.tr.Scenario.Protocol != trace.Protocol20251125
}

// resumeKeepsPosition: a client that resumes a stream sends as
// Last-Event-ID the id of the last event it received on that stream, over
// all the stream's connections, also when the connection it resumed on
// dropped again before any new event (failure forget-resume-token,
// modelcontextprotocol/typescript-sdk#2499: the second reconnect carries no Last-Event-ID, the
// server takes it for a new stream and the request hangs). Listed when
// the client reconnected a stream on which it had received an event id;
// omitted under 2026-07-28.
//
// Rule: resumeKeepsPosition.
func resumeKeepsPosition(v *view) (trace.Check, bool) {
	if v.under2026() {
		return trace.Check{}, false
	}
	pos := map[string]string{} // stream → last event id the client received on it
	var bad, good []int
	for i, e := range v.ev {
		id := idOf(e)
		switch {
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && e.EventID != "" && id != "":
			pos[id] = e.EventID
		case e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect && pos[id] != "":
			if e.Headers[lastEventIDHeader] == pos[id] {
				good = append(good, i)
			} else {
				bad = append(bad, i)
			}
		}
	}
	return verdict(ResumeKeepsPosition, bad, good,
		"The client resumed a stream without the position it held ("+seqList(bad)+"): no Last-Event-ID, or not the last event it received there. The server cannot replay what was missed, and the request hangs until a timeout (forget-resume-token).",
		"Every resumption sent the id of the last event the client had received on that stream.")
}

// resumeReplaysOwnStream: on a GET with Last-Event-ID the server replays
// only the resumed stream's events written after that id, so no event of
// another stream travels on it and no event reaches the client twice
// (failure replay-other-streams, modelcontextprotocol/servers#4087). An event's stream is the
// one the server first wrote it on (or kept it for); a replay is a server
// send repeating an event id. Listed when the client resumed with
// Last-Event-ID on a trace with event ids; omitted under 2026-07-28.
//
// Rule: resumeReplaysOwnStream.
func resumeReplaysOwnStream(v *view) (trace.Check, bool) {
	if v.under2026() {
		return trace.Check{}, false
	}
	origin := map[string]string{} // event id → stream it was written on
	first := map[string]int{}     // event id → index of the first event carrying it
	delivered := map[string]bool{}
	from := map[string]string{} // stream → Last-Event-ID it was last resumed from
	var bad, good []int
	resumed := false
	for i, e := range v.ev {
		id := idOf(e)
		switch {
		case e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect && e.Headers[lastEventIDHeader] != "":
			from[id] = e.Headers[lastEventIDHeader]
			resumed = true
			good = append(good, i)
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && e.EventID != "":
			if delivered[e.EventID] {
				bad = append(bad, i)
			}
			delivered[e.EventID] = true
		case e.Actor == trace.ActorServer && e.EventID != "" && e.Type != trace.TypeDeliver:
			if _, seen := origin[e.EventID]; !seen {
				origin[e.EventID], first[e.EventID] = id, i
				continue
			}
			if e.Type != trace.TypeSend {
				continue
			}
			lei, ok := first[from[id]]
			if origin[e.EventID] != id || ok && first[e.EventID] <= lei {
				bad = append(bad, i)
			}
		}
	}
	if !resumed {
		return trace.Check{}, false
	}
	return verdict(ResumeReplaysOwnStream, bad, good,
		"A resumed stream carried events it should not ("+seqList(bad)+"): another stream's events, or events at or before its Last-Event-ID, so the client received them twice (replay-other-streams).",
		"Each resumption replayed only its own stream's events after the Last-Event-ID; no event reached the client twice.")
}

// droppedCallResumed (mcplab addition): under 2025-11-25 a disconnect is
// not a cancellation, so when the network or a proxy closes the response
// stream of a tools/call the client still waits for, the client resumes
// it (a reconnect with Last-Event-ID), or reports the call failed (an
// error); it never leaves it pending silently (a dropped call stays
// pending for ever). A call the client ends by its own timeout without
// ever resuming its dropped stream fails too (failure
// dropped-call-not-resumed, zed-industries/zed#56775): the server kept
// running it and kept its events, so the timeout hides an outcome the
// client could have fetched; a call resumed and then timed out passes.
// Judged from the events alone, so an imported transcript is judged the
// same way, undecided when a log that records none of the client's
// timeouts (a server's or a wire's) shows a dropped call cancelled without
// a resumption: a timeout's cancellation looks the same. Listed when such a stream drops; null when the trace does not
// say the revision; omitted under 2026-07-28, where the drop is the
// cancellation.
//
// Rule: droppedCallResumed.
func droppedCallResumed(v *view) (trace.Check, bool) {
	if v.under2026() {
		return trace.Check{}, false
	}
	done := map[string]bool{}
	open := map[string]int{} // call id → the close of its stream, while unresolved
	var good, timedOut, unsure []int
	seen := false
	for i, e := range v.ev {
		id := idOf(e)
		m := v.msg(i)
		switch {
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && m.response:
			done[m.id] = true
			if _, ok := open[m.id]; ok {
				good = append(good, i)
				delete(open, m.id)
			}
		case e.Actor == trace.ActorClient && e.Type == trace.TypeTimeout:
			done[id] = true
			if j, ok := open[id]; ok {
				// The client gave up on a call the server kept running
				// and never asked for its stream again: the result the
				// server kept is lost to it.
				timedOut = append(timedOut, j)
				delete(open, id)
			}
		case e.Actor == trace.ActorClient && (e.Type == trace.TypeError || e.Type == trace.TypeCloseStream ||
			v.clientSends(i) && m.cancelOf != ""):
			if m.cancelOf != "" {
				id = m.cancelOf
			}
			done[id] = true
			if j, ok := open[id]; ok {
				if m.cancelOf != "" && !v.recordsClientTimeouts() {
					unsure = append(unsure, j) // a timeout's cancellation looks the same
				} else {
					good = append(good, i)
				}
				delete(open, id)
			}
		case (e.Actor == trace.ActorNetwork || e.Actor == trace.ActorProxy) && e.Type == trace.TypeCloseStream &&
			v.method[id] == jsonrpc.MethodToolsCall && !done[id]:
			seen = true
			open[id] = i
		case e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect && e.Headers[lastEventIDHeader] != "":
			if _, ok := open[id]; ok {
				good = append(good, i)
				delete(open, id)
			}
		}
	}
	if !seen {
		return trace.Check{}, false
	}
	if v.tr.Scenario == nil {
		return undecided(DroppedCallResumed, "The transcript does not say which protocol revision was in use; only under 2025-11-25 is a dropped call stream resumed rather than cancelled."), true
	}
	if len(open) == 0 && len(timedOut) == 0 && len(unsure) > 0 {
		return undecided(DroppedCallResumed, "The client cancelled call(s) whose stream had dropped without resuming them ("+seqList(unsure)+"), but this "+v.tr.Source.Observer+" log records none of the client's timeouts: whether the client gave up by its own timeout on a call it could have resumed cannot be told."), true
	}
	var pending []int
	for _, i := range open {
		pending = append(pending, i)
	}
	sort.Ints(pending)
	bad := append(append([]int{}, pending...), timedOut...)
	sort.Ints(bad)
	detail := ""
	if len(pending) > 0 {
		detail += " A call's stream dropped and the client neither resumed it with Last-Event-ID nor reported it failed (" + seqList(pending) + "): the call stays pending for ever, although under 2025-11-25 the server kept running it."
	}
	if len(timedOut) > 0 {
		detail += " A call's stream dropped and the client never resumed it with Last-Event-ID before its own timeout ended the call (" + seqList(timedOut) + "): under 2025-11-25 the server kept running it and kept its events, so the outcome the client could have fetched is lost to it (failure dropped-call-not-resumed, zed-industries/zed#56775)."
	}
	return verdict(DroppedCallResumed, bad, good,
		strings.TrimPrefix(detail, " "),
		"Every dropped call stream was resumed with Last-Event-ID, or its call reported failed.")
}

// recordsClientTimeouts reports whether the trace shows the client's
// timeouts: a simulation and a client's own log do; another observer's log
// does only when it holds a client timeout event (both sides' logs).
func (v *view) recordsClientTimeouts() bool {
	if v.tr.Source == nil || v.tr.Source.Observer == trace.ObserverClient {
		return true
	}
	for _, e := range v.ev {
		if e.Actor == trace.ActorClient && e.Type == trace.TypeTimeout {
			return true
		}
	}
	return false
}

// requestHasTimeout: a tools/call request carries an idle or a maximum
// timeout (DOMAIN.md §2: a request must have idle > 0), so a server that
// never answers cannot keep the client waiting for ever (failure
// no-timeout, anthropics/claude-code#69593). The rule reads requests[]
// (each call's idleTimeoutMs and maxTimeoutMs) and, when the trace has
// one, the scenario:
//   - every tools/call the client sent with an idle or a maximum timeout
//     passes, so the rule is listed wherever a call carries one;
//   - a call with neither fails when the scenario states the client's
//     timeout policy (client.policy.timeouts "required" or "none"), or a
//     timeout is stated anywhere else (the client's idleTimeoutMs or
//     maxTimeoutMs, a call step's own, or another request in requests[]):
//     that client knows timeouts and left this call without one;
//   - when nothing states a timeout and no policy is stated, the rule is
//     not listed: the trace does not model the client's timeouts (the
//     built-in lessons leave them out because their lesson is elsewhere,
//     and a transcript imported without a maximum timeout does not show
//     them), and convicting every call would say nothing (the decision of
//     SCENARIO.md, "Switches for the failures real software shows").
//
// Other methods (listen streams, task polls, refetches) are the client's
// own machinery and are not judged, though a timeout one of them states
// counts as the client stating timeouts. Nor are a race step's
// connections (Scenario.Raced): independent clients of the ledger
// (DOMAIN.md §4), to which the client's timeouts do not apply.
//
// Rule: requestHasTimeout.
func requestHasTimeout(v *view) (trace.Check, bool) {
	s := v.tr.Scenario
	stated := s != nil && (s.Client.Policy.Timeouts != "" || v.scenarioStatesTimeout())
	var bad, good []int
	for _, r := range v.tr.Requests {
		timed := r.IdleTimeoutMs > 0 || r.MaxTimeoutMs > 0
		stated = stated || timed
		if r.Method != jsonrpc.MethodToolsCall || s.Raced(r.ID.Raw()) {
			continue
		}
		send := -1
		for _, i := range v.eventsOf(r.ID.Raw()) {
			if v.clientSends(i) {
				send = i
				break
			}
		}
		switch {
		case send < 0:
		case timed:
			good = append(good, send)
		default:
			bad = append(bad, send)
		}
	}
	if !stated || len(bad)+len(good) == 0 {
		return trace.Check{}, false
	}
	return verdict(RequestHasTimeout, bad, good,
		"A call was sent with neither an idle nor a maximum timeout ("+seqList(bad)+"): a server that never answers keeps the client waiting for ever (no-timeout).",
		"Every call carried an idle or a maximum timeout.")
}

// scenarioStatesTimeout reports whether the trace's scenario gives a
// timeout anywhere: the client's defaults, or a call step's own (a race's
// call included). False without a scenario.
func (v *view) scenarioStatesTimeout() bool {
	s := v.tr.Scenario
	if s == nil {
		return false
	}
	if s.Client.IdleTimeoutMs > 0 || s.Client.MaxTimeoutMs > 0 {
		return true
	}
	for i := range s.Steps {
		for c := &s.Steps[i]; c != nil; c = c.Call {
			if c.IdleTimeoutMs != nil && *c.IdleTimeoutMs > 0 || c.MaxTimeoutMs != nil && *c.MaxTimeoutMs > 0 {
				return true
			}
		}
	}
	return false
}
