// Package sse models the server's bounded buffer of Server-Sent Events for
// one response stream (DOMAIN.md §7): progress is replaceable, a final
// JSON-RPC response is not. It also holds the proxy (proxy.go) and a
// 2025-11-25 server's event store for resumption ([EventStore], store.go).
//
// Reference policy (EvictProgress), for a buffer of capacity c >= 2:
//   - pushing progress when the newest buffered event is progress for the
//     same token replaces it (coalesce: one dropped progress, refetch needed);
//   - pushing progress into a full buffer first drops the oldest progress; if
//     there is none to drop, the new progress itself is dropped (counted,
//     refetch needed);
//   - pushing a final response drops the oldest progress until there is
//     room; if only finals remain, Push returns ErrOnlyFinals and the buffer
//     is unchanged (never drop one final to keep another).
//
// Invariant after every operation: Len() <= Capacity (when bounded), and no
// final response pushed without error is ever dropped.
//
// The events live in a ring: Drain takes from the front without moving
// what stays, so draining k events costs O(k) however long the queue.
// Push costs O(1) amortized, plus, when it must evict, the distance from
// the front to the oldest progress (usually at the front).
//
// DropNewest is the known-broken naive queue: no coalescing, and a full
// queue refuses whatever arrives, the final response included. Capacity 0
// means unbounded: no coalescing, nothing dropped, memory grows with a slow
// consumer.
//
// A whole response stream (Stream, opened by Open) is its buffer and the
// proxy in front of the client (Proxy: hold, flush, idle close); each of
// its moves returns the trace events that tell it, with their notes.
// Attached to the run's queue (Attach, timers.go) it also schedules its
// consumer's drains and its proxy's idle close.
package sse

import (
	"errors"
	"fmt"
)

// Policy names (SCENARIO.md, buffer.policy).
const (
	EvictProgress = "evict-progress" // the reference policy (default)
	DropNewest    = "drop-newest"    // a full queue refuses what comes next
)

// Kind tells progress from a final response.
type Kind uint8

const (
	// Progress is a notifications/progress event: replaceable.
	Progress Kind = iota
	// Final is the request's final JSON-RPC response: never dropped.
	Final
)

// Event is one buffered SSE event. Token is the progress token's JSON text
// (Progress only); Data is the caller's message (of type T, so the caller
// keeps what it knows of it beside the bytes); ID is the caller's handle.
type Event[T any] struct {
	Kind  Kind
	Token string
	ID    int
	Data  T
}

// ErrOnlyFinals is returned when a final response cannot be buffered
// because the buffer is full of final responses.
var ErrOnlyFinals = errors.New("sse: buffer full of final responses; refusing to drop one")

// ErrCapacity is returned by New for a bounded capacity below 2.
var ErrCapacity = errors.New("sse: capacity must be at least 2 (or 0 for unbounded)")

// Outcome says what a Push did.
type Outcome uint8

const (
	Appended     Outcome = iota // the event was added
	Coalesced                   // it replaced the newest progress of its token
	EvictedOlder                // it was added after dropping older progress
	DroppedNew                  // the new event itself was dropped
)

// Result reports one Push: its Outcome and the events it displaced.
type Result[T any] struct {
	Outcome Outcome
	Dropped []Event[T] // progress evicted or replaced, or the refused event
}

// Stats are the buffer's counters since New.
type Stats struct {
	MaxDepth        int  // the most events ever held at once
	DroppedProgress int  // progress values lost, coalesced ones included
	Coalesced       int  // progress values replaced by a newer one
	DroppedFinals   int  // final responses refused (DropNewest only)
	NeedsRefetch    bool // some progress was lost: the client must refetch
	FinalsDelivered int  // final responses taken out by Drain
}

// Buffer is a bounded SSE buffer. Not safe for concurrent use.
type Buffer[T any] struct {
	capacity int
	policy   string
	ring     []Event[T] // len(ring) is a power of two, or 0
	head, n  int        // the oldest event is ring[head]; n events are held
	progress int        // how many held events are progress
	stats    Stats
	depth    [][2]int64
}

// Record notes the buffer's depth at now (ms) for Depth; a second record at
// the same time replaces the first.
func (b *Buffer[T]) Record(now int64) {
	if k := len(b.depth); k > 0 && b.depth[k-1][0] == now {
		b.depth[k-1][1] = int64(b.n)
		return
	}
	b.depth = append(b.depth, [2]int64{now, int64(b.n)})
}

// Depth returns the recorded [[at ms, events held]...], one point per time
// Record was called at, in order.
func (b *Buffer[T]) Depth() [][2]int64 { return b.depth }

// New returns an empty buffer. capacity 0 means unbounded; otherwise it must
// be >= 2. policy is EvictProgress (also for "") or DropNewest.
func New[T any](capacity int, policy string) (*Buffer[T], error) {
	if capacity < 0 || capacity == 1 {
		return nil, fmt.Errorf("%w: got %d", ErrCapacity, capacity)
	}
	if policy == "" {
		policy = EvictProgress
	}
	if policy != EvictProgress && policy != DropNewest {
		return nil, fmt.Errorf("sse: unknown policy %q", policy)
	}
	return &Buffer[T]{capacity: capacity, policy: policy}, nil
}

