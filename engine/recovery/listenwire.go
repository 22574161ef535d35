package recovery

import (
	"encoding/json"

	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// What a listen stream puts on the wire and says (DOMAIN.md §1, §9): its
// messages tagged with the subscription id, its acknowledgement, the notes
// of its opening, notifications and end, and the refetches after a
// reconnect. Ids are JSON-RPC id texts as the notes say them; idRaw is the
// id's JSON text.

// Tag tags a listen stream's params with its subscription id (idRaw, the
// stream's JSON-RPC id text) under _meta (jsonrpc.SubscriptionIDKey).
func Tag(params json.RawMessage, idRaw string) json.RawMessage {
	return jsonrpc.WithMeta(params, jsonrpc.SubscriptionIDKey, json.RawMessage(idRaw))
}

// OpenNote is the note of the client opening listen stream id with filter.
func OpenNote(id string, filter json.RawMessage) string {
	return "The client opens listen stream " + id + " with filter " + string(filter) + "."
}

// Ack is the server's acknowledgement of stream id (idRaw): the first
// message tagged with its subscription id, repeating the listen params,
// and its note.
func (l *Listen) Ack(idRaw, id string) (json.RawMessage, string) {
	return jsonrpc.NewNotification(jsonrpc.MethodAcknowledged, Tag(l.Params(), idRaw)),
		"The server acknowledges listen stream " + id + ": the acknowledgement is the first message tagged with its subscription id."
}

// NotifyNote is the note of the server sending method on listen stream id.
func NotifyNote(method, id string) string {
	return "The server sends " + method + " on listen stream " + id + "."
}

// EndNote is the note of the server ending listen stream id gracefully: on
// stdio with notifications/cancelled, the one cancellation a server may
// send; on Streamable HTTP (http) with its result, then the stream closes
// (DOMAIN.md §1).
func EndNote(id string, http bool) string {
	if http {
		return "The server ends listen stream " + id + " gracefully with its result; the stream then closes."
	}
	return "The server tears down listen stream " + id + " with notifications/cancelled: the one cancellation a server may send."
}

// Ended is the client seeing the server end stream id: it no longer reads
// it, does not reconnect, and accepts the end (its event).
func (l *Listen) Ended(id string) trace.Event {
	l.Reading = false
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeAccept, Note: "The server ended listen stream " + id + "; the client does not reconnect."}
}

// RefetchID is the request id of the n-th reconnect's k-th refetch
// (1-based): "refetch-<n>-<k>", fixed when the stream drops, so two drops
// within one backoff never share an id.
func RefetchID(n, k int) string {
	return "refetch-" + strconv.Itoa(n) + "-" + strconv.Itoa(k)
}

// Note is the note of the client sending f.
func (f Refetch) Note() string {
	return "The client refetches " + f.Of + " from the authoritative " + f.Method + "."
}

// Notification is the server sending notification method with params on
// listen stream id (l nil: no such stream): ok, the message tagged with
// the stream's subscription id (Tag) and its note (NotifyNote), or the
// suppression event, with its ID, saying why not (Notify).
func (l *Listen) Notification(id scenario.ID, method string, params json.RawMessage) (e trace.Event, msg json.RawMessage, note string, ok bool) {
	if e, ok = l.Notify(id.String(), method, params); !ok {
		e.ID = &id
		return e, nil, "", false
	}
	return e, jsonrpc.NewNotification(method, Tag(params, id.Raw())), NotifyNote(method, id.String()), true
}
