package checks_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// The rules for the failures of the field (SCENARIO.md, "Switches for the
// failures real software shows"), each proven on hand-built traces: the
// correct behaviour passes, the broken one fails, and a legitimate case the
// rule must not flag passes.

// verdictOf returns the ok text of rule in tr's checks, or absent.
func verdictOf(t *testing.T, tr *trace.Trace, rule string) string {
	t.Helper()
	for _, c := range checks.Evaluate(tr) {
		if c.Rule == rule {
			if c.Detail == "" {
				t.Errorf("%s has no detail", rule)
			}
			return okText(c.OK)
		}
	}
	return absent
}

// herd builds a herd result whose sampled clients drew delays[i] for
// attempt a (a one-point window when point), with arrivals per bucket.
func herd(point bool, buckets [][2]int64, delays ...[]int64) *trace.Trace {
	h := &trace.HerdResult{Strategy: "x", Clients: 10000, BucketMs: 100, CapacityPerSecond: 2000, Buckets: buckets, Reconnected: 10000}
	end := int64(9000)
	h.AllReconnectedAtMs = &end
	for i, ds := range delays {
		s := trace.HerdSample{ClientID: "client-" + string(rune('0'+i))}
		for a, d := range ds {
			w := [2]int64{d / 2, d}
			if point {
				w = [2]int64{d, d}
			}
			s.Draws = append(s.Draws, trace.HerdDraw{Attempt: a, WindowMs: w, DelayMs: d})
		}
		h.Sample = append(h.Sample, s)
	}
	tr := build(nil, nil)
	tr.Herd = h
	return tr
}

// TestHerdRules proves herd-jittered and herd-all-reconnect (DOMAIN.md §10,
// failure lockstep-backoff): equal delays from a one-point window and a
// whole wave in one bucket are lockstep; jittered delays that happen to
// coincide for one client pair are not.
func TestHerdRules(t *testing.T) {
	spread := [][2]int64{{100, 5905}, {200, 4095}, {500, 3210}, {600, 2809}}
	lockstep := [][2]int64{{200, 10000}, {300, 0}, {700, 8000}}
	tests := []struct {
		name, rule, want string
		tr               *trace.Trace
	}{
		{"jittered delays differ", checks.HerdJittered, "true", herd(false, spread, []int64{140, 400}, []int64{210, 300})},
		{"exponential without jitter: equal delays", checks.HerdJittered, "false", herd(true, lockstep, []int64{250, 500}, []int64{250, 500})},
		{"a jittered pair that coincides is not lockstep", checks.HerdJittered, "true", herd(false, spread, []int64{200, 400}, []int64{200, 300})},
		{"one sampled client cannot decide", checks.HerdJittered, "null", herd(true, lockstep, []int64{250})},
		{"spread waves pass", checks.HerdAllReconnect, "true", herd(false, spread, []int64{140}, []int64{210})},
		{"a whole wave in one bucket fails though all got in", checks.HerdAllReconnect, "false", herd(true, lockstep, []int64{250}, []int64{250})},
	}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, tt.rule); got != tt.want {
				t.Errorf("%s: ok=%s, want %s", tt.rule, got, tt.want)
			}
		})
	}
}
