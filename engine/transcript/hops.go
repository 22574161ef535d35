package transcript

// The lab's JSON Lines as a recording intermediary writes them (mcplab
// proxy; SCENARIO.md, Live): each message on both hops of the path, client
// ↔ proxy and proxy ↔ server, with the same wire number, and the
// intermediary's own events (a hold, a flush, a stream it broke) and the
// server's stream openings with their headers, so the trace shows what the
// intermediary held and when, as a simulated proxy's trace does (package
// sse's hold and flush events), and the intermediary rules judge it.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Hops of a path through a recording intermediary (a JSON Lines message
// line's "hop"): the client's side and the server's side of the proxy.
const (
	// HopClient is the hop between the client and the proxy: a client's
	// message seen there is the client's send, a server's message seen
	// there is its delivery to the client.
	HopClient = "client-proxy"
	// HopServer is the hop between the proxy and the server: a server's
	// message seen there is the server's send, a client's message seen
	// there is its delivery to the server.
	HopServer = "proxy-server"
)

// MaxHeaders bounds the headers of one event line: 100 (an HTTP response
// carries a dozen).
const MaxHeaders = 100

// kindEvent is an entry that is an event line: an actor's event without a
// message (hopEvents lists which).
const kindEvent = "event"

// hopEvents are the event lines' actor and type pairs: the server opening
// a response stream or a listen stream (its headers), ending a listen
// stream cleanly, or refusing an HTTP request (reject, with its status:
// 404 for a retired session, 503 for a refused reconnect); the proxy
// holding, flushing or losing a wire message or breaking a response
// stream; the network breaking a listen stream under both sides; the
// client closing a response stream, or reopening a listen stream after the
// one before it ended (reconnect, with its request headers: a GET under
// 2025-11-25). What a server saw at the HTTP level is so a trace's, and
// the rules of reconnection and session recovery judge it (package
// checks: backoff-grows, refetch-after-reconnect, session-recovered).
var hopEvents = map[trace.Actor][]trace.EventType{
	trace.ActorServer:  {trace.TypeStart, trace.TypeCloseStream, trace.TypeReject},
	trace.ActorProxy:   {trace.TypeHold, trace.TypeFlush, trace.TypeDrop, trace.TypeCloseStream},
	trace.ActorNetwork: {trace.TypeCloseStream},
	trace.ActorClient:  {trace.TypeCloseStream, trace.TypeReconnect},
}

// eventActors lists hopEvents' actors in the order an error names them.
var eventActors = []trace.Actor{trace.ActorServer, trace.ActorProxy, trace.ActorNetwork, trace.ActorClient}

// jsonlRecord is one JSON Lines line as written: a message line (from,
// message, optionally hop, wire and id) or an event line (actor, type,
// optionally id, wire, headers, note).
type jsonlRecord struct {
	T       json.RawMessage   `json:"t"`
	From    trace.Actor       `json:"from"`
	Message json.RawMessage   `json:"message"`
	Hop     string            `json:"hop"`
	Wire    int               `json:"wire"`
	ID      json.RawMessage   `json:"id"`
	Actor   trace.Actor       `json:"actor"`
	Type    trace.EventType   `json:"type"`
	Headers map[string]string `json:"headers"`
	Note    string            `json:"note"`
	// Status is a server reject's HTTP status code (100 to 599).
	Status int `json:"status"`
	// Session is the Mcp-Session-Id of the HTTP exchange the line was
	// seen in, "" for none: a recorder that sees several sessions names
	// each line's, so ids reused across sessions stay apart.
	Session string `json:"session"`
}

// hopFields checks a message line's hop, wire and id members and copies
// them into e: hop and wire come together (wire a positive number), id is
// the JSON-RPC id of the request whose response stream carries the
// message (a number or a string).
func hopFields(n int, r *jsonlRecord, e *entry) error {
	switch r.Hop {
	case "":
		if r.Wire != 0 {
			return lineErr(n, "wire needs hop (the hop the message was seen on)")
		}
	case HopClient, HopServer:
		if r.Wire <= 0 {
			return lineErr(n, "hop needs wire, a positive number shared by the message's two hops")
		}
	default:
		return lineErr(n, "hop must be %q or %q", HopClient, HopServer)
	}
	if r.Actor != "" || r.Type != "" || r.Headers != nil || r.Note != "" || r.Status != 0 {
		return lineErr(n, "a message line has no actor, type, headers, note or status (those are an event line's)")
	}
	e.hop, e.wire = r.Hop, r.Wire
	if len(r.ID) > 0 {
		ref, err := idRef(r.ID)
		if err != nil {
			return lineErr(n, "id: %v", err)
		}
		e.ref = ref
	}
	return nil
}

