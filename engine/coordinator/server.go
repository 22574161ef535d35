package coordinator

import (
	"encoding/json"

	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// Server is the server half of one request (DOMAIN.md §1): the Request
// (its one terminal state), whether it has arrived, whether its handler
// stopped at a checkpoint (Stopped), whether the server
// still writes its HTTP response stream (Writing), and Sent, the final
// message the server put on the wire (requests[].response: nil when none
// did, or it was lost before the wire).
//
// Each move is handed the virtual time and the request's id as notes say
// it, and returns the event that tells it (without ID: the runner sets it).
type Server struct {
	Request
	Arrived bool
	Writing bool
	Sent    json.RawMessage
	// Stopped reports that the request's handler returned after its
	// cancellation: at the checkpoint that observed it (package handler),
	// or at its completion, suppressed. Nothing of its can happen any
	// more.
	Stopped bool
	// Rerouted reports that a duplicate of the request took over its route
	// (Duplicate, server.policy.routeByIdOnly): its answer goes on the
	// duplicate's stream.
	Rerouted bool
	// WastedMs is the handler's work after its request's cancellation
	// reached the server (requests[].wastedWorkMs): until the checkpoint
	// that observed it, or, for a handler that reached its completion
	// anyway (a scripted completion, handlerIgnoresCancel), until then.
	WastedMs int64
}

// Policy is the server's known-broken switches that touch one request
// (server.policy): RespondAfterCancel (it still sends progress and the
// response after accepting a cancellation) and IgnoreDisconnect (it never
// observes a closed stream; failure disconnect-unobserved, modelcontextprotocol/rust-sdk#857)
// and HandlerIgnoresCancel (the handler swallows a cancellation and runs
// its side effect anyway; failure cancel-swallowed, hahwul/gori#1103).
type Policy struct {
	RespondAfterCancel, IgnoreDisconnect, HandlerIgnoresCancel bool
}

// NotArrived is the error event of a step acting (what: "Progress",
// "Completion") on request id before it reached the server; the step is
// skipped.
func NotArrived(id, what string) trace.Event {
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeError, Note: what + " step for request " + id + " before it reached the server; skipped."}
}

// ObserveCancel is the server observing a cancellation of request id at
// now, via a named signal, for cause (DOMAIN.md §1, the race): an ignore
// event when the request has not arrived or has already ended (a late
// cancellation: nothing is sent); else the request is cancelled
// (cancelled true) and the event is its status change, its note ending
// with fate, what the request's handler does about it (handler.Server's
// Fate; "" for no handler: nothing more is sent).
func (s *Server) ObserveCancel(now int64, id, cause, via, fate string) (e trace.Event, cancelled bool) {
	e = trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore}
	switch {
	case !s.Arrived:
		e.Note = "Cancellation (" + via + ") for request " + id + ", which the server has not received; ignored."
	case !s.Cancel(now):
		e.Note = "Late cancellation (" + via + "): request " + id + " already " + string(s.State()) + "; the server ignores it and sends nothing."
	default:
		e.Type, e.Status, e.Cause = trace.TypeStatus, trace.StateCancelled, cause
		if fate == "" {
			fate = "nothing more is sent for it."
		}
		e.Note = "The server observes the cancellation (" + via + "): request " + id + " is cancelled; " + fate
		return e, true
	}
	return e, false
}

// SeesClose is the server seeing request id's response stream close
// (DOMAIN.md §1): cancel true when that is a cancellation to observe
// (ObserveCancel, via "stream close"); else the ignore event saying why it
// is not: the server ignores disconnects (p.IgnoreDisconnect, under
// 2026-07-28), or under 2025-11-25 (is2025) a disconnect is no
// cancellation. Unless ignored, the server stops writing.
func (s *Server) SeesClose(id string, p Policy, is2025 bool) (e trace.Event, cancel bool) {
	e = trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore}
	if p.IgnoreDisconnect && !is2025 {
		e.Note = "Policy ignoreDisconnect: the server never observes request " + id + "'s stream closing; the handler runs on, its side effects happen and its writes go into the closed stream (modelcontextprotocol/rust-sdk#857)."
		return e, false
	}
	s.Writing = false
	if is2025 {
		e.Note = "Under 2025-11-25 a disconnect is not a cancellation: the handler keeps running."
		return e, false
	}
	return e, true
}

