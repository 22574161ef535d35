package coordinator

import (
	"fmt"
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
		return false, fmt.Sprintf("Request %s has no progress token: progress %s is not sent.", id, num(v))
	case s == Completed || s == Failed || responded:
		return false, fmt.Sprintf("Request %s has finished: progress stops after the final response.", id)
	case s == Cancelled && !respondAfterCancel:
		return false, fmt.Sprintf("Request %s was cancelled: progress %s is suppressed.", id, num(v))
	}
	note = fmt.Sprintf("The server reports progress %s for request %s.", num(v), id)
	if inc, last, _ := p.Accept(id, v); !inc {
		note = fmt.Sprintf("The server sends progress %s after %s: progress must strictly increase (a protocol violation).", num(v), num(last))
	}
	if s == Cancelled {
		note = fmt.Sprintf("Policy respondAfterCancel: the server sends progress %s for request %s after accepting its cancellation.", num(v), id)
	}
	return true, note
}

// Arrive is the client's reading of progress value v for request id
// (DOMAIN.md §3): only a strictly increasing value is activity, which
// resets the idle clock (and, under resetsMax, the maximum). Under
// acceptNonIncreasing (a known-broken policy) a stale value is activity
// too; under ignoreValid (a known-broken policy, leehack/mcp_dart#106) a valid
// value is not. activity false comes with the note saying why it is
// ignored.
func (p *Progress) Arrive(id string, v float64, acceptNonIncreasing, ignoreValid, resetsMax bool) (activity bool, note string) {
	inc, last, _ := p.Accept(id, v)
	switch {
	case !inc && !acceptNonIncreasing:
		return false, fmt.Sprintf("Progress %s does not increase (last %s): a protocol violation; the idle clock is not reset.", num(v), num(last))
	case !inc:
		return true, fmt.Sprintf("Policy acceptNonIncreasingProgress: stale progress %s (last %s) resets the idle clock; a stuck server keeps the request alive.", num(v), num(last))
	case ignoreValid:
		return false, fmt.Sprintf("Policy ignoreProgress: valid progress %s does not reset request %s's idle clock; the idle timeout runs on from the last reset (leehack/mcp_dart#106).", num(v), id)
	case resetsMax:
		return true, fmt.Sprintf("Progress %s resets request %s's idle clock and, by policy progressResetsMax, its maximum deadline too.", num(v), id)
	}
	return true, fmt.Sprintf("Progress %s resets request %s's idle clock; the maximum deadline stays.", num(v), id)
}

// CancelNote says how the client cancels request id (DOMAIN.md §1): on
// Streamable HTTP with closeStream by closing the response stream (under
// 2025-11-25, is2025, that is no cancellation); otherwise with
// notifications/cancelled, which under 2026-07-28 HTTP the server does
// not take as one.
func CancelNote(id string, http, is2025, closeStream bool) string {
	switch {
	case http && closeStream && is2025:
		return fmt.Sprintf("The client closes request %s's stream; under 2025-11-25 a disconnect is not a cancellation.", id)
	case http && closeStream:
		return fmt.Sprintf("The client cancels request %s by closing its SSE response stream; no notification is sent.", id)
	case http && is2025:
		return fmt.Sprintf("The client POSTs notifications/cancelled for request %s.", id)
	case http:
		return fmt.Sprintf("The client POSTs notifications/cancelled for request %s. Under 2026-07-28 the signal is closing the stream; the server will not take this as a cancellation.", id)
	}
	return fmt.Sprintf("The client cancels request %s with notifications/cancelled (fire-and-forget: no response will come).", id)
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
		return fmt.Sprintf("%s request %s's response stream. Under 2025-11-25 that is not a cancellation: the client may resume with Last-Event-ID.", who, id)
	}
	return fmt.Sprintf("%s request %s's response stream. Under 2026-07-28 that is a cancellation.", who, id)
}
