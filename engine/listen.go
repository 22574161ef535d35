package engine

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// listen opens subscriptions/listen (DOMAIN.md §9); package recovery's
// Listen keeps the stream's state and says what each move means.
func (w *world) listen(st scenario.Step) {
	r := &request{id: *st.ID, method: "subscriptions/listen", ls: recovery.NewListen(st.Filter)}
	r.args = r.ls.Params()
	w.openListen(r, fmt.Sprintf("The client opens listen stream %s with filter %s.", r.id, st.Filter))
}

func (w *world) openListen(r *request, note string) {
	w.register(r)
	w.send(trace.ActorClient, idPtr(r.id), jsonrpc.NewRequest(r.id.Raw(), r.method, r.args), note, func() {
		// The server starts the stream and acknowledges it first.
		w.serverReceiveRequest(r)
		r.ls.Serving = true
		ack := jsonrpc.NewNotification(jsonrpc.MethodAcknowledged, withMeta(r.ls.Params(), r.id))
		w.listenSend(r, ack, fmt.Sprintf("The server acknowledges listen stream %s: the acknowledgement is the first message tagged with its subscription id.", r.id))
	})
}

// listenSend puts msg on r's listen stream and records it for resumption.
func (w *world) listenSend(r *request, msg json.RawMessage, note string) {
	r.ls.Send(msg)
	w.serverToClient(r, msg, note, func() { w.tell(r, r.ls.Arrive(r.id.String(), msg)) })
}

// notify sends a notification on listen stream st.Listen if the stream's
// filter admits it.
func (w *world) notify(st scenario.Step) {
	var ls *recovery.Listen
	if r := w.reqs[st.Listen.Raw()]; r != nil {
		ls = r.ls
	}
	if e, ok := ls.Notify(st.Listen.String(), st.Method, st.Params); !ok {
		e.ID = idPtr(*st.Listen)
		w.emit(e)
		return
	}
	r := w.reqs[st.Listen.Raw()]
	w.listenSend(r, jsonrpc.NewNotification(st.Method, withMeta(st.Params, r.id)), fmt.Sprintf("The server sends %s on listen stream %s.", st.Method, r.id))
}

// endListen ends listen stream r gracefully: on stdio with a server-sent
// notifications/cancelled (its one legitimate use), on HTTP with the listen
// result and the end of the stream (DOMAIN.md §1).
func (w *world) endListen(r *request, reason *string) {
	if e, ok := r.ls.End(r.id.String()); !ok {
		w.tell(r, e)
		return
	}
	if !w.http() {
		r.srv.Cancel(w.q.Now())
		r.cl.Cause = trace.CauseServer
		msg := jsonrpc.NewCancel(r.id.Raw(), reason)
		w.send(trace.ActorServer, idPtr(r.id), msg, fmt.Sprintf("The server tears down listen stream %s with notifications/cancelled: the one cancellation a server may send.", r.id), func() {
			w.clientListenEnded(r)
		})
		return
	}
	resp := r.srv.Answer(w.q.Now(), jsonrpc.NewResult(r.id.Raw(), json.RawMessage(`{"resultType":"complete"}`)), false)
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
	if r.ls != nil && r.ls.Reading {
		w.dropBy(r, recovery.Covered(r.ls.Filter), actor)
		return
	}
	w.disconnectBy(r, actor)
}

// dropBy breaks the transport under stream r (a fault, not an intent), on
// behalf of actor (the network, or an idle-closing proxy). A listen stream
// is recovered by the reference plan either way (DOMAIN.md §9; SCENARIO.md,
// "Switches for the failures real software shows"); any other request's
// stream is a disconnect.
func (w *world) dropBy(r *request, affected []string, actor string) {
	if r.ls == nil {
		if w.http() {
			w.disconnectBy(r, trace.ActorNetwork)
			return
		}
		w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s has no stream of its own on stdio; nothing drops.", r.id)})
		return
	}
	if e, ok := r.ls.Drop(r.id.String()); !ok {
		w.tell(r, e)
		return
	}
	now := w.q.Now()
	coordinator.Dropped(&r.cl, &r.srv, now, w.is2025())
	if actor != trace.ActorProxy { // the proxy recorded its own close
		w.wire++
		w.emit(trace.Event{Actor: actor, Type: trace.TypeCloseStream, ID: idPtr(r.id), Wire: w.wire, Signal: trace.SignalCloseStream,
			Note: fmt.Sprintf("The transport under listen stream %s breaks; both sides lose it.", r.id)})
	}

	prev := jsonrpc.Unquote(r.id.Raw())
	resume := w.is2025() || w.s.Client.Policy.SendLastEventID
	rec, plan := recovery.Reconnect(prev, affected, w.s.Client.ID, resume)
	for _, other := range w.order {
		if other.cl.Pending() && recovery.RetryClass(other.effect, other.args) == trace.RetryUnsafe {
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
		nr := &request{id: scenario.NewStringID(plan.NewID), method: "subscriptions/listen", args: r.args,
			ls: recovery.NewListen(r.ls.Filter)}
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
	e, last, missed := r.ls.Resume(r.id.String(), w.is2025())
	w.tell(r, e)
	w.q.Schedule(w.q.Now()+w.s.LatencyMs.Up, func() {
		if !w.is2025() {
			w.tell(r, recovery.StaleResume())
			return
		}
		r.cl.Reading, r.srv.Writing = w.http(), w.http()
		w.tell(r, r.ls.Resumed(r.id.String(), last, len(missed)))
		for _, m := range missed {
			w.listenSend(r, m, "Replayed after Last-Event-ID.")
		}
	})
}

// refetch reads each affected id from its authoritative method (DOMAIN.md §9).
// The n-th reconnect's k-th refetch has request id "refetch-<n>-<k>".
func (w *world) refetch(nth int, ids []string) {
	for k, f := range recovery.Refetches(ids) {
		r := w.register(&request{id: scenario.NewStringID("refetch-" + strconv.Itoa(nth) + "-" + strconv.Itoa(k+1)), method: f.Method, args: f.Params})
		msg := jsonrpc.NewRequest(r.id.Raw(), f.Method, f.Params)
		w.send(trace.ActorClient, idPtr(r.id), msg, fmt.Sprintf("The client refetches %s from the authoritative %s.", f.Of, f.Method), func() {
			w.serverReceiveRequest(r)
			w.answer(r, jsonrpc.NewResult(r.id.Raw(), f.Result), false, fmt.Sprintf("The server answers %s.", f.Method), nil)
		})
	}
}

// withMeta tags a listen stream's params with its subscription id.
func withMeta(params json.RawMessage, id scenario.ID) json.RawMessage {
	return jsonrpc.WithMeta(params, jsonrpc.SubscriptionIDKey, json.RawMessage(id.Raw()))
}
