package engine

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// listen opens subscriptions/listen (DOMAIN.md §9). A listen stream is
// long-lived: the client's request timeouts do not apply to it.
func (w *world) listen(st scenario.Step) {
	r := &request{id: *st.ID, method: "subscriptions/listen", outcome: trace.OutcomePending}
	r.args = mustJSON(struct {
		Notifications json.RawMessage `json:"notifications"`
	}{st.Filter})
	r.ls = &listenState{filter: st.Filter, clientActive: true}
	w.openListen(r, fmt.Sprintf("The client opens listen stream %s with filter %s.", r.id, st.Filter))
}

func (w *world) openListen(r *request, note string) {
	now := w.q.Now()
	r.sentAt = now
	r.clientStreamOpen = w.http()
	w.reqs[r.id.Raw()] = r
	w.order = append(w.order, r)
	msg := jsonrpc.NewRequest(r.id.Raw(), r.method, r.args)
	w.send(trace.ActorClient, idPtr(r.id), msg, note, nil, func() { w.serverListen(r) })
}

// serverListen starts a listen stream and acknowledges it first.
func (w *world) serverListen(r *request) {
	w.serverReceiveRequest(r)
	r.ls.serverActive = true
	ack := jsonrpc.NewNotification(jsonrpc.MethodAcknowledged, withMeta(mustJSON(struct {
		Notifications json.RawMessage `json:"notifications"`
	}{r.ls.filter}), r.id))
	w.listenSend(r, ack, fmt.Sprintf("The server acknowledges listen stream %s: the acknowledgement is the first message tagged with its subscription id.", r.id))
}

// listenSend puts msg on r's listen stream and records it for resumption.
func (w *world) listenSend(r *request, msg json.RawMessage, note string) {
	r.ls.sent = append(r.ls.sent, msg)
	w.serverToClient(r, msg, note, func() {
		r.ls.delivered++
		w.clientListenMessage(r, msg)
	})
}

// clientListenMessage applies a message of listen stream r at the client.
func (w *world) clientListenMessage(r *request, msg json.RawMessage) {
	if !r.ls.clientActive {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Listen stream %s is closed at the client; ignored.", r.id)})
		return
	}
	m, _ := jsonrpc.Parse(msg)
	note := fmt.Sprintf("The client applies %s from listen stream %s; application state is keyed by stable ids, so a repeat is harmless.", m.Method, r.id)
	if m.Method == "notifications/subscriptions/acknowledged" {
		note = fmt.Sprintf("Listen stream %s is acknowledged; the client's filter is in force.", r.id)
	}
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeAccept, ID: idPtr(r.id), Note: note})
}

// notify sends a notification on listen stream st.Listen if the stream's
// filter admits it.
func (w *world) notify(st scenario.Step) {
	r := w.reqs[st.Listen.Raw()]
	if r == nil || r.ls == nil || !r.ls.serverActive {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(*st.Listen), Note: fmt.Sprintf("Listen stream %s is not open at the server: %s is not sent.", st.Listen, st.Method)})
		return
	}
	if !recovery.Admits(r.ls.filter, st.Method, st.Params) {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Note: fmt.Sprintf("%s is not in listen stream %s's filter: not sent.", st.Method, r.id)})
		return
	}
	msg := jsonrpc.NewNotification(st.Method, withMeta(st.Params, r.id))
	w.listenSend(r, msg, fmt.Sprintf("The server sends %s on listen stream %s.", st.Method, r.id))
}

// endListen ends listen stream r gracefully: on stdio with a server-sent
// notifications/cancelled (its one legitimate use), on HTTP with the listen
// result and the end of the stream (DOMAIN.md §1).
func (w *world) endListen(r *request, reason *string) {
	if r.ls == nil || !r.ls.serverActive {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s is not an open listen stream; nothing to end.", r.id)})
		return
	}
	r.ls.serverActive = false
	if !w.http() {
		r.srv.Cancel(w.q.Now())
		r.cause = trace.CauseServer
		msg := jsonrpc.NewCancel(r.id.Raw(), reason)
		w.send(trace.ActorServer, idPtr(r.id), msg, fmt.Sprintf("The server tears down listen stream %s with notifications/cancelled: the one cancellation a server may send.", r.id), nil, func() {
			w.clientListenEnded(r)
		})
		return
	}
	resp, _ := r.srv.Complete(w.q.Now(), jsonrpc.NewResult(r.id.Raw(), json.RawMessage(`{"resultType":"complete"}`)), false)
	r.response = resp
	w.serverToClient(r, resp, fmt.Sprintf("The server ends listen stream %s gracefully with its result; the stream then closes.", r.id), func() {
		w.clientListenEnded(r)
	})
}

