package jsonrpc

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestRefusal proves 2026-07-28 basic/transports/streamable-http, "Server
// Validation" and "Protocol Version Header": a request whose headers
// disagree with its body, or lack a required one, is HeaderMismatch
// -32020; one naming a revision the server does not implement is
// UnsupportedProtocolVersion -32022 listing the supported ones; a
// consistent request, a notification and 2025-11-25 are not refused.
func TestRefusal(t *testing.T) {
	call := json.RawMessage(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{}}}`)
	list := json.RawMessage(`{"jsonrpc":"2.0","id":"l","method":"tools/list"}`)
	for _, c := range []struct {
		name string
		era  Era
		msg  json.RawMessage
		http bool
		code int64 // 0: not refused
	}{
		{"consistent tools/call on Streamable HTTP is served", Era{Revision: Revision20260728}, call, true, 0},
		{"consistent tools/call on stdio is served", Era{Revision: Revision20260728}, call, false, 0},
		{"MCP-Protocol-Version disagreeing with _meta is HeaderMismatch", Era{Revision: Revision20260728, Mismatch: HeaderProtocolVersion}, call, true, CodeHeaderMismatch},
		{"Mcp-Method disagreeing with method is HeaderMismatch", Era{Revision: Revision20260728, Mismatch: HeaderMethod}, call, true, CodeHeaderMismatch},
		{"a mismatch touches only tools/call: tools/list is served", Era{Revision: Revision20260728, Mismatch: HeaderMethod}, list, true, 0},
		{"missing Mcp-Name on tools/call is HeaderMismatch", Era{Revision: Revision20260728, Mismatch: HeaderName}, call, true, CodeHeaderMismatch},
		{"tools/list takes no Mcp-Name, so none missing", Era{Revision: Revision20260728, Mismatch: HeaderName}, list, true, 0},
		{"headers are not on stdio: no mismatch there", Era{Revision: Revision20260728, Mismatch: HeaderMethod}, call, false, 0},
		{"unknown revision on HTTP is UnsupportedProtocolVersion", Era{Revision: Revision20260728, Claims: "2099-01-01"}, call, true, CodeUnsupportedProtocolVersion},
		{"unknown revision on stdio is UnsupportedProtocolVersion", Era{Revision: Revision20260728, Claims: "2099-01-01"}, call, false, CodeUnsupportedProtocolVersion},
		{"a claimed revision touches only tools/call", Era{Revision: Revision20260728, Claims: "2099-01-01"}, list, true, 0},
		{"2025-11-25 negotiates at initialize: nothing refused here", Era{Revision: Revision20251125, Claims: "2099-01-01", Mismatch: HeaderMethod}, call, true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg, h := c.era.Post(c.msg, true, c.http, "", nil)
			resp, refused := c.era.Refusal(msg, h)
			if c.code == 0 {
				if refused {
					t.Fatalf("refused %s with %s", msg, resp)
				}
				return
			}
			var got struct {
				ID    json.RawMessage `json:"id"`
				Error ErrorObject     `json:"error"`
			}
			if !refused || json.Unmarshal(resp, &got) != nil {
				t.Fatalf("not refused: %s %v", msg, h)
			}
			if got.Error.Code != c.code || string(got.ID) != fmt.Sprint(idOf(c.msg)) {
				t.Errorf("got %s, want code %d for the request's id", resp, c.code)
			}
			if c.code == CodeUnsupportedProtocolVersion && string(got.Error.Data) != `{"requested":"2099-01-01","supported":["2026-07-28"]}` {
				t.Errorf("data %s", got.Error.Data)
			}
		})
	}
}

func idOf(msg json.RawMessage) string {
	m, _ := Parse(msg)
	return m.ID
}

// TestGetHeaders proves 2025-11-25 Streamable HTTP: the GET accepts
// text/event-stream, names the revision and the session, and a
// resumption adds Last-Event-ID.
func TestGetHeaders(t *testing.T) {
	e := Era{Revision: Revision20251125}
	if got := fmt.Sprint(e.GetHeaders("session-1", "")); got != "map[Accept:text/event-stream MCP-Protocol-Version:2025-11-25 Mcp-Session-Id:session-1]" {
		t.Errorf("open: %s", got)
	}
	if got := fmt.Sprint(e.GetHeaders("session-1", "3")); got != "map[Accept:text/event-stream Last-Event-ID:3 MCP-Protocol-Version:2025-11-25 Mcp-Session-Id:session-1]" {
		t.Errorf("resume: %s", got)
	}
}
