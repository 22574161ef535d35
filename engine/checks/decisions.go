package checks

import (
	"sort"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// The rules of the client's decisions (SCENARIO.md, "The client decides
// when it gives up, retries and resumes"; "Rules these add"). Each reads
// the events (and, where a summary is the only record, requests[],
// reconnects[] or the herd's sample), so each judges an imported
// transcript too, undecided with the reason where a one-sided log cannot
// tell.

// Rule ids of the client's decisions (stable; SCENARIO.md, "Rules these
// add").
const (
	// MaximumBoundsProgress: A request whose idle clock progress reset has a
	// maximum timeout (SCENARIO.md, The client decides when it gives up,
	// retries and resumes (failure no-maximum-under-progress)).
	MaximumBoundsProgress trace.RuleID = "maximum-bounds-progress"
	// CallOutcomeKnown: every tools/call ends for its client in a result, an
	// error or its own abandonment; a call whose stream an intermediary closed,
	// not resumed nor retried, is lost (SCENARIO.md, The client decides when it
	// gives up, retries and resumes (failures await-after-cancel, call-lost-to-
	// idle-close)).
	CallOutcomeKnown trace.RuleID = "call-outcome-known"
	// CancelNotBlocked: on Streamable HTTP a cancellation goes out when the
	// client decides, not when the response stream first speaks (SCENARIO.md,
	// The client decides when it gives up, retries and resumes (failure cancel-
	// blocked)).
	CancelNotBlocked trace.RuleID = "cancel-not-blocked"
	// BackoffGrows: A refused client's consecutive reconnect delays grow until
	// the cap; a constant retry loop fails (SCENARIO.md, The client decides
	// when it gives up, retries and resumes (failure constant-retry-loop)).
	BackoffGrows trace.RuleID = "backoff-grows"
	// RefetchAfterReconnect: A client that reopens a listen stream without
	// Last-Event-ID refetches what it covers (SCENARIO.md, The client decides
	// when it gives up, retries and resumes (failure skip-refetch)).
	RefetchAfterReconnect trace.RuleID = "refetch-after-reconnect"
	// ResumeReplaysMissed: under 2025-11-25 every message the client missed on
	// a stream it resumed reaches it after the resumption (SCENARIO.md, The
	// client decides when it gives up, retries and resumes).
	ResumeReplaysMissed trace.RuleID = "resume-replays-missed"
)

// maximumBoundsProgress: a request whose idle clock progress reset has a
// maximum timeout too, so progress cannot keep hung work alive for ever
// (DOMAIN.md §2; failure no-maximum-under-progress,
// synthetic-sciences/openscience#570). Listed when the client took
// progress as activity (an activity event) for a request with an idle
// timeout; both timeouts are read from requests[], which an import without
// the client's timeouts lacks (undecided).
//
// Rule: maximumBoundsProgress.
func maximumBoundsProgress(v *view) (trace.Check, bool) {
	first := map[string]int{}
	var order []string
	for i, e := range v.ev {
		if e.Actor == trace.ActorClient && e.Type == trace.TypeActivity && e.ID != nil {
			if _, ok := first[idOf(e)]; !ok {
				first[idOf(e)] = i
				order = append(order, idOf(e))
			}
		}
	}
	if len(order) == 0 {
		return trace.Check{}, false
	}
	if v.tr.Scenario == nil {
		return undecided(MaximumBoundsProgress, "The transcript does not record the client's timeouts: whether a maximum bounded the requests whose idle clock progress reset cannot be told."), true
	}
	maxOf := make(map[string]int64, len(v.tr.Requests))
	idle := make(map[string]bool, len(v.tr.Requests))
	for _, r := range v.tr.Requests {
		maxOf[r.ID.Raw()], idle[r.ID.Raw()] = r.MaxTimeoutMs, r.IdleTimeoutMs > 0
	}
	var bad, good []int
	var ids []string
	for _, id := range order {
		switch {
		case !idle[id]:
			continue // no idle clock for progress to reset
		case maxOf[id] > 0:
			good = append(good, first[id])
		default:
			bad = append(bad, first[id])
			ids = append(ids, id)
		}
	}
	return verdict(MaximumBoundsProgress, bad, good,
		"Progress reset the idle clock of request(s) "+joinIDs(ids)+", which had no maximum timeout: a server that keeps reporting keeps the call alive for ever (failure no-maximum-under-progress, synthetic-sciences/openscience#570): "+seqList(bad)+".",
		"Every request whose idle clock progress reset also had a maximum timeout that nothing resets.")
}

// callOutcomeKnown: every tools/call ends for its client in a result, an
// error or its own abandonment (a timeout or a cancellation it sent, or
// gave up without sending; a retired session's 404 it takes as the
// failure is an error). Under 2026-07-28 a stream closed under a call
// ends it for the client, which knows the call failed. Under 2025-11-25,
// where the call outlives its stream, a call whose stream an intermediary
// closed (the network, an idle-closing proxy) and that the client neither
// resumed nor ended nor retried is lost (failure call-lost-to-idle-close,
// cloudflare/agents#898, and dropped-call-not-resumed,
// zed-industries/zed#56775); a call the client cancelled and still waits
// for when the trace ends never ended (failure await-after-cancel,
// openai/codex#20925). A call the client still waits for without having
// decided anything (no timeout, no answer yet) is request-has-timeout's
// subject, not this rule's. Listed when a call ended or was lost; an
// import, a log that may simply stop, leaves a cancelled call still
// awaited at its end undecided.
//
// Rule: callOutcomeKnown.
func callOutcomeKnown(v *view) (trace.Check, bool) {
	type life struct {
		sent    int
		ended   bool
		awaited bool // the client cancelled and kept waiting
		lost    int  // the intermediary's close, -1 if none
		end     int
	}
	calls := map[string]*life{}
	var order []string
	for i, e := range v.ev {
		m := v.msg(i)
		if v.clientSends(i) && m.method == jsonrpc.MethodToolsCall && m.hasID && !m.response {
			if _, ok := calls[m.id]; !ok {
				calls[m.id] = &life{sent: i, lost: -1}
				order = append(order, m.id)
			}
			continue
		}
		id := idOf(e)
		if v.clientSends(i) && m.cancelOf != "" {
			id = m.cancelOf
		}
		c := calls[id]
		if c == nil {
			continue
		}
		switch {
		case e.Actor == trace.ActorClient && e.Type == trace.TypeAwait:
			c.ended, c.awaited = false, true // the cancel did not end the wait
		case e.Actor == trace.ActorClient && (e.Type == trace.TypeAccept || e.Type == trace.TypeTimeout || e.Type == trace.TypeAbandon ||
			e.Type == trace.TypeError && (e.Cause == trace.CauseSessionTeardown || e.Status == statusNotFound) || e.Type == trace.TypeCloseStream) || v.clientSends(i) && m.cancelOf != "":
			c.ended, c.end, c.lost = true, i, -1
		case e.Actor == trace.ActorNetwork && e.Type == trace.TypeCloseStream && !c.ended && v.under2026():
			// Under 2026-07-28 a network drop ends the call for the
			// client: it knows the call failed. An intermediary that
			// closes a quiet call stream for idleness loses the call
			// instead (call-lost-to-idle-close, cloudflare/agents#898).
			c.ended, c.end = true, i
		case (e.Actor == trace.ActorNetwork || e.Actor == trace.ActorProxy) && e.Type == trace.TypeCloseStream && !c.ended:
			c.lost = i
		case e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect:
			c.lost = -1 // resumed: the client waits on the stream again
		}
	}
	if len(order) == 0 {
		return trace.Check{}, false
	}
	retried := map[string]bool{}
	for _, r := range v.tr.Requests {
		if r.RetryOf != nil {
			retried[r.RetryOf.Raw()] = true
		}
	}
	var bad, good, lost, open []int
	for _, id := range order {
		c := calls[id]
		switch {
		case c.ended:
			good = append(good, c.end)
		case retried[id]:
			good = append(good, c.sent)
		case c.lost >= 0:
			bad = append(bad, c.lost)
			lost = append(lost, c.lost)
		case c.awaited:
			open = append(open, c.sent)
		}
		// A call the client simply still waits for, having decided
		// nothing, is request-has-timeout's subject, not this rule's.
	}
	if v.tr.Source != nil && len(bad) == 0 && len(open) > 0 {
		return undecided(CallOutcomeKnown, "The transcript ends with call(s) the client cancelled and still waited for ("+seqList(open)+"): a log may stop before the answer, so whether the client ever learned their outcome cannot be told."), true
	}
	if v.tr.Source == nil {
		bad = append(bad, open...)
		sort.Ints(bad)
	}
	detail := ""
	if len(lost) > 0 {
		detail += " An intermediary closed the stream of " + strconv.Itoa(len(lost)) + " call(s) and the client neither resumed it, ended it nor retried it: the call is lost (failure call-lost-to-idle-close, cloudflare/agents#898, or dropped-call-not-resumed, zed-industries/zed#56775): " + seqList(lost) + "."
	}
	if len(open) > 0 {
		detail += " " + strconv.Itoa(len(open)) + " call(s) never ended for the client: it cancelled them and still waits for a response when the trace ends (failure await-after-cancel, openai/codex#20925): " + seqList(open) + "."
	}
	return verdict(CallOutcomeKnown, bad, good,
		"Not every call ended for its client in a result, an error or its own abandonment."+detail,
		"Each of the "+strconv.Itoa(len(order))+" call(s) ended for its client in a result, an error or its own abandonment.")
}

// abandonTellsServerSimulated is abandon-tells-server on a simulation,
// which records the client's decisions: every timeout the client acts on
// is followed by its cancellation (notifications/cancelled, or closing the
// request's stream), and a client that gives up silently (an abandon
// event; failure abandon-silently, modelcontextprotocol/python-sdk#1458,
// openai/codex#26956) fails. A timeout of a 2025-11-25 initialize, which
// is never cancelled, is not judged.
func abandonTellsServerSimulated(v *view) (trace.Check, bool) {
	var bad, good []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorClient || e.ID == nil {
			continue
		}
		switch e.Type {
		case trace.TypeAbandon:
			bad = append(bad, i)
		case trace.TypeTimeout:
			if v.method[idOf(e)] == jsonrpc.MethodInitialize {
				continue
			}
			if j := v.cancelSignal(i, idOf(e)); j >= 0 {
				good = append(good, j)
			}
		}
	}
	return verdict(AbandonTellsServer, bad, good,
		"The client gave up on "+strconv.Itoa(len(bad))+" request(s) without telling the server, which works on for nobody (failure abandon-silently, modelcontextprotocol/python-sdk#1458): "+seqList(bad)+".",
		"Each time the client gave up on a request it told the server: "+seqList(good)+".")
}

