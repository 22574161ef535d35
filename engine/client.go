package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// call sends a new request (retry: a copy of orig under a new id) and
// returns it; the caller may set its handle before it reaches the server.
func (w *world) call(st scenario.Step, orig *request) *request {
	c := w.s.Client
	r := &request{id: *st.ID, method: st.Method, name: st.Name, args: st.Arguments, token: st.ProgressToken, effect: st.SideEffect, task: st.Task, hints: st.Annotations, outcome: trace.OutcomePending}
	idle, max := c.IdleTimeoutMs, c.MaxTimeoutMs
	note := fmt.Sprintf("The client sends request %s (%s).", r.id, jsonrpc.Describe(r.method, r.name))
	if r.effect == nil && w.s.Ledger != nil && ledger.IsTool(r.name) {
		t := true // ledger tools have side effects unless the call says otherwise
		r.effect = &t
	}
	if orig != nil {
		r.method, r.name, r.args, r.effect, r.hints = orig.method, orig.name, orig.args, orig.effect, orig.hints
		r.retryOf = idPtr(orig.id)
		if orig.token != nil {
			t := scenario.NewStringID(jsonrpc.Unquote(orig.token.Raw()) + "-" + jsonrpc.Unquote(r.id.Raw()))
			r.token = &t
		}
		idle, max = orig.deadlines.IdleMs, orig.deadlines.MaxMs
		note = fmt.Sprintf("The client retries request %s as a new request %s: a new JSON-RPC id is not deduplication.", orig.id, r.id)
	}
	if st.IdleTimeoutMs != nil {
		idle = *st.IdleTimeoutMs
	}
	if st.MaxTimeoutMs != nil {
		max = *st.MaxTimeoutMs
	}
	if c.Policy.Timeouts == scenario.TimeoutsNone {
		// The broken client of claude-code#69593 (failure no-timeout): no
		// idle and no maximum timeout, whatever the scenario asked for.
		idle, max = 0, 0
	}

	if r.token != nil {
		if other, ok := w.byToken[r.token.Raw()]; ok && other.outcome == trace.OutcomePending {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, ID: idPtr(r.id), Note: fmt.Sprintf("Progress token %s is already used by active request %s; tokens must be unique among active requests.", r.token, other.id)})
		}
		w.byToken[r.token.Raw()] = r
	}
	now := w.q.Now()
	r.sentAt = now
	r.deadlines = coordinator.NewDeadlines(now, idle, max, c.Policy.ProgressResetsMax)
	r.clientStreamOpen = w.http()
	w.reqs[r.id.Raw()] = r
	w.order = append(w.order, r)
	w.send(trace.ActorClient, idPtr(r.id), requestMessage(r), note, nil, func() {
		w.serverReceiveRequest(r)
		if r.handle != nil {
			r.handle()
		}
	})
	w.armTimer(r)
	return r
}

// armTimer (re)schedules the client's next deadline for r.
func (w *world) armTimer(r *request) {
	w.q.Stop(r.timer)
	r.timer = nil
	if r.outcome != trace.OutcomePending {
		return
	}
	at, ok := r.deadlines.Next()
	if !ok {
		return
	}
	r.timer = w.q.Schedule(at, func() {
		r.timer = nil
		cause, due := r.deadlines.Due(w.q.Now())
		if !due || r.outcome != trace.OutcomePending {
			return
		}
		note := r.deadlines.TimeoutNote(cause, w.q.Now())
		if cause == coordinator.IdleTimeout && r.token == nil {
			note += noTokenDiagnosis
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeTimeout, ID: idPtr(r.id), Cause: string(cause), Note: note})
		reason := cause.Reason()
		w.clientCancel(r, string(cause), &reason)
	})
}

// clientCancel abandons r with the transport's cancellation signal
// (DOMAIN.md §1).
func (w *world) clientCancel(r *request, cause string, reason *string) {
	if r.outcome != trace.OutcomePending {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s is already %s at the client; there is nothing to cancel.", r.id, trace.OutcomeWord(r.outcome))})
		return
	}
	if w.is2025() && r.method == "initialize" && cause == trace.CauseClient {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: "Under 2025-11-25 initialize must never be cancelled: the client sends no cancellation and keeps waiting."})
		return
	}
	now := w.q.Now()
	r.outcome, r.endedAt, r.cause, r.reason = trace.OutcomeAbandoned, &now, cause, reason
	w.q.Stop(r.timer)
	r.timer = nil
	if w.is2025() && r.method == "initialize" {
		// A deadline still bounds the wait, but 2025-11-25 forbids
		// cancelling initialize: the client gives up without a signal.
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: "Under 2025-11-25 initialize must never be cancelled: the client stops waiting but sends no cancellation."})
		return
	}
	if w.http() && w.s.Client.Policy.HTTPCancel == scenario.HTTPCancelCloseStream {
		r.signal = trace.SignalCloseStream
		r.clientStreamOpen = false
		w.closeStream(trace.ActorClient, r, coordinator.CancelNote(r.id.Raw(), true, w.is2025(), true), func() { w.serverSeesClose(r, cause) })
		return
	}
	r.signal = trace.SignalNotification
	note := coordinator.CancelNote(r.id.Raw(), w.http(), w.is2025(), false)
	msg := jsonrpc.NewCancel(r.id.Raw(), reason)
	w.send(trace.ActorClient, idPtr(r.id), msg, note, nil, func() { w.serverReceiveCancel(msg) })
}

