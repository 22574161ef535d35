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

// responseHeaders are the headers of a new response stream.
func (w *world) responseHeaders() map[string]string {
	return sse.Headers(w.sseHeaders())
}

// openStream prepares r's flow-control state when the server opens its stream.
func (w *world) openStream(r *request) {
	if !w.hasBuffer() && w.s.Proxy == nil {
		return
	}
	r.st = &stream{startAt: w.q.Now()}
	if p := w.s.Proxy; p != nil {
		r.st.proxy = sse.Proxy[heldMsg]{Buffering: w.proxyBuffers(), FlushBytes: p.FlushBytes, IdleCloseMs: p.IdleCloseMs}
	}
	if w.hasBuffer() {
		// Decode validated the capacity and policy.
		r.st.buf, _ = sse.New[outMsg](w.s.Buffer.Capacity, w.s.Buffer.Policy)
		r.st.buf.Record(w.q.Now())
	}
	w.armProxyIdle(r)
}

// out sends a server message on r's stream through the SSE buffer when the
// scenario has one (DOMAIN.md §7), else straight to the network.
func (w *world) out(r *request, m outMsg) {
	if w.resumable() && m.comment == "" {
		m = w.storeEvent(r, m)
		if w.keptForReplay(r, m) {
			return
		}
	}
	if r.st == nil || r.st.buf == nil || m.comment != "" {
		w.wireOut(r, m)
		return
	}
	st := r.st
	if st.closed {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Message: m.msg, Note: "The stream's buffer was discarded at the cancellation; nothing more is sent."})
		return
	}
	e := sse.Event[outMsg]{Kind: sse.Final, ID: st.nextID, Data: m}
	st.nextID++
	if m.progress {
		e.Kind, e.Token = sse.Progress, m.token
	}
	res, err := st.buf.Push(e)
	if err != nil {
		w.unsent(r, m.msg)
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeError, ID: idPtr(r.id), Message: m.msg,
			Note: "The SSE buffer is full of final responses: the server refuses to drop one to keep another and reports an error instead of losing it silently."})
		return
	}
	for _, d := range res.Dropped {
		typ := trace.TypeDrop
		if d.Kind == sse.Final {
			w.unsent(r, d.Data.msg)
		} else if res.Outcome == sse.Coalesced {
			typ = trace.TypeCoalesce
		}
		w.emit(trace.Event{Actor: trace.ActorServer, Type: typ, ID: idPtr(r.id), Message: d.Data.msg, Note: sse.DropNote(d, res, e.ID)})
	}
	if res.Outcome != sse.DroppedNew {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeEnqueue, ID: idPtr(r.id), Message: m.msg,
			Note: fmt.Sprintf("%s Buffered: depth %d of %s.", m.note, st.buf.Len(), sse.CapText(st.buf.Capacity()))})
	}
	st.buf.Record(w.q.Now())
	w.armDrain(r)
}

// armDrain schedules the consumer's next drain on the stream's tick grid
// (start + k x drainEveryMs) while the buffer holds events.
func (w *world) armDrain(r *request) {
	st := r.st
	if st.drain != nil || st.buf.Len() == 0 {
		return
	}
	st.drain = w.q.Schedule(sse.NextDrain(st.startAt, w.q.Now(), w.s.Consumer.DrainEveryMs), func() {
		st.drain = nil
		if st.closed {
			return
		}
		for _, e := range st.buf.Drain(w.s.Consumer.Batch) {
			w.wireOut(r, e.Data)
		}
		st.buf.Record(w.q.Now())
		w.armDrain(r)
	})
}

// discardStream drops whatever r's buffer holds, after a cancellation.
func (w *world) discardStream(r *request) {
	if r.st == nil || r.st.buf == nil || r.st.closed {
		return
	}
	r.st.closed = true
	dropped := r.st.buf.Drain(0)
	n := len(dropped)
	for _, e := range dropped {
		if e.Kind == sse.Final {
			w.unsent(r, e.Data.msg)
		}
	}
	w.q.Stop(r.st.drain)
	r.st.drain = nil
	r.st.buf.Record(w.q.Now())
	if n > 0 {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Note: fmt.Sprintf("The cancellation discards %d buffered event(s).", n)})
	}
}

// wireOut puts a server message (or keep-alive comment) on the network
// toward the client, through the proxy if there is one.
func (w *world) wireOut(r *request, m outMsg) {
	w.wire++
	n, sent := w.wire, w.q.Now()
	e := trace.Event{Actor: trace.ActorServer, Type: trace.TypeSend, ID: idPtr(r.id), From: trace.ActorServer, To: trace.ActorClient, Wire: n, EventID: m.eventID, Message: m.msg, Note: m.note}
	if m.comment != "" {
		e.Type, e.Message = trace.TypeKeepalive, nil
	}
	if m.priming {
		e.Type = trace.TypePrime
	}
	w.emit(e)
	schedule := w.q.Schedule
	if m.comment != "" {
		// Keep-alive is housekeeping: its delivery must not keep the
		// simulation running, or comments would beget comments forever.
		schedule = w.q.ScheduleBackground
	}
	schedule(sent+w.s.LatencyMs.Down, func() {
		if w.s.Proxy != nil && w.http() {
			w.atProxy(r, heldMsg{wire: n, sentAt: sent, m: m})
			return
		}
		w.deliverToClient(r, heldMsg{wire: n, sentAt: sent, m: m})
	})
}