// cancelSignal is the index of the client's first cancellation signal for
// request id after event i (a notifications/cancelled it sends, or its
// close of the request's stream), -1 if none.
func (v *view) cancelSignal(i int, id string) int {
	for _, j := range v.eventsOf(id) {
		e := v.ev[j]
		if j > i && (v.clientSends(j) && v.msg(j).cancelOf == id || e.Actor == trace.ActorClient && e.Type == trace.TypeCloseStream) {
			return j
		}
	}
	return -1
}

// cancelNotBlocked: on Streamable HTTP a cancellation goes out when the
// client decides (its timeout, or the blocked event of a client that holds
// it), not when the response stream first speaks (failure cancel-blocked,
// modelcontextprotocol/rust-sdk#1193). Listed on Streamable HTTP when the
// client decided to cancel; a decision the client never acts on (it gives
// up silently) is abandon-tells-server's subject.
//
// Rule: cancelNotBlocked.
func cancelNotBlocked(v *view) (trace.Check, bool) {
	if transportOf(v.tr) != trace.TransportHTTP {
		return trace.Check{}, false
	}
	decided := map[string]bool{} // a decision judged, or a cancellation already sent
	var bad, good []int
	for i, e := range v.ev {
		if m := v.msg(i); v.clientSends(i) && m.cancelOf != "" {
			decided[m.cancelOf] = true
		}
		if e.Actor == trace.ActorClient && e.Type == trace.TypeCloseStream && e.ID != nil {
			decided[idOf(e)] = true
		}
		if e.Actor != trace.ActorClient || e.ID == nil || decided[idOf(e)] {
			continue
		}
		if e.Type != trace.TypeBlocked && (e.Type != trace.TypeTimeout || v.method[idOf(e)] == jsonrpc.MethodInitialize || v.abandonsAt(i)) {
			continue
		}
		decided[idOf(e)] = true
		j := v.cancelSignal(i, idOf(e))
		if j >= 0 && v.ev[j].At == e.At {
			good = append(good, j)
			continue
		}
		bad = append(bad, i)
	}
	return verdict(CancelNotBlocked, bad, good,
		"The client decided to cancel but its cancellation did not go out then: it waited for the response stream's first event, or never went (failure cancel-blocked, modelcontextprotocol/rust-sdk#1193): "+seqList(bad)+".",
		"Every cancellation went out the moment the client decided on it.")
}

