package engine

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The client half of a request: package coordinator's Client decides each
// move; the runner schedules the deadlines and sends the signals.

// call sends a new request (retry: a copy of orig under a new id; again:
// the retry policy's, with its token, arguments and note) and returns it.
func (w *world) call(st scenario.Step, orig *request, again *coordinator.Retry) *request {
	r := &request{id: *st.ID, method: st.Method, name: st.Name, args: st.Arguments, token: st.ProgressToken, effect: st.SideEffect, task: st.Task, hints: st.Annotations}
	r.root = r
	var inherit *coordinator.Deadlines
	note := coordinator.CallNote(r.id.String(), r.method, r.name)
	r.effect = ledger.Effect(r.effect, r.name, w.s.Ledger != nil)
	if orig != nil {
		r.method, r.name, r.args, r.effect, r.hints = orig.method, orig.name, orig.args, orig.effect, orig.hints
		r.retryOf, r.token = idPtr(orig.id), coordinator.RetryToken(orig.token, r.id)
		inherit, r.root = &orig.cl.Deadlines, orig.root
		note = coordinator.RetryNote(orig.id.String(), r.id.String())
	}
	if again != nil {
		r.token, r.args, note = again.Token, again.Args, again.Note
	}
	if r.token != nil {
		if other, ok := w.byToken[r.token.Raw()]; ok && other.cl.Pending() {
			w.tell(r, coordinator.TokenInUse(r.token.String(), other.id.String()))
		}
		w.byToken[r.token.Raw()] = r
	}
	r.cl.Deadlines = coordinator.CallDeadlines(w.q.Now(), &w.s.Client, inherit, st)
	w.register(r)
	w.send(trace.ActorClient, idPtr(r.id), w.requestMessage(r), note, func() { w.arrive(r) })
	r.alarm.Set(&w.q, &r.cl, func() { w.clientTimeout(r) })
	r.alarm.Arm()
	return r
}

// clientTimeout: r's alarm rang; the client gives up on r if a deadline
// is due (coordinator.Client.Timeout; DOMAIN.md §2) and cancels it.
func (w *world) clientTimeout(r *request) {
	if cause, e, due := r.cl.Timeout(w.q.Now(), r.token != nil); due {
		w.tell(r, e)
		if !w.s.Client.Policy.CancelsOnAbandon() {
			r.alarm.Stop()
			w.tell(r, r.cl.Abandon(w.q.Now(), r.id.String(), string(cause)))
			w.retryPolicy(r)
			return
		}
		reason := cause.Reason()
		w.clientCancel(r, string(cause), &reason)
	}
}

// retryPolicy: r just ended for the client; the retry policy may resend it (Client.PlanRetry).
func (w *world) retryPolicy(r *request) {
	if r.root == nil {
		return
	}
	if again, ok := r.cl.PlanRetry(w.s.Client.Policy.Retry, &r.root.cl.Retries, r.root.id, r.id.String(), r.root.args, r.root.token, r.effect); ok && w.reqs[again.ID.Raw()] == nil {
		w.q.Schedule(w.q.Now()+again.DelayMs, func() { w.call(scenario.Step{ID: &again.ID}, r, &again) })
	}
}

// clientCancel abandons r with the transport's cancellation signal
// (DOMAIN.md §1).
func (w *world) clientCancel(r *request, cause string, reason *string) {
	signal, note, ended := r.cl.Cancel(w.q.Now(), r.id.String(), r.method, cause, reason, w.tp)
	if ended {
		r.alarm.Stop()
	}
	var out func()
	switch signal {
	case "":
		w.tell(r, trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: note})
		return
	case trace.SignalCloseStream:
		out = func() { w.closeStream(trace.ActorClient, r, note, func() { w.serverSeesClose(r, cause) }) }
	default:
		msg := jsonrpc.NewCancel(r.id.Raw(), reason)
		out = func() { w.send(trace.ActorClient, idPtr(r.id), msg, note, func() { w.serverReceiveCancel(msg) }) }
	}
	for _, e := range r.cl.SendCancel(w.s.Client.Policy.CancelAfterFirstEvent, w.http(), w.s.Client.Policy.AwaitResponseAfterCancel, r.id.String(), out) {
		w.tell(r, e)
	}
	w.retryPolicy(r)
}