// Capacity returns the bound, 0 for unbounded.
func (b *Buffer[T]) Capacity() int { return b.capacity }

// Len returns how many events are buffered.
func (b *Buffer[T]) Len() int { return b.n }

// Events returns a copy of the buffered events, oldest first.
func (b *Buffer[T]) Events() []Event[T] {
	out := make([]Event[T], b.n)
	for i := range out {
		out[i] = *b.at(i)
	}
	return out
}

// Stats returns the counters.
func (b *Buffer[T]) Stats() Stats { return b.stats }

func (b *Buffer[T]) full() bool { return b.capacity > 0 && b.n >= b.capacity }

// at returns the i-th oldest held event.
func (b *Buffer[T]) at(i int) *Event[T] { return &b.ring[(b.head+i)&(len(b.ring)-1)] }

// add appends e at the back, growing the ring when it is full.
func (b *Buffer[T]) add(e Event[T]) {
	if b.n == len(b.ring) {
		grown := make([]Event[T], max(8, 2*len(b.ring)))
		for i := 0; i < b.n; i++ {
			grown[i] = *b.at(i)
		}
		b.ring, b.head = grown, 0
	}
	*b.at(b.n) = e
	b.n++
	if e.Kind == Progress {
		b.progress++
	}
}

// Push adds e by the buffer's policy and reports what happened. It returns
// ErrOnlyFinals (and changes nothing) when a final cannot be kept under the
// reference policy.
func (b *Buffer[T]) Push(e Event[T]) (Result[T], error) {
	var r Result[T]
	switch {
	case b.capacity == 0:
		r.Outcome = Appended
		b.add(e)
	case b.policy == DropNewest:
		if b.full() {
			r = Result[T]{Outcome: DroppedNew, Dropped: []Event[T]{e}}
			b.lost(e)
			return r, nil
		}
		b.add(e)
	case e.Kind == Progress:
		if b.n > 0 && b.at(b.n-1).Kind == Progress && b.at(b.n-1).Token == e.Token {
			last := b.at(b.n - 1)
			r = Result[T]{Outcome: Coalesced, Dropped: []Event[T]{*last}}
			*last = e
			b.stats.Coalesced++
			b.lost(r.Dropped[0])
			break
		}
		if b.full() {
			i := b.oldestProgress()
			if i < 0 {
				r = Result[T]{Outcome: DroppedNew, Dropped: []Event[T]{e}}
				b.lost(e)
				return r, nil
			}
			r = Result[T]{Outcome: EvictedOlder, Dropped: []Event[T]{*b.at(i)}}
			b.lost(*b.at(i))
			b.remove(i)
		}
		b.add(e)
	default: // a final response
		for b.full() {
			i := b.oldestProgress()
			if i < 0 {
				// Only finals remain. Removing one progress always makes
				// room, so this happens on the first pass: nothing changed.
				return Result[T]{}, ErrOnlyFinals
			}
			r.Outcome = EvictedOlder
			r.Dropped = append(r.Dropped, *b.at(i))
			b.lost(*b.at(i))
			b.remove(i)
		}
		b.add(e)
	}
	if b.n > b.stats.MaxDepth {
		b.stats.MaxDepth = b.n
	}
	return r, nil
}

func (b *Buffer[T]) lost(e Event[T]) {
	if e.Kind == Final {
		b.stats.DroppedFinals++
		return
	}
	b.stats.DroppedProgress++
	b.stats.NeedsRefetch = true
}

func (b *Buffer[T]) oldestProgress() int {
	if b.progress == 0 {
		return -1
	}
	for i := 0; i < b.n; i++ {
		if b.at(i).Kind == Progress {
			return i
		}
	}
	return -1
}

// remove takes out the i-th oldest event, moving the i events in front of
// it one place back (the oldest progress is near the front).
func (b *Buffer[T]) remove(i int) {
	if b.at(i).Kind == Progress {
		b.progress--
	}
	for k := i; k > 0; k-- {
		*b.at(k) = *b.at(k - 1)
	}
	*b.at(0) = Event[T]{}
	b.head = (b.head + 1) & (len(b.ring) - 1)
	b.n--
}

// Drain removes and returns up to n of the oldest events (all when n <= 0).
func (b *Buffer[T]) Drain(n int) []Event[T] {
	if n <= 0 || n > b.n {
		n = b.n
	}
	out := make([]Event[T], n)
	for i := range out {
		e := b.at(i)
		out[i] = *e
		*e = Event[T]{} // let the message go
		if out[i].Kind == Final {
			b.stats.FinalsDelivered++
		} else {
			b.progress--
		}
	}
	if n > 0 {
		b.head = (b.head + n) & (len(b.ring) - 1)
		b.n -= n
	}
	return out
}
