// Rules of DOMAIN.md §1, request cancellation (per transport, the race,
// what the server and the client ignore).

package checks

import (
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// noMessageAfterCancel: after the server observes a cancellation it sends
// nothing more for that request: no result, no error, no progress (DOMAIN.md §1).
//
// Rule: noMessageAfterCancel.
func noMessageAfterCancel(v *view) (trace.Check, bool) {
	cancelledAt := make(map[string]int, len(v.tr.Requests)) // request id → seq of the server's status event
	var bad, proof []int
	for i, e := range v.ev {
		if e.Actor == trace.ActorServer && e.Type == trace.TypeStatus && e.Status == trace.StateCancelled {
			if _, ok := cancelledAt[idOf(e)]; !ok {
				cancelledAt[idOf(e)] = i
				proof = append(proof, i)
			}
			continue
		}
		if v.serverSends(i) {
			if _, ok := cancelledAt[v.concerns(i)]; ok && v.concerns(i) != "" {
				bad = append(bad, i)
			}
		}
	}
	if len(cancelledAt) == 0 {
		if o := observer(v.tr); o == trace.ObserverClient || o == trace.ObserverWire {
			return cancelOrderSeenFrom(v, o)
		}
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(NoMessageAfterCancel, "The server sent "+strconv.Itoa(len(bad))+" message(s) for a request after accepting its cancellation ("+seqList(bad)+").", bad...), true
	}
	return pass(NoMessageAfterCancel, "The server accepted "+strconv.Itoa(len(cancelledAt))+" cancellation(s) and sent nothing more for those requests.", proof...), true
}

// httpCancelSignal: on Streamable HTTP the client's cancellation signal
// depends on the revision (DOMAIN.md §1): 2026-07-28 closes the request's
// stream and POSTs nothing; 2025-11-25 POSTs notifications/cancelled. A
// cancellation the scenario sends raw (RawSends) is the author's test of
// the server, not the client's signal, and is left out; so is the close
// of a call that failed with its torn-down session (an event of the
// client's with cause session-teardown for it before the close), which
// ends the session rather than cancels the call.
//
// Rule: HTTPCancelClosesStream and HTTPCancelPostsNotification.
func httpCancelSignal(v *view) (trace.Check, bool) {
	var posts, closes []int
	tornDown := map[string]bool{} // request id → its call failed with the session (late-message-fatal)
	for i, e := range v.ev {
		if v.clientSends(i) && v.msg(i).method == jsonrpc.MethodCancelled && !v.rawSend(i) {
			posts = append(posts, i)
		}
		if e.Actor == trace.ActorClient && e.Cause == trace.CauseSessionTeardown && idOf(e) != "" {
			tornDown[idOf(e)] = true
		}
		// A close of a call that already failed with its torn-down
		// session is the session's end, not an attempt to cancel.
		if e.Type == trace.TypeCloseStream && e.Actor == trace.ActorClient && !tornDown[idOf(e)] {
			closes = append(closes, i)
		}
	}
	if len(posts)+len(closes) == 0 {
		return trace.Check{}, false
	}
	proto, transport := protocolOf(v.tr), transportOf(v.tr)
	if proto == "" || transport == "" {
		if len(closes) > 0 {
			return undecided(HTTPCancelClosesStream, "The transcript does not say which protocol revision and transport were in use (no initialize or MCP-Protocol-Version header recorded)."), true
		}
		return trace.Check{}, false
	}
	if transport != trace.TransportHTTP {
		return trace.Check{}, false
	}
	if proto == trace.Protocol20251125 {
		if len(posts) == 0 {
			return fail(HTTPCancelPostsNotification, "Under 2025-11-25 closing the stream is not a cancellation; the client closed it ("+seqList(closes)+") and must POST notifications/cancelled.", closes...), true
		}
		return pass(HTTPCancelPostsNotification, "Under 2025-11-25 the client cancels by POSTing notifications/cancelled.", posts...), true
	}
	if proto != trace.Protocol20260728 {
		return trace.Check{}, false
	}
	if len(posts) > 0 {
		return fail(HTTPCancelClosesStream, "Under 2026-07-28 the client must cancel by closing the request's stream; it POSTed notifications/cancelled ("+seqList(posts)+").", posts...), true
	}
	return pass(HTTPCancelClosesStream, "Under 2026-07-28 the client cancels by closing the request's stream and POSTs no notification.", closes...), true
}

// lateResponseIgnored: the client ignores any response that arrives for a
// request it abandoned (DOMAIN.md §1): timed out on, cancelled, or closed
// the stream of. A client that cancelled and then kept waiting (an await
// event, failure await-after-cancel, openai/codex#20925) and took the
// answer fails too, and the detail says so rather than calling the request
// abandoned; the detail cites the client's use of each response. A
// cancellation the scenario sends raw (RawSends) does not give the request
// up: the client's view of the call never saw it.
//
// Rule: lateResponseIgnored.
func lateResponseIgnored(v *view) (trace.Check, bool) {
	abandoned := make(map[string]int64, len(v.tr.Requests)) // request id → when the client gave it up
	awaited := map[string]bool{}                            // cancelled, then kept waiting
	var bad, good, waited []int
	// late reports whether event e, a response for id, came after the
	// client gave id up: a response a HAR records only somewhere in an
	// exchange that began before then is not known to be late.
	late := func(e trace.Event, id string) bool {
		at, ok := abandoned[id]
		return ok && (e.Within == nil || e.Within.From > at)
	}
	for i, e := range v.ev {
		if _, ok := abandoned[idOf(e)]; ok && e.Actor == trace.ActorClient && e.Type == trace.TypeAwait {
			awaited[idOf(e)] = true
		}
		if e.Actor == trace.ActorClient && (e.Type == trace.TypeTimeout || e.Type == trace.TypeCloseStream ||
			(v.clientSends(i) && v.msg(i).cancelOf != "" && !v.rawSend(i))) {
			id := idOf(e)
			if v.msg(i).cancelOf != "" {
				id = v.msg(i).cancelOf
			}
			if _, ok := abandoned[id]; !ok {
				abandoned[id] = e.At
			}
		}
		if e.Type == trace.TypeDeliver && e.To == trace.ActorClient && v.msg(i).response && late(e, v.msg(i).id) {
			react := v.clientReactionTo(i, v.msg(i).id)
			switch {
			case react < 0:
				return undecided(LateResponseIgnored, "The trace does not show how the client treated a late response."), true
			case v.ev[react].Type == trace.TypeIgnore:
				good = append(good, react)
			case awaited[v.msg(i).id]:
				bad = append(bad, react)
				waited = append(waited, react)
			default:
				bad = append(bad, react)
			}
		}
	}
	detail := "The client used a response for a request it had given up on (" + seqList(bad) + "): a request it timed out on, cancelled or closed the stream of is over for it, and any answer that still comes is ignored."
	if len(waited) > 0 {
		detail = "The client used a response for a request it had cancelled (" + seqList(bad) + ")"
		if len(waited) == len(bad) {
			detail += ": it cancelled and kept waiting (failure await-after-cancel, openai/codex#20925), so it took an answer the server should not have sent after accepting the cancellation; a cancelled request's answer is ignored."
		} else {
			detail += "; at " + seqList(waited) + " it had cancelled and kept waiting (failure await-after-cancel, openai/codex#20925). A request the client gave up on is over for it, and any answer that still comes is ignored."
		}
	}
	return verdict(LateResponseIgnored, bad, good, detail, "The client ignored "+strconv.Itoa(len(good))+" late response(s) for abandoned requests.")
}

// serverCancelOnlyForListen: a server-sent notifications/cancelled only
// tears down a subscriptions/listen stream (DOMAIN.md §1).
//
// Rule: serverCancelOnlyForListen.
func serverCancelOnlyForListen(v *view) (trace.Check, bool) {
	var bad, good []int
	for i := range v.ev {
		m := v.msg(i)
		if !v.serverSends(i) || m.method != jsonrpc.MethodCancelled {
			continue
		}
		if m.cancelOf != "" && v.method[m.cancelOf] == jsonrpc.MethodListen {
			good = append(good, i)
		} else {
			bad = append(bad, i)
		}
	}
	return verdict(ServerCancelOnlyForListen, bad, good, "The server sent notifications/cancelled for something other than a subscriptions/listen stream ("+seqList(bad)+").", "Server-sent cancellations only tore down listen streams.")
}

// cancellationNeverAnswered: a cancellation is a notification; valid or not,
// the server never answers it (DOMAIN.md §1: ignoring never answers).
//
// Rule: cancellationNeverAnswered.
func cancellationNeverAnswered(v *view) (trace.Check, bool) {
	var cancels, bad []int
	for i := range v.ev {
		if v.clientSends(i) && v.msg(i).method == jsonrpc.MethodCancelled {
			cancels = append(cancels, i)
		}
		if len(cancels) > 0 && v.serverSends(i) && v.msg(i).response && (v.msg(i).id == "" || v.method[v.msg(i).id] == "") {
			bad = append(bad, i)
		}
	}
	if len(cancels) == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(CancellationNeverAnswered, "The server answered something that was not a request ("+seqList(bad)+").", bad...), true
	}
	return pass(CancellationNeverAnswered, strconv.Itoa(len(cancels))+" cancellation notification(s) sent; the server answered none of them.", cancels...), true
}

