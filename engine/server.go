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

// The server half of a request: package coordinator's Server decides each
// move; the runner reaches the client only through what arrives on the
// wire (clientEnd).

func (w *world) serverReceiveRequest(r *request) {
	r.srv.Arrived = true
	e := trace.Event{Actor: trace.ActorServer, Type: trace.TypeStart, Note: fmt.Sprintf("The server starts handling request %s.", r.id)}
	if w.http() {
		r.srv.Writing = true
		e.Headers = sse.Headers(w.sseHeaders())
		e.Note = fmt.Sprintf("The server starts request %s and opens its SSE response stream.", r.id)
		if !w.sseHeaders() {
			e.Note += " Without X-Accel-Buffering: no, a proxy may buffer it."
		}
	}
	w.tell(r, e)
	if w.http() {
		w.openStream(r)
		if w.s.Server.KeepaliveEveryMs > 0 {
			w.scheduleKeepalive(r)
		}
	}
}

func (w *world) scheduleKeepalive(r *request) {
	r.keepalive = w.q.ScheduleBackground(w.q.Now()+w.s.Server.KeepaliveEveryMs, func() {
		if !r.srv.Writing || r.srv.State().Terminal() {
			return
		}
		w.out(r, sse.Msg{Comment: sse.KeepaliveComment, Note: "SSE comment \":\\r\\n\" keeps the connection open for proxies; it is not progress."})
		w.scheduleKeepalive(r)
	})
}

// serverPolicy is the server's switches that touch one request.
func (w *world) serverPolicy() coordinator.Policy {
	p := w.s.Server.Policy
	return coordinator.Policy{RespondAfterCancel: p.RespondAfterCancel, IgnoreDisconnect: p.IgnoreDisconnect}
}

// serverSeesClose: the server observes r's HTTP stream close (DOMAIN.md §1).
func (w *world) serverSeesClose(r *request, cause string) {
	if e, cancel := r.srv.SeesClose(r.id.String(), w.serverPolicy(), w.is2025()); !cancel {
		w.tell(r, e)
		return
	}
	w.serverCancel(r, cause, "stream close")
}

// serverCancel applies an observed cancellation to r.
func (w *world) serverCancel(r *request, cause, via string) {
	e, cancelled := r.srv.ObserveCancel(w.q.Now(), r.id.String(), cause, via)
	w.tell(r, e)
	if cancelled && !w.s.Server.Policy.RespondAfterCancel {
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
	if r == nil || !r.srv.Arrived {
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
	cause := r.cl.Cause
	if cause == "" {
		cause = trace.CauseClient
	}
	w.serverCancel(r, cause, via)
}

// serverSendProgress sends progress for r if the rules allow (DOMAIN.md §3).
func (w *world) serverSendProgress(r *request, st scenario.Step) {
	v := *st.Progress
	if !r.srv.Arrived {
		w.tell(r, coordinator.NotArrived(r.id.String(), "Progress"))
		return
	}
	send, note := w.serverProgress.Send(r.id.Raw(), v, r.srv.State(), r.token != nil, r.srv.Sent != nil, w.s.Server.Policy.RespondAfterCancel)
	if !send {
		w.tell(r, trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, Note: note})
		return
	}
	msg := progressMessage(*r.token, st)
	w.out(r, sse.Msg{Msg: msg, Note: note, Arrive: func() { w.client.progress(r, v) }, Progress: true, Token: r.token.Raw()})
}

// serverToClient sends msg on r's stream (HTTP, through the SSE buffer and
// proxy when the scenario has them) or stdout (stdio).
func (w *world) serverToClient(r *request, msg json.RawMessage, note string, arrive func()) {
	m, _ := jsonrpc.Parse(msg)
	// A listen stream may carry notifications/progress (a notify step).
	w.out(r, sse.Msg{Msg: msg, Note: note, Arrive: arrive, Final: m.IsFinal(), Progress: m.Method == jsonrpc.MethodProgress, Token: m.ProgressToken})
}

// serverComplete runs the handler's completion for r: a result, or an error
// when e is set. The coordinator decides who won the race.
func (w *world) serverComplete(r *request, result json.RawMessage, e *jsonrpc.ErrorObject) {
	if !r.srv.Arrived {
		w.tell(r, coordinator.NotArrived(r.id.String(), "Completion"))
		return
	}
	if result == nil {
		result = json.RawMessage(`{"content":[]}`)
	}
	msg, failed, code := jsonrpc.NewResult(r.id.Raw(), result), e != nil, int64(0)
	if failed {
		msg, code = jsonrpc.NewError(r.id.Raw(), *e), e.Code
	}
	isLedger := w.ledger != nil && ledger.IsTool(r.name)
	if isLedger && r.method == "tools/call" && r.srv.Runs(w.serverPolicy()) {
		// The side effect commits here, through the ledger; its decision is
		// the response (the step's own result is not used).
		msg, failed = w.ledgerCall(r)
	}
	ev, send := r.srv.Finish(w.q.Now(), r.id.String(), msg, failed, code, isLedger, w.serverPolicy())
	if !send {
		w.tell(r, ev)
		return
	}
	w.q.Stop(r.keepalive)
	w.serverToClient(r, r.srv.Sent, ev.Note, func() { w.client.response(r, failed) })
}

// answer completes r at the server with msg (failed: an error) and sends
// it on r's stream; the client takes it as r's response, then then runs
// (when not nil).
func (w *world) answer(r *request, msg json.RawMessage, failed bool, note string, then func()) {
	w.serverToClient(r, r.srv.Answer(w.q.Now(), msg, failed), note, func() {
		w.client.response(r, failed)
		if then != nil {
			then()
		}
	})
}
