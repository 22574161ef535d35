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

// The client half of a request: package coordinator's Client decides each
// move; the runner schedules the deadlines and sends the signals.

// call sends a new request (retry: a copy of orig under a new id) and
// returns it; the caller may set its handle before it reaches the server.
func (w *world) call(st scenario.Step, orig *request) *request {
	c := w.s.Client
	r := &request{id: *st.ID, method: st.Method, name: st.Name, args: st.Arguments, token: st.ProgressToken, effect: st.SideEffect, task: st.Task, hints: st.Annotations}
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
		idle, max = orig.cl.Deadlines.IdleMs, orig.cl.Deadlines.MaxMs
		note = fmt.Sprintf("The client retries request %s as a new request %s: a new JSON-RPC id is not deduplication.", orig.id, r.id)
	}
	if st.IdleTimeoutMs != nil {
		idle = *st.IdleTimeoutMs
	}
	if st.MaxTimeoutMs != nil {
		max = *st.MaxTimeoutMs
	}
	if r.token != nil {
		if other, ok := w.byToken[r.token.Raw()]; ok && other.cl.Pending() {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, ID: idPtr(r.id), Note: fmt.Sprintf("Progress token %s is already used by active request %s; tokens must be unique among active requests.", r.token, other.id)})
		}
		w.byToken[r.token.Raw()] = r
	}
	r.cl.Deadlines = coordinator.NewDeadlines(w.q.Now(), idle, max, c.Policy.ProgressResetsMax)
	w.register(r)
	w.send(trace.ActorClient, idPtr(r.id), requestMessage(r), note, func() {
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
	w.stopTimer(r)
	at, ok := r.cl.Deadlines.Next()
	if !ok || !r.cl.Pending() {
		return
	}
	r.timer = w.q.Schedule(at, func() {
		r.timer = nil
		if cause, e, due := r.cl.Timeout(w.q.Now(), r.token != nil); due {
			w.tell(r, e)
			reason := cause.Reason()
			w.clientCancel(r, string(cause), &reason)
		}
	})
}

// transport is what this scenario's transport makes of a cancellation.
func (w *world) transport() coordinator.Transport {
	return coordinator.Transport{HTTP: w.http(), Is2025: w.is2025(), CloseStream: w.s.Client.Policy.HTTPCancel == scenario.HTTPCancelCloseStream}
}

// clientCancel abandons r with the transport's cancellation signal
// (DOMAIN.md §1).
func (w *world) clientCancel(r *request, cause string, reason *string) {
	signal, note, ended := r.cl.Cancel(w.q.Now(), r.id.String(), r.method, cause, reason, w.transport())
	if ended {
		w.stopTimer(r)
	}
	switch signal {
	case "":
		w.tell(r, trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: note})
	case trace.SignalCloseStream:
		w.closeStream(trace.ActorClient, r, note, func() { w.serverSeesClose(r, cause) })
	default:
		msg := jsonrpc.NewCancel(r.id.Raw(), reason)
		w.send(trace.ActorClient, idPtr(r.id), msg, note, func() { w.serverReceiveCancel(msg) })
	}
}

// disconnectBy closes r's HTTP stream on behalf of actor (the network, or an
// idle-closing proxy): both ends lose it.
func (w *world) disconnectBy(r *request, actor string) {
	note, ok, ended := r.cl.Disconnect(w.q.Now(), r.id.String(), actor == trace.ActorProxy, w.is2025())
	if !ok {
		w.tell(r, trace.Event{Actor: actor, Type: trace.TypeIgnore, Note: note})
		return
	}
	if ended {
		w.stopTimer(r)
	}
	w.closeStream(actor, r, note, func() { w.serverSeesClose(r, trace.CauseDisconnect) })
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
}

// clientProgressArrives applies progress value v for r at the client
// (DOMAIN.md §3): only a strictly increasing value is activity.
func (w *world) clientProgressArrives(r *request, v float64) {
	if !r.cl.Pending() {
		if w.lateMessageFatal(false) {
			w.teardown(r, fmt.Sprintf("progress %s for request %s, which it has %s,", fmtNum(v), r.id, trace.OutcomeWord(r.cl.Outcome)))
			return
		}
		w.tell(r, r.cl.LateProgress(r.id.String(), fmtNum(v)))
		return
	}
	p := w.s.Client.Policy
	activity, note := w.clientProgress.Arrive(r.id.Raw(), v, p.AcceptNonIncreasingProgress, p.IgnoreProgress, r.cl.Deadlines.ProgressResetsMax)
	if !activity {
		w.tell(r, trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: note})
		return
	}
	w.tell(r, trace.Event{Actor: trace.ActorClient, Type: trace.TypeActivity, Note: note})
	r.cl.Deadlines.Activity(w.q.Now())
	w.armTimer(r)
}

// clientResponse handles the final response for r at the client.
func (w *world) clientResponse(r *request, failed bool) {
	e, late := r.cl.Response(w.q.Now(), r.id.String(), failed)
	if late && w.lateMessageFatal(true) {
		w.teardown(r, fmt.Sprintf("the late response for abandoned request %s", r.id))
		return
	}
	w.stopTimer(r)
	w.tell(r, e)
}

func (w *world) clientListenEnded(r *request) {
	r.ls.Reading = false
	r.cl.End(w.q.Now(), trace.OutcomeResult, "")
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeAccept, ID: idPtr(r.id), Note: fmt.Sprintf("The server ended listen stream %s; the client does not reconnect.", r.id)})
}
