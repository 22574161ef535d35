package coordinator

import (
	"encoding/json"
	"testing"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestRefuse proves 2026-07-28 basic/transports/streamable-http, "Server
// Validation": a refused request fails at once at the server with the
// error as its response, and on Streamable HTTP the response is a plain
// JSON body with status 400 (no SSE stream); on stdio it carries no HTTP
// status.
func TestRefuse(t *testing.T) {
	resp := json.RawMessage(`{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch"}}`)
	for _, c := range []struct {
		name        string
		http        bool
		status, ctt string
	}{
		{"Streamable HTTP: 400 with a JSON body", true, jsonrpc.StatusBadRequest, "application/json"},
		{"stdio: no HTTP status", false, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s Server
			id := scenario.NewStringID("1")
			about, msg := s.Refuse(30, &id, resp, c.http)
			if about.Status != c.status || about.Headers["Content-Type"] != c.ctt || about.ID != &id {
				t.Errorf("about %+v", about)
			}
			if string(msg) != string(resp) || !s.Arrived || s.State() != Failed || s.Writing {
				t.Errorf("msg %s, arrived %v, state %v, writing %v", msg, s.Arrived, s.State(), s.Writing)
			}
			if trace.Terminal(string(s.State())) != true {
				t.Errorf("state %v is not terminal", s.State())
			}
		})
	}
}
