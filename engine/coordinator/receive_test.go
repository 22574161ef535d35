package coordinator_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
)

// TestClientReceives proves what the client makes of a message from the
// server outside any request's stream (DOMAIN.md §1, §3): a server-sent
// notifications/cancelled ends a listen stream and nothing else; progress
// for a known token is progress; for an unknown token it is ignored, or
// fatal under lateProgressIsError (failure late-message-fatal); anything
// else is ignored.
func TestClientReceives(t *testing.T) {
	listening := func(id string) bool { return id == `"L"` }
	known := func(token string) bool { return token == `"t"` }
	for _, tc := range []struct {
		name, msg string
		fatal     bool
		want      coordinator.ReceiptKind
		id, token string
	}{
		{"cancel ends a listen stream", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`, false, coordinator.ListenEnds, `"L"`, ""},
		{"cancel of a call is ignored", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, false, coordinator.Ignored, "", ""},
		{"progress for a known token", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2}}`, true, coordinator.ProgressArrives, "", `"t"`},
		{"progress for an unknown token", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"u","progress":2}}`, false, coordinator.Ignored, "", ""},
		{"unknown token, lateProgressIsError", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"u","progress":2}}`, true, coordinator.ProgressUnknown, "", `"u"`},
		{"not JSON-RPC", `[1,2]`, true, coordinator.Ignored, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := coordinator.ClientReceives([]byte(tc.msg), listening, known, tc.fatal)
			if got.Kind != tc.want || got.ID != tc.id || got.Token != tc.token {
				t.Errorf("got %+v; want kind %d, id %q, token %q", got, tc.want, tc.id, tc.token)
			}
			if (got.Kind == coordinator.Ignored) != (got.Event.Type == "ignore") {
				t.Errorf("event %+v: an ignore event exactly when the client ignores it", got.Event)
			}
			if got.Kind == coordinator.ProgressArrives && got.Value != 2 {
				t.Errorf("progress %v, want 2", got.Value)
			}
		})
	}
	if cancel, e := coordinator.ServerReceives([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)); !cancel || e.Type != "" {
		t.Errorf("server, cancellation: cancel %v, event %+v; want a cancellation to read", cancel, e)
	}
	if cancel, e := coordinator.ServerReceives([]byte(`{"jsonrpc":"2.0","method":"notifications/other"}`)); cancel || e.Type != "ignore" || e.Actor != "server" {
		t.Errorf("server, unknown notification: cancel %v, event %+v; want the server's ignore", cancel, e)
	}
}
