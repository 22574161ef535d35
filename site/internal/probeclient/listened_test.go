package probeclient

import (
	"encoding/json"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestProbeClientListenedByRevision: what counts as the client opening a
// listen stream is what its revision has (SCENARIO.md, "Sessions
// (2025-11-25)"): under 2025-11-25 the GET stream the server starts for no
// request, never a subscriptions/listen, which only 2026-07-28 defines;
// under 2026-07-28 the subscriptions/listen request.
func TestProbeClientListenedByRevision(t *testing.T) {
	id := scenario.NewStringID("sub-1")
	get := trace.Event{Actor: trace.ActorServer, Type: trace.TypeStart}
	listen := trace.Event{Actor: trace.ActorClient, Type: trace.TypeSend, From: trace.ActorClient, ID: &id,
		Message: json.RawMessage(`{"jsonrpc":"2.0","id":"sub-1","method":"subscriptions/listen","params":{"notifications":{}}}`)}
	cases := []struct {
		name, protocol string
		event          trace.Event
		want           bool
	}{
		{"2025-11-25: the GET stream", "2025-11-25", get, true},
		{"2025-11-25: subscriptions/listen is no listen there", "2025-11-25", listen, false},
		{"2026-07-28: subscriptions/listen", "2026-07-28", listen, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := &trace.Trace{Source: &trace.Source{Protocol: c.protocol}, Events: []trace.Event{c.event}}
			if got := listened(tr); got != c.want {
				t.Errorf("listened = %v, want %v", got, c.want)
			}
		})
	}
}
