package recovery

import (
	"encoding/json"

	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// Listen is one subscriptions/listen stream at both ends (DOMAIN.md §9):
// its Filter, whether the server still sends on it (Serving) and the
// client still reads it (Reading), and what the server sent on it, in
// order (a message's 1-based index is its 2025-11-25 SSE event id), of
// which the client received the first delivered. A listen stream is
// long-lived: the client's request timeouts do not apply to it.
//
// Each move takes the stream's id as notes say it and returns the event
// that tells it (without ID: the runner sets it).
type Listen struct {
	Filter           json.RawMessage
	Serving, Reading bool
	// Pipe: the stream is 2025-11-25's on stdio, the server's stdout
	// (PipeOpens): resources/subscribe opened it, its notifications carry
	// no subscription id, and it cannot drop, end or be cancelled
	// (PipeUnhappening).
	Pipe bool

	sent      []json.RawMessage
	delivered int
}

// NewListen is a stream the client opens with filter.
func NewListen(filter json.RawMessage) *Listen { return &Listen{Filter: filter, Reading: true} }

// Params are the listen request's params, {"notifications":<filter>}, which
// its acknowledgement repeats.
func (l *Listen) Params() json.RawMessage {
	b, _ := json.Marshal(struct {
		Notifications json.RawMessage `json:"notifications"`
	}{l.Filter}) // a decoded filter always encodes
	return b
}

// Send records msg as put on the stream by the server.
func (l *Listen) Send(msg json.RawMessage) { l.sent = append(l.sent, msg) }

// Arrive is msg of stream id reaching the client, which counts it: the
// client's event, an ignore once it no longer reads the stream, else the
// application of the message (the acknowledgement puts its filter in
// force; anything else is keyed by stable ids, so a repeat is harmless).
func (l *Listen) Arrive(id string, msg json.RawMessage) trace.Event {
	l.delivered++
	e := trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: "Listen stream " + id + " is closed at the client; ignored."}
	if !l.Reading {
		return e
	}
	m, _ := jsonrpc.Parse(msg)
	e.Type, e.Note = trace.TypeAccept, "The client applies "+m.Method+" from listen stream "+id+"; application state is keyed by stable ids, so a repeat is harmless."
	if m.Method == jsonrpc.MethodAcknowledged {
		e.Note = "Listen stream " + id + " is acknowledged; the client's filter is in force."
	}
	return e
}

// Notify is the server's decision on sending notification method with
// params on stream id (l nil: no such listen stream): ok, or the
// suppression saying why not (the stream is not open at the server, or
// its filter does not admit it; Admits).
func (l *Listen) Notify(id, method string, params json.RawMessage) (e trace.Event, ok bool) {
	e = trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress}
	switch {
	case l == nil || !l.Serving:
		e.Note = "Listen stream " + id + " is not open at the server: " + method + " is not sent."
	case !Admits(l.Filter, method, params):
		e.Note = method + " is not in listen stream " + id + "'s filter: not sent."
	default:
		return e, true
	}
	return e, false
}

// End is the server ending stream id gracefully (l nil: request id is no
// listen stream): ok, the server no longer sending on it, or the ignore
// event when it was not open.
func (l *Listen) End(id string) (e trace.Event, ok bool) {
	if l == nil || !l.Serving {
		return trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Note: "Request " + id + " is not an open listen stream; nothing to end."}, false
	}
	l.Serving = false
	return e, true
}

// StopReading is the client no longer reading streams ls (a nil one: none),
// as when it tears its session down: what still arrives on them is
// ignored (Arrive).
func StopReading(ls ...*Listen) {
	for _, l := range ls {
		if l != nil {
			l.Reading = false
		}
	}
}

// Drop is the transport under stream id breaking: ok, both ends losing it,
// or the network's ignore event when the client no longer read it (l nil:
// request id is no listen stream, which on stdio has no stream of its own,
// NothingDrops).
func (l *Listen) Drop(id string) (e trace.Event, ok bool) {
	if l == nil {
		return NothingDrops(id), false
	}
	if !l.Reading {
		return trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeIgnore, Note: "Listen stream " + id + " is already closed."}, false
	}
	l.Reading, l.Serving = false, false
	return e, true
}

// Resume is the client reconnecting stream id with its position as
// Last-Event-ID (last: how many messages it received): the reconnect
// event, and the messages sent after that position, which a 2025-11-25
// server (is2025) replays (Resumed); under 2026-07-28 the client does so
// only by policy sendLastEventId and refetches nothing, and the server
// keeps no event ids (StaleResume).
func (l *Listen) Resume(id string, is2025 bool) (e trace.Event, last string, missed []json.RawMessage) {
	last = strconv.Itoa(l.delivered)
	e = trace.Event{Actor: trace.ActorClient, Type: trace.TypeReconnect, Headers: map[string]string{"Last-Event-ID": last}}
	if !is2025 {
		e.Note = "Policy sendLastEventId: the client tries to resume stream " + id + " with Last-Event-ID: " + last + " and refetches nothing."
		return e, last, nil
	}
	e.Note = "Under 2025-11-25 the client resumes stream " + id + " with GET and Last-Event-ID: " + last + "."
	return e, last, append([]json.RawMessage(nil), l.sent[l.delivered:]...)
}

// Resumed is a 2025-11-25 server resuming stream id after event last and
// replaying n missed messages (Resume): both ends use the stream again,
// its record is cut back to what the client received (the replays are
// sent anew), and the event is the server's status.
func (l *Listen) Resumed(id, last string, n int) trace.Event {
	l.Serving, l.Reading = true, true
	l.sent = l.sent[:l.delivered]
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus,
		Note: "The server resumes stream " + id + " after event " + last + " and replays " + strconv.Itoa(n) + " missed event(s) of that stream only."}
}

// StaleResume is a 2026-07-28 server's answer to Last-Event-ID: it keeps no
// event ids, so it ignores the header, and the client holds stale state.
func StaleResume() trace.Event {
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore,
		Note: "Under 2026-07-28 there are no event ids: the server ignores Last-Event-ID and keeps no state to resume from. The client now holds stale state."}
}