// deliverToClient hands a server message to the client (or loses it on a
// stream the client no longer reads).
func (w *world) deliverToClient(r *request, h heldMsg) {
	sent := h.sentAt
	e := trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idPtr(r.id), From: trace.ActorServer, To: trace.ActorClient, Wire: h.wire, SentAt: &sent, EventID: h.m.eventID, Message: h.m.msg}
	if h.m.comment != "" {
		e.Signal, e.Message = trace.SignalKeepalive, nil
	}
	if w.http() && !r.clientStreamOpen {
		e.Type = trace.TypeDrop
		e.Note = fmt.Sprintf("Request %s's stream is closed: the message is lost.", r.id)
		if h.m.comment != "" {
			e.Note = "The stream is closed; the comment is lost."
		}
		if w.is2025() {
			e.Note = fmt.Sprintf("Request %s's stream is closed: the message does not reach the client (under 2025-11-25 a client may resume the stream with Last-Event-ID).", r.id)
		}
		w.emit(e)
		return
	}
	if h.m.comment != "" {
		e.Note = "A keep-alive comment reaches the client; its idle timeout is not reset."
		w.emit(e)
		return
	}
	e.Note = fmt.Sprintf("Delivered to the client after %d ms.", w.q.Now()-sent)
	r.cursor.Received(h.m.eventID)
	if h.m.priming {
		e.Signal = trace.SignalPrime
		e.Note = fmt.Sprintf("The priming event reaches the client after %d ms: its resume position on stream %s is event %s.", w.q.Now()-sent, r.id, h.m.eventID)
		w.emit(e)
		return
	}
	w.emit(e)
	h.m.arrive()
}

// atProxy: a message reaches the proxy (DOMAIN.md §8). A buffering proxy
// holds bytes until FlushBytes are held or the final response ends the
// stream; a non-buffering one forwards at once. Any byte resets the proxy's
// idle-close timer.
func (w *world) atProxy(r *request, h heldMsg) {
	if r.st == nil || r.st.closed && r.st.buf == nil {
		w.deliverToClient(r, h)
		return
	}
	st := r.st
	w.armProxyIdle(r)
	size := len(h.m.msg) + sse.FrameOverhead
	if h.m.comment != "" {
		size = len(h.m.comment)
	}
	_, before := st.proxy.Held()
	fwd, _, _ := st.proxy.Arrive(w.q.Now(), h, size, h.m.final)
	if !st.proxy.Buffering {
		w.deliverToClient(r, h)
		return
	}
	if fwd == nil {
		_, held := st.proxy.Held()
		w.emit(trace.Event{Actor: trace.ActorProxy, Type: trace.TypeHold, ID: idPtr(r.id), Wire: h.wire, Note: sse.HoldNote(held, st.proxy.FlushBytes)})
		return
	}
	w.emit(trace.Event{Actor: trace.ActorProxy, Type: trace.TypeFlush, ID: idPtr(r.id), Wire: h.wire, Note: sse.FlushNote(len(fwd), before+size, h.m.final)})
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
		if !r.clientStreamOpen || r.srv.State().Terminal() {
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
		if r.st == nil || r.st.buf == nil {
			continue
		}
		s := r.st.buf.Stats()
		out = append(out, trace.Buffer{Stream: r.id, Capacity: r.st.buf.Capacity(), Policy: w.s.Buffer.Policy, MaxDepth: s.MaxDepth,
			DroppedProgress: s.DroppedProgress, Coalesced: s.Coalesced, DroppedFinals: s.DroppedFinals, NeedsRefetch: s.NeedsRefetch,
			FinalsDelivered: s.FinalsDelivered, Depth: r.st.buf.Depth()})
	}
	return out
}

// unsent forgets r's final response when it never reached the wire:
// requests[].response is only what the server actually put on the wire.
func (w *world) unsent(r *request, msg json.RawMessage) {
	if string(r.response) == string(msg) {
		r.response = nil
	}
}

// storeEvent gives m the next event id of the session and keeps it in the
// event store under r's stream.
func (w *world) storeEvent(r *request, m outMsg) outMsg {
	m.eventID = w.store.Append(r.id.Raw(), m)
	return m
}

// keptForReplay: r's stream is closed at the server (it saw the drop), so
// m goes only into the event store, for a resumption to replay.
func (w *world) keptForReplay(r *request, m outMsg) bool {
	if !w.resumable() || r.ls != nil || r.serverStreamOpen || !r.arrived || m.comment != "" {
		return false
	}
	if m.final {
		w.unsent(r, m.msg) // requests[].response is only what reached the wire
	}
	w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeEnqueue, ID: idPtr(r.id), EventID: m.eventID, Message: m.msg,
		Note: fmt.Sprintf("Request %s's stream is closed: the server keeps this event (id %s) in its event store for the client to resume.", r.id, m.eventID)})
	return true
}
