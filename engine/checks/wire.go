package checks

import (
	"encoding/json"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
)

// Methods the rules read that jsonrpc names no constant for: the
// authoritative reads a client refetches with after a listen stream drops
// (DOMAIN.md §9).
const (
	methodResourcesRead = "resources/read"
	methodToolsList     = "tools/list"
)

// wire is what an event's message says, as the rules need it: read once by
// jsonrpc.Parse (the one reader of wire messages).
type wire struct {
	method    string
	id        string // canonical JSON text of the id, "" if none
	hasID     bool   // an "id" member is present (even null)
	response  bool   // result or error, no method
	token     string // progress token text (notifications/progress)
	progress  *float64
	cancelOf  string // requestId text of a valid notifications/cancelled
	metaToken string // params._meta.progressToken text of a request, "" if none
	// saysCancelled: an error response that says its request was
	// cancelled (error.message mentions it, or code -32800, the request
	// cancelled code some SDKs borrow from LSP), as the Python SDK answers
	// every cancellation it reads ("Request cancelled").
	saysCancelled bool
}

// requestCancelledCode is the JSON-RPC error code some SDKs answer a
// cancelled request with (LSP's RequestCancelled).
const requestCancelledCode = -32800

// parse reads msg with jsonrpc.Parse. A message that is not a JSON-RPC
// object reads as the zero wire. A cancellation counts only when valid
// (DOMAIN.md §1: params an object with a string or integer requestId).
func parse(msg json.RawMessage) (w wire) {
	if len(msg) == 0 {
		return w
	}
	m, err := jsonrpc.Parse(msg)
	if err != nil {
		return w
	}
	w.method, w.id, w.hasID = m.Method, m.ID, m.HasID
	w.response = m.Kind == jsonrpc.Response || m.Kind == jsonrpc.Error
	if m.Kind == jsonrpc.Error {
		w.saysCancelled = strings.Contains(strings.ToLower(m.ErrorMessage), "cancel") || m.ErrorCode != nil && *m.ErrorCode == requestCancelledCode
	}
	switch {
	case m.Method == jsonrpc.MethodProgress:
		w.token, w.progress = m.ProgressToken, m.Progress
	case m.Method == jsonrpc.MethodCancelled:
		if c, err := m.Cancellation(); err == nil {
			w.cancelOf = c.RequestID
		}
	case m.Kind == jsonrpc.Request:
		w.metaToken = m.ProgressToken
	}
	return w
}
