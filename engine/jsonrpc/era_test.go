package jsonrpc

import (
	"encoding/json"
	"fmt"
	"testing"
)

const (
	meta26  = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcplab-client","version":"1.0.0"}`
	server1 = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcplab-server","version":"1.0.0"}}`
)

// TestEraRequest proves SCENARIO.md "The wire of each revision": under
// 2026-07-28 every client request carries params._meta with its version,
// capabilities and clientInfo (a request without params too, and a
// progress token stays first); 2025-11-25 and notifications are unchanged.
func TestEraRequest(t *testing.T) {
	for _, c := range []struct{ name, rev, in, want string }{
		{"2026 tools/call gains _meta after the progress token", Revision20260728,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{},"_meta":{"progressToken":"p-7"}}}`,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{},"_meta":{"progressToken":"p-7",` + meta26 + `}}}`},
		{"2026 request without params gets params._meta", Revision20260728,
			`{"jsonrpc":"2.0","id":"r","method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":"r","method":"tools/list","params":{"_meta":{` + meta26 + `}}}`},
		{"2026 notification unchanged", Revision20260728,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`},
		{"2025 request unchanged", Revision20251125,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{}}}`},
		{"not an object unchanged", Revision20260728, `"cancel 7"`, `"cancel 7"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := string(Era{Revision: c.rev}.Request(json.RawMessage(c.in))); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestEraResult proves that every 2026-07-28 result carries resultType
// ("complete" unless it names one: a task handle's "task") and serverInfo,
// a list or read result ttlMs and cacheScope, a listen result its
// subscriptionId; errors and 2025-11-25 results are unchanged.
func TestEraResult(t *testing.T) {
	for _, c := range []struct{ name, rev, method, in, want string }{
		{"2026 tools/call result", Revision20260728, "tools/call",
			`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`,
			`{"jsonrpc":"2.0","id":7,"result":{"content":[],"resultType":"complete",` + server1 + `}}`},
		{"2026 task handle keeps resultType task", Revision20260728, "tools/call",
			`{"jsonrpc":"2.0","id":7,"result":{"resultType":"task","task":{}}}`,
			`{"jsonrpc":"2.0","id":7,"result":{"resultType":"task","task":{},` + server1 + `}}`},
		{"2026 list result is cacheable", Revision20260728, "tools/list",
			`{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`,
			`{"jsonrpc":"2.0","id":7,"result":{"tools":[],"resultType":"complete","ttlMs":0,"cacheScope":"private",` + server1 + `}}`},
		{"2026 listen result names its subscription", Revision20260728, MethodListen,
			`{"jsonrpc":"2.0","id":"l","result":{"resultType":"complete"}}`,
			`{"jsonrpc":"2.0","id":"l","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcplab-server","version":"1.0.0"},"io.modelcontextprotocol/subscriptionId":"l"}}}`},
		{"2026 error unchanged", Revision20260728, "tools/call",
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"x"}}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"x"}}`},
		{"2025 result unchanged", Revision20251125, "tools/call",
			`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`,
			`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := `7`
			if c.method == MethodListen {
				id = `"l"`
			}
			if got := string(Era{Revision: c.rev}.Result(c.method, id, json.RawMessage(c.in))); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestEraPostHeaders proves the headers each revision requires of a
// Streamable HTTP POST: 2026-07-28 MCP-Protocol-Version, Mcp-Method and,
// for tools/call, prompts/get and resources/read, Mcp-Name; 2025-11-25
// MCP-Protocol-Version on all but initialize, and Mcp-Session-Id once
// assigned.
func TestEraPostHeaders(t *testing.T) {
	for _, c := range []struct{ name, rev, msg, session, want string }{
		{"2026 tools/call", Revision20260728, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crunch"}}`, "",
			"map[MCP-Protocol-Version:2026-07-28 Mcp-Method:tools/call Mcp-Name:crunch]"},
		{"2026 resources/read names the uri", Revision20260728, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a"}}`, "",
			"map[MCP-Protocol-Version:2026-07-28 Mcp-Method:resources/read Mcp-Name:file:///a]"},
		{"2026 cancellation has no name", Revision20260728, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, "",
			"map[MCP-Protocol-Version:2026-07-28 Mcp-Method:notifications/cancelled]"},
		{"2026 ignores a session", Revision20260728, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "s-1",
			"map[MCP-Protocol-Version:2026-07-28 Mcp-Method:tools/list]"},
		{"2025 initialize carries neither", Revision20251125, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`, "",
			"map[]"},
		{"2025 initialize after a 404 carries no old session", Revision20251125, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`, "s-1",
			"map[]"},
		{"2025 later request carries the session", Revision20251125, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crunch"}}`, "s-1",
			"map[MCP-Protocol-Version:2025-11-25 Mcp-Session-Id:s-1]"},
		{"not JSON-RPC", Revision20260728, `"x"`, "", "map[]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := fmt.Sprint(Era{Revision: c.rev}.PostHeaders(json.RawMessage(c.msg), c.session)); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}
