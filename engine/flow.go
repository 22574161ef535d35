package engine

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/trace"
)

// Flow control on a Streamable HTTP response stream (DOMAIN.md §7–8):
//
//	server ─► SSE buffer (bounded, drained by the consumer) ─► network ─► proxy ─► client
//
// Without a buffer the server writes straight to the network; without a
// proxy the network delivers straight to the client.

func (w *world) sseHeaders() bool { return w.s.Server.SSEHeaders == nil || *w.s.Server.SSEHeaders }

// openStream prepares r's flow-control state when the server opens its stream.
func (w *world) openStream(r *request) {
	if st := sse.Open(w.q.Now(), w.s.Buffer, w.s.Proxy, w.sseHeaders()); st != nil {
		r.st = &stream{Stream: st}
		w.armProxyIdle(r)
	}
}

// out sends a server message on r's stream through the SSE buffer when the
// scenario has one (DOMAIN.md §7), else straight to the network.
func (w *world) out(r *request, m sse.Msg) {
	if w.resumable() && m.Comment == "" {
		m = w.storeEvent(r, m)
		if w.keptForReplay(r, m) {
			return
		}
	}
	if r.st == nil || r.st.Buf == nil || m.Comment != "" {
		w.wireOut(r, m)
		return
	}
	events, lost := r.st.Push(w.q.Now(), m)
	w.told(r, events, lost)
	w.armDrain(r)
}

// told emits a stream's events for r and forgets r's final response when
// it is among the lost: requests[].response is only what the server
// actually put on the wire.
func (w *world) told(r *request, events []trace.Event, lost []json.RawMessage) {
	for _, e := range events {
		e.ID = &r.id
		w.emit(e)
	}
	for _, msg := range lost {
		if string(r.srv.Sent) == string(msg) {
			r.srv.Sent = nil
		}
	}
}

// armDrain schedules the consumer's next drain on the stream's tick grid
// while the buffer holds events.
func (w *world) armDrain(r *request) {
	st := r.st
	at, ok := st.NextDrain(w.q.Now(), w.s.Consumer.DrainEveryMs)
	if st.drain != nil || !ok {
		return
	}
	st.drain = w.q.Schedule(at, func() {
		st.drain = nil
		if st.Closed {
			return
		}
		for _, m := range st.Drain(w.q.Now(), w.s.Consumer.Batch) {
			w.wireOut(r, m)
		}
		w.armDrain(r)
	})
}

// discardStream drops whatever r's buffer holds, after a cancellation.
func (w *world) discardStream(r *request) {
	if r.st == nil {
		return
	}
	if events, lost, ok := r.st.Discard(w.q.Now()); ok {
		w.q.Stop(r.st.drain)
		r.st.drain = nil
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
	e, arrive := r.cl.Deliver(w.q.Now(), h.SentAt, r.id.String(), h.M.Comment != "", w.transport())
	e.Wire, e.Message, e.EventID = h.Wire, h.M.Msg, h.M.EventID
	if arrive {
		r.cursor.Received(h.M.EventID)
	}
	if arrive && h.M.Priming {
		e.Signal, e.Note = trace.SignalPrime, sse.PrimedNote(r.id.String(), h.M.EventID, w.q.Now()-h.SentAt)
	}
	w.tell(r, e)
	if arrive && !h.M.Priming {
		h.M.Arrive()
	}
}

// atProxy: a message reaches the proxy (DOMAIN.md §8), which forwards it,
// holds it or flushes what it holds; any byte restarts its idle clock.
func (w *world) atProxy(r *request, h sse.Sent) {
	if r.st == nil {
		w.deliverToClient(r, h)
		return
	}
	w.armProxyIdle(r)
	fwd, e, told := r.st.AtProxy(w.q.Now(), h)
	if told {
		w.told(r, []trace.Event{e}, nil)
	}
	for _, x := range fwd {
		w.deliverToClient(r, x)
	}
}

// armProxyIdle restarts the proxy's idle-close timer for r's stream.
func (w *world) armProxyIdle(r *request) {
	if w.s.Proxy == nil || w.s.Proxy.IdleCloseMs <= 0 || r.st == nil {
		return
	}
	w.q.Stop(r.st.proxyIdle)
	r.st.proxyIdle = w.q.ScheduleBackground(w.q.Now()+w.s.Proxy.IdleCloseMs, func() {
		r.st.proxyIdle = nil
		if !r.cl.Reading || r.srv.State().Terminal() {
			return
		}
		w.wire++
		e := r.st.IdleClose()
		e.Wire = w.wire
		w.tell(r, e)
		w.client.streamClosed(r, trace.ActorProxy)
	})
}

// buffers summarizes every buffered stream, in request order.
func (w *world) buffers() []trace.Buffer {
	out := []trace.Buffer{}
	for _, r := range w.order {
		if r.st == nil {
			continue
		}
		if b, ok := r.st.Summary(r.id, w.s.Buffer); ok {
			out = append(out, b)
		}
	}
	return out
}

// storeEvent gives m the next event id of the session and keeps it in the
// event store under r's stream (2025-11-25; resume.go).
func (w *world) storeEvent(r *request, m sse.Msg) sse.Msg {
	m.EventID = w.store.Append(r.id.Raw(), m)
	return m
}

// keptForReplay: r's stream is closed at the server (it saw the drop), so
// m goes only into the event store, for a resumption to replay.
func (w *world) keptForReplay(r *request, m sse.Msg) bool {
	if !w.resumable() || r.ls != nil || r.srv.Writing || !r.srv.Arrived || m.Comment != "" {
		return false
	}
	e, lost := sse.Kept(r.id.String(), m)
	w.told(r, []trace.Event{e}, lost)
	return true
}
