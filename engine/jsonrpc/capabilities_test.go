package jsonrpc_test

import (
	"encoding/json"
	"testing"

	"github.com/mcplab/mcplab/engine/jsonrpc"
)

// WithParam adds one member to a request's params after those it has
// (the 2025-11-25 task-augmented request's params.task), gives a request
// without params an object, and leaves what is not a request alone.
func TestWithParam(t *testing.T) {
	tests := []struct {
		rule, msg, want string
	}{
		{"appended after the members params has", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{},"task":{}}}`},
		{"a request without params gets them", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"task":{}}}`},
		{"a member present is replaced in place", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"task":{"ttl":5},"name":"x"}}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"task":{},"name":"x"}}`},
		{"a response is not a request", `{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":1,"result":{}}`},
	}
	for _, tt := range tests {
		if got := string(jsonrpc.WithParam(json.RawMessage(tt.msg), "task", json.RawMessage(`{}`))); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.rule, got, tt.want)
		}
	}
}
