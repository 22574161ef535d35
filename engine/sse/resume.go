package sse

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// What a 2025-11-25 server's resumable streams say on the wire (DOMAIN.md
// §9; 2025-11-25 Streamable HTTP, "Resumability and Redelivery"): the
// priming event, an event kept for replay while its stream is closed, and
// a replayed event. EventStore keeps the events; these build the messages
// and notes the runner emits.

// Housekeeping reports whether m is a keep-alive comment: its delivery
// must not keep a simulation running, or comments would beget comments
// forever (DOMAIN.md §8).
func (m Msg) Housekeeping() bool { return m.Comment != "" }

// SendEvent is the server's send event for m on request id's stream as
// wire message wire: a send, a keep-alive comment (no message) or a
// priming event (an id with empty data).
func (m Msg) SendEvent(id *scenario.ID, wire int) trace.Event {
	e := trace.Event{Actor: trace.ActorServer, Type: trace.TypeSend, ID: id, From: trace.ActorServer, To: trace.ActorClient, Wire: wire, EventID: m.EventID, Message: m.Msg, Note: m.Note}
	switch {
	case m.Housekeeping():
		e.Type, e.Message = trace.TypeKeepalive, nil
	case m.Priming:
		e.Type = trace.TypePrime
	}
	return e
}

// Priming is the priming event of request id's stream under event id
// eventID: an SSE event with an id and empty data, so the client can
// resume the stream before any message arrives (2025-11-25 Streamable
// HTTP: the server SHOULD send it first).
func Priming(id, eventID string) Msg {
	return Msg{Priming: true, EventID: eventID, Note: "The server primes request " + id + "'s stream with an SSE event that carries only its id (" + eventID + ") and empty data, so the client can resume the stream with Last-Event-ID."}
}

// Prime writes the priming event of a new response stream into store and
// returns it (2025-11-25 Streamable HTTP: the server SHOULD send it first):
// an SSE event with an id and empty data, so the client can resume the
// stream before any message arrives. stream is the JSON-RPC id text of
// its request, name as notes say it, method its method. Only a tools/call
// stream is primed (ok), the one that stays open while work runs: a
// listen stream's acknowledgement is its first event, and the quick reads
// (tasks/get, refetches) are answered at once.
func Prime(store *EventStore[Msg], stream, name, method string) (m Msg, ok bool) {
	if method != "tools/call" {
		return m, false
	}
	return Priming(name, store.Append(stream, Msg{Priming: true})), true
}

// PrimedNote says that stream id's priming event (event eventID) reached
// the client afterMs ms after it was sent: its resume position.
func PrimedNote(id, eventID string, afterMs int64) string {
	return "The priming event reaches the client after " + strconv.FormatInt(afterMs, 10) + " ms: its resume position on stream " + id + " is event " + eventID + "."
}

// Keep is a 2025-11-25 server writing *m on the stream of the request
// whose JSON-RPC id text is stream (name as notes say it; DOMAIN.md §9):
// *m gets the next event id of the session (EventStore.Append) and is kept
// in store for a resumption to replay. A keep-alive comment is not stored.
// When the stream is closed at the server (closed: it saw the drop), *m
// goes only into the store: Keep returns the event that says so (Kept,
// without ID) and the final response it holds back from the wire;
// otherwise nil, and the caller sends *m on. Only resumable streams
// (Streamable HTTP under 2025-11-25, on) carry event ids: on others Keep
// does nothing.
func Keep(on bool, store *EventStore[Msg], m *Msg, stream, name string, closed bool) (events []trace.Event, lost []json.RawMessage) {
	if !on || m.Comment != "" {
		return nil, nil
	}
	m.EventID = store.Append(stream, *m)
	if !closed {
		return nil, nil
	}
	e, lost := Kept(name, *m)
	return []trace.Event{e}, lost
}

