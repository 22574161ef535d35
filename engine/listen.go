package engine

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/trace"
)

// listen opens a listen stream (DOMAIN.md §9); package recovery's
// Listen keeps the stream's state and says what each move means.
func (w *world) listen(st scenario.Step) {
	r := &request{id: *st.ID, method: "subscriptions/listen", ls: recovery.NewListen(st.Filter)}
	r.args = r.ls.Params()
	w.openListen(r, recovery.OpenNote(r.id.String(), st.Filter))
}

// openListen: subscriptions/listen, or under 2025-11-25 a GET stream (stdio: stdout) and resources/subscribe.
func (w *world) openListen(r *request, note string) {
	if r.ls.Pipe = w.is2025() && !w.http(); r.ls.Pipe { // stdout is the stream: no request opens it
		w.reqs[r.id.Raw()], w.pipes = r, append(w.pipes, r.ls)
		w.tell(r, recovery.PipeOpens(r.id.String(), r.ls.Filter))
		w.After(w.s.LatencyMs.Up, func() { r.ls.Serving = true }) // with its resources/subscribe
	} else if w.register(r); w.is2025() { // a GET stream (recovery.Get)
		w.transmit(recovery.Get(&r.id, w.era().GetHeaders(w.sess.Client, ""), recovery.GetNote(r.id.String(), r.ls.Filter)), "", func() { w.serverReceiveRequest(r); r.ls.Serving = true })
	}
	if w.is2025() { // and resources/subscribe per resource of the filter
		w.ask(r.ls.Subscribes(jsonrpc.Unquote(r.id.Raw()), r.id.String()))
		return
	}
	w.send(trace.ActorClient, idPtr(r.id), jsonrpc.NewRequest(r.id.Raw(), r.method, r.args), note, func() {
		// The server starts the stream and acknowledges it first.
		w.serverReceiveRequest(r)
		r.ls.Serving = true
		ack, note := r.ls.Ack(r.id.Raw(), r.id.String())
		w.listenSend(r, ack, note)
	})
}

// listenSend puts msg on r's listen stream and records it for resumption.
func (w *world) listenSend(r *request, msg json.RawMessage, note string) {
	r.ls.Send(msg)
	w.out(r, sse.MsgOf(msg, note, func() { w.tell(r, r.ls.Arrive(r.id.String(), msg)) }))
}

// notify sends a notification on listen stream st.Listen if the stream's
// filter admits it.
func (w *world) notify(st scenario.Step) {
	r := w.reqs[st.Listen.Raw()]
	if e, msg, note, ok := r.listen().Notification(*st.Listen, st.Method, st.Params, !w.is2025()); ok {
		w.listenSend(r, msg, note)
	} else {
		w.emit(e)
	}
}

// endListen ends listen stream r gracefully (recovery.EndNote says how).
func (w *world) endListen(r *request, reason *string) {
	if e, ok := r.ls.End(r.id.String()); !ok {
		w.tell(r, e)
		return
	}
	if !w.http() {
		w.send(trace.ActorServer, idPtr(r.id), recovery.EndOnStdio(&r.cl, &r.srv, w.q.Now(), r.id.Raw(), reason), recovery.EndNote(r.id.String(), false), func() { w.clientListenEnded(r) })
		return
	}
	if w.resumable() { // a GET stream carries no response: the server closes it
		w.transmit(recovery.Closes(&r.id, &r.srv, w.q.Now()), "", func() { w.clientListenEnded(r) })
		return
	}
	resp := r.srv.Answer(w.q.Now(), w.era().Result(r.method, r.id.Raw(), jsonrpc.NewResult(r.id.Raw(), json.RawMessage(`{"resultType":"complete"}`))), false)
	w.out(r, sse.MsgOf(resp, recovery.EndNote(r.id.String(), true), func() { w.clientListenEnded(r) }))
}

