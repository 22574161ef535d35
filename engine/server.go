package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/trace"
)

func (w *world) serverReceiveRequest(r *request) {
	r.arrived = true
	e := trace.Event{Actor: trace.ActorServer, Type: trace.TypeStart, ID: idPtr(r.id), Note: fmt.Sprintf("The server starts handling request %s.", r.id)}
	if w.http() {
		r.serverStreamOpen = true
		e.Headers = w.responseHeaders()
		e.Note = fmt.Sprintf("The server starts request %s and opens its SSE response stream.", r.id)
		if !w.sseHeaders() {
			e.Note += " Without X-Accel-Buffering: no, a proxy may buffer it."
		}
	}
	w.emit(e)
	if w.http() {
		w.openStream(r)
		w.prime(r)
	}
	if w.http() && w.s.Server.KeepaliveEveryMs > 0 {
		w.scheduleKeepalive(r)
	}
	return
}

func (w *world) scheduleKeepalive(r *request) {
	r.keepalive = w.q.ScheduleBackground(w.q.Now()+w.s.Server.KeepaliveEveryMs, func() {
		if !r.serverStreamOpen || r.srv.State().Terminal() {
			return
		}
		w.out(r, outMsg{comment: sse.KeepaliveComment, note: "SSE comment \":\\r\\n\" keeps the connection open for proxies; it is not progress."})
		w.scheduleKeepalive(r)
	})
}

// serverSeesClose: the server observes r's HTTP stream close (DOMAIN.md §1).
func (w *world) serverSeesClose(r *request, cause string) {
	if w.ignoresDisconnect() {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Policy ignoreDisconnect: the server never observes request %s's stream closing; the handler runs on, its side effects happen and its writes go into the closed stream (rust-sdk#857).", r.id)})
		return
	}
	r.serverStreamOpen = false
	if w.is2025() {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: "Under 2025-11-25 a disconnect is not a cancellation: the handler keeps running."})
		return
	}
	w.serverCancel(r, cause, "stream close")
}

// serverCancel applies an observed cancellation to r.
func (w *world) serverCancel(r *request, cause, via string) {
	if !r.arrived {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Cancellation (%s) for request %s, which the server has not received; ignored.", via, r.id)})
		return
	}
	if !r.srv.Cancel(w.q.Now()) {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Late cancellation (%s): request %s already %s; the server ignores it and sends nothing.", via, r.id, r.srv.State())})
		return
	}
	w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, ID: idPtr(r.id), Status: trace.StateCancelled, Cause: cause,
		Note: fmt.Sprintf("The server observes the cancellation (%s): request %s is cancelled; the handler stops and nothing more is sent for it.", via, r.id)})
	if !w.s.Server.Policy.RespondAfterCancel {
		w.discardStream(r)
	}
}

// serverReceiveCancel validates a client's notifications/cancelled (DOMAIN.md §1).
func (w *world) serverReceiveCancel(msg json.RawMessage) {
	c, err := jsonrpc.ParseCancellation(msg)
	if err != nil {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Message: msg, Note: fmt.Sprintf("Ignored silently (%v); no response.", err)})
		return
	}
	r := w.reqs[c.RequestID]
	if r == nil || !r.arrived {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Message: msg, Note: fmt.Sprintf("Cancellation for unknown request %s; ignored silently, no response.", c.RequestID)})
		return
	}
	if w.http() && !w.is2025() {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Message: msg, Note: "Under 2026-07-28 Streamable HTTP a cancellation is the stream closing; a POSTed notifications/cancelled does not cancel. Client and server now disagree on the request's life."})
		return
	}
	if w.is2025() && r.method == "initialize" {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Message: msg, Note: "Under 2025-11-25 initialize is never cancelled; ignored."})
		return
	}
	via := "notifications/cancelled"
	if c.Reason == nil && c.ReasonPresent {
		via += ", whose non-string reason is treated as absent"
	}
	w.serverCancel(r, r.causeOr(trace.CauseClient), via)
	return
}

func (r *request) causeOr(def string) string {
	if r.cause != "" {
		return r.cause
	}
	return def
}