// disconnectBy closes r's HTTP stream on behalf of actor (the network, or an
// idle-closing proxy): both ends lose it.
func (w *world) disconnectBy(r *request, actor trace.Actor) {
	note, ok, ended := r.cl.Disconnect(w.q.Now(), r.id.String(), actor == trace.ActorProxy, w.is2025())
	if !ok {
		w.tell(r, trace.Event{Actor: actor, Type: trace.TypeIgnore, Note: note})
		return
	}
	if ended {
		r.alarm.Stop()
	}
	w.closeStream(actor, r, note, func() { w.serverSeesClose(r, trace.CauseDisconnect) })
	w.afterDrop(r)
	w.retryPolicy(r)
}

// clientReceive handles a message from the server outside any request's
// stream (a raw send), as coordinator.ClientReceives classifies it.
func (w *world) clientReceive(msg json.RawMessage) {
	listening := func(id string) bool { ls := w.reqs[id].listen(); return ls != nil && !ls.Pipe } // a stdio 2025 one is no request
	known := func(token string) bool { return w.byToken[token] != nil }
	switch got := coordinator.ClientReceives(msg, listening, known, w.s.Client.Policy.LateProgressIsError); got.Kind {
	case coordinator.ListenEnds:
		w.clientListenEnded(w.reqs[got.ID])
	case coordinator.ProgressArrives:
		w.clientProgressArrives(w.byToken[got.Token], got.Value)
	case coordinator.ProgressUnknown:
		w.teardown(nil, "progress for unknown token "+got.Token)
	default:
		w.emit(got.Event)
	}
}

// clientProgressArrives applies progress value v for r at the client
// (coordinator.Client.ProgressArrives; DOMAIN.md §3).
func (w *world) clientProgressArrives(r *request, v float64) {
	e, activity, fatal := r.cl.ProgressArrives(w.q.Now(), &w.clientProgress, r.id.Raw(), r.id.String(), v, w.s.Client.Policy)
	if fatal != "" {
		w.teardown(r, fatal)
		return
	}
	w.tell(r, e)
	if activity {
		r.alarm.Arm()
	}
}

// clientResponse handles the final response for r at the client.
func (w *world) clientResponse(r *request, failed bool) {
	e, fatal := r.cl.Response(w.q.Now(), r.id.String(), failed, w.s.Client.Policy.LateResponseIsError)
	if fatal != "" {
		w.teardown(r, fatal)
		return
	}
	r.alarm.Stop()
	w.tell(r, e)
	w.retryPolicy(r)
}

// clientListenEnded: the server ended listen stream r (recovery.Listen.Ended).
func (w *world) clientListenEnded(r *request) {
	e := r.ls.Ended(r.id.String())
	r.cl.End(w.q.Now(), trace.OutcomeResult, "")
	w.tell(r, e)
}

// teardown is the client tearing down the session over what
// (coordinator.TearingDown); about is the request the late message
// concerns, nil if none is known.
func (w *world) teardown(about *request, what string) {
	e := coordinator.TearingDown(what)
	if about != nil {
		e.ID = idPtr(about.id)
	}
	w.emit(e)
	recovery.StopReading(w.pipes...) // no request: the client stops reading stdout
	for _, r := range w.order {
		e, closeStream, ok := r.cl.TearDown(w.q.Now(), r.id.String())
		if !ok {
			continue
		}
		r.alarm.Stop()
		recovery.StopReading(r.ls)
		w.tell(r, e)
		if closeStream {
			w.closeStream(trace.ActorClient, r, coordinator.TornDownNote(r.id.String()), func() { w.serverSeesClose(r, trace.CauseDisconnect) })
		}
	}
}
