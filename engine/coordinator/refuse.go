package coordinator

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Refuse is a 2026-07-28 server refusing its request at now, before it
// handles it, with resp (jsonrpc.Era.Refusal: HeaderMismatch -32020 or
// UnsupportedProtocolVersion -32022): the request arrived and failed at
// once, nothing runs, and no SSE stream opens. It returns the response's
// send event about request id, without Actor and Message (the runner
// sends msg): on Streamable HTTP (http) it carries status 400 and
// Content-Type application/json (2026-07-28 Streamable HTTP, "Server
// Validation": 400 Bad Request with a JSON-RPC error), on stdio nothing.
func (s *Server) Refuse(now int64, id *scenario.ID, resp json.RawMessage, http bool) (about trace.Event, msg json.RawMessage) {
	s.Arrived, about.ID = true, id
	msg = s.Answer(now, resp, true)
	if http {
		about.Status, about.Headers = jsonrpc.StatusBadRequest, map[string]string{"Content-Type": "application/json"}
	}
	return about, msg
}
