package handler

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestForgetStopsTheRetiredSessionsHandlers pins what retiring a session
// does to its handlers (SCENARIO.md, "Sessions (2025-11-25)"): each stops
// as on a transport close, at its next checkpoint, with no response; a
// waiting one leaves the queue first, so none takes a resource another
// gives back; the re-issued request's own handler gets the resource and
// is the one that answers. A handler that already returned keeps its
// answer. Each case lists "id:event@ms" in order.
func TestForgetStopsTheRetiredSessionsHandlers(t *testing.T) {
	tests := []struct {
		name       string
		h          scenario.Handler
		forgetAt   int64
		finishedAt int64 // 0: the forgotten work has not returned
		want       string
	}{
		{"no checkpoints: the holder stops at once and the waiter never starts",
			scenario.Handler{WorkMs: 400, Holds: "lock"}, 100, 0,
			"[a:acquire@0 b:wait@20 b:ignore@100 a:checkpoint@100 a:release@100 c:acquire@160 c:complete@560 c:release@560]"},
		{"checkpoints: the holder stops at its next one, and the new handler waits for it",
			scenario.Handler{WorkMs: 400, Holds: "lock", CheckpointEveryMs: 300}, 100, 0,
			"[a:acquire@0 b:wait@20 b:ignore@100 c:wait@160 a:checkpoint@300 a:release@300 c:acquire@300 c:complete@700 c:release@700]"},
		{"a handler that already returned keeps its answer; the re-issue runs again",
			scenario.Handler{WorkMs: 50}, 100, 50,
			"[a:complete@50 c:complete@210]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var q sim.Queue
			s := NewServer(&q, scenario.Server{Handlers: map[string]scenario.Handler{"save": tt.h}})
			var got []string
			halves := map[string]*coordinator.Server{}
			start := func(id string) *Work {
				halves[id] = &coordinator.Server{}
				return s.Start("save", true, id, nil, halves[id], Hooks{
					Tell:     func(e trace.Event) { got = append(got, fmt.Sprintf("%s:%s@%d", id, e.Type, q.Now())) },
					Progress: func(float64, float64) {},
					Complete: func(json.RawMessage, *jsonrpc.ErrorObject) {
						got = append(got, fmt.Sprintf("%s:complete@%d", id, q.Now()))
					},
				})
			}
			var a, b *Work
			q.Schedule(0, func() { a = start("a") })
			if tt.finishedAt == 0 {
				q.Schedule(20, func() { b = start("b") })
			}
			q.Schedule(tt.forgetAt, func() { s.Forget(a, b) })
			q.Schedule(160, func() { start("c") })
			if err := q.Run(1000); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != tt.want {
				t.Errorf("got %v\nwant %s", got, tt.want)
			}
		})
	}
}