// oneResponsePerRequest: the coordinator stores one terminal state; the
// server sends at most one final response per request (DOMAIN.md §1).
//
// Requests of an imported transcript are keyed by (session, id). A
// 2025-11-25 replay of the response (the same eventId after Last-Event-ID)
// is the one response again, not a second.
//
// Rule: oneResponsePerRequest.
func oneResponsePerRequest(v *view) (trace.Check, bool) {
	seen := map[string]int{}
	var bad []int
	session, answered := 0, false
	for i := range v.ev {
		// In an imported transcript an initialize the client sends after
		// the server answered something starts a session whose ids are its
		// own (a bridge such as mcp-remote opens a second session with
		// initialize id 0 again).
		if v.tr.Source != nil && v.clientSends(i) && v.msg(i).method == jsonrpc.MethodInitialize && answered {
			session++
			answered = false
		}
		if v.serverSends(i) && v.msg(i).response && v.msg(i).id != "" && !v.replay(i) {
			// Per request stream: a duplicate request with an id in flight
			// is answered on its own stream (no event id), not on the
			// first one's (responses-routed-by-request).
			key := inSession(v.ev[i].Session, strconv.Itoa(session)+"/"+v.msg(i).id+"@"+idOf(v.ev[i]))
			if _, ok := seen[key]; ok {
				bad = append(bad, i)
			}
			seen[key] = i
			answered = true
		}
	}
	if len(seen) == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		ids := make([]string, 0, len(bad))
		for _, i := range bad {
			ids = append(ids, v.msg(i).id)
		}
		which := "request "
		if len(ids) > 1 {
			which = "requests "
		}
		return fail(OneResponsePerRequest, "The server sent more than one final response for "+which+strings.Join(ids, ", ")+" ("+seqList(bad)+").", bad...), true
	}
	return pass(OneResponsePerRequest, strconv.Itoa(len(seen))+" request(s) answered, each exactly once."), true
}

// initializeNotCancelled: under 2025-11-25 initialize is never cancelled,
// neither by notifications/cancelled nor by closing its stream (DOMAIN.md §1).
//
// Rule: initializeNotCancelled.
func initializeNotCancelled(v *view) (trace.Check, bool) {
	if protocolOf(v.tr) != trace.Protocol20251125 {
		return trace.Check{}, false
	}
	init := false
	var bad []int
	for i, e := range v.ev {
		if v.clientSends(i) && v.msg(i).method == jsonrpc.MethodInitialize {
			init = true
		}
		if v.clientSends(i) && v.msg(i).cancelOf != "" && v.method[v.msg(i).cancelOf] == jsonrpc.MethodInitialize {
			bad = append(bad, i)
		}
		if e.Type == trace.TypeCloseStream && e.Actor == trace.ActorClient && v.method[idOf(e)] == jsonrpc.MethodInitialize {
			bad = append(bad, i)
		}
	}
	if !init {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(InitializeNotCancelled, "The client cancelled initialize, which 2025-11-25 forbids.", bad...), true
	}
	return pass(InitializeNotCancelled, "initialize was not cancelled."), true
}
