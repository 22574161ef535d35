package checks

// This file is the checks' only reader of wire messages. It reads through
// coordinator.IDText until the jsonrpc package (issue 11: the one reader of
// wire messages) exists; then this file becomes calls into jsonrpc.

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/coordinator"
)

// wire is what an event's message says, parsed once.
type wire struct {
	method    string
	id        string // JSON text of the id, "" if none
	hasID     bool   // an "id" member is present (even null)
	response  bool   // result or error, no method
	token     string // progress token text (notifications/progress)
	progress  *float64
	cancelOf  string // requestId text of a valid notifications/cancelled
	metaToken string // params._meta.progressToken text of a request, "" if none
}

// parse reads msg once: the envelope, and the params the rules need
// (progress token and value, the cancelled request id, a request's own
// progress token). A message that is not a JSON object reads as the zero
// wire. A cancellation is valid as DOMAIN.md §1 says: params an object with
// a string or integer requestId.
func parse(msg json.RawMessage) (w wire) {
	if len(msg) == 0 {
		return w
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return w
	}
	w.method = m.Method
	w.hasID = m.ID != nil
	w.id, _ = coordinator.IDText(m.ID)
	w.response = m.Method == "" && (m.Result != nil || m.Error != nil)
	switch m.Method {
	case "notifications/progress":
		var p struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress *float64        `json:"progress"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			w.token, _ = coordinator.IDText(p.Token)
			w.progress = p.Progress
		}
	case "notifications/cancelled":
		var p map[string]json.RawMessage
		if len(m.Params) > 0 && json.Unmarshal(m.Params, &p) == nil && p != nil {
			if raw, ok := p["requestId"]; ok {
				w.cancelOf, _ = coordinator.IDText(raw)
			}
		}
	}
	if m.Method != "" && w.hasID && len(m.Params) > 0 {
		var p struct {
			Meta struct {
				Token json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			w.metaToken, _ = coordinator.IDText(p.Meta.Token)
		}
	}
	return w
}
