package recovery

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Reconnect is what a client records when listen stream previousID drops
// (DOMAIN.md §9; SCENARIO.md, "Switches for the failures real software
// shows"), a fault, not an intent, whether the network or an idle-closing
// proxy broke it; any other request's stream is a disconnect. A listen
// stream is recovered by the reference plan (NewPlan) after the reference delay
// for clientID, or, when resume (2025-11-25, or policy sendLastEventId),
// the same stream resumed with Last-Event-ID and nothing refetched.
func Reconnect(previousID string, affected []string, clientID string, resume bool) (trace.Reconnect, Plan) {
	plan := NewPlan(previousID, affected)
	rec := trace.Reconnect{PreviousID: previousID, NewID: plan.NewID, Refetch: plan.Refetch, DelaysMs: []int64{ReferenceDelay(clientID, 0)}}
	if resume {
		rec.NewID, rec.SendLastEventID, rec.Refetch = previousID, true, []string{}
	}
	return rec, plan
}

// RetryClass classifies a call by DOMAIN.md §5: no side effect
// (sideEffect nil or false) is safe to retry; a side effect with an
// idempotencyKey argument is conditional; without one, unsafe.
func RetryClass(sideEffect *bool, arguments json.RawMessage) string {
	if sideEffect == nil || !*sideEffect {
		return trace.RetrySafe
	}
	var args struct {
		Key json.RawMessage `json:"idempotencyKey"`
	}
	if json.Unmarshal(arguments, &args) == nil && len(args.Key) > 0 && string(args.Key) != "null" {
		return trace.RetryConditional
	}
	return trace.RetryUnsafe
}

// RunHerds runs the herd c (its own strategy) and, when compare, the same
// herd under every strategy of Strategies, all drawing the same hashes so
// only the strategy differs (DOMAIN.md §9, herd.compare).
func RunHerds(c HerdConfig, compare bool) (Result, []Result) {
	draws := NewDraws(c.Clients, c.MaxAttempts)
	r := RunHerdWith(c, draws)
	var all []Result
	for _, strategy := range Strategies {
		if !compare {
			break
		}
		c.Strategy = strategy
		all = append(all, RunHerdWith(c, draws))
	}
	return r, all
}

// Covered lists what a listen filter covers, as Refetches reads it: each
// subscribed resource URI (resourceSubscriptions), then "tools" when the
// filter asks for tool list changes (toolsListChanged). A client that lost
// a stream without knowing what it missed refetches all of it: a listen
// stream an idle-closing proxy closed goes through the reconnect plan
// exactly as after a drop (failure proxy-idle-close-unhandled,
// trigger.dev#2134, opencode#29190).
func Covered(filter json.RawMessage) []string {
	var f struct {
		Tools     bool     `json:"toolsListChanged"`
		Resources []string `json:"resourceSubscriptions"`
	}
	_ = json.Unmarshal(filter, &f)
	out := append([]string{}, f.Resources...)
	if f.Tools {
		out = append(out, "tools")
	}
	return out
}

// Herd runs a scenario's herd experiment h (DOMAIN.md §10; RunHerds, its
// comparison when h.Compare): nil and nil when the scenario has none.
func Herd(h *scenario.Herd) (*Result, []Result) {
	if h == nil {
		return nil, nil
	}
	cfg := HerdConfig{Clients: h.Clients, Strategy: h.Strategy, BaseMs: h.BaseMs, CapMs: h.CapMs,
		CapacityPerSecond: h.ServerCapacityPerSecond, MaxAttempts: h.MaxAttempts, BucketMs: h.BucketMs, OutageMs: h.OutageMs}
	r, all := RunHerds(cfg, h.Compare)
	return &r, all
}