// Runs reports whether the handler's completion reaches its side effect:
// the request is in progress, or cancelled under p.RespondAfterCancel or
// p.HandlerIgnoresCancel (a handler that never observed the cancellation
// commits), unless the handler stopped at a checkpoint (Stopped: what
// goes out then is its error, not its side effect).
func (s *Server) Runs(p Policy) bool {
	st := s.State()
	return st == InProgress || st == Cancelled && !s.Stopped && (p.RespondAfterCancel || p.HandlerIgnoresCancel)
}

// Finish is the handler completing request id at now with msg, the
// message it built (failed: an error, with code), under p (DOMAIN.md §1,
// the race: Request.Complete decides). send true: s.Sent is what goes on
// the wire and e.Note the note of that send (a commit, a failure with
// code, the ledger's outcome when ledger, or, after a cancellation, the
// policy respondAfterCancel). send false: e is the suppression (cancelled
// first) or ignore event (a second completion), and nothing is sent.
func (s *Server) Finish(now int64, id string, msg json.RawMessage, failed bool, code int64, ledger bool, p Policy) (e trace.Event, send bool) {
	prev := s.State()
	if prev == Cancelled && s.WastedMs == 0 {
		s.WastedMs = now - s.At() // the handler worked on to its completion
	}
	resp, fresh := s.Complete(now, msg, failed)
	e = trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore}
	switch {
	case prev == Cancelled && !p.RespondAfterCancel:
		s.Stopped = true
		e.Type, e.Message = trace.TypeSuppress, msg
		e.Note = "The handler reaches completion, but request " + id + " was cancelled first: the response is suppressed."
		return e, false
	case prev == Cancelled && s.Sent != nil:
		e.Note = "Request " + id + " already has its one final response; a second completion sends nothing."
		return e, false
	case prev == Cancelled:
		resp = msg
	case !fresh:
		e.Note = "Request " + id + " already completed; a second completion returns the same stored response and sends nothing."
		return e, false
	}
	s.Sent = resp
	switch {
	case prev == Cancelled:
		e.Note = "Policy respondAfterCancel: the server sends a response for request " + id + " after accepting its cancellation."
	case ledger:
		e.Note = "The server sends request " + id + "'s ledger outcome."
	case failed:
		e.Note = "The server fails request " + id + " with error " + strconv.FormatInt(code, 10) + "."
	default:
		e.Note = "The server commits request " + id + "'s result and sends the response."
	}
	return e, true
}

// Answer completes request at now with msg (failed: an error) as a
// handler that always answers (a refetch, a tasks/* request, a race's
// reply) and returns what goes on the wire.
func (s *Server) Answer(now int64, msg json.RawMessage, failed bool) json.RawMessage {
	s.Sent, _ = s.Complete(now, msg, failed)
	return s.Sent
}

// SendsProgress is the server's decision on progress value v for this
// request (DOMAIN.md §3), idRaw its JSON-RPC id text and id as notes say
// it, p the values sent so far (Progress.Send; hasToken: the request
// carries a progress token; respondAfterCancel: server.policy's switch).
// A step acting before the request arrived is skipped (NotArrived).
// send false comes with the event that says why nothing is sent (that
// error, or a suppression); send true with the note of the message.
func (s *Server) SendsProgress(p *Progress, idRaw, id string, v float64, hasToken, respondAfterCancel bool) (e trace.Event, note string, send bool) {
	if !s.Arrived {
		return NotArrived(id, "Progress"), "", false
	}
	send, note = p.Send(idRaw, v, s.State(), hasToken, s.Sent != nil, respondAfterCancel)
	if !send {
		return trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, Note: note}, "", false
	}
	return e, note, true
}

// Lost forgets Sent when it is among lost, messages that will never reach
// the wire (dropped from a full SSE buffer, discarded at a cancellation,
// or kept back in the event store): requests[].response is only what the
// server actually put on the wire.
func (s *Server) Lost(lost []json.RawMessage) {
	for _, msg := range lost {
		if string(s.Sent) == string(msg) {
			s.Sent = nil
		}
	}
}

