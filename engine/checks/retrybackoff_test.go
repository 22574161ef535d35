package checks_test

import (
	"strconv"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestBackoffGrowsPolicyRetries proves backoff-grows on one call's
// consecutive policy retries (DOMAIN.md §10: capped exponential backoff;
// failure constant-retry-loop, NousResearch/hermes-agent#43676): each wait
// before a retry "<id>-rN" is longer than the one before until it reaches
// its cap; a constant loop (delayMs 0, or any constant delay) fails, and a
// call retried once is not judged.
func TestBackoffGrowsPolicyRetries(t *testing.T) {
	stdio := mustScenario(t, `"transport":"stdio"`)
	// loop sends call 1 and one retry per wait, each attempt failing 25 ms
	// after it went out.
	loop := func(waits ...int64) *trace.Trace {
		call := func(id string) string {
			return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"crunch","arguments":{}}}`
		}
		at := int64(0)
		evs := []trace.Event{send(at, client, "1", call("1")), act(at+25, client, trace.TypeAccept, "1")}
		at += 25
		for n, w := range waits {
			rid := strconv.Quote("1-r" + strconv.Itoa(n+1))
			at += w
			evs = append(evs, send(at, client, rid, call(rid)), act(at+25, client, trace.TypeAccept, rid))
			at += 25
		}
		return build(stdio, nil, evs...)
	}
	tests := []struct {
		name, want string
		tr         *trace.Trace
	}{
		{"a constant-retry-loop: max 10, delayMs 0", "false", loop(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)},
		{"a constant delay of 100 ms", "false", loop(100, 100, 100)},
		{"a shrinking wait", "false", loop(400, 200)},
		{"a growing loop", "true", loop(100, 200, 400, 800)},
		{"a loop that grows to its cap and stays there", "true", loop(100, 200, 400, 400, 400)},
		{"max 1: a single retry has no consecutive waits", absent, loop(0)},
		{"no retry", absent, loop()},
	}
	for _, tt := range tests {
		t.Run(string(checks.BackoffGrows)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, checks.BackoffGrows); got != tt.want {
				t.Errorf("%s: ok=%s, want %s", checks.BackoffGrows, got, tt.want)
			}
		})
	}
}
