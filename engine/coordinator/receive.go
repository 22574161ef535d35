package coordinator

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/jsonrpc"
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
	// (failure late-message-fatal, typescript-sdk#2580).
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
