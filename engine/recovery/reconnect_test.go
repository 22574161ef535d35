package recovery_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/trace"
)

// DOMAIN.md §9: under 2026-07-28 the reference reconnect opens a new
// listen request <id>-retry without Last-Event-ID and refetches the sorted
// unique affected ids; resuming keeps the id, sends Last-Event-ID and
// refetches nothing.
func TestReconnectPlanOrResume(t *testing.T) {
	rec, plan := recovery.Reconnect("L", []string{"b", "a", "b"}, "client-1", false)
	if rec.NewID != "L-retry" || rec.SendLastEventID || len(rec.Refetch) != 2 || rec.Refetch[0] != "a" || plan.NewID != "L-retry" {
		t.Fatalf("new stream: %+v; want L-retry, no Last-Event-ID, refetch [a b]", rec)
	}
	if d := rec.DelaysMs; len(d) != 1 || d[0] != recovery.ReferenceDelay("client-1", 0) {
		t.Fatalf("delays %v; want the reference delay of attempt 0", d)
	}
	rec, _ = recovery.Reconnect("L", []string{"a"}, "client-1", true)
	if rec.NewID != "L" || !rec.SendLastEventID || len(rec.Refetch) != 0 {
		t.Fatalf("resume: %+v; want the same id, Last-Event-ID, no refetch", rec)
	}
}

// DOMAIN.md §5: no side effect is safe; a side effect with an
// idempotencyKey is conditional; without one (or with null), unsafe.
func TestRetryClass(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		effect *bool
		args   string
		want   string
	}{{nil, `{}`, trace.RetrySafe}, {&no, `{"idempotencyKey":"k"}`, trace.RetrySafe}, {&yes, `{"idempotencyKey":"k"}`, trace.RetryConditional},
		{&yes, `{"idempotencyKey":null}`, trace.RetryUnsafe}, {&yes, `{}`, trace.RetryUnsafe}} {
		if got := recovery.RetryClass(c.effect, json.RawMessage(c.args)); got != c.want {
			t.Errorf("RetryClass(%v, %s) = %s; want %s", c.effect, c.args, got, c.want)
		}
	}
}

// herd.compare runs the same herd under every strategy, in the order of
// Strategies, from the same draws: the compared run of the herd's own
// strategy equals the herd's result.
func TestRunHerdsCompare(t *testing.T) {
	c := recovery.HerdConfig{Clients: 50, Strategy: recovery.Reference, BaseMs: 100, CapMs: 2000, CapacityPerSecond: 20, MaxAttempts: 5, BucketMs: 100}
	r, all := recovery.RunHerds(c, true)
	if len(all) != len(recovery.Strategies) {
		t.Fatalf("%d compared runs; want one per strategy (%d)", len(all), len(recovery.Strategies))
	}
	for i, s := range recovery.Strategies {
		if s == recovery.Reference && fmt.Sprint(all[i]) != fmt.Sprint(r) {
			t.Errorf("the compared reference run differs from the herd's own run")
		}
	}
	if _, none := recovery.RunHerds(c, false); none != nil {
		t.Error("compare false still ran the other strategies")
	}
}

// A listen filter covers its resource subscriptions and, with
// toolsListChanged, the tool list: what a client refetches after losing
// the stream blind (DOMAIN.md §9).
func TestCoveredByFilter(t *testing.T) {
	got := recovery.Covered(json.RawMessage(`{"toolsListChanged":true,"resourceSubscriptions":["file:///a","file:///b"]}`))
	if fmt.Sprint(got) != "[file:///a file:///b tools]" {
		t.Fatalf("Covered = %v; want [file:///a file:///b tools]", got)
	}
	if got := recovery.Covered(json.RawMessage(`{}`)); len(got) != 0 {
		t.Fatalf("empty filter covers %v; want nothing", got)
	}
}
