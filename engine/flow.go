package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/trace"
)

// Flow control on a Streamable HTTP response stream (DOMAIN.md §7–8):
//
//	server ─► SSE buffer (bounded, drained by the consumer) ─► network ─► proxy ─► client
//
// Without a buffer the server writes straight to the network; without a
// proxy the network delivers straight to the client.

func (w *world) hasBuffer() bool { return w.http() && w.s.Buffer != nil }

// proxyBuffers reports whether the proxy holds this scenario's streams.
func (w *world) proxyBuffers() bool {
	p := w.s.Proxy
	return p != nil && sse.ProxyBuffers(p.Buffering, p.HonorsNoBuffering, w.sseHeaders())
}

func (w *world) sseHeaders() bool { return w.s.Server.SSEHeaders == nil || *w.s.Server.SSEHeaders }

// openStream prepares r's flow-control state when the server opens its stream.
func (w *world) openStream(r *request) {
	if !w.hasBuffer() && w.s.Proxy == nil {
		return
	}
	var proxy sse.Proxy[sse.Sent]
	if p := w.s.Proxy; p != nil {
		proxy = sse.Proxy[sse.Sent]{Buffering: w.proxyBuffers(), FlushBytes: p.FlushBytes, IdleCloseMs: p.IdleCloseMs}
	}
	var buf *sse.Buffer[sse.Msg]
	if w.hasBuffer() {
		buf, _ = sse.New[sse.Msg](w.s.Buffer.Capacity, w.s.Buffer.Policy) // Decode validated both
	}
	r.st = &stream{Stream: sse.NewStream(w.q.Now(), buf, proxy)}
	w.armProxyIdle(r)
}

// out sends a server message on r's stream through the SSE buffer when the
// scenario has one (DOMAIN.md §7), else straight to the network.
func (w *world) out(r *request, m sse.Msg) {
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
		e.ID = idPtr(r.id)
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
	e := trace.Event{Actor: trace.ActorServer, Type: trace.TypeSend, ID: idPtr(r.id), From: trace.ActorServer, To: trace.ActorClient, Wire: n, Message: m.Msg, Note: m.Note}
	if m.Comment != "" {
		e.Type, e.Message = trace.TypeKeepalive, nil
	}
	w.emit(e)
	schedule := w.q.Schedule
	if m.Comment != "" {
		// Keep-alive is housekeeping: its delivery must not keep the
		// simulation running, or comments would beget comments forever.
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
	sent := h.SentAt
	e := trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idPtr(r.id), From: trace.ActorServer, To: trace.ActorClient, Wire: h.Wire, SentAt: &sent, Message: h.M.Msg}
	if h.M.Comment != "" {
		e.Signal, e.Message = trace.SignalKeepalive, nil
	}
	if w.http() && !r.cl.Reading {
		e.Type = trace.TypeDrop
		e.Note = fmt.Sprintf("Request %s's stream is closed: the message is lost.", r.id)
		if h.M.Comment != "" {
			e.Note = "The stream is closed; the comment is lost."
		}
		if w.is2025() {
			e.Note = fmt.Sprintf("Request %s's stream is closed: the message does not reach the client (under 2025-11-25 a client may resume the stream with Last-Event-ID).", r.id)
		}
		w.emit(e)
		return
	}
	if h.M.Comment != "" {
		e.Note = "A keep-alive comment reaches the client; its idle timeout is not reset."
		w.emit(e)
		return
	}
	e.Note = fmt.Sprintf("Delivered to the client after %d ms.", w.q.Now()-sent)
	w.emit(e)
	h.M.Arrive()
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
		w.emit(trace.Event{Actor: trace.ActorProxy, Type: trace.TypeCloseStream, ID: idPtr(r.id), Wire: w.wire, Signal: trace.SignalCloseStream,
			Note: fmt.Sprintf("No byte passed for %d ms: the proxy closes the idle stream.", w.s.Proxy.IdleCloseMs)})
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
		if b, ok := r.st.Summary(); ok {
			b.Stream, b.Policy = r.id, w.s.Buffer.Policy
			out = append(out, b)
		}
	}
	return out
}
