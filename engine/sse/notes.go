package sse

import "strconv"

// KeepaliveComment is the reference SSE keep-alive comment (DOMAIN.md §8):
// it keeps proxies from closing an idle stream and is not progress.
const KeepaliveComment = ":\r\n"

// Headers are the response headers of a Streamable HTTP response stream
// (DOMAIN.md §8): with noBuffering (the reference) the server also sends
// Cache-Control: no-cache and X-Accel-Buffering: no, which tells a proxy
// that honours it not to hold the stream. On stdio (http false) there are
// no headers: nil.
func Headers(http, noBuffering bool) map[string]string {
	if !http {
		return nil
	}
	if !noBuffering {
		return map[string]string{"Content-Type": "text/event-stream"}
	}
	return map[string]string{"Cache-Control": "no-cache", "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
}

// CapText is a capacity as the notes say it: the number, or "unbounded"
// for 0.
func CapText(capacity int) string {
	if capacity == 0 {
		return "unbounded"
	}
	return strconv.Itoa(capacity)
}

// DropNote says why d, displaced by the Push of the event with ID pushed
// that returned res, left the buffer (DOMAIN.md §7): a refused final
// (DropNewest), a coalesced progress, the new progress itself, or the
// oldest progress evicted to make room.
func DropNote[T any](d Event[T], res Result[T], pushed int) string {
	switch {
	case d.Kind == Final:
		return "Policy drop-newest: the full buffer refuses the final response. The client can never learn the outcome."
	case res.Outcome == Coalesced:
		return "Coalesced: newer progress for the same token replaces the buffered one (one progress dropped; the client must refetch)."
	case d.ID == pushed:
		return "The buffer is full and holds no older progress: this progress is dropped (counted; the client must refetch)."
	}
	return "The buffer is full: the oldest progress is evicted to make room (replaceable; the client must refetch)."
}

// NextDrain is the consumer's next drain after now on the stream's tick
// grid start + k×everyMs (k >= 1; ms).
func NextDrain(start, now, everyMs int64) int64 {
	return start + ((now-start)/everyMs+1)*everyMs
}

// HoldNote says what a buffering proxy holds: held bytes, flushing at
// flushBytes or at the end of the stream.
func HoldNote(held, flushBytes int) string {
	return "The proxy buffers the stream: it holds " + strconv.Itoa(held) + " bytes (flushes at " + strconv.Itoa(flushBytes) + " or at the end of the stream)."
}

// FlushNote says why a buffering proxy forwards n held messages at once:
// heldBytes reached its threshold, or final, the stream ended.
func FlushNote(n, heldBytes int, final bool) string {
	why := strconv.Itoa(heldBytes) + " bytes held"
	if final {
		why = "the stream ends"
	}
	return "The proxy flushes " + strconv.Itoa(n) + " held message(s) at once (" + why + "): progress arrives in a burst."
}

// Keepalive is the server's keep-alive comment on a stream (DOMAIN.md §8):
// it keeps proxies from closing an idle stream and is not progress.
func Keepalive() Msg {
	return Msg{Comment: KeepaliveComment, Note: "SSE comment \":\\r\\n\" keeps the connection open for proxies; it is not progress."}
}
