package handler

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/trace"
)

// Pool is the server's named resources (server.resources; a handler's
// holds): each has a capacity (default 1), its holders, and the calls
// waiting for it in the order they asked (first come, first served). T
// names a waiter (the runner's request). The zero value is empty, every
// resource of capacity 1.
type Pool[T comparable] struct {
	capacity map[string]int
	held     map[string]int
	waiting  map[string][]T
}

// NewPool is a pool with the given capacities (server.resources).
func NewPool[T comparable](capacity map[string]int) *Pool[T] {
	return &Pool[T]{capacity: capacity, held: map[string]int{}, waiting: map[string][]T{}}
}

// Capacity returns how many handlers hold name at once.
func (p *Pool[T]) Capacity(name string) int {
	if c, ok := p.capacity[name]; ok {
		return c
	}
	return 1
}

// Acquire gives name to who when a unit is free (ok) and queues who
// otherwise; who then gets it from a later Release.
func (p *Pool[T]) Acquire(name string, who T) (ok bool) {
	if p.held[name] < p.Capacity(name) {
		p.held[name]++
		return true
	}
	p.waiting[name] = append(p.waiting[name], who)
	return false
}

// Release gives a unit of name back; when a call waits for it, the first
// one gets it at once (next, ok).
func (p *Pool[T]) Release(name string) (next T, ok bool) {
	if q := p.waiting[name]; len(q) > 0 {
		next, p.waiting[name] = q[0], q[1:]
		return next, true
	}
	if p.held[name] > 0 {
		p.held[name]--
	}
	return next, false
}

// Leave takes who out of name's queue (its request was cancelled while
// it waited).
func (p *Pool[T]) Leave(name string, who T) {
	q := p.waiting[name]
	for i, x := range q {
		if x == who {
			p.waiting[name] = append(q[:i:i], q[i+1:]...)
			return
		}
	}
}

// AcquireEvent is the event of request id's handler taking resource name
// at now, after waiting since waitedSince (== now: no wait).
func AcquireEvent(id, name string, now, waitedSince int64) trace.Event {
	note := "The handler of request " + id + " takes " + name + " and starts its work."
	if now > waitedSince {
		note = "The handler of request " + id + " gets " + name + " after waiting " + strconv.FormatInt(now-waitedSince, 10) + " ms, and starts its work (waiting is not work)."
	}
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeAcquire, Resource: name, Note: note}
}

// WaitEvent is the event of request id's handler waiting for resource
// name, held by others to its capacity.
func WaitEvent(id, name string, capacity int) trace.Event {
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeWait, Resource: name,
		Note: "The handler of request " + id + " needs " + name + ", held to its capacity of " + strconv.Itoa(capacity) + ": it waits, and its work has not started."}
}

// ReleaseEvent is the event of request id's handler giving resource name
// back (a finally on the way out).
func ReleaseEvent(id, name string) trace.Event {
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeRelease, Resource: name,
		Note: "The handler of request " + id + " releases " + name + " on the way out."}
}