// streamClosedBy is the client losing r's stream to actor (an idle-closing
// proxy). A listen stream goes through the reconnect plan exactly as after
// a drop (failure proxy-idle-close-unhandled, trigger.dev#2134,
// opencode#29190): the client cannot know what it missed, so it refetches
// everything its filter covers. Any other stream is disconnected.
func (w *world) streamClosedBy(r *request, actor string) {
	if r.ls != nil && r.ls.clientActive {
		w.dropBy(r, recovery.Covered(r.ls.filter), actor)
		return
	}
	w.disconnectBy(r, actor)
}

// drop breaks the transport under stream r (a fault, not an intent). A
// listen stream is recovered by the reference plan (DOMAIN.md §9); any
// other request's stream is a disconnect.
func (w *world) drop(r *request, affected []string) { w.dropBy(r, affected, trace.ActorNetwork) }

// dropBy is drop with the actor that closed the stream (the network, or an
// idle-closing proxy): a listen stream goes through the reconnect plan
// either way (SCENARIO.md, "Switches for the failures real software shows").
func (w *world) dropBy(r *request, affected []string, actor string) {
	if r.ls == nil {
		if w.http() {
			w.disconnect(r)
			return
		}
		w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s has no stream of its own on stdio; nothing drops.", r.id)})
		return
	}
	if !r.ls.clientActive {
		w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Listen stream %s is already closed.", r.id)})
		return
	}
	r.ls.clientActive, r.ls.serverActive = false, false
	r.clientStreamOpen, r.serverStreamOpen = false, false
	now := w.q.Now()
	if !w.is2025() {
		// Under 2025-11-25 the stream is resumed under its own id: it stays
		// open in requests[], neither cancelled nor abandoned.
		r.outcome, r.endedAt, r.cause = trace.OutcomeAbandoned, &now, trace.CauseDisconnect
		r.srv.Cancel(now)
	}
	if actor != trace.ActorProxy { // the proxy recorded its own close
		w.wire++
		w.emit(trace.Event{Actor: actor, Type: trace.TypeCloseStream, ID: idPtr(r.id), Wire: w.wire, Signal: trace.SignalCloseStream,
			Note: fmt.Sprintf("The transport under listen stream %s breaks; both sides lose it.", r.id)})
	}

	prev := jsonrpc.Unquote(r.id.Raw())
	resume := w.is2025() || w.s.Client.Policy.SendLastEventID
	rec, plan := recovery.Reconnect(prev, affected, w.s.Client.ID, resume)
	for _, other := range w.order {
		if other.outcome == trace.OutcomePending && recovery.RetryClass(other.effect, other.args) == trace.RetryUnsafe {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus, ID: idPtr(other.id),
				Note: fmt.Sprintf("Unsafe mutation %s was in flight: the client will not replay it because its response was lost; it reconciles first.", other.id)})
		}
	}
	delay := rec.DelaysMs[0]
	pos, token := "", ""
	if w.resumable() {
		// The position is taken when the stream drops (resume.go).
		pos = r.cursor.Position()
		token = r.cursor.Reconnect(w.s.Client.Policy.ForgetResumeToken)
		rec.SendLastEventID = token != ""
	}
	w.reconnects = append(w.reconnects, rec)
	// The refetch ids are numbered by this reconnect, fixed now: a second
	// drop within the backoff must not reuse them when both fire.
	nth := len(w.reconnects)
	w.q.Schedule(now+delay, func() {
		if w.resumable() {
			w.resumeStream(r, token, pos, delay)
			return
		}
		if resume {
			w.resume(r)
			return
		}
		nr := &request{id: scenario.NewStringID(plan.NewID), method: "subscriptions/listen", args: r.args, outcome: trace.OutcomePending,
			ls: &listenState{filter: r.ls.filter, clientActive: true}}
		if _, taken := w.reqs[nr.id.Raw()]; taken {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, ID: idPtr(r.id), Note: fmt.Sprintf("Request id %s is already taken; the client cannot reconnect under it.", nr.id)})
			return
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeReconnect, ID: idPtr(nr.id),
			Note: fmt.Sprintf("After a %d ms backoff the client reconnects with a new listen request %s (no Last-Event-ID) and restores its filter.", delay, nr.id)})
		w.openListen(nr, fmt.Sprintf("The client opens listen stream %s, replacing %s, with the same filter.", nr.id, r.id))
		w.refetch(nth, plan.Refetch)
	})
}

