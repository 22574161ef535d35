package recovery

import (
	"encoding/json"

	"strconv"

	"github.com/mcplab/mcplab/engine/coordinator"
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
	if f.Why != "" {
		return f.Why
	}
	return "The client refetches " + f.Of + " from the authoritative " + f.Method + "."
}

// AnswerNote is the note of the server answering f.
func (f Refetch) AnswerNote() string { return "The server answers " + f.Method + "." }

// Numbered gives the n-th reconnect's refetches their ids (RefetchID).
func Numbered(n int, fs []Refetch) []Refetch {
	for k := range fs {
		fs[k].ID = RefetchID(n, k+1)
	}
	return fs
}

// The listen stream of 2025-11-25 on Streamable HTTP (SCENARIO.md,
// "Sessions (2025-11-25)": listen is the GET stream plus
// resources/subscribe for each resource of its filter). There is no
// subscriptions/listen request, no acknowledgement and no subscription id
// there: the client opens the stream with an HTTP GET on the MCP endpoint
// (2025-11-25 Streamable HTTP, "Listening for Messages from the
// Server"), subscribes to each resource with resources/subscribe, which
// the server answers with an empty result (server/resources,
// "Subscriptions"), and notifications/resources/updated arrive on the GET
// stream. The stream's id in the trace (the step's id) labels it; it is
// no JSON-RPC id.

// MethodSubscribe is 2025-11-25's resources/subscribe (schema
// SubscribeRequest).
const MethodSubscribe = "resources/subscribe"

// Get is the client's GET that opens listen stream id with headers
// (jsonrpc.Era.GetHeaders) and note: a send event without a message, its
// HTTP method GET (the runner numbers and delivers it).
func Get(id *scenario.ID, headers map[string]string, note string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeSend, ID: id, From: trace.ActorClient, HTTPMethod: trace.HTTPGet, Headers: headers, Note: note}
}

// GetNote is the note of the client opening listen stream id with filter
// as a GET stream.
func GetNote(id string, filter json.RawMessage) string {
	return "Under 2025-11-25 the client opens listen stream " + id + " as a GET on the MCP endpoint (Accept: text/event-stream); its filter " + string(filter) + " becomes a resources/subscribe per resource."
}

// SubscribeID is the request id of listen stream id's k-th (1-based)
// resources/subscribe: "<id>-subscribe-<k>".
func SubscribeID(id string, k int) string { return id + "-subscribe-" + strconv.Itoa(k) }

// Subscribes are the resources/subscribe requests a 2025-11-25 client
// sends for listen stream id (its id text without quotes) and note name
// (as notes say it): one per URI of its filter's resourceSubscriptions,
// in order, each answered with an empty result; their notifications
// arrive on the GET stream, or on stdio (l.Pipe) on the server's stdout.
func (l *Listen) Subscribes(id, name string) []Refetch {
	on := "the GET stream"
	if l.Pipe {
		on = "the server's stdout"
	}
	var f struct {
		URIs []string `json:"resourceSubscriptions"`
	}
	_ = json.Unmarshal(l.Filter, &f)
	var out []Refetch
	for k, uri := range f.URIs {
		out = append(out, Refetch{Of: uri, Method: MethodSubscribe, Params: marshal(map[string]string{"uri": uri}), Result: json.RawMessage(`{}`),
			ID: SubscribeID(id, k+1), Why: "The client subscribes to " + uri + " for listen stream " + name + ": its notifications/resources/updated will arrive on " + on + "."})
	}
	return out
}

// Closes is the server ending the GET stream of listen stream id at
// will (2025-11-25: "The server MAY close the SSE stream at any time"; it
// must not send a response there): a close-stream toward the client; the
// stream's server half (srv) completes at now without a response.
func Closes(id *scenario.ID, srv *coordinator.Server, now int64) trace.Event {
	srv.Answer(now, nil, false)
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeCloseStream, ID: id, From: trace.ActorServer, Signal: trace.SignalCloseStream,
		Note: "The server ends listen stream " + id.String() + " by closing its GET stream: a GET stream carries no JSON-RPC response."}
}

// Notification is the server sending notification method with params on
// listen stream id (l nil: no such stream): ok, the message (with tag,
// tagged with the stream's subscription id, Tag: 2026-07-28's
// subscriptions/listen; 2025-11-25, GET stream or stdout, has none) and
// its note (NotifyNote; on stdio under 2025-11-25, l.Pipe, its stdout), or the
// suppression event, with its ID, saying why not (Notify).
func (l *Listen) Notification(id scenario.ID, method string, params json.RawMessage, tag bool) (e trace.Event, msg json.RawMessage, note string, ok bool) {
	if e, ok = l.Notify(id.String(), method, params); !ok {
		e.ID = &id
		return e, nil, "", false
	}
	if tag {
		params = Tag(params, id.Raw())
	}
	note = NotifyNote(method, id.String())
	if l.Pipe {
		note = "The server sends " + method + " on its stdout for listen stream " + id.String() + "'s subscription."
	}
	return e, jsonrpc.NewNotification(method, params), note, true
}
