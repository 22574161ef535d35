package coordinator_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
)

// DOMAIN.md §1, Streamable HTTP (2026-07-28): a POSTed
// notifications/cancelled does not cancel. When the client sent it as its
// cancellation the two sides now disagree on the request's life; when the
// client never gave the request up (a scenario's raw send) nothing changes
// for either side, and the note does not claim a disagreement.
func TestPostedCancelUnder2026SaysWhetherTheSidesDisagree(t *testing.T) {
	msg := json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":42}}`)
	c, err := jsonrpc.ParseCancellation(msg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name         string
		gaveUp       bool
		says, denies string
	}{
		{"the client's own cancellation", true, "Client and server now disagree", "nothing changes"},
		{"a raw send the client never made its own", false, "the client has not given this request up, so nothing changes for either side", "disagree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &coordinator.Server{Arrived: true}
			_, e, about, ok := coordinator.ReadCancel(msg, c, nil, srv, "tools/call", coordinator.Transport{HTTP: true}, tc.gaveUp)
			if ok || !about {
				t.Fatalf("ok %v, about %v: want an ignore event about request 2 (a POST does not cancel under 2026-07-28)", ok, about)
			}
			if !strings.Contains(e.Note, tc.says) || strings.Contains(e.Note, tc.denies) {
				t.Errorf("note %q: want %q and not %q", e.Note, tc.says, tc.denies)
			}
		})
	}
}