// disconnect: the network closes r's HTTP stream; not an intent of either side.
func (w *world) disconnect(r *request) { w.disconnectBy(r, trace.ActorNetwork) }

// disconnectBy closes r's HTTP stream on behalf of actor (the network, or an
// idle-closing proxy): both ends lose it.
func (w *world) disconnectBy(r *request, actor string) {
	if !r.clientStreamOpen {
		w.emit(trace.Event{Actor: actor, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s's stream is already closed.", r.id)})
		return
	}
	r.clientStreamOpen = false
	note := coordinator.DisconnectNote(r.id.Raw(), actor == trace.ActorProxy, w.is2025())
	if !w.is2025() && r.outcome == trace.OutcomePending {
		now := w.q.Now()
		r.outcome, r.endedAt, r.cause, r.signal = trace.OutcomeAbandoned, &now, trace.CauseDisconnect, trace.SignalCloseStream
		w.q.Stop(r.timer)
		r.timer = nil
	}
	w.closeStream(actor, r, note, func() { w.serverSeesClose(r, trace.CauseDisconnect) })
	w.afterDrop(r)
}

// clientReceive handles a message from the server (a raw send).
func (w *world) clientReceive(msg json.RawMessage) {
	m, ok := jsonrpc.ReadPeer(msg)
	if !ok {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: "Not a JSON-RPC message; the client ignores it."})
		return
	}
	switch m.Method {
	case jsonrpc.MethodCancelled:
		if c, err := m.Cancellation(); err == nil {
			if r := w.reqs[c.RequestID]; r != nil && r.ls != nil {
				w.clientListenEnded(r)
				return
			}
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Message: msg, Note: "A server-sent notifications/cancelled is reserved for tearing down a subscriptions/listen stream; this one targets no listen stream, so the client ignores it."})
	case jsonrpc.MethodProgress:
		r := w.byToken[m.ProgressToken]
		if m.Progress == nil || m.ProgressToken == "" || r == nil {
			if m.Progress != nil && m.ProgressToken != "" && w.lateMessageFatal(false) {
				w.teardown(nil, "progress for unknown token "+m.ProgressToken)
				return
			}
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Message: msg, Note: "Progress for no known token; the client ignores it."})
			return
		}
		w.clientProgressArrives(r, *m.Progress)
	default:
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Message: msg, Note: "The client does not act on this message."})
	}
	return
}

// clientProgressArrives applies progress value v for r at the client
// (DOMAIN.md §3): only a strictly increasing value is activity.
func (w *world) clientProgressArrives(r *request, v float64) {
	if r.outcome != trace.OutcomePending {
		if w.lateMessageFatal(false) {
			w.teardown(r, fmt.Sprintf("progress %s for request %s, which it has %s,", fmtNum(v), r.id, trace.OutcomeWord(r.outcome)))
			return
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Progress %s for request %s, which the client has %s; ignored.", fmtNum(v), r.id, trace.OutcomeWord(r.outcome))})
		return
	}
	p := w.s.Client.Policy
	activity, note := w.clientProgress.Arrive(r.id.Raw(), v, p.AcceptNonIncreasingProgress, p.IgnoreProgress, r.deadlines.ProgressResetsMax)
	if !activity {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: note})
		return
	}
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeActivity, ID: idPtr(r.id), Note: note})
	r.deadlines.Activity(w.q.Now())
	w.armTimer(r)
}

// clientResponse handles the final response for r at the client.
func (w *world) clientResponse(r *request, failed bool) {
	switch r.outcome {
	case trace.OutcomeAbandoned:
		if w.lateMessageFatal(true) {
			w.teardown(r, fmt.Sprintf("the late response for abandoned request %s", r.id))
			return
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("A late response for abandoned request %s: the client ignores it.", r.id)})
		return
	case trace.OutcomePending:
		now := w.q.Now()
		r.outcome, r.endedAt = trace.OutcomeResult, &now
		r.clientStreamOpen = false // the final response ends the HTTP stream
		if failed {
			r.outcome = trace.OutcomeError
		}
		w.q.Stop(r.timer)
		r.timer = nil
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeAccept, ID: idPtr(r.id), Note: fmt.Sprintf("The client receives request %s's response and stops waiting.", r.id)})
		return
	}
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("A second response for request %s; ignored.", r.id)})
	return
}

func (w *world) clientListenEnded(r *request) {
	now := w.q.Now()
	r.ls.clientActive = false
	r.outcome, r.endedAt = trace.OutcomeResult, &now
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeAccept, ID: idPtr(r.id), Note: fmt.Sprintf("The server ended listen stream %s; the client does not reconnect.", r.id)})
}