// abandonsAt reports whether timeout event i is followed, at its time, by
// the client's silent abandonment of the same request.
func (v *view) abandonsAt(i int) bool {
	for j := i + 1; j < len(v.ev) && v.ev[j].At == v.ev[i].At; j++ {
		if v.ev[j].Actor == trace.ActorClient && v.ev[j].Type == trace.TypeAbandon && idOf(v.ev[j]) == idOf(v.ev[i]) {
			return true
		}
	}
	return false
}

// backoffGrows: one client's consecutive reconnect delays grow until the
// cap (DOMAIN.md §10): each refused attempt's next backoff window reaches
// beyond the delay just waited, unless that window had reached the cap. A
// constant retry loop fails (herd.strategy "none"; failure
// constant-retry-loop, NousResearch/hermes-agent#43676). Judged on the
// herd's sampled clients (listed when one was refused at least once) and,
// from the events alone, on one call's consecutive policy retries
// (retryDelays: "<id>-r1", "<id>-r2", …): the wait before each retry is
// longer than the wait before the one before, unless that wait had already
// grown to the largest of the call's waits (its cap). A call retried once
// has no consecutive waits and is not judged. A listen stream's reconnects
// that the server refused are judged alike (listenReconnects: the wait
// before each is counted from the stream's end or the refusal before it).
//
// Rule: backoffGrows.
func backoffGrows(v *view) (trace.Check, bool) {
	judged, flat := 0, 0
	var details []string
	var good []int
	if h := v.tr.Herd; h != nil && v.tr.Scenario != nil && v.tr.Scenario.Herd != nil {
		capMs := v.tr.Scenario.Herd.CapMs
		herdJudged, herdFlat := 0, 0
		example := ""
		for _, s := range h.Sample {
			for k := 1; k < len(s.Draws); k++ {
				prev, next := s.Draws[k-1], s.Draws[k]
				herdJudged++
				if next.WindowMs[1] > prev.DelayMs || prev.WindowMs[1] >= capMs {
					continue
				}
				herdFlat++
				if example == "" {
					example = s.ClientID + " waited " + strconv.FormatInt(prev.DelayMs, 10) + " ms before attempt " + strconv.Itoa(prev.Attempt) + " and again at most " + strconv.FormatInt(next.WindowMs[1], 10) + " ms before attempt " + strconv.Itoa(next.Attempt)
				}
			}
		}
		judged, flat = herdJudged, herdFlat
		if herdFlat > 0 {
			details = append(details, "With strategy "+h.Strategy+" a refused client's backoff does not grow below the "+strconv.FormatInt(capMs, 10)+" ms cap in "+strconv.Itoa(herdFlat)+" of "+strconv.Itoa(herdJudged)+" retries ("+example+"): a constant retry loop hammers a recovering server (failure constant-retry-loop, NousResearch/hermes-agent#43676).")
		} else if herdJudged > 0 {
			details = append(details, "Each refused client's next backoff window reached beyond the delay it had just waited, until the "+strconv.FormatInt(capMs, 10)+" ms cap ("+strconv.Itoa(herdJudged)+" retries of the sampled clients).")
		}
	}
	var bad []int
	retried, example := 0, ""
	for _, chain := range append(v.retryDelays(), v.listenReconnects()...) {
		top := int64(0)
		for _, r := range chain {
			top = max(top, r.delayMs)
		}
		for k := 1; k < len(chain); k++ {
			prev, next := chain[k-1], chain[k]
			retried++
			capped := prev.delayMs == top && prev.delayMs > chain[0].delayMs && next.delayMs >= prev.delayMs
			if next.delayMs > prev.delayMs || capped {
				good = append(good, next.send)
				continue
			}
			bad = append(bad, next.send)
			if example == "" {
				example = prev.what() + " was sent " + strconv.FormatInt(prev.delayMs, 10) + " ms after the attempt before it ended, and " + next.label() + " " + strconv.FormatInt(next.delayMs, 10) + " ms after"
			}
		}
	}
	if retried > 0 && len(bad) > 0 {
		details = append(details, "A call's retries do not back off in "+strconv.Itoa(len(bad))+" of "+strconv.Itoa(retried)+" consecutive retries ("+example+"; "+seqList(bad)+"): a constant retry loop hammers a failing server (failure constant-retry-loop, NousResearch/hermes-agent#43676).")
	} else if retried > 0 {
		details = append(details, "Each call's wait before a retry grew on the wait before the one before, until its cap ("+strconv.Itoa(retried)+" consecutive retries).")
	}
	if judged+retried == 0 {
		return trace.Check{}, false
	}
	if flat > 0 || len(bad) > 0 {
		return fail(BackoffGrows, strings.Join(details, " "), bad...), true
	}
	return pass(BackoffGrows, strings.Join(details, " "), good...), true
}

