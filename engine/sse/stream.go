package sse

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Msg is a server message on its way to the client, with what its sender
// knows of it, so nothing downstream parses it again: the JSON-RPC message
// (or, when Comment is not "", a keep-alive comment instead), the Note of
// its send event, Arrive (what the client does once it is delivered),
// Progress (a notifications/progress, Token its progress token's JSON
// text) and Final (a response that ends its stream).
type Msg struct {
	Msg      json.RawMessage
	Comment  string
	Note     string
	Arrive   func()
	Progress bool
	Token    string
	Final    bool
	// EventID is its 2025-11-25 SSE event id ("" for none; sse.EventStore)
	// and Priming marks a stream's priming event, an id with empty data.
	EventID string
	Priming bool
}

// Sent is a Msg on the network: its wire number and when it was sent (ms).
type Sent struct {
	Wire   int
	SentAt int64
	M      Msg
}

// Stream is the flow control of one Streamable HTTP response stream
// (DOMAIN.md §7–8):
//
//	server ─► Buf (bounded, drained by the consumer) ─► network ─► Proxy ─► client
//
// Buf is nil when the scenario has no buffer (the server writes straight to
// the network); the zero Proxy forwards at once. Closed: the buffer was
// discarded at a cancellation, and nothing more is pushed. Each method
// returns the trace events that tell what it did, without ID: the runner
// sets the stream's request id and emits them in order.
type Stream struct {
	Buf    *Buffer[Msg]
	Proxy  Proxy[Sent]
	Closed bool

	startAt int64
	nextID  int
	timers
}

// NewStream opens a stream at now through buf (nil: none; see New) and
// proxy, and records buf's depth; the consumer's drains tick from now.
func NewStream(now int64, buf *Buffer[Msg], proxy Proxy[Sent]) *Stream {
	if buf != nil {
		buf.Record(now)
	}
	return &Stream{Buf: buf, Proxy: proxy, startAt: now}
}

// Open opens a response stream at now as a scenario configures it: through
// an SSE buffer when buf is not nil (its capacity and policy, which Decode
// validated) and a proxy when proxy is not nil, buffering per ProxyBuffers
// (noBuffering: the server sends X-Accel-Buffering: no). It returns nil
// when the scenario has neither: the server writes straight to the client.
func Open(now int64, buf *scenario.Buffer, proxy *scenario.Proxy, noBuffering bool) *Stream {
	if buf == nil && proxy == nil {
		return nil
	}
	var p Proxy[Sent]
	if proxy != nil {
		p = Proxy[Sent]{Buffering: ProxyBuffers(proxy.Buffering, proxy.HonorsNoBuffering, noBuffering), FlushBytes: proxy.FlushBytes, IdleCloseMs: proxy.IdleCloseMs}
	}
	var b *Buffer[Msg]
	if buf != nil {
		b, _ = New[Msg](buf.Capacity, buf.Policy)
	}
	return NewStream(now, b, p)
}

// IdleClose is the proxy's close-stream event (without ID or wire) when no
// byte passed through it for IdleCloseMs (DOMAIN.md §8), unless the client
// stopped reading the stream or the request already ended (the runner
// does not close it then).
func (s *Stream) IdleClose() trace.Event {
	return trace.Event{Actor: trace.ActorProxy, Type: trace.TypeCloseStream, Signal: trace.SignalCloseStream,
		Note: "No byte passed for " + strconv.FormatInt(s.Proxy.IdleCloseMs, 10) + " ms: the proxy closes the idle stream."}
}

// Push puts m into the buffer at now by its policy (DOMAIN.md §7) and
// records the depth. events are the server's: a suppression when the
// stream is Closed; an error when only finals fill it (ErrOnlyFinals: the
// server reports rather than loses one); otherwise each displaced event (a
// drop, or a coalesce) then, unless m itself was refused, its enqueue.
// lost are the final responses that will never reach the wire.
func (s *Stream) Push(now int64, m Msg) (events []trace.Event, lost []json.RawMessage) {
	if s.Closed {
		return []trace.Event{{Actor: trace.ActorServer, Type: trace.TypeSuppress, Message: m.Msg, Note: "The stream's buffer was discarded at the cancellation; nothing more is sent."}}, nil
	}
	e := Event[Msg]{Kind: Final, ID: s.nextID, Data: m}
	s.nextID++
	if m.Progress {
		e.Kind, e.Token = Progress, m.Token
	}
	res, err := s.Buf.Push(e)
	if err != nil {
		return []trace.Event{{Actor: trace.ActorServer, Type: trace.TypeError, Message: m.Msg,
			Note: "The SSE buffer is full of final responses: the server refuses to drop one to keep another and reports an error instead of losing it silently."}}, []json.RawMessage{m.Msg}
	}
	for _, d := range res.Dropped {
		typ := trace.TypeDrop
		if d.Kind == Final {
			lost = append(lost, d.Data.Msg)
		} else if res.Outcome == Coalesced {
			typ = trace.TypeCoalesce
		}
		events = append(events, trace.Event{Actor: trace.ActorServer, Type: typ, Message: d.Data.Msg, Note: DropNote(d, res, e.ID)})
	}
	if res.Outcome != DroppedNew {
		events = append(events, trace.Event{Actor: trace.ActorServer, Type: trace.TypeEnqueue, Message: m.Msg,
			Note: m.Note + " Buffered: depth " + strconv.Itoa(s.Buf.Len()) + " of " + CapText(s.Buf.Capacity()) + "."})
	}
	s.Buf.Record(now)
	return events, lost
}

