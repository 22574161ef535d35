package recovery

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// TestPipeUnhappening: only a 2025-11-25 stdio listen (Listen.Pipe)
// refuses a step, and only the moves its wire has nothing for, each with
// its reason (SCENARIO.md, "Sessions (2025-11-25)"; "honest time"); a
// GET stream or a 2026-07-28 listen request refuses none, and a step
// naming no listen stream is left to the other rules.
func TestPipeUnhappening(t *testing.T) {
	id := scenario.NewStringID("sub-1")
	pipe := NewListen(json.RawMessage(`{"resourceSubscriptions":["file:///a"]}`))
	pipe.Pipe = true
	stream := NewListen(json.RawMessage(`{}`))
	cases := []struct {
		name string
		l    *Listen
		do   scenario.Verb
		want string // in the reason; "" for none
	}{
		{"a drop has no stream of its own and no GET to resume", pipe, "drop", "no GET to resume with Last-Event-ID"},
		{"no server message ends a subscription", pipe, "end-listen", "only by the client's resources/unsubscribe"},
		{"no request opened it to cancel", pipe, "cancel", "no request to cancel"},
		{"no request opened it to answer", pipe, "complete", "no request to report progress for or to answer"},
		{"a GET stream or a listen request can drop", stream, "drop", ""},
		{"a step naming no listen stream", nil, "drop", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.l.PipeUnhappening(scenario.Step{Do: c.do, ID: &id})
			if c.want == "" && got != "" || c.want != "" && (!strings.Contains(got, c.want) || !strings.Contains(got, `"sub-1"`)) {
				t.Errorf("PipeUnhappening(%s) = %q, want %q", c.do, got, c.want)
			}
		})
	}
}