// streamClosedBy is the client losing r's stream to actor (an idle-closing
// proxy): a listen stream is dropped (recovery.Covered), any other one
// disconnected.
func (w *world) streamClosedBy(r *request, actor trace.Actor) {
	if r.ls != nil && r.ls.Reading {
		w.dropBy(r, recovery.Covered(r.ls.Filter), actor)
		return
	}
	w.disconnectBy(r, actor)
}

// dropBy breaks the transport under stream r on behalf of actor (the
// network, or an idle-closing proxy; recovery.Reconnect).
func (w *world) dropBy(r *request, affected []string, actor trace.Actor) {
	if r.ls == nil && w.http() {
		w.disconnectBy(r, trace.ActorNetwork)
		return
	}
	if e, ok := r.ls.Drop(r.id.String()); !ok { // on stdio a request's: recovery.NothingDrops
		w.tell(r, e)
		return
	}
	now := w.q.Now()
	coordinator.Dropped(&r.cl, &r.srv, now, w.is2025())
	if actor != trace.ActorProxy { // the proxy recorded its own close
		w.wire++
		w.tell(r, recovery.Breaks(r.id.String(), actor, w.wire))
	}
	resume := w.is2025() || w.s.Client.Policy.SendLastEventID
	rec, plan := recovery.Reconnect(jsonrpc.Unquote(r.id.Raw()), affected, w.s.Client.ID, resume)
	for _, other := range w.order {
		if other.cl.Pending() && recovery.RetryClass(other.effect, other.args) == trace.RetryUnsafe {
			w.tell(other, recovery.UnsafeInFlight(other.id.String()))
		}
	}
	delay := rec.DelaysMs[0]
	if w.resumable() {
		// The position is taken when the stream drops (resume.go).
		rec.SendLastEventID = w.resumeAfter(r, delay) != ""
		w.reconnects = append(w.reconnects, rec)
		return
	}
	w.reconnects = append(w.reconnects, rec)
	// The refetch ids are numbered by this reconnect, fixed now: a second
	// drop within the backoff must not reuse them when both fire.
	nth := len(w.reconnects)
	w.q.Schedule(now+delay, func() {
		if resume {
			w.resume(r)
			return
		}
		nr := &request{id: scenario.NewStringID(plan.NewID), method: "subscriptions/listen", args: r.args, ls: recovery.NewListen(r.ls.Filter)}
		if _, taken := w.reqs[nr.id.Raw()]; taken {
			w.tell(r, recovery.IDTaken(nr.id.String()))
			return
		}
		w.tell(nr, recovery.Reopens(nr.id.String(), delay, w.s.Client.Policy.SkipRefetch))
		w.openListen(nr, recovery.ReopenNote(nr.id.String(), r.id.String()))
		w.ask(recovery.Numbered(nth, recovery.Refetches(recovery.Refetched(plan.Refetch, w.s.Client.Policy.SkipRefetch))))
	})
}

// resume reconnects listen stream r from the position the client holds
// (recovery.Listen.ResumeOn says where and how).
func (w *world) resume(r *request) {
	r.ls.ResumeOn(w, &r.id, w.is2025(), w.http(), &r.cl.Reading, &r.srv.Writing, func(m json.RawMessage, note string) { w.listenSend(r, m, note) })
}

// listen is r's listen stream, nil when r is none or no request.
func (r *request) listen() *recovery.Listen {
	if r == nil {
		return nil
	}
	return r.ls
}

// ask sends each read of reads as a request the server answers at once.
func (w *world) ask(reads []recovery.Refetch) {
	for _, f := range reads {
		r := w.register(&request{id: scenario.NewStringID(f.ID), method: f.Method, args: f.Params})
		w.send(trace.ActorClient, idPtr(r.id), jsonrpc.NewRequest(r.id.Raw(), f.Method, f.Params), f.Note(), func() {
			w.serverReceiveRequest(r)
			w.answer(r, jsonrpc.NewResult(r.id.Raw(), f.Result), false, f.AnswerNote(), nil)
		})
	}
}