// NextDrain is when the consumer drains next after now, on the stream's
// tick grid (NextDrain), and false while the buffer is empty.
func (s *Stream) NextDrain(now, everyMs int64) (int64, bool) {
	return NextDrain(s.startAt, now, everyMs), s.Buf.Len() > 0
}

// Drain takes up to batch of the oldest messages out for the network at
// now (all when batch <= 0), and records the depth.
func (s *Stream) Drain(now int64, batch int) []Msg {
	var out []Msg
	for _, e := range s.Buf.Drain(batch) {
		out = append(out, e.Data)
	}
	s.Buf.Record(now)
	return out
}

// Discard closes the buffer at a cancellation at now: what it holds is
// dropped and the pending drain stopped. ok is false when there is no buffer or it is already closed;
// events is the server's suppression when anything was dropped, lost the
// final responses among it.
func (s *Stream) Discard(now int64) (events []trace.Event, lost []json.RawMessage, ok bool) {
	if s.Buf == nil || s.Closed {
		return nil, nil, false
	}
	s.Closed = true
	s.stopDrain()
	dropped := s.Buf.Drain(0)
	for _, e := range dropped {
		if e.Kind == Final {
			lost = append(lost, e.Data.Msg)
		}
	}
	s.Buf.Record(now)
	if n := len(dropped); n > 0 {
		events = append(events, trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, Note: "The cancellation discards " + strconv.Itoa(n) + " buffered event(s)."})
	}
	return events, lost, true
}

// AtProxy is h reaching the proxy at now (DOMAIN.md §8; Proxy.Arrive): a
// non-buffering proxy forwards it at once; a buffering one holds it (the
// proxy's hold event, forward nil) or flushes everything held (its flush
// event, forward oldest first). told is false when there is no event.
func (s *Stream) AtProxy(now int64, h Sent) (forward []Sent, e trace.Event, told bool) {
	size := len(h.M.Msg) + FrameOverhead
	if h.M.Comment != "" {
		size = len(h.M.Comment)
	}
	_, before := s.Proxy.Held()
	forward, _, _ = s.Proxy.Arrive(now, h, size, h.M.Final)
	if !s.Proxy.Buffering {
		return forward, e, false
	}
	if forward == nil {
		_, held := s.Proxy.Held()
		return nil, trace.Event{Actor: trace.ActorProxy, Type: trace.TypeHold, Wire: h.Wire, Note: HoldNote(held, s.Proxy.FlushBytes)}, true
	}
	return forward, trace.Event{Actor: trace.ActorProxy, Type: trace.TypeFlush, Wire: h.Wire, Note: FlushNote(len(forward), before+size, h.M.Final)}, true
}

// Summary is the buffer's trace summary for the stream of request id,
// opened by Open with cfg (its policy as the scenario wrote it); ok is
// false for a stream without a buffer (s nil: no stream).
func (s *Stream) Summary(id scenario.ID, cfg *scenario.Buffer) (b trace.Buffer, ok bool) {
	if s == nil || s.Buf == nil || cfg == nil {
		return b, false
	}
	policy := cfg.Policy
	st := s.Buf.Stats()
	return trace.Buffer{Stream: id, Policy: policy, Capacity: s.Buf.Capacity(), MaxDepth: st.MaxDepth, DroppedProgress: st.DroppedProgress, Coalesced: st.Coalesced,
		DroppedFinals: st.DroppedFinals, NeedsRefetch: st.NeedsRefetch, FinalsDelivered: st.FinalsDelivered, Depth: s.Buf.Depth()}, true
}

// Delivered completes e, the network's event for h reaching the client at
// now (coordinator.Client.Deliver), with h's wire number, message and
// event id; a priming event that reaches the client (arrive) of stream
// name is the prime signal, and its note says so (PrimedNote).
func (h Sent) Delivered(e *trace.Event, arrive bool, name string, now int64) {
	e.Wire, e.Message, e.EventID = h.Wire, h.M.Msg, h.M.EventID
	if arrive && h.M.Priming {
		e.Signal, e.Note = trace.SignalPrime, PrimedNote(name, h.M.EventID, now-h.SentAt)
	}
}
