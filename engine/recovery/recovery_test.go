package recovery

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestReferenceDelayPinned proves DOMAIN.md §10 bit for bit: the values were
// computed independently (Python hashlib) from ceiling = min(8000, 250*2^a),
// floor = max(1, ceiling/2), floor + uint32(SHA-256("<id>:<a>")[:4]) mod
// (ceiling-floor+1).
func TestReferenceDelayPinned(t *testing.T) {
	want := map[string][]int64{
		"client-0":  {191, 316, 899, 1716, 2389, 6423, 5943, 4071},
		"client-1":  {156, 305, 963, 1310, 3889, 7315, 7291, 5885},
		"client-42": {232, 498, 549, 1617, 3536, 6220, 6233, 6961},
		"alice":     {127, 391, 813, 1754, 2288, 4982, 7448, 6235},
	}
	for id, ds := range want {
		for a, d := range ds {
			if got := ReferenceDelay(id, a); got != d {
				t.Errorf("ReferenceDelay(%q, %d) = %d, want %d", id, a, got, d)
			}
		}
	}
}

// TestStrategyBounds proves every strategy stays inside its window and the
// reference bounds of DOMAIN.md §10: attempt 0 <= 250 ms, attempt 1 <= 500,
// attempt 2 <= 1000, every attempt <= 8000 and >= 1.
func TestStrategyBounds(t *testing.T) {
	for _, s := range Strategies {
		for i := 0; i < 300; i++ {
			var b Backoff
			b.Reset(s, ReferenceBaseMs, ReferenceCapMs, fmt.Sprintf("client-%d", i))
			for a := 0; a < 12; a++ {
				w := b.Window(a)
				d := b.Delay(a)
				if d < w.Lo || d > w.Hi {
					t.Fatalf("%s client-%d attempt %d: delay %d outside window [%d, %d]", s, i, a, d, w.Lo, w.Hi)
				}
				if d > ReferenceCapMs {
					t.Fatalf("%s: delay %d above the cap", s, d)
				}
				if s == Reference || s == EqualJitter {
					if limit := Ceiling(250, 8000, a); d > limit || d < 1 || d < limit/2 {
						t.Fatalf("%s attempt %d: delay %d outside [%d, %d]", s, a, d, limit/2, limit)
					}
				}
				if s == None && d != ReferenceBaseMs {
					t.Fatalf("none: delay %d, want the constant base 250", d)
				}
			}
		}
	}
	for a, limit := range []int64{250, 500, 1000, 2000, 4000, 8000, 8000, 8000} {
		if c := Ceiling(250, 8000, a); c != limit {
			t.Errorf("Ceiling(attempt %d) = %d, want %d", a, c, limit)
		}
	}
	if c := Ceiling(250, 8000, 200); c != 8000 {
		t.Errorf("Ceiling must not overflow at large attempts: got %d", c)
	}
}

// TestHerdInvariants proves the herd rules of SCENARIO.md on every strategy:
// each client reconnects or exhausts its attempts, admitted per second never
// exceeds the capacity, buckets add up to the attempts, and with no backoff
// the first bucket holds the whole herd.
func TestHerdInvariants(t *testing.T) {
	for _, s := range Strategies {
		t.Run(s, func(t *testing.T) {
			c := HerdConfig{Clients: 5000, Strategy: s, BaseMs: 250, CapMs: 8000, CapacityPerSecond: 400, MaxAttempts: 10, BucketMs: 100}
			r := RunHerd(c)
			if r.Reconnected+r.Exhausted != c.Clients {
				t.Fatalf("reconnected %d + exhausted %d != %d clients", r.Reconnected, r.Exhausted, c.Clients)
			}
			if r.PeakAdmittedPerSecond > c.CapacityPerSecond {
				t.Fatalf("admitted %d in one second, capacity %d", r.PeakAdmittedPerSecond, c.CapacityPerSecond)
			}
			perSecond := map[int64]int64{}
			var sum, admitted int64
			for k, b := range r.Buckets {
				sum += b[1]
				admitted += r.Admitted[k][1]
				perSecond[b[0]/1000] += r.Admitted[k][1]
			}
			for sec, n := range perSecond {
				if n > int64(c.CapacityPerSecond) {
					t.Fatalf("second %d admitted %d > capacity", sec, n)
				}
			}
			if sum != int64(r.Attempts) || admitted != int64(r.Reconnected) {
				t.Fatalf("buckets sum %d (attempts %d), admitted %d (reconnected %d)", sum, r.Attempts, admitted, r.Reconnected)
			}
			if s == None && r.PeakPerBucket != c.Clients {
				t.Fatalf("no backoff: peak %d, want the whole herd %d in lockstep", r.PeakPerBucket, c.Clients)
			}
			if s == None {
				for _, b := range r.Buckets {
					if k := (b[0] + 249) / 250 * 250; b[1] > 0 && k >= b[0]+c.BucketMs {
						t.Fatalf("no backoff: %d attempts in bucket %d; refused clients must come back in lockstep every 250 ms", b[1], b[0])
					}
				}
			} else if none := RunHerd(HerdConfig{Clients: 5000, Strategy: None, BaseMs: 250, CapMs: 8000, CapacityPerSecond: 400, MaxAttempts: 10, BucketMs: 100}); r.PeakPerBucket >= none.PeakPerBucket {
				t.Fatalf("%s: peak %d per bucket, no better than no backoff's %d", s, r.PeakPerBucket, none.PeakPerBucket)
			}
			a, _ := json.Marshal(RunHerd(c))
			if b, _ := json.Marshal(r); string(a) != string(b) {
				t.Fatal("the herd is not deterministic")
			}
		})
	}
}

// TestHerdSampleMatchesReference proves the sampled draws of the herd are the
// reference delays of the same client ids and attempts.
func TestHerdSampleMatchesReference(t *testing.T) {
	r := RunHerd(HerdConfig{Clients: 3000, Strategy: Reference, BaseMs: 250, CapMs: 8000, CapacityPerSecond: 100, MaxAttempts: 6, BucketMs: 100})
	if len(r.Sample) != MaxSampleShown {
		t.Fatalf("sample of %d clients, want %d", len(r.Sample), MaxSampleShown)
	}
	for _, s := range r.Sample {
		at := int64(0)
		for _, d := range s.Draws {
			if want := ReferenceDelay(s.ClientID, d.Attempt); d.DelayMs != want {
				t.Fatalf("%s attempt %d: delay %d, want %d", s.ClientID, d.Attempt, d.DelayMs, want)
			}
			at += d.DelayMs
			if d.AtMs != at {
				t.Fatalf("%s attempt %d at %d, want %d (cumulative delays)", s.ClientID, d.Attempt, d.AtMs, at)
			}
		}
	}
}

// TestPlan proves the reference reconnect plan of DOMAIN.md §9.
func TestPlan(t *testing.T) {
	p := NewPlan("sub-1", []string{"tool:b", "res:a", "tool:b"})
	if p.NewID != "sub-1-retry" || p.SendLastEventID || p.RetryUnsafeMutation || fmt.Sprint(p.Refetch) != "[res:a tool:b]" {
		t.Fatalf("plan = %+v", p)
	}
}
