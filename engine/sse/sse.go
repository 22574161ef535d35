// Package sse models the server's bounded buffer of Server-Sent Events for
// one response stream (DOMAIN.md §7): progress is replaceable, a final
// JSON-RPC response is not.
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
// final response pushed without error is ever dropped. Each Push and Drain
// costs O(capacity).
//
// DropNewest is the known-broken naive queue: no coalescing, and a full
// queue refuses whatever arrives, the final response included. Capacity 0
// means unbounded: no coalescing, nothing dropped, memory grows with a slow
// consumer.
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
// (Progress only); Data is the message; ID is the caller's handle for it.
type Event struct {
	Kind  Kind
	Token string
	ID    int
	Data  []byte
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
type Result struct {
	Outcome Outcome
	Dropped []Event // progress evicted or replaced, or the refused event
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
type Buffer struct {
	capacity int
	policy   string
	events   []Event
	stats    Stats
}

// New returns an empty buffer. capacity 0 means unbounded; otherwise it must
// be >= 2. policy is EvictProgress (also for "") or DropNewest.
func New(capacity int, policy string) (*Buffer, error) {
	if capacity < 0 || capacity == 1 {
		return nil, fmt.Errorf("%w: got %d", ErrCapacity, capacity)
	}
	if policy == "" {
		policy = EvictProgress
	}
	if policy != EvictProgress && policy != DropNewest {
		return nil, fmt.Errorf("sse: unknown policy %q", policy)
	}
	return &Buffer{capacity: capacity, policy: policy}, nil
}

// Capacity returns the bound, 0 for unbounded.
func (b *Buffer) Capacity() int { return b.capacity }

// Len returns how many events are buffered.
func (b *Buffer) Len() int { return len(b.events) }

// Events returns a copy of the buffered events, oldest first.
func (b *Buffer) Events() []Event { return append([]Event(nil), b.events...) }

// Stats returns the counters.
func (b *Buffer) Stats() Stats { return b.stats }

func (b *Buffer) full() bool { return b.capacity > 0 && len(b.events) >= b.capacity }

// Push adds e by the buffer's policy and reports what happened. It returns
// ErrOnlyFinals (and changes nothing) when a final cannot be kept under the
// reference policy.
func (b *Buffer) Push(e Event) (Result, error) {
	var r Result
	switch {
	case b.capacity == 0:
		r.Outcome = Appended
		b.events = append(b.events, e)
	case b.policy == DropNewest:
		if b.full() {
			r = Result{Outcome: DroppedNew, Dropped: []Event{e}}
			b.lost(e)
			return r, nil
		}
		b.events = append(b.events, e)
	case e.Kind == Progress:
		if n := len(b.events); n > 0 && b.events[n-1].Kind == Progress && b.events[n-1].Token == e.Token {
			r = Result{Outcome: Coalesced, Dropped: []Event{b.events[n-1]}}
			b.events[n-1] = e
			b.stats.Coalesced++
			b.lost(r.Dropped[0])
			break
		}
		if b.full() {
			i := b.oldestProgress()
			if i < 0 {
				r = Result{Outcome: DroppedNew, Dropped: []Event{e}}
				b.lost(e)
				return r, nil
			}
			r = Result{Outcome: EvictedOlder, Dropped: []Event{b.events[i]}}
			b.lost(b.events[i])
			b.remove(i)
		}
		b.events = append(b.events, e)
	default: // a final response
		for b.full() {
			i := b.oldestProgress()
			if i < 0 {
				// Only finals remain. Removing one progress always makes
				// room, so this happens on the first pass: nothing changed.
				return Result{}, ErrOnlyFinals
			}
			r.Outcome = EvictedOlder
			r.Dropped = append(r.Dropped, b.events[i])
			b.lost(b.events[i])
			b.remove(i)
		}
		b.events = append(b.events, e)
	}
	if len(b.events) > b.stats.MaxDepth {
		b.stats.MaxDepth = len(b.events)
	}
	return r, nil
}

func (b *Buffer) lost(e Event) {
	if e.Kind == Final {
		b.stats.DroppedFinals++
		return
	}
	b.stats.DroppedProgress++
	b.stats.NeedsRefetch = true
}

func (b *Buffer) oldestProgress() int {
	for i, e := range b.events {
		if e.Kind == Progress {
			return i
		}
	}
	return -1
}

func (b *Buffer) remove(i int) { b.events = append(b.events[:i], b.events[i+1:]...) }

// Drain removes and returns up to n of the oldest events (all when n <= 0).
func (b *Buffer) Drain(n int) []Event {
	if n <= 0 || n > len(b.events) {
		n = len(b.events)
	}
	out := append([]Event(nil), b.events[:n]...)
	b.events = append(b.events[:0], b.events[n:]...)
	for _, e := range out {
		if e.Kind == Final {
			b.stats.FinalsDelivered++
		}
	}
	return out
}