// retryAttempt is one policy retry of a call (id its JSON text), or one
// reconnect of a listen stream (id ""), its send event and how long after
// the previous attempt ended for the client it went out (ms).
type retryAttempt struct {
	id      string
	send    int
	delayMs int64
}

// what names the attempt in a detail: "request \"x-r1\"", or "the
// reconnect at seq 12"; label names it after another ("\"x-r2\"", or
// "the reconnect at seq 14").
func (r retryAttempt) what() string {
	if r.id == "" {
		return r.label()
	}
	return "request " + r.id
}

func (r retryAttempt) label() string {
	if r.id == "" {
		return "the reconnect at seq " + strconv.Itoa(r.send)
	}
	return r.id
}

// retryDelays lists, per call in the order its first retry went out, the
// client's policy retries ("<id>-r1", "<id>-r2", …, SCENARIO.md
// client.policy.retry) whose previous attempt the trace shows, each with
// the wait since that attempt's last client event before the retry (its
// answer, timeout or cancellation). A chain stops at the first retry whose
// previous attempt was never sent.
func (v *view) retryDelays() [][]retryAttempt {
	sent := map[string]int{}       // request id (unquoted) → its send event
	lastClient := map[string]int{} // request id → its latest client event so far
	chains := map[string][]retryAttempt{}
	var order []string
	for i, e := range v.ev {
		m := v.msg(i)
		if v.clientSends(i) && m.hasID && !m.response && m.method == jsonrpc.MethodToolsCall {
			id := jsonrpc.Unquote(m.id)
			if _, ok := sent[id]; !ok {
				sent[id] = i
				if base, n, ok := retryIDOf(id); ok {
					prevID := base
					if n > 1 {
						prevID = base + "-r" + strconv.Itoa(n-1)
					}
					last, had := lastClient[prevID]
					if _, ok := sent[prevID]; ok && had && len(chains[base]) == n-1 {
						if n == 1 {
							order = append(order, base)
						}
						chains[base] = append(chains[base], retryAttempt{id: strconv.Quote(id), send: i, delayMs: e.At - v.ev[last].At})
					}
				}
			}
		}
		if e.Actor == trace.ActorClient && e.ID != nil {
			id := jsonrpc.Unquote(idOf(e))
			if m.cancelOf != "" {
				id = jsonrpc.Unquote(m.cancelOf)
			}
			if _, ok := sent[id]; ok && i != sent[id] {
				lastClient[id] = i
			}
		}
	}
	out := make([][]retryAttempt, 0, len(order))
	for _, base := range order {
		out = append(out, chains[base])
	}
	return out
}