// resume reconnects by resending the stream's position (Last-Event-ID)
// where the stream carries no SSE event ids: on stdio under 2025-11-25,
// where the server replays that stream's missed events, and with policy
// sendLastEventId under 2026-07-28, where the server keeps no event ids.
// On Streamable HTTP under 2025-11-25 resumeStream (resume.go) resumes
// from the server's event store.
func (w *world) resume(r *request) {
	last := strconv.Itoa(r.ls.delivered)
	e := trace.Event{Actor: trace.ActorClient, Type: trace.TypeReconnect, ID: idPtr(r.id), Headers: map[string]string{"Last-Event-ID": last}}
	if w.is2025() {
		e.Note = fmt.Sprintf("Under 2025-11-25 the client resumes stream %s with GET and Last-Event-ID: %s.", r.id, last)
		w.emit(e)
		missed := append([]json.RawMessage(nil), r.ls.sent[r.ls.delivered:]...)
		w.q.Schedule(w.q.Now()+w.s.LatencyMs.Up, func() {
			r.ls.serverActive, r.ls.clientActive = true, true
			r.clientStreamOpen, r.serverStreamOpen = w.http(), w.http()
			w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, ID: idPtr(r.id),
				Note: fmt.Sprintf("The server resumes stream %s after event %s and replays %d missed event(s) of that stream only.", r.id, last, len(missed))})
			r.ls.sent = r.ls.sent[:r.ls.delivered]
			for _, m := range missed {
				w.listenSend(r, m, "Replayed after Last-Event-ID.")
			}
		})
		return
	}
	e.Note = fmt.Sprintf("Policy sendLastEventId: the client tries to resume stream %s with Last-Event-ID: %s and refetches nothing.", r.id, last)
	w.emit(e)
	w.q.Schedule(w.q.Now()+w.s.LatencyMs.Up, func() {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id),
			Note: "Under 2026-07-28 there are no event ids: the server ignores Last-Event-ID and keeps no state to resume from. The client now holds stale state."})
	})
}

// refetch reads each affected id from its authoritative method (DOMAIN.md §9).
// The n-th reconnect's k-th refetch has request id "refetch-<n>-<k>".
func (w *world) refetch(nth int, ids []string) {
	for k, f := range recovery.Refetches(ids) {
		r := &request{id: scenario.NewStringID("refetch-" + strconv.Itoa(nth) + "-" + strconv.Itoa(k+1)), method: f.Method, args: f.Params, outcome: trace.OutcomePending}
		r.sentAt = w.q.Now()
		r.clientStreamOpen = w.http()
		w.reqs[r.id.Raw()] = r
		w.order = append(w.order, r)
		msg := jsonrpc.NewRequest(r.id.Raw(), f.Method, f.Params)
		w.send(trace.ActorClient, idPtr(r.id), msg, fmt.Sprintf("The client refetches %s from the authoritative %s.", f.Of, f.Method), nil, func() {
			w.serverReceiveRequest(r)
			resp, _ := r.srv.Complete(w.q.Now(), jsonrpc.NewResult(r.id.Raw(), f.Result), false)
			r.response = resp
			w.serverToClient(r, resp, fmt.Sprintf("The server answers %s.", f.Method), func() { w.clientResponse(r, false) })
		})
	}
}

// withMeta tags a listen stream's params with its subscription id.
func withMeta(params json.RawMessage, id scenario.ID) json.RawMessage {
	return jsonrpc.WithMeta(params, jsonrpc.SubscriptionIDKey, json.RawMessage(id.Raw()))
}
