package engine

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/handler"
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
	w.tell(r, r.srv.Start(r.id.String(), sse.Headers(w.http(), w.sseHeaders()), w.sseHeaders()))
	if w.http() {
		w.openStream(r)
		w.prime(r)
		writing := func() bool { return r.srv.Writing && !r.srv.State().Terminal() }
		r.keepalive.Start(&w.q, w.s.Server.KeepaliveEveryMs, writing, func(m sse.Msg) { w.out(r, m) })
	}
	w.startWork(r)
}

// serverSeesClose: the server observes r's HTTP stream close (DOMAIN.md §1).
func (w *world) serverSeesClose(r *request, cause string) {
	if e, cancel := r.srv.SeesClose(r.id.String(), w.policy, w.is2025()); !cancel {
		w.tell(r, e)
		return
	}
	w.serverCancel(r, cause, "stream close")
}

// serverCancel applies an observed cancellation to r.
func (w *world) serverCancel(r *request, cause, via string) {
	e, cancelled := r.srv.ObserveCancel(w.q.Now(), r.id.String(), cause, via, w.handlers.Fate(r.work))
	w.tell(r, e)
	if cancelled && !w.s.Server.Policy.RespondAfterCancel {
		w.discardStream(r)
	}
	w.handlers.Cancelled(r.work) // a cancelled request's handler stops at its next checkpoint
}

// serverReceiveCancel reads a client's notifications/cancelled (DOMAIN.md §1).
func (w *world) serverReceiveCancel(msg json.RawMessage) {
	c, err := jsonrpc.ParseCancellation(msg)
	var srv *coordinator.Server
	r, method := w.reqs[c.RequestID], ""
	if err == nil && r != nil {
		srv, method = &r.srv, r.method
	}
	via, e, about, ok := coordinator.ReadCancel(msg, c, err, srv, method, w.tp, r != nil && r.cl.Cause != "")
	switch {
	case ok:
		w.serverCancel(r, r.cl.CancelCause(), via)
	case about:
		w.tell(r, e)
	default:
		w.emit(e)
	}
}

// serverSendProgress sends progress for r if the rules allow
// (coordinator.Server.SendsProgress; DOMAIN.md §3).
func (w *world) serverSendProgress(r *request, st scenario.Step) {
	v := *st.Progress
	e, note, send := r.srv.SendsProgress(&w.serverProgress, r.id.Raw(), r.id.String(), v, r.token != nil, w.s.Server.Policy.RespondAfterCancel)
	if !send {
		w.tell(r, e)
		return
	}
	msg := jsonrpc.NewProgress(r.token.Raw(), v, st.Total, st.Text())
	w.out(r, sse.Msg{Msg: msg, Note: note, Arrive: func() { w.client.progress(r, v) }, Progress: true, Token: r.token.Raw()})
}

// serverComplete runs the handler's completion for r: a result, or an error
// when e is set. The coordinator decides who won the race.
func (w *world) serverComplete(r *request, result json.RawMessage, e *jsonrpc.ErrorObject) {
	if !r.srv.Arrived {
		w.tell(r, coordinator.NotArrived(r.id.String(), "Completion"))
		return
	}
	msg, failed, code := jsonrpc.Completion(r.id.Raw(), result, e)
	isLedger := w.ledger != nil && ledger.IsTool(r.name)
	if isLedger && r.method == "tools/call" && r.srv.Runs(w.policy) {
		// The side effect commits here, through the ledger (DOMAIN.md §4);
		// its decision is the response (the step's own result is not used).
		rep := w.ledger.Call(w.q.Now(), ledger.Call{Tool: r.name, Args: r.args, RPCID: r.id.Raw()})
		w.tell(r, rep.Event())
		msg, failed = rep.Response(r.id.Raw())
	}
	msg = w.era().Result(r.method, r.id.Raw(), msg)
	ev, send := r.srv.Finish(w.q.Now(), r.id.String(), msg, failed, code, isLedger, w.policy)
	if !send {
		w.tell(r, ev)
		return
	}
	r.keepalive.Stop()
	if r.srv.Rerouted { // routeByIdOnly: the answer goes on the duplicate's stream
		w.send(trace.ActorServer, nil, r.srv.Sent, ev.Note, func() { w.client.receive(r.srv.Sent) })
		return
	}
	w.out(r, sse.MsgOf(r.srv.Sent, ev.Note, func() { w.client.response(r, failed) }))
}

// answer completes r at the server with msg (failed: an error) and sends
// it on r's stream; the client takes it as r's response, then then runs
// (when not nil).
func (w *world) answer(r *request, msg json.RawMessage, failed bool, note string, then func()) {
	w.out(r, sse.MsgOf(r.srv.Answer(w.q.Now(), w.era().Result(r.method, r.id.Raw(), msg), failed), note, func() {
		w.client.response(r, failed)
		if then != nil {
			then()
		}
	}))
}

// startWork starts r's handler, if its tool has one, as r reaches the server.
func (w *world) startWork(r *request) {
	r.work = w.handlers.Start(r.name, r.method == "tools/call" && r.task == "", r.id.String(), r.token, &r.srv, handler.Hooks{
		Tell:     func(e trace.Event) { w.tell(r, e) },
		Progress: func(v, total float64) { w.serverSendProgress(r, scenario.Step{Progress: &v, Total: &total}) },
		Complete: func(result json.RawMessage, e *jsonrpc.ErrorObject) { w.serverComplete(r, result, e) },
	})
}
