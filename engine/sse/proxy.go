package sse

// FrameOverhead is what an SSE frame adds around its data: "data: " and the
// blank line that ends the event, in bytes.
const FrameOverhead = len("data: \n\n")

// ProxyBuffers reports whether an HTTP intermediary holds a response
// stream (DOMAIN.md §8): it buffers when configured to, unless it honours
// "X-Accel-Buffering: no" (honorsNoBuffering nil means true) and the server
// sends that header.
func ProxyBuffers(buffering bool, honorsNoBuffering *bool, serverSendsNoBuffering bool) bool {
	if !buffering {
		return false
	}
	honors := honorsNoBuffering == nil || *honorsNoBuffering
	return !(honors && serverSendsNoBuffering)
}

// Proxy is one response stream as an HTTP intermediary sees it (DOMAIN.md
// §8): a buffering proxy holds what reaches it until FlushBytes bytes are
// held or the final response ends the stream, then forwards all of it at
// once; any byte restarts its idle-close clock. T is the caller's handle
// for a held message. The zero value forwards everything at once and
// never closes.
type Proxy[T any] struct {
	// Buffering: the proxy holds the stream (see ProxyBuffers).
	Buffering bool
	// FlushBytes: how many held bytes make it flush.
	FlushBytes int
	// IdleCloseMs > 0 closes a stream through which no byte passed for
	// that long (ms).
	IdleCloseMs int64

	held      []T
	heldBytes int
}

// Arrive takes a message of size bytes (final: it ends the stream) at the
// proxy. It returns what to forward now, oldest first; nil when the proxy
// holds it. idleCloseAt is when the proxy closes the stream if no other
// byte passes (ok false when IdleCloseMs is 0).
func (p *Proxy[T]) Arrive(now int64, m T, size int, final bool) (forward []T, idleCloseAt int64, ok bool) {
	idleCloseAt, ok = p.IdleCloseAt(now)
	if !p.Buffering {
		return []T{m}, idleCloseAt, ok
	}
	p.held = append(p.held, m)
	p.heldBytes += size
	if p.heldBytes < p.FlushBytes && !final {
		return nil, idleCloseAt, ok
	}
	forward = p.held
	p.held, p.heldBytes = nil, 0
	return forward, idleCloseAt, ok
}

// Held returns how many messages and bytes the proxy holds.
func (p *Proxy[T]) Held() (messages, bytes int) { return len(p.held), p.heldBytes }

// IdleCloseAt is when a stream whose last byte passed at now closes (ms),
// and false when the proxy never closes idle streams.
func (p *Proxy[T]) IdleCloseAt(now int64) (int64, bool) {
	if p.IdleCloseMs <= 0 {
		return 0, false
	}
	return now + p.IdleCloseMs, true
}
