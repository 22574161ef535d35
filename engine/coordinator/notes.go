package coordinator

import (
	"strconv"
)

// num formats a progress value as JSON does.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Send is the server's decision on progress value v for request id in
// state s (DOMAIN.md §3): no progress without a progressToken (hasToken),
// none after the final response (responded), none after an accepted
// cancellation unless respondAfterCancel (a known-broken policy). send
// false comes with the note saying why it is suppressed; send true records
// v and comes with the note of the message sent (a non-increasing value is
// sent, and named, as the protocol violation it is).
func (p *Progress) Send(id string, v float64, s State, hasToken, responded, respondAfterCancel bool) (send bool, note string) {
	switch {
	case !hasToken:
		return false, "Request " + id + " has no progress token: progress " + num(v) + " is not sent."
	case s == Completed || s == Failed || responded:
		return false, "Request " + id + " has finished: progress stops after the final response."
	case s == Cancelled && !respondAfterCancel:
		return false, "Request " + id + " was cancelled: progress " + num(v) + " is suppressed."
	}
	note = "The server reports progress " + num(v) + " for request " + id + "."
	if inc, last, _ := p.Accept(id, v); !inc {
		note = "The server sends progress " + num(v) + " after " + num(last) + ": progress must strictly increase (a protocol violation)."
	}
	if s == Cancelled {
		note = "Policy respondAfterCancel: the server sends progress " + num(v) + " for request " + id + " after accepting its cancellation."
	}
	return true, note
}

// Arrive is the client's reading of progress value v for request id
// (DOMAIN.md §3): only a strictly increasing value is activity, which
// resets the idle clock (and, under d.ProgressResetsMax, the maximum) of
// the request's clocks d. Under acceptNonIncreasing (a known-broken
// policy) a stale value is activity too; under ignoreValid (a known-broken
// policy, leehack/mcp_dart#106) a valid value is not. activity false comes
// with the note saying why it is ignored; the note of valid progress names
// only the clocks the request has (d.IdleMs, d.MaxMs: 0 is none), so a
// request without an idle timeout is not said to have its idle clock
// reset.
func (p *Progress) Arrive(id string, v float64, acceptNonIncreasing, ignoreValid bool, d Deadlines) (activity bool, note string) {
	inc, last, _ := p.Accept(id, v)
	switch {
	case !inc && !acceptNonIncreasing:
		return false, "Progress " + num(v) + " does not increase (last " + num(last) + "): a protocol violation; the idle clock is not reset."
	case !inc:
		return true, "Policy acceptNonIncreasingProgress: stale progress " + num(v) + " (last " + num(last) + ") resets the idle clock; a stuck server keeps the request alive."
	case ignoreValid:
		return false, "Policy ignoreProgress: valid progress " + num(v) + " does not reset request " + id + "'s idle clock; the idle timeout runs on from the last reset (leehack/mcp_dart#106)."
	case d.ProgressResetsMax:
		return true, "Progress " + num(v) + " resets request " + id + "'s idle clock and, by policy progressResetsMax, its maximum deadline too."
	}
	what, tail := " resets request ", "'s idle clock"
	if d.IdleMs <= 0 {
		what, tail = " is activity for request ", ", which has no idle timeout to reset"
		if d.MaxMs <= 0 {
			tail = ", which has no idle or maximum timeout: no clock to reset"
		}
	}
	if d.MaxMs > 0 {
		tail += "; the maximum deadline stays"
	}
	return true, "Progress " + num(v) + what + id + tail + "."
}

// CancelNote says how the client cancels request id (DOMAIN.md §1): on
// Streamable HTTP with closeStream by closing the response stream (under
// 2025-11-25, is2025, that is no cancellation); otherwise with
// notifications/cancelled, which under 2026-07-28 HTTP the server does
// not take as one.
func CancelNote(id string, http, is2025, closeStream bool) string {
	switch {
	case http && closeStream && is2025:
		return "The client closes request " + id + "'s stream; under 2025-11-25 a disconnect is not a cancellation."
	case http && closeStream:
		return "The client cancels request " + id + " by closing its SSE response stream; no notification is sent."
	case http && is2025:
		return "The client POSTs notifications/cancelled for request " + id + "."
	case http:
		return "The client POSTs notifications/cancelled for request " + id + ". Under 2026-07-28 the signal is closing the stream; the server will not take this as a cancellation."
	}
	return "The client cancels request " + id + " with notifications/cancelled (fire-and-forget: no response will come)."
}

// DisconnectNote says what closing request id's response stream means
// (DOMAIN.md §1) when the network drops it or, byProxy, an idle-closing
// proxy closes it: under 2026-07-28 a cancellation, under 2025-11-25
// (is2025) not one.
func DisconnectNote(id string, byProxy, is2025 bool) string {
	who := "The network drops"
	if byProxy {
		who = "The proxy closes"
	}
	if is2025 {
		return who + " request " + id + "'s response stream. Under 2025-11-25 that is not a cancellation: the client may resume with Last-Event-ID."
	}
	return who + " request " + id + "'s response stream. Under 2026-07-28 that is a cancellation."
}