// idRef is a JSON-RPC id's text (a number or a string, as the message
// wrote it).
func idRef(raw json.RawMessage) (string, error) {
	var id scenario.ID
	if err := json.Unmarshal(raw, &id); err != nil || len(raw) == 0 || (raw[0] != '"' && (raw[0] < '0' || raw[0] > '9') && raw[0] != '-') {
		return "", fmt.Errorf("must be a JSON-RPC id (a number or a string), not %s", excerpt(string(raw)))
	}
	return string(raw), nil
}

// eventEntry reads an event line: actor and type one of hopEvents, id the
// request whose stream it concerns, wire the message it concerns (a hold,
// a flush, a drop), headers the HTTP response headers of a stream the
// server opened (names in canonical form), note a plain sentence.
func eventEntry(n int, r *jsonlRecord) (entry, error) {
	if r.From != "" || len(r.Message) > 0 || r.Hop != "" {
		return entry{}, lineErr(n, "an event line has no from, message or hop (those are a message line's)")
	}
	types, ok := hopEvents[r.Actor]
	if !ok {
		return entry{}, lineErr(n, "actor must be %s", quotedList(eventActors))
	}
	if !slices.Contains(types, r.Type) {
		return entry{}, lineErr(n, "type of a %s event must be %s", r.Actor, joined(types))
	}
	switch {
	case r.Type == trace.TypeReject && (r.Status < 100 || r.Status > 599):
		return entry{}, lineErr(n, "a reject needs status, the HTTP status code (100 to 599)")
	case r.Type != trace.TypeReject && r.Status != 0:
		return entry{}, lineErr(n, "only a reject has a status")
	}
	if r.Wire < 0 {
		return entry{}, lineErr(n, "wire must be a positive number")
	}
	if len(r.Headers) > MaxHeaders {
		return entry{}, lineErr(n, "headers: more than %d", MaxHeaders)
	}
	e := entry{line: n, kind: kindEvent, actor: r.Actor, typ: r.Type, wire: r.Wire, note: r.Note, session: r.Session}
	if r.Status != 0 {
		e.status = strconv.Itoa(r.Status)
	}
	if len(r.ID) > 0 {
		ref, err := idRef(r.ID)
		if err != nil {
			return entry{}, lineErr(n, "id: %v", err)
		}
		e.ref = ref
	}
	if r.Headers != nil {
		e.headers = make(map[string]string, len(r.Headers))
		for k, v := range r.Headers {
			e.headers[canonicalHeader(k)] = v
		}
	}
	if len(r.T) > 0 {
		at, err := parseTime(r.T)
		if err != nil {
			return entry{}, lineErr(n, "t: %v", err)
		}
		e.at, e.timed = at, true
	}
	return e, nil
}

// quotedList is names quoted, joined with commas and a last "or".
func quotedList[S ~string](names []S) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = strconv.Quote(string(s))
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// joined is names joined with commas.
func joined[S ~string](names []S) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// near reports whether a message line records the message where its
// sender put it on the wire: a client's message on HopClient, a server's
// on HopServer; the other hop is its delivery.
func (e *entry) near() bool {
	return (e.from == trace.ActorClient) == (e.hop == HopClient)
}

// checkHops checks the wire numbers of a transcript's message lines: each
// message's first line is on its sender's hop and its delivery (if any) on
// the other hop, once, with the same message; an event line's wire names a
// message seen before it.
func checkHops(es []entry) error {
	type seen struct {
		line      int
		delivered bool
		message   string
	}
	wires := map[int]*seen{}
	for _, e := range es {
		if e.kind == kindEvent {
			if e.wire != 0 && wires[e.wire] == nil {
				return lineErr(e.line, "wire %d names no message seen before", e.wire)
			}
			continue
		}
		if e.hop == "" {
			continue
		}
		w := wires[e.wire]
		switch {
		case e.near() && w != nil:
			return lineErr(e.line, "wire %d was already sent (line %d)", e.wire, w.line)
		case e.near():
			wires[e.wire] = &seen{line: e.line, message: string(e.message)}
		case w == nil:
			return lineErr(e.line, "wire %d is delivered on the %s hop before the %s sent it on the %s hop", e.wire, e.hop, e.from, hopOf(e.from))
		case w.delivered:
			return lineErr(e.line, "wire %d is delivered twice", e.wire)
		case w.message != string(e.message):
			return lineErr(e.line, "wire %d is delivered as a different message than line %d sent", e.wire, w.line)
		default:
			w.delivered = true
		}
	}
	return nil
}

// hopOf names the hop where a sender puts its messages on the wire.
func hopOf(from trace.Actor) string {
	if from == trace.ActorClient {
		return HopClient
	}
	return HopServer
}

// canonicalHeader writes an HTTP header name as the checks read it
// ("x-accel-buffering" → "X-Accel-Buffering"): each dash-separated word
// capitalised, the rest lower case, as Go's net/http canonicalises names.
func canonicalHeader(k string) string {
	b := []byte(k)
	up := true
	for i, c := range b {
		switch {
		case up && c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !up && c >= 'A' && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		up = c == '-'
	}
	return string(b)
}