// retryIDOf splits a policy retry's id "<base>-r<n>" (n ≥ 1) into its base
// and n; ok is false for any other id.
func retryIDOf(id string) (base string, n int, ok bool) {
	k := strings.LastIndex(id, "-r")
	if k <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[k+2:])
	if err != nil || n < 1 || strconv.Itoa(n) != id[k+2:] {
		return "", 0, false
	}
	return id[:k], n, true
}

// refetchAfterReconnect: a client that reopens a dropped listen stream
// without Last-Event-ID (a new listen request, or a GET with nothing to
// resume from) cannot know what it missed, so it refetches the affected
// lists from their authoritative methods (DOMAIN.md §9; failure
// skip-refetch, docker/docker-agent#2244). A reconnect whose reconnects[]
// plan has nothing to refetch (a filter covering nothing) is not judged.
//
// Rule: refetchAfterReconnect.
func refetchAfterReconnect(v *view) (trace.Check, bool) {
	nothing := map[string]bool{}
	for _, rc := range v.tr.Reconnects {
		if len(rc.Refetch) == 0 {
			nothing[rc.NewID] = true
		}
	}
	var reconnects []int
	for i, e := range v.ev {
		if e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect && e.ID != nil && e.Headers[lastEventIDHeader] == "" &&
			v.method[idOf(e)] == jsonrpc.MethodListen && !nothing[jsonrpc.Unquote(idOf(e))] {
			reconnects = append(reconnects, i)
		}
	}
	reconnects = append(reconnects, v.reopenedListens()...)
	sort.Ints(reconnects)
	if len(reconnects) == 0 {
		return trace.Check{}, false
	}
	var bad, good []int
	for k, i := range reconnects {
		end := len(v.ev)
		if k+1 < len(reconnects) {
			end = reconnects[k+1]
		}
		found := -1
		for j := i + 1; j < end && found < 0; j++ {
			if m := v.msg(j); v.clientSends(j) && m.hasID && !m.response && refetchMethod(m.method) {
				found = j
			}
		}
		if found < 0 {
			bad = append(bad, i)
		} else {
			good = append(good, found)
		}
	}
	return verdict(RefetchAfterReconnect, bad, good,
		"After reconnecting without Last-Event-ID the client refetched nothing: whatever changed while the stream was down stays unknown to it (failure skip-refetch, docker/docker-agent#2244): "+seqList(bad)+".",
		"After each reconnect the client refetched what the stream covers: "+seqList(good)+".")
}