// Summary is a request's summary as far as its two halves know it
// (SCENARIO.md, requests[]): the server's state, the response it put
// on the wire and the handler's wasted work; the client's outcome, when it ended, cause, reason, signal
// (null when none) and deadlines. The runner adds which request it is.
func Summary(c *Client, s *Server) trace.Request {
	sum := trace.Request{State: string(s.State()), Response: s.Sent, ClientOutcome: c.Outcome, EndedAt: c.EndedAt, Reason: c.Reason,
		IdleTimeoutMs: c.Deadlines.IdleMs, MaxTimeoutMs: c.Deadlines.MaxMs, WastedWorkMs: s.WastedMs}
	if c.Cause != "" {
		cause := c.Cause
		sum.Cause = &cause
	}
	if c.Signal != "" {
		signal := c.Signal
		sum.Signal = &signal
	}
	return sum
}

// ReadCancel is the server's reading of a client's notifications/cancelled
// msg (DOMAIN.md §1), parsed as c (err: malformed). s is the targeted
// request's server half and method its method (nil and "" when the server
// knows no request by that id). ok: the server observes a cancellation of
// that request via the returned text (ObserveCancel). Else e is the ignore
// event, with no response ever sent: a malformed or unknown cancellation;
// on 2026-07-28 Streamable HTTP one that was POSTed (the signal there is
// the stream closing); a 2025-11-25 initialize, never cancelled. about
// reports whether e concerns the targeted request (the runner sets its id).
// gaveUp says whether the request's client has let it go (its Cause is
// set): a POST the client sent as its cancellation leaves the two sides
// disagreeing, while one a scenario sent raw changes nothing for either.
func ReadCancel(msg json.RawMessage, c jsonrpc.Cancellation, err error, s *Server, method string, t Transport, gaveUp bool) (via string, e trace.Event, about, ok bool) {
	e = trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Message: msg}
	switch {
	case err != nil:
		e.Note = "Ignored silently (" + err.Error() + "); no response."
		return "", e, false, false
	case s == nil || !s.Arrived:
		e.Note = "Cancellation for unknown request " + c.RequestID + "; ignored silently, no response."
		return "", e, false, false
	case t.HTTP && !t.Is2025:
		e.Note = "Under 2026-07-28 Streamable HTTP a cancellation is the stream closing; a POSTed notifications/cancelled does not cancel. Client and server now disagree on the request's life."
		if !gaveUp {
			e.Note = "Under 2026-07-28 Streamable HTTP a cancellation is the stream closing; a POSTed notifications/cancelled does not cancel; the client has not given this request up, so nothing changes for either side."
		}
		return "", e, true, false
	case t.Is2025 && method == "initialize":
		e.Note = "Under 2025-11-25 initialize is never cancelled; ignored."
		return "", e, true, false
	}
	via = "notifications/cancelled"
	if c.Reason == nil && c.ReasonPresent {
		via += ", whose non-string reason is treated as absent"
	}
	return via, e, true, true
}

// ServerIgnores is the server's ignore event for a raw message from the client
// that is no cancellation (DOMAIN.md §1): a notification it does not know
// (a malformed cancellation at best), or anything else it does not act on;
// either way no response.
func ServerIgnores(msg json.RawMessage, m jsonrpc.Message) trace.Event {
	note := "Not a JSON-RPC message the server acts on; ignored, no response."
	if m.Method != "" && !m.HasRealID() {
		note = "Unknown notification " + strconv.Quote(m.Method) + " (a malformed cancellation at best); ignored silently, no response."
	}
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Message: msg, Note: note}
}

// Start is request id arriving at the server, which starts handling it:
// the start event. On Streamable HTTP (headers not nil) the server also
// opens the request's SSE response stream with headers and writes to it;
// without X-Accel-Buffering: no (noBuffering false) a proxy may buffer it
// (DOMAIN.md §8).
func (s *Server) Start(id string, headers map[string]string, noBuffering bool) trace.Event {
	s.Arrived = true
	e := trace.Event{Actor: trace.ActorServer, Type: trace.TypeStart, Note: "The server starts handling request " + id + "."}
	if headers != nil {
		s.Writing, e.Headers = true, headers
		e.Note = "The server starts request " + id + " and opens its SSE response stream."
		if !noBuffering {
			e.Note += " Without X-Accel-Buffering: no, a proxy may buffer it."
		}
	}
	return e
}
