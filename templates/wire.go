package templates

// What a wire message is: its kind (the arrow kinds) and the parts of a
// JSON-RPC message the timeline and the task lanes label.

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// wireMessage is the part of a JSON-RPC message the timeline labels.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code json.Number `json:"code"`
	} `json:"error"`
	Params struct {
		Name          string          `json:"name"`
		RequestID     json.RawMessage `json:"requestId"`
		Progress      json.Number     `json:"progress"`
		Total         json.Number     `json:"total"`
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"params"`
}

// idText is a JSON-RPC id from a wire message as the trace's requests
// write it (scenario.ID's text): a string id re-encoded without the HTML
// escapes the engine's json.Marshal put on the wire ("r\u003c" is "r<"),
// anything else as it is.
func idText(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return scenario.NewStringID(s).Raw()
	}
	return string(raw)
}

// classify names the kind of a wire message and a short label for it.
func classify(msg json.RawMessage, signal string) (kind, label, method, id string) {
	if len(msg) == 0 {
		if signal == trace.SignalCloseStream {
			return kindClose, "close stream", "", ""
		}
		return kindKeepalive, "", "", ""
	}
	var m wireMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		// Not an object, or a field of an unexpected type: show it raw.
		var probe map[string]json.RawMessage
		if json.Unmarshal(msg, &probe) == nil {
			if raw, ok := probe["method"]; ok {
				var s string
				if json.Unmarshal(raw, &s) == nil {
					return kindRaw, s + " (malformed)", s, ""
				}
			}
		}
		return kindRaw, "malformed message", "", ""
	}
	if len(m.ID) > 0 && string(m.ID) != "null" {
		id = idText(m.ID)
	}
	switch {
	case m.Method == "notifications/progress":
		label = "progress " + string(m.Params.Progress)
		if m.Params.Total != "" {
			label += "/" + string(m.Params.Total)
		}
		return kindProgress, label, m.Method, id
	case m.Method == "notifications/cancelled":
		if len(m.Params.RequestID) > 0 {
			id = idText(m.Params.RequestID)
		}
		return kindCancel, "notifications/cancelled", m.Method, id
	case m.Method != "" && id != "":
		label = m.Method
		if m.Params.Name != "" {
			label += " " + m.Params.Name
		}
		return kindRequest, label, m.Method, id
	case m.Method != "":
		return kindNotification, m.Method, m.Method, ""
	case m.Error != nil:
		label = "error"
		if m.Error.Code != "" {
			label += " " + string(m.Error.Code)
		}
		return kindError, label, "", id
	case len(m.Result) > 0:
		return kindResult, "result", "", id
	}
	return kindRaw, "message", "", id
}

// arrow kinds, from the message on the wire (data-kind, CSS class, legend).
const (
	kindRequest      = "request"      // a JSON-RPC request (has method and id)
	kindResult       = "result"       // a response with a result
	kindError        = "error"        // a response with an error
	kindProgress     = "progress"     // notifications/progress
	kindCancel       = "cancel"       // notifications/cancelled
	kindClose        = "close"        // an HTTP response stream the client closed (signal close-stream)
	kindStreamDrop   = "stream-drop"  // an HTTP response stream the network dropped: not a cancellation
	kindNotification = "notification" // any other notification
	kindKeepalive    = "keepalive"    // an SSE comment, not progress
	kindRaw          = "raw"          // anything else, e.g. a malformed message
)

// arrowKinds lists every arrow kind, for the arrowhead markers.
var arrowKinds = []string{kindRequest, kindResult, kindError, kindProgress, kindCancel, kindClose, kindStreamDrop, kindNotification, kindKeepalive, kindRaw}
