package coordinator

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
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
// response stream (Reading), its two Deadlines, and CancelledLate: the
// client decided to cancel after the request had ended for it (its answer
// came first, so nothing was sent; the race's outcome is still decided).
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
	// Retries counts the retries the retry policy made of the call this
	// request is (PlanRetry's done, on the call a call step sent).
	Retries int
	// retryDecided: the retry policy has decided on the request
	// (PlanRetry); heard: its stream delivered an SSE event; held: the
	// cancellation waiting for one, heldReading what it leaves (HoldCancel).
	retryDecided, heard, heldReading bool
	held                             func()
	// CancelledLate: a cancellation the client decided on after the
	// request had ended for it.
	CancelledLate bool
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
// reset its clock (anthropics/claude-code#58687).
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
		c.CancelledLate = true
		return "", "Request " + id + " is already " + trace.OutcomeWord(c.Outcome) + " at the client; there is nothing to cancel.", false
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
		return "Request " + id + "'s stream is already closed.", false, false
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
// also ends its HTTP stream); a second response is ignored; a response to
// an abandoned request is late: a tolerant client ignores it (the event),
// a strict one (lateIsError: client.policy lateResponseIsError, failure
// late-message-fatal) treats it as a protocol error, and fatal says what
// it tears the session down over.
func (c *Client) Response(now int64, id string, failed, lateIsError bool) (e trace.Event, fatal string) {
	e = trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore}
	switch c.Outcome {
	case trace.OutcomeAbandoned:
		if lateIsError {
			return e, "the late response for abandoned request " + id
		}
		e.Note = "A late response for abandoned request " + id + ": the client ignores it."
		return e, ""
	case trace.OutcomePending:
		outcome := trace.OutcomeResult
		if failed {
			outcome = trace.OutcomeError
		}
		c.End(now, outcome, "")
		c.Reading = false
		e.Type, e.Note = trace.TypeAccept, "The client receives request "+id+"'s response and stops waiting."
		return e, ""
	}
	e.Note = "A second response for request " + id + "; ignored."
	return e, ""
}

// Lost is request id failing for its client at now with its session's
// 404 when the client does not initialize again
// (client.policy.reinitializeOnNotFound false;
// anthropics/claude-code#83404): no response came, the 404 is the
// failure; the client stops waiting (alarm, its deadline, stops) and
// re-issues nothing. e is the client's error event (none for a request
// the client already ended).
func (c *Client) Lost(now int64, id string, alarm *Alarm) (e trace.Event) {
	e = trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: "The 404 for request " + id + ", which the client has " + trace.OutcomeWord(c.Outcome) + "; ignored."}
	if !c.Pending() {
		return e
	}
	c.End(now, trace.OutcomeError, "")
	c.Reading = false
	alarm.Stop()
	e.Type, e.Status = trace.TypeError, "404"
	e.Note = "Request " + id + " fails for its client with the 404: no response came, its session is gone, and the work in flight is lost."
	return e
}

// LateProgress is the ignore event of progress value v (as JSON writes
// it) for request id, which the client has already ended.
func (c *Client) LateProgress(id, v string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: "Progress " + v + " for request " + id + ", which the client has " + trace.OutcomeWord(c.Outcome) + "; ignored."}
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
		Note: "Request " + id + " fails: the session it was in flight on was torn down. The server was not at fault."}, closeStream, true
}

// Deliver is a server message sent at sentAt reaching the client's end of
// request id's stream at now (comment: an SSE keep-alive comment), and the
// network's event (type deliver or drop, without wire, ends or message).
// arrive reports whether the client acts on it: a message reaches it; a
// keep-alive comment reaches it but is not progress; on Streamable HTTP,
// anything on a stream the client no longer reads is lost (under
// 2025-11-25 the client may resume the stream with Last-Event-ID).
func (c *Client) Deliver(now, sentAt int64, id string, comment bool, t Transport) (e trace.Event, arrive bool) {
	e = trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDeliver, From: trace.ActorServer, To: trace.ActorClient, SentAt: &sentAt}
	if comment {
		e.Signal = trace.SignalKeepalive
	}
	switch {
	case t.HTTP && !c.Reading && t.Is2025:
		e.Type, e.Note = trace.TypeDrop, "Request "+id+"'s stream is closed: the message does not reach the client (under 2025-11-25 a client may resume the stream with Last-Event-ID)."
	case t.HTTP && !c.Reading && comment:
		e.Type, e.Note = trace.TypeDrop, "The stream is closed; the comment is lost."
	case t.HTTP && !c.Reading:
		e.Type, e.Note = trace.TypeDrop, "Request "+id+"'s stream is closed: the message is lost."
	case comment:
		e.Note = "A keep-alive comment reaches the client; its idle timeout is not reset."
	default:
		e.Note = "Delivered to the client after " + strconv.FormatInt(now-sentAt, 10) + " ms."
		return e, true
	}
	return e, false
}

// ClientIgnores is the client's ignore event for a raw message from the server
// that it does not act on (DOMAIN.md §1, §3): not JSON-RPC at all (peer
// false: the message is not repeated), a server-sent notifications/cancelled
// that targets no listen stream (the one cancellation a server may send),
// progress for no known token, or anything else.
func ClientIgnores(msg json.RawMessage, m jsonrpc.Message, peer bool) trace.Event {
	e := trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Message: msg, Note: "The client does not act on this message."}
	switch {
	case !peer:
		e.Message, e.Note = nil, "Not a JSON-RPC message; the client ignores it."
	case m.Method == jsonrpc.MethodCancelled:
		e.Note = "A server-sent notifications/cancelled is reserved for tearing down a subscriptions/listen stream; this one targets no listen stream, so the client ignores it."
	case m.Method == jsonrpc.MethodProgress:
		e.Note = "Progress for no known token; the client ignores it."
	}
	return e
}

// Timeouts picks a request's two clocks (DOMAIN.md §2; ms, 0 = off): the
// client's idle and max, or, for a retry, those of the request it retries
// (inherit, when not nil), each overridden by the step's own (stepIdle,
// stepMax, when not nil). none is the broken client of anthropics/claude-code#69593
// (client.policy.timeouts "none"; failure no-timeout): no idle and no
// maximum timeout, whatever the scenario asked for.
func Timeouts(idle, max int64, inherit *Deadlines, stepIdle, stepMax *int64, none bool) (int64, int64) {
	if none {
		return 0, 0
	}
	if inherit != nil {
		idle, max = inherit.IdleMs, inherit.MaxMs
	}
	if stepIdle != nil {
		idle = *stepIdle
	}
	if stepMax != nil {
		max = *stepMax
	}
	return idle, max
}

// Dropped is the transport under a listen stream breaking at now for both
// halves (DOMAIN.md §9): neither end uses the stream any more; under
// 2026-07-28 the request is abandoned by a disconnect and cancelled at the
// server, while under 2025-11-25 (is2025) it is resumed under its own id,
// so it stays open, neither cancelled nor abandoned.
func Dropped(c *Client, s *Server, now int64, is2025 bool) {
	c.Reading, s.Writing = false, false
	if !is2025 {
		c.End(now, trace.OutcomeAbandoned, trace.CauseDisconnect)
		s.Cancel(now)
	}
}
