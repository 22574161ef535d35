package session_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/session"
)

// A 2025-11-25 server declares in its initialize result every capability
// its run uses, and only those (basic/lifecycle, "Capability
// Negotiation"; schema ServerCapabilities): tools always, tasks for a
// task-augmented call, a list's listChanged for its list_changed
// notification, resources.subscribe for resources/subscribe and
// notifications/resources/updated.
func TestCapabilitiesDeclareWhatTheRunUses(t *testing.T) {
	tests := []struct {
		rule, steps, want string
	}{
		{"a plain call: tools only", `{"at":0,"do":"call","id":1,"name":"x"}`, `{"tools":{}}`},
		{"a task-augmented call: tasks (cancel, tools/call)", `{"at":0,"do":"call","id":1,"name":"x","task":"t-1"}`,
			`{"tasks":{"cancel":{},"requests":{"tools":{"call":{}}}},"tools":{}}`},
		{"notifications/tools/list_changed: tools.listChanged", `{"at":0,"do":"listen","id":"l","filter":{"toolsListChanged":true}},
			{"at":100,"do":"notify","listen":"l","method":"notifications/tools/list_changed"}`, `{"tools":{"listChanged":true}}`},
		{"a listen filter's resourceSubscriptions: resources.subscribe", `{"at":0,"do":"listen","id":"l","filter":{"resourceSubscriptions":["file:///a"]}}`,
			`{"resources":{"subscribe":true},"tools":{}}`},
		{"notifications/resources/updated and list_changed: both resources members", `{"at":0,"do":"listen","id":"l","filter":{"resourcesListChanged":true}},
			{"at":100,"do":"notify","listen":"l","method":"notifications/resources/updated","params":{"uri":"file:///a"}},
			{"at":200,"do":"notify","listen":"l","method":"notifications/resources/list_changed"}`, `{"resources":{"listChanged":true,"subscribe":true},"tools":{}}`},
		{"notifications/prompts/list_changed: prompts.listChanged", `{"at":0,"do":"listen","id":"l","filter":{"promptsListChanged":true}},
			{"at":100,"do":"notify","listen":"l","method":"notifications/prompts/list_changed"}`, `{"prompts":{"listChanged":true},"tools":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			s, err := scenario.Decode([]byte(`{"mcplab":1,"protocol":"2025-11-25","transport":"streamable-http","steps":[` + tt.steps + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(session.Capabilities(s).JSON()); got != tt.want {
				t.Errorf("capabilities %s, want %s", got, tt.want)
			}
			l := session.New(s)
			res := string(jsonrpc.NewInitializeResult(`"initialize-1"`, l.Capabilities))
			if want := `{"jsonrpc":"2.0","id":"initialize-1","result":{"protocolVersion":"2025-11-25","capabilities":` + tt.want + `,"serverInfo":{"name":"mcplab-server","version":"1.0.0"}}}`; res != want {
				t.Errorf("initialize result %s, want %s", res, want)
			}
		})
	}
}