// refetchMethod reports the authoritative reads of DOMAIN.md §9.
func refetchMethod(method string) bool {
	switch method {
	case methodToolsList, methodResourcesRead, jsonrpc.MethodTasksGet, "prompts/list", "resources/list":
		return true
	}
	return false
}

// resumeReplaysMissed (2025-11-25): when the client resumes a stream,
// every message the server wrote for it while it was closed under the
// client (lost in transit, or kept only in the event store) reaches the
// client after the resumption (DOMAIN.md §9;
// failure resume-without-last-event-id, modelcontextprotocol/inspector#723,
// and replay-nothing, modelcontextprotocol/typescript-sdk#943). Listed
// when the client resumed a stream after missing a message on it; omitted
// under 2026-07-28, which has no resumption.
//
// Rule: resumeReplaysMissed.
func resumeReplaysMissed(v *view) (trace.Check, bool) {
	if v.under2026() || protocolOf(v.tr) == trace.Protocol20260728 {
		return trace.Check{}, false
	}
	down := map[string]bool{}    // streams closed under the client, not yet resumed
	missed := map[string][]int{} // stream id → what it missed since it closed
	var owed []int               // what the client missed on the streams it resumed
	for i, e := range v.ev {
		id := idOf(e)
		switch {
		case e.ID == nil:
		case (e.Actor == trace.ActorNetwork || e.Actor == trace.ActorProxy) && e.Type == trace.TypeCloseStream:
			down[id] = true
		case down[id] && len(e.Message) > 0 && (e.Type == trace.TypeDrop && e.To == trace.ActorClient || e.Actor == trace.ActorServer && e.Type == trace.TypeEnqueue):
			// Lost in transit, or kept only in the server's event store.
			missed[id] = append(missed[id], i)
		case e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect:
			owed = append(owed, missed[id]...)
			delete(missed, id)
			down[id] = false
		}
	}
	if len(owed) == 0 {
		return trace.Check{}, false
	}
	sort.Ints(owed)
	delivered := map[string][]int{} // stream id and message → its deliveries to the client
	for j, e := range v.ev {
		if e.Type == trace.TypeDeliver && e.To == trace.ActorClient && len(e.Message) > 0 && e.ID != nil {
			k := idOf(e) + "\x00" + string(e.Message)
			delivered[k] = append(delivered[k], j)
		}
	}
	var bad, good []int
	for _, d := range owed {
		if j := firstAfter(delivered[idOf(v.ev[d])+"\x00"+string(v.ev[d].Message)], d); j >= 0 {
			good = append(good, j)
		} else {
			bad = append(bad, d)
		}
	}
	return verdict(ResumeReplaysMissed, bad, good,
		"The client resumed a stream but "+strconv.Itoa(len(bad))+" message(s) it missed there never reached it (failure resume-without-last-event-id, modelcontextprotocol/inspector#723, or replay-nothing, modelcontextprotocol/typescript-sdk#943): "+seqList(bad)+".",
		"Every message the client missed on a stream it resumed reached it after the resumption: "+seqList(good)+".")
}

// firstAfter is the first of the ascending indexes in after d, -1 if
// none.
func firstAfter(in []int, d int) int {
	if k := sort.SearchInts(in, d+1); k < len(in) {
		return in[k]
	}
	return -1
}

// joinIDs lists request ids as a sentence part: 7, "a" and 9.
func joinIDs(ids []string) string {
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return ids[0]
	}
	out := ""
	for i, id := range ids[:len(ids)-1] {
		if i > 0 {
			out += ", "
		}
		out += id
	}
	return out + " and " + ids[len(ids)-1]
}