// Kept is m written while request id's stream is closed at the server (it
// saw the drop): the enqueue event that tells it goes only into the event
// store, for a resumption to replay, and the final response it holds back
// from the wire (requests[].response is only what reached the wire).
func Kept(id string, m Msg) (trace.Event, []json.RawMessage) {
	var lost []json.RawMessage
	if m.Final {
		lost = append(lost, m.Msg)
	}
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeEnqueue, EventID: m.EventID, Message: m.Msg,
		Note: "Request " + id + "'s stream is closed: the server keeps this event (id " + m.EventID + ") in its event store for the client to resume."}, lost
}

// Replay is the server's answer to a GET with Last-Event-ID lastID (""
// for none) that resumes stream, the JSON-RPC id text of its request
// (name as notes say it), under server.policy replayAllStreams
// (allStreams; EventStore.After): ok, the events to send again, oldest
// first, each Replayed, and the status event that says so; or not ok and
// the server's ignore event (EventStore.Resume says why). The events
// carry no ID: the caller sets it.
func Replay(store *EventStore[Msg], lastID, stream, name string, allStreams bool) (missed []StoredEvent[Msg], e trace.Event, ok bool) {
	missed, why, ok := store.Resume(lastID, stream, name, allStreams)
	if !ok {
		return nil, trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Note: why}, false
	}
	for i := range missed {
		missed[i].Data = Replayed(missed[i], lastID)
	}
	return missed, trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, Note: ReplayNote(name, lastID, len(missed), allStreams)}, true
}

// ReplayUnder is Replay under server.policy: replayAllStreams
// (allStreams) and replayNothing (nothing: ReplayNothing's answer in place
// of a replay that would succeed).
func ReplayUnder(store *EventStore[Msg], lastID, stream, name string, allStreams, nothing bool) (missed []StoredEvent[Msg], e trace.Event, ok bool) {
	missed, e, ok = Replay(store, lastID, stream, name, allStreams)
	if ok && nothing {
		missed, e = ReplayNothing(name, lastID, len(missed))
	}
	return missed, e, ok
}

// ReplayNothing is Replay's answer under server.policy.replayNothing
// (modelcontextprotocol/typescript-sdk#943): the event store cannot map
// Last-Event-ID lastID to stream name's events, so the n events missed
// are not replayed; the stream re-attaches with nothing.
func ReplayNothing(name, lastID string, n int) ([]StoredEvent[Msg], trace.Event) {
	return nil, trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus,
		Note: "Policy replayNothing: the server cannot map Last-Event-ID " + lastID + " to stream " + name + ", so it resumes the stream and replays none of the " + strconv.Itoa(n) + " event(s) the client missed (modelcontextprotocol/typescript-sdk#943)."}
}

// ReplayNote says what the server does on a GET with Last-Event-ID token
// for stream id: it replays n events, of that stream only or, with
// allStreams (modelcontextprotocol/servers#4087), of every stream.
func ReplayNote(id, token string, n int, allStreams bool) string {
	if allStreams {
		return "Policy replayAllStreams: the server resumes stream " + id + " after event " + token + " and replays " + strconv.Itoa(n) + " event(s) written after it on every stream of the session, not only that stream's (modelcontextprotocol/servers#4087)."
	}
	return "The server resumes stream " + id + " after event " + token + " and replays " + strconv.Itoa(n) + " missed event(s) of that stream only."
}

// Replayed is stored event ev sent again after Last-Event-ID lastID, with
// its event id and the note that says so.
func Replayed(ev StoredEvent[Msg], lastID string) Msg {
	m := ev.Data
	m.EventID = ev.ID
	m.Note = "Replayed after Last-Event-ID " + lastID + ": event " + ev.ID + " of stream " + jsonrpc.Unquote(ev.Stream) + "."
	return m
}

// MsgOf is JSON-RPC message msg sent with note, arrive running when it
// reaches the client: a Msg that knows whether msg is final or a
// notifications/progress (and its token), so nothing downstream parses it
// again. A listen stream may carry progress too (a notify step).
func MsgOf(msg json.RawMessage, note string, arrive func()) Msg {
	m, _ := jsonrpc.Parse(msg)
	return Msg{Msg: msg, Note: note, Arrive: arrive, Final: m.IsFinal(), Progress: m.Method == jsonrpc.MethodProgress, Token: m.ProgressToken}
}
