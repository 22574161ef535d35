package sse

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

func progress(v int) Event[[]byte] { return Event[[]byte]{Kind: Progress, Token: `"p"`, ID: v} }
func final(id int) Event[[]byte]   { return Event[[]byte]{Kind: Final, ID: id} }

func describe(es []Event[[]byte]) string {
	s := "["
	for i, e := range es {
		if i > 0 {
			s += ", "
		}
		if e.Kind == Final {
			s += "final"
		} else {
			s += fmt.Sprintf("progress %d", e.ID)
		}
	}
	return s + "]"
}

// TestReferenceSixThenFinal proves DOMAIN.md §7's reference numbers:
// capacity 3, six progress values (0..5) for one token, then one final:
// the buffer holds [progress 5, final], 5 progress dropped, refetch needed.
func TestReferenceSixThenFinal(t *testing.T) {
	b, err := New[[]byte](3, EvictProgress)
	if err != nil {
		t.Fatal(err)
	}
	for v := 0; v < 6; v++ {
		if _, err := b.Push(progress(v)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Push(final(99)); err != nil {
		t.Fatal(err)
	}
	st := b.Stats()
	if got := describe(b.Events()); got != "[progress 5, final]" || st.DroppedProgress != 5 || !st.NeedsRefetch || st.Coalesced != 5 {
		t.Fatalf("buffer %s, dropped %d, coalesced %d, refetch %v; want [progress 5, final], 5, 5, true", got, st.DroppedProgress, st.Coalesced, st.NeedsRefetch)
	}
}

// TestReferenceTwentyThenFinal proves: capacity 3, twenty values then a
// final: never more than 3 events, and the last is the final.
func TestReferenceTwentyThenFinal(t *testing.T) {
	b, _ := New[[]byte](3, EvictProgress)
	for v := 0; v < 20; v++ {
		// Alternate two tokens so coalescing alone cannot keep it small.
		e := progress(v)
		if v%2 == 1 {
			e.Token = `"q"`
		}
		b.Push(e)
		if b.Len() > 3 {
			t.Fatalf("after value %d the buffer holds %d > 3", v, b.Len())
		}
	}
	b.Push(final(1))
	ev := b.Events()
	if len(ev) > 3 || ev[len(ev)-1].Kind != Final || b.Stats().MaxDepth != 3 {
		t.Fatalf("buffer %s: want at most 3 events ending with the final", describe(ev))
	}
}

// TestFullOfFinals proves a final is never dropped to keep another: a
// buffer full of finals refuses with ErrOnlyFinals and stays unchanged; new
// progress into it is itself dropped and counted.
func TestFullOfFinals(t *testing.T) {
	b, _ := New[[]byte](2, EvictProgress)
	b.Push(final(1))
	b.Push(final(2))
	if _, err := b.Push(final(3)); !errors.Is(err, ErrOnlyFinals) {
		t.Fatalf("err = %v, want ErrOnlyFinals", err)
	}
	r, err := b.Push(progress(1))
	if err != nil || r.Outcome != DroppedNew || b.Stats().DroppedProgress != 1 || !b.Stats().NeedsRefetch {
		t.Fatalf("progress into a buffer of finals: %+v %v", r, err)
	}
	if got := describe(b.Events()); got != "[final, final]" {
		t.Fatalf("buffer %s, want [final, final]", got)
	}
}

// TestCapacity proves capacity < 2 is refused and 0 means unbounded.
func TestCapacity(t *testing.T) {
	for _, c := range []int{-1, 1} {
		if _, err := New[[]byte](c, ""); !errors.Is(err, ErrCapacity) {
			t.Errorf("New(%d) err = %v, want ErrCapacity", c, err)
		}
	}
	b, _ := New[[]byte](0, "")
	for v := 0; v < 1000; v++ {
		b.Push(progress(v))
	}
	if b.Len() != 1000 || b.Stats().DroppedProgress != 0 {
		t.Fatalf("unbounded: len %d, dropped %d", b.Len(), b.Stats().DroppedProgress)
	}
}

// TestDropNewestLosesFinal proves the broken policy: a full queue refuses
// the final response.
func TestDropNewestLosesFinal(t *testing.T) {
	b, _ := New[[]byte](3, DropNewest)
	for v := 0; v < 6; v++ {
		b.Push(progress(v))
	}
	r, _ := b.Push(final(1))
	if r.Outcome != DroppedNew || b.Stats().DroppedFinals != 1 || describe(b.Events()) != "[progress 0, progress 1, progress 2]" {
		t.Fatalf("drop-newest: %+v, buffer %s", r, describe(b.Events()))
	}
}

// TestPropertyBoundAndFinals drives random push/drain sequences through the
// reference buffer and checks after every step (DOMAIN.md §7): the length
// never exceeds the capacity, and every final pushed without error is
// eventually drained, in order, exactly once.
func TestPropertyBoundAndFinals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2)) // seeded: the sequence is the same every run
	for round := 0; round < 300; round++ {
		capacity := 2 + rng.IntN(6)
		b, _ := New[[]byte](capacity, EvictProgress)
		var accepted, drained []int
		for step := 0; step < 200; step++ {
			switch rng.IntN(4) {
			case 0:
				id := round*1000 + step
				if _, err := b.Push(final(id)); err == nil {
					accepted = append(accepted, id)
				} else if !errors.Is(err, ErrOnlyFinals) {
					t.Fatal(err)
				}
			case 1:
				for _, e := range b.Drain(1 + rng.IntN(3)) {
					if e.Kind == Final {
						drained = append(drained, e.ID)
					}
				}
			default:
				e := progress(step)
				e.Token = fmt.Sprintf(`"t%d"`, rng.IntN(3))
				b.Push(e)
			}
			if b.Len() > capacity {
				t.Fatalf("round %d step %d: %d events > capacity %d", round, step, b.Len(), capacity)
			}
		}
		for _, e := range b.Drain(0) {
			if e.Kind == Final {
				drained = append(drained, e.ID)
			}
		}
		if fmt.Sprint(accepted) != fmt.Sprint(drained) {
			t.Fatalf("round %d: finals accepted %v, drained %v", round, accepted, drained)
		}
	}
}
