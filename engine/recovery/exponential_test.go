package recovery

import "testing"

// TestExponentialHasNoJitter proves the exponential strategy (SCENARIO.md,
// herd.strategy; failure lockstep-backoff, bug-ops/zeph#4574): attempt a waits
// exactly min(cap, base x 2^a) for every client, so refused clients return
// in lockstep.
func TestExponentialHasNoJitter(t *testing.T) {
	want := []int64{250, 500, 1000, 2000, 4000, 8000, 8000}
	for _, client := range []string{"client-0", "client-1", "client-9999"} {
		var b Backoff
		b.Reset(Exponential, 250, 8000, client)
		for a, w := range want {
			if d := b.Delay(a); d != w {
				t.Errorf("%s attempt %d: delay %d, want %d", client, a, d, w)
			}
		}
	}
	r := RunHerd(HerdConfig{Clients: 10000, Strategy: Exponential, BaseMs: 250, CapMs: 8000, CapacityPerSecond: 2000, MaxAttempts: 10, BucketMs: 100})
	if r.PeakPerBucket != 10000 || r.Exhausted != 0 {
		t.Errorf("peak %d, exhausted %d; want the whole herd in one bucket (10000) and none exhausted", r.PeakPerBucket, r.Exhausted)
	}
}