// serverSendProgress sends progress for r if the rules allow (DOMAIN.md §3).
func (w *world) serverSendProgress(r *request, st scenario.Step) {
	v := *st.Progress
	if !r.arrived {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeError, ID: idPtr(r.id), Note: fmt.Sprintf("Progress step for request %s before it reached the server; skipped.", r.id)})
		return
	}
	send, note := w.serverProgress.Send(r.id.Raw(), v, r.srv.State(), r.token != nil, r.response != nil, w.s.Server.Policy.RespondAfterCancel)
	if !send {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Note: note})
		return
	}
	msg := progressMessage(*r.token, st)
	w.out(r, outMsg{msg: msg, note: note, arrive: func() { w.client.progress(r, v) }, progress: true, token: r.token.Raw()})
}

// serverToClient sends msg on r's stream (HTTP, through the SSE buffer and
// proxy when the scenario has them) or stdout (stdio).
func (w *world) serverToClient(r *request, msg json.RawMessage, note string, arrive func()) {
	m, _ := jsonrpc.Parse(msg)
	// A listen stream may carry notifications/progress (a notify step).
	w.out(r, outMsg{msg: msg, note: note, arrive: arrive, final: m.IsFinal(), progress: m.Method == jsonrpc.MethodProgress, token: m.ProgressToken})
}

// serverComplete runs the handler's completion for r: a result, or an error
// when e is set. The coordinator decides who won the race.
func (w *world) serverComplete(r *request, result json.RawMessage, e *jsonrpc.ErrorObject) {
	if !r.arrived {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeError, ID: idPtr(r.id), Note: fmt.Sprintf("Completion step for request %s before it reached the server; skipped.", r.id)})
		return
	}
	if result == nil {
		result = json.RawMessage(`{"content":[]}`)
	}
	wireMsg := jsonrpc.NewResult(r.id.Raw(), result)
	if e != nil {
		wireMsg = jsonrpc.NewError(r.id.Raw(), *e)
	}
	prev := r.srv.State()
	if w.ledger != nil && ledger.IsTool(r.name) && r.method == "tools/call" && (prev == coordinator.InProgress || prev == coordinator.Cancelled && w.s.Server.Policy.RespondAfterCancel) {
		// The side effect commits here, through the ledger; its decision is
		// the response (the step's own result is not used).
		wireMsg = w.ledgerCall(r)
		if isError(wireMsg) {
			e = &jsonrpc.ErrorObject{Code: ledger.CodeInvalidParams}
		}
	}
	resp, fresh := r.srv.Complete(w.q.Now(), wireMsg, e != nil)
	switch {
	case prev == coordinator.Cancelled && !w.s.Server.Policy.RespondAfterCancel:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Message: wireMsg,
			Note: fmt.Sprintf("The handler reaches completion, but request %s was cancelled first: the response is suppressed.", r.id)})
		return
	case prev == coordinator.Cancelled && r.response != nil:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s already has its one final response; a second completion sends nothing.", r.id)})
		return
	case prev == coordinator.Cancelled:
		resp = wireMsg
	case !fresh:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s already completed; a second completion returns the same stored response and sends nothing.", r.id)})
		return
	}
	r.response = resp
	note := fmt.Sprintf("The server commits request %s's result and sends the response.", r.id)
	if e != nil {
		note = fmt.Sprintf("The server fails request %s with error %d.", r.id, e.Code)
	}
	if w.ledger != nil && ledger.IsTool(r.name) {
		note = fmt.Sprintf("The server sends request %s's ledger outcome.", r.id)
	}
	if prev == coordinator.Cancelled {
		note = fmt.Sprintf("Policy respondAfterCancel: the server sends a response for request %s after accepting its cancellation.", r.id)
	}
	w.q.Stop(r.keepalive)
	w.serverToClient(r, resp, note, func() { w.client.response(r, e != nil) })
}

// ignoresDisconnect reports whether the server misses a client's stream
// close that, under 2026-07-28, is a cancellation (server.policy.
// ignoreDisconnect; failure disconnect-unobserved, rust-sdk#857). Under
// 2025-11-25 a disconnect is no cancellation anyway.
func (w *world) ignoresDisconnect() bool {
	return w.s.Server.Policy.IgnoreDisconnect && !w.is2025()
}
