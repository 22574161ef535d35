package engine

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/trace"
)

// A Streamable HTTP response stream's flow control (DOMAIN.md §7–8) is
// package sse's Stream; the runner sends through it and delivers.

func (w *world) sseHeaders() bool { return w.s.Server.SSEHeaders == nil || *w.s.Server.SSEHeaders }

// openStream prepares r's flow-control state when the server opens its stream.
func (w *world) openStream(r *request) {
	if st := sse.Open(w.q.Now(), w.s.Buffer, w.s.Proxy, w.sseHeaders()); st != nil {
		r.st = st.Attach(&w.q, w.s.Consumer, func(m sse.Msg) { w.wireOut(r, m) }, func() { w.proxyIdleClose(r) })
	}
}

// out sends a server message on r's stream through the SSE buffer when the
// scenario has one (DOMAIN.md §7), else straight to the network.
func (w *world) out(r *request, m sse.Msg) {
	// A stream closed at the server (it saw the drop) keeps m only in the
	// event store, for a resumption to replay (resume.go).
	if kept, lost := sse.Keep(w.resumable(), &w.store, &m, r.id.Raw(), r.id.String(), r.ls == nil && !r.srv.Writing && r.srv.Arrived); kept != nil {
		w.told(r, kept, lost)
		return
	}
	if r.st == nil || r.st.Buf == nil || m.Comment != "" {
		w.wireOut(r, m)
		return
	}
	events, lost := r.st.Push(w.q.Now(), m)
	w.told(r, events, lost)
	r.st.ArmDrain()
}

// told emits a stream's events for r; r's final response is forgotten
// when it is among the lost (coordinator.Server.Lost).
func (w *world) told(r *request, events []trace.Event, lost []json.RawMessage) {
	for _, e := range events {
		e.ID = &r.id
		w.emit(e)
	}
	r.srv.Lost(lost)
}

// discardStream drops whatever r's buffer holds, after a cancellation.
func (w *world) discardStream(r *request) {
	if r.st == nil {
		return
	}
	if events, lost, ok := r.st.Discard(w.q.Now()); ok {
		w.told(r, events, lost)
	}
}

// wireOut puts a server message (or keep-alive comment) on the network
// toward the client, through the proxy if there is one.
func (w *world) wireOut(r *request, m sse.Msg) {
	w.wire++
	n, sent := w.wire, w.q.Now()
	w.emit(m.SendEvent(&r.id, n))
	schedule := w.q.Schedule
	if m.Housekeeping() {
		schedule = w.q.ScheduleBackground
	}
	schedule(sent+w.s.LatencyMs.Down, func() {
		if w.s.Proxy != nil && w.http() {
			w.atProxy(r, sse.Sent{Wire: n, SentAt: sent, M: m})
			return
		}
		w.deliverToClient(r, sse.Sent{Wire: n, SentAt: sent, M: m})
	})
}

// deliverToClient hands a server message to the client (or loses it on a
// stream the client no longer reads).
func (w *world) deliverToClient(r *request, h sse.Sent) {
	e, arrive := r.cl.Deliver(w.q.Now(), h.SentAt, r.id.String(), h.M.Comment != "", w.tp)
	h.Delivered(&e, arrive, r.id.String(), w.q.Now())
	if arrive {
		r.cursor.Received(h.M.EventID)
	}
	w.tell(r, e)
	if arrive && !h.M.Priming {
		h.M.Arrive()
	}
	r.cl.Hears(arrive)() // a cancellation held for the stream's first event goes

}

// atProxy: a message reaches the proxy (DOMAIN.md §8), which forwards it,
// holds it or flushes what it holds; any byte restarts its idle clock.
func (w *world) atProxy(r *request, h sse.Sent) {
	if r.st == nil {
		w.deliverToClient(r, h)
		return
	}
	r.st.ArmIdle()
	fwd, e, told := r.st.AtProxy(w.q.Now(), h)
	if told {
		w.told(r, []trace.Event{e}, nil)
	}
	for _, x := range fwd {
		w.deliverToClient(r, x)
	}
}

// proxyIdleClose: the proxy closes r's idle stream (sse.Stream.IdleClose).
func (w *world) proxyIdleClose(r *request) {
	if !r.cl.Reading || r.srv.State().Terminal() {
		return
	}
	w.wire++
	e := r.st.IdleClose()
	e.Wire = w.wire
	w.tell(r, e)
	w.client.streamClosed(r, trace.ActorProxy)
}
