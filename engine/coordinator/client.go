package coordinator

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/trace"
)

// Transport is what the transport, the protocol version and the client's
// policy make of a cancellation (DOMAIN.md §1): HTTP is Streamable HTTP
// (else stdio), Is2025 protocol 2025-11-25 (else 2026-07-28), CloseStream
// the client cancelling by closing the response stream
// (client.policy.httpCancel "close-stream").
type Transport struct {
	HTTP, Is2025, CloseStream bool
}

// Client is the client half of one request (DOMAIN.md §1–3), a value in
// the style of Request: its Outcome (trace.Outcome*, pending until it
// ends), when it ended (EndedAt, ms), why (Cause, trace.Cause*), the
// Reason it sent and the Signal that carried the cancellation
// (trace.Signal*, "" for none), whether the client still reads its HTTP
// response stream (Reading) and its two Deadlines.
//
// Each move is handed the virtual time and the request's id as notes say
// it, changes the half and returns what the runner does next: the event
// that tells it (without ID: the runner sets it), or the signal to send.
type Client struct {
	Outcome   string
	EndedAt   *int64
	Cause     string
	Reason    *string
	Signal    string
	Reading   bool
	Deadlines Deadlines
}

// NewClient is a request the client sends at now under deadlines d; it
// reads a response stream when reading (Streamable HTTP).
func NewClient(d Deadlines, reading bool) Client {
	return Client{Outcome: trace.OutcomePending, Reading: reading, Deadlines: d}
}

// Pending reports whether the client still waits for the request.
func (c *Client) Pending() bool { return c.Outcome == trace.OutcomePending }

// End ends the request at now with outcome (trace.Outcome*) and, when not
// "", cause.
func (c *Client) End(now int64, outcome, cause string) {
	c.Outcome, c.EndedAt = outcome, &now
	if cause != "" {
		c.Cause = cause
	}
}

// Timeout is the client's deadline timer firing at now (DOMAIN.md §2):
// due false when the request has ended or no deadline is due; else which
// deadline, and the timeout event. An idle timeout on a request that
// carried no progress token (hasToken false) says why nothing could have
// reset its clock (claude-code#58687).
func (c *Client) Timeout(now int64, hasToken bool) (cause Cause, e trace.Event, due bool) {
	cause, due = c.Deadlines.Due(now)
	if !due || !c.Pending() {
		return "", e, false
	}
	note := c.Deadlines.TimeoutNote(cause, now)
	if cause == IdleTimeout && !hasToken {
		note += " The request carried no progressToken: the client never asked for progress, so nothing the server could send would reset this clock."
	}
	return cause, trace.Event{Actor: trace.ActorClient, Type: trace.TypeTimeout, Cause: string(cause), Note: note}, true
}

// Cancel is the client abandoning request id (method) at now for cause
// with reason (DOMAIN.md §1). ended reports whether it abandoned it (its
// deadlines then stop). signal is how the cancellation travels:
// trace.SignalCloseStream (close the response stream),
// trace.SignalNotification (send notifications/cancelled), or "" when
// nothing is sent: the request has already ended, or it is a 2025-11-25
// initialize, which is never cancelled (a deadline still ends the wait,
// silently). note goes with the signal, or is the client's ignore note.
func (c *Client) Cancel(now int64, id, method, cause string, reason *string, t Transport) (signal, note string, ended bool) {
	initialize := t.Is2025 && method == "initialize"
	switch {
	case !c.Pending():
		return "", fmt.Sprintf("Request %s is already %s at the client; there is nothing to cancel.", id, trace.OutcomeWord(c.Outcome)), false
	case initialize && cause == trace.CauseClient:
		return "", "Under 2025-11-25 initialize must never be cancelled: the client sends no cancellation and keeps waiting.", false
	}
	c.End(now, trace.OutcomeAbandoned, cause)
	c.Reason = reason
	switch {
	case initialize:
		return "", "Under 2025-11-25 initialize must never be cancelled: the client stops waiting but sends no cancellation.", true
	case t.HTTP && t.CloseStream:
		c.Signal, c.Reading = trace.SignalCloseStream, false
		return c.Signal, CancelNote(id, true, t.Is2025, true), true
	}
	c.Signal = trace.SignalNotification
	return c.Signal, CancelNote(id, t.HTTP, t.Is2025, false), true
}

// Disconnect is request id's response stream closing under the client at
// now, by the network or (byProxy) an idle-closing proxy (DOMAIN.md §1):
// ok false when the client no longer read it (note is then the ignore
// note); else the note of the close, and ended when that abandoned the
// request (under 2026-07-28 a disconnect is a cancellation).
func (c *Client) Disconnect(now int64, id string, byProxy, is2025 bool) (note string, ok, ended bool) {
	if !c.Reading {
		return fmt.Sprintf("Request %s's stream is already closed.", id), false, false
	}
	c.Reading = false
	if ended = !is2025 && c.Pending(); ended {
		c.End(now, trace.OutcomeAbandoned, trace.CauseDisconnect)
		c.Signal = trace.SignalCloseStream
	}
	return DisconnectNote(id, byProxy, is2025), true, ended
}

// Response is request id's final response (failed: an error) reaching the
// client at now: a pending request ends with it (accept; the response
// also ends its HTTP stream); a second response is ignored; late is true
// for a response to an abandoned request, which a tolerant client ignores
// (the event) and a strict one treats as a protocol error.
func (c *Client) Response(now int64, id string, failed bool) (e trace.Event, late bool) {
	e = trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore}
	switch c.Outcome {
	case trace.OutcomeAbandoned:
		e.Note = fmt.Sprintf("A late response for abandoned request %s: the client ignores it.", id)
		return e, true
	case trace.OutcomePending:
		outcome := trace.OutcomeResult
		if failed {
			outcome = trace.OutcomeError
		}
		c.End(now, outcome, "")
		c.Reading = false
		e.Type, e.Note = trace.TypeAccept, fmt.Sprintf("The client receives request %s's response and stops waiting.", id)
		return e, false
	}
	e.Note = fmt.Sprintf("A second response for request %s; ignored.", id)
	return e, false
}

// LateProgress is the ignore event of progress value v (as JSON writes
// it) for request id, which the client has already ended.
func (c *Client) LateProgress(id, v string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: fmt.Sprintf("Progress %s for request %s, which the client has %s; ignored.", v, id, trace.OutcomeWord(c.Outcome))}
}

// TearDown is the session request id was in flight on being torn down at
// now (failure late-message-fatal): a pending request fails with cause
// session-teardown (ok; e its error event) and, when the client still
// read its stream, closes it (closeStream).
func (c *Client) TearDown(now int64, id string) (e trace.Event, closeStream, ok bool) {
	if !c.Pending() {
		return e, false, false
	}
	c.End(now, trace.OutcomeError, trace.CauseSessionTeardown)
	if closeStream = c.Reading; closeStream {
		c.Reading, c.Signal = false, trace.SignalCloseStream
	}
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Cause: trace.CauseSessionTeardown,
		Note: fmt.Sprintf("Request %s fails: the session it was in flight on was torn down. The server was not at fault.", id)}, closeStream, true
}
