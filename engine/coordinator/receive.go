package coordinator

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// What each end makes of a message that arrives outside any request's
// stream (a raw send step; DOMAIN.md §1, §3): the client acts on the end
// of a listen stream and on progress, the server on a cancellation;
// everything else is ignored, with no response.

// ReceiptKind says what the client does with a message from the server.
type ReceiptKind uint8

const (
	// Ignored: the client does not act on it (Receipt.Event says why).
	Ignored ReceiptKind = iota
	// ListenEnds: a notifications/cancelled that ends listen stream
	// Receipt.ID, the one cancellation a server may send.
	ListenEnds
	// ProgressArrives: progress Receipt.Value for the request that holds
	// progress token Receipt.Token.
	ProgressArrives
	// ProgressUnknown: progress for a token no request holds, under
	// client.policy lateProgressIsError, which tears the session down
	// (failure late-message-fatal, modelcontextprotocol/typescript-sdk#2580).
	ProgressUnknown
)

// Receipt is a message from the server as the client classifies it
// (ClientReceives).
type Receipt struct {
	Kind ReceiptKind
	// ID is the JSON-RPC id text of the listen stream that ends
	// (ListenEnds).
	ID string
	// Token is the progress token's JSON text and Value the progress
	// (ProgressArrives, ProgressUnknown).
	Token string
	Value float64
	// Event is the client's ignore event (Ignored; ClientIgnores).
	Event trace.Event
}

// ClientReceives classifies msg, a message from the server, at the
// client (DOMAIN.md §1, §3). listening reports whether the request of
// JSON-RPC id text id is a listen stream, known whether a request holds
// progress token token (JSON text); lateProgressIsError is client.policy's
// switch: progress for an unknown token is then fatal, else ignored.
func ClientReceives(msg json.RawMessage, listening func(id string) bool, known func(token string) bool, lateProgressIsError bool) Receipt {
	m, peer := jsonrpc.ReadPeer(msg)
	c, err := m.Cancellation()
	switch {
	case peer && m.Method == jsonrpc.MethodCancelled && err == nil && listening(c.RequestID):
		return Receipt{Kind: ListenEnds, ID: c.RequestID}
	case !peer || m.Method != jsonrpc.MethodProgress || m.Progress == nil || m.ProgressToken == "":
	case known(m.ProgressToken):
		return Receipt{Kind: ProgressArrives, Token: m.ProgressToken, Value: *m.Progress}
	case lateProgressIsError:
		return Receipt{Kind: ProgressUnknown, Token: m.ProgressToken, Value: *m.Progress}
	}
	return Receipt{Kind: Ignored, Event: ClientIgnores(msg, m, peer)}
}

// ServerReads is the server reading msg, a raw message from the client
// outside any request (DOMAIN.md §1): a duplicate of a request in flight
// (Duplicate: its event e and, unless routeByIDOnly takes it, answer, the
// error for it), a notifications/cancelled (cancel: the caller reads it
// with ReadCancel), or anything else, ignored with e (ServerReceives).
func ServerReads(msg json.RawMessage, halves func(scenario.ID) (*Client, *Server), routeByIDOnly bool) (e trace.Event, answer json.RawMessage, cancel bool) {
	if e, answer, dup := Duplicate(msg, halves, routeByIDOnly); dup {
		return e, answer, false
	}
	cancel, e = ServerReceives(msg)
	return e, nil, cancel
}

// ServerReceives classifies msg, a message from the client outside any
// request, at the server (DOMAIN.md §1): cancel reports a
// notifications/cancelled (the caller reads it with ReadCancel); anything
// else gets the ignore event e (ServerIgnores), and no response.
func ServerReceives(msg json.RawMessage) (cancel bool, e trace.Event) {
	m, ok := jsonrpc.ReadPeer(msg)
	if ok && m.Method == jsonrpc.MethodCancelled {
		return true, e
	}
	return false, ServerIgnores(msg, m)
}

// ProgressArrives is progress value v reaching the client at now for
// request id (idRaw its JSON text), judged by p, the values the client
// accepted, under the client's policy pol (DOMAIN.md §3): only a strictly
// increasing value is activity (e an activity event), which restarts the
// idle clock (and the maximum one under progressResetsMax), and the caller
// re-arms the deadline; anything else is ignored (e says why). Progress
// for a request that already ended is ignored too (LateProgress), or,
// under lateProgressIsError, fatal: fatal then says what the client tears
// the session down over (failure late-message-fatal).
func (c *Client) ProgressArrives(now int64, p *Progress, idRaw, id string, v float64, pol scenario.ClientPolicy) (e trace.Event, activity bool, fatal string) {
	if !c.Pending() {
		if pol.LateProgressIsError {
			return e, false, "progress " + num(v) + " for request " + id + ", which it has " + trace.OutcomeWord(c.Outcome) + ","
		}
		return c.LateProgress(id, num(v)), false, ""
	}
	activity, note := p.Arrive(idRaw, v, pol.AcceptNonIncreasingProgress, pol.IgnoreProgress, c.Deadlines)
	e = trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: note}
	if activity {
		e.Type = trace.TypeActivity
		e.Restarts = c.Deadlines.Restarts()
		c.Deadlines.Activity(now)
	}
	return e, activity, ""
}

// TransportOf is what scenario s makes of a cancellation (Transport): its
// transport, its protocol and client.policy.httpCancel (SCENARIO.md).
func TransportOf(s *scenario.Scenario) Transport {
	return Transport{HTTP: s.Transport == scenario.TransportHTTP, Is2025: s.Protocol == scenario.Protocol20251125, CloseStream: s.Client.Policy.HTTPCancel == scenario.HTTPCancelCloseStream}
}

// PolicyOf is the switches of server.policy p that touch one request
// (Policy; SCENARIO.md).
func PolicyOf(p scenario.ServerPolicy) Policy {
	return Policy{RespondAfterCancel: p.RespondAfterCancel, IgnoreDisconnect: p.IgnoreDisconnect, HandlerIgnoresCancel: p.HandlerIgnoresCancel}
}

// Wire is what a raw send needs of the runner: put msg on the wire from
// an actor (about request id or none, with HTTP headers, a note, and what
// happens when it arrives), and emit an event.
type Wire interface {
	Send(from trace.Actor, id *scenario.ID, msg json.RawMessage, headers map[string]string, note string, arrive func())
	Emit(e trace.Event)
}

// RawSend puts a scenario's send step st on w exactly as written: from
// the server, the client receives it (clientReceive); from the client,
// the server reads it (ServerReads with halves and routeByIDOnly): a
// cancellation goes to serverCancel, anything else is told, and a
// duplicate's error answer goes back to the client.
func RawSend(w Wire, st scenario.Step, halves func(scenario.ID) (*Client, *Server), routeByIDOnly bool, clientReceive, serverCancel func(json.RawMessage)) {
	msg := st.Message
	if st.From == scenario.SendFromServer {
		w.Send(trace.ActorServer, nil, msg, nil, "The server sends a raw message.", func() { clientReceive(msg) })
		return
	}
	w.Send(trace.ActorClient, nil, msg, nil, "The client sends a raw message.", func() {
		e, answer, cancel := ServerReads(msg, halves, routeByIDOnly)
		if cancel {
			serverCancel(msg)
			return
		}
		w.Emit(e)
		if answer != nil {
			w.Send(trace.ActorServer, nil, answer, nil, DuplicateAnswerNote, func() { clientReceive(answer) })
		}
	})
}
