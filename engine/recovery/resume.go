package recovery

import "strconv"

// Resumption under 2025-11-25 (DOMAIN.md §9; SCENARIO.md, "Switches for
// the failures real software shows"): the server writes every SSE event of
// every stream into its event store (sse.EventStore) under an event id; a
// request's response stream opens with a priming event that carries only
// an id; the client keeps its position per stream (Cursor) and,
// when the network or a proxy drops a stream it still waits on, reconnects
// with GET and Last-Event-ID after the reference backoff; the server
// replays the events after it and re-attaches the stream, so the call
// completes instead of staying pending. client.policy.forgetResumeToken
// and server.policy.replayAllStreams break the two halves.

// Cursor is a 2025-11-25 client's resume position on one stream: the id of
// the last SSE event it received there, which it sends as Last-Event-ID
// when the stream drops and it reconnects with GET (DOMAIN.md §9;
// 2025-11-25 Streamable HTTP, "Resumability and Redelivery"). The zero
// value is a stream that has received nothing.
//
// Each connection of the stream tracks the ids it receives. The correct
// client seeds that tracker with the Last-Event-ID the connection was
// opened with, so a resumed stream that drops again before any new event
// arrives is resumed from the same position. The broken one of
// modelcontextprotocol/typescript-sdk#2499 (client.policy.forgetResumeToken; failure
// forget-resume-token) starts every connection's tracker empty: the second
// reconnect carries no Last-Event-ID, the server takes it for a new
// standalone stream and replays nothing, and the request hangs until its
// timeout.
type Cursor struct {
	seed string // the Last-Event-ID the current connection was opened with
	last string // the last event id received on the current connection
}

// Received records that event id reached the client on the stream.
func (c *Cursor) Received(id string) {
	if id != "" {
		c.last = id
	}
}

// Position returns the id of the last event the client received on the
// stream over all its connections, "" if none: what a correct client
// resumes from.
func (c *Cursor) Position() string {
	if c.last != "" {
		return c.last
	}
	return c.seed
}

// Reconnect returns the Last-Event-ID the client sends to resume the
// stream after its current connection dropped ("" for none) and opens the
// next connection with it. With forget (modelcontextprotocol/typescript-sdk#2499) a connection
// that received no event resumes without one, although the client had a
// position.
func (c *Cursor) Reconnect(forget bool) string {
	token := c.Position()
	if forget {
		token = c.last
	}
	c.seed, c.last = token, ""
	return token
}

// ResumeDelay is how long a client waits before it resumes a dropped
// stream, in ms: the reference backoff's first attempt for clientID
// (DOMAIN.md §10), as for a listen stream's reconnect. Under 2025-11-25 a
// client whose response stream the network or a proxy closed while it
// waits resumes it after this delay, from the position it holds when the
// stream drops.
func ResumeDelay(clientID string) int64 { return ReferenceDelay(clientID, 0) }

// ResumeNote says what the client does when it resumes stream id with
// Last-Event-ID token after a delayMs backoff ("" token: none, although
// it had position pos when forget lost it).
func ResumeNote(id, token, pos string, delayMs int64) string {
	if token == "" && pos != "" {
		return "Policy forgetResumeToken: after a " + strconv.FormatInt(delayMs, 10) + " ms backoff the client reconnects stream " + id + " with GET but no Last-Event-ID: the connection that dropped had received no new event, and the client did not keep the position (event " + pos + ") it had resumed from (modelcontextprotocol/typescript-sdk#2499)."
	}
	if token == "" {
		return "After a " + strconv.FormatInt(delayMs, 10) + " ms backoff the client reconnects stream " + id + " with GET; it received no event id there, so it has no Last-Event-ID to send."
	}
	return "Under 2025-11-25 the client resumes stream " + id + " after a " + strconv.FormatInt(delayMs, 10) + " ms backoff: GET with Last-Event-ID: " + token + ", the last event it received there."
}

// SentLastEventID is the Last-Event-ID a client sends when it resumes a
// stream whose connection dropped, "" for none, and opens the next
// connection with it (Cursor.Reconnect with forget). With omit, the broken
// client of modelcontextprotocol/inspector#723
// (client.policy.omitLastEventId; failure resume-without-last-event-id),
// the GET carries none at all, whatever position it holds: the server
// takes it for a new standalone stream and replays nothing.
func SentLastEventID(c *Cursor, forget, omit bool) string {
	token := c.Reconnect(forget)
	if omit {
		return ""
	}
	return token
}

// ReconnectNote is ResumeNote, or with omit the note of a client resuming
// stream id after a delayMs backoff with a GET that omits Last-Event-ID
// although it had position pos ("" for none;
// modelcontextprotocol/inspector#723).
func ReconnectNote(id, token, pos string, delayMs int64, omit bool) string {
	if !omit {
		return ResumeNote(id, token, pos, delayMs)
	}
	had := "it has received no event id there"
	if pos != "" {
		had = "although it received event " + pos + " there"
	}
	return "Policy omitLastEventId: after a " + strconv.FormatInt(delayMs, 10) + " ms backoff the client reconnects stream " + id + " with GET but sends no Last-Event-ID, " + had + ": the server cannot know what it missed (modelcontextprotocol/inspector#723)."
}
