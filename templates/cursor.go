package templates

import (
	"encoding/json"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// The time cursor (app.js) says each request's state at the time under
// it: the engine decided the states (trace.Request ClientStates,
// ServerStates) and the timeline writes them in words on the SVG
// (data-client-states, data-server-states), so the cursor only finds the
// interval holding t.

// requestStates is one request's states for the time cursor: Client and
// Server are JSON arrays [[at ms, "words"]...], each state holding from its
// at until the next one's; the cursor shows the last at or before t.
type requestStates struct {
	ID             string // JSON-RPC id as JSON text
	Client, Server string
}

// clientStateWords are the words the cursor says a client state in.
func clientStateWords(r trace.Request, state string) string {
	switch state {
	case trace.ClientWaiting:
		return "pending"
	case trace.ClientResult:
		return "completed"
	case trace.ClientError:
		return "failed"
	case trace.ClientTimedOut:
		if r.Cause != nil {
			return "timed out (" + *r.Cause + ")"
		}
		return "timed out"
	}
	return state
}

// jsonString is s as a JSON string (the words are the engine's
// vocabulary, but a transcript's status may be any text).
func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// newRequestStates writes tr's requests' state intervals for the cursor.
func newRequestStates(tr *trace.Trace) []requestStates {
	out := make([]requestStates, 0, len(tr.Requests))
	for _, r := range tr.Requests {
		var c, sv strings.Builder
		c.WriteByte('[')
		for i, ch := range r.ClientStates {
			if i > 0 {
				c.WriteByte(',')
			}
			c.WriteString("[" + i64(ch.At) + "," + jsonString(clientStateWords(r, ch.State)) + "]")
		}
		c.WriteByte(']')
		sv.WriteByte('[')
		for i, ch := range r.ServerStates {
			if i > 0 {
				sv.WriteByte(',')
			}
			words := ch.State
			if words == trace.StateInProgress {
				words = "working"
			}
			sv.WriteString("[" + i64(ch.At) + "," + jsonString(words) + "]")
		}
		sv.WriteByte(']')
		out = append(out, requestStates{ID: r.ID.String(), Client: c.String(), Server: sv.String()})
	}
	return out
}
