// Package sim is the discrete-event core of the engine: a virtual clock in
// milliseconds and a queue of scheduled actions.
//
// Determinism rule (SCENARIO.md): actions run in order of (time, order
// scheduled). The queue is a container/heap whose key is that pair, so equal
// times never come out in an order that depends on the heap's shape. Nothing
// here reads the wall clock or starts a goroutine.
package sim

import (
	"container/heap"
	"errors"
	"fmt"
)

// ErrTooManyActions is returned by Run when a scenario schedules more
// actions than the limit it was given (a guard against runaway scenarios).
// Every scheduled action counts, whether it runs, is stopped or is left
// pending in the background: a timer costs memory the moment it exists.
var ErrTooManyActions = errors.New("too many scheduled actions")

// Timer is one scheduled action. It can be stopped until it has run.
type Timer struct {
	at         int64
	seq        uint64
	index      int // position in the heap, -1 once removed
	background bool
	fn         func()
}

// At returns the virtual time (ms) the timer is due.
func (t *Timer) At() int64 { return t.at }

// Queue is the event queue and the virtual clock. The zero value is an
// empty queue at time 0. Its size is the number of pending timers; each
// Schedule costs O(log n).
type Queue struct {
	h          timers
	seq        uint64
	now        int64
	foreground int // pending timers that are not background
	abort      error
	limit      int // set by Run; 0 before
}

// Abort makes Run return err before it runs the next action: how an action
// that finds a bound exceeded (events, bytes) stops the whole run.
func (q *Queue) Abort(err error) {
	if q.abort == nil {
		q.abort = err
	}
}

// Begin sets the clock to at (ms; negative for a lifecycle that precedes
// t = 0, the 2025-11-25 handshake) when nothing has been scheduled yet;
// afterwards it does nothing.
func (q *Queue) Begin(at int64) {
	if q.seq == 0 {
		q.now = at
	}
}

// Now returns the current virtual time in ms: the due time of the action
// being run, or of the last one run.
func (q *Queue) Now() int64 { return q.now }

// Schedule runs fn at virtual time at (ms). A time in the past runs at the
// current time, after everything already scheduled for it.
func (q *Queue) Schedule(at int64, fn func()) *Timer { return q.schedule(at, fn, false) }

// ScheduleBackground is Schedule for periodic housekeeping (keep-alive
// comments): Run stops once only background timers remain, so they never
// keep a simulation alive on their own.
func (q *Queue) ScheduleBackground(at int64, fn func()) *Timer { return q.schedule(at, fn, true) }

func (q *Queue) schedule(at int64, fn func(), bg bool) *Timer {
	if at < q.now {
		at = q.now
	}
	q.seq++
	t := &Timer{at: at, seq: q.seq, fn: fn, background: bg, index: -1}
	if q.limit > 0 && q.seq > uint64(q.limit) {
		return t // Run returns ErrTooManyActions before anything else runs
	}
	heap.Push(&q.h, t)
	if !bg {
		q.foreground++
	}
	return t
}

// Stop removes t from the queue if it has not run yet and reports whether it
// did. Stopping a nil, run or stopped timer is a no-op.
func (q *Queue) Stop(t *Timer) bool {
	if t == nil || t.index < 0 || t.index >= len(q.h) || q.h[t.index] != t {
		return false
	}
	heap.Remove(&q.h, t.index)
	if !t.background {
		q.foreground--
	}
	return true
}

// Run pops and runs timers in (time, schedule order) until no foreground
// timer is left. It returns ErrTooManyActions as soon as more than limit
// actions have been scheduled (in all, counting those scheduled before Run),
// and the error given to Abort once an action calls it.
func (q *Queue) Run(limit int) error {
	q.limit = limit
	for {
		if q.seq > uint64(limit) {
			return fmt.Errorf("%w: more than %d", ErrTooManyActions, limit)
		}
		if q.abort != nil {
			return q.abort
		}
		if q.foreground == 0 {
			return nil
		}
		t := heap.Pop(&q.h).(*Timer)
		if !t.background {
			q.foreground--
		}
		q.now = t.at
		t.fn()
	}
}

// timers implements heap.Interface ordered by (at, seq).
type timers []*Timer

func (h timers) Len() int { return len(h) }
func (h timers) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h timers) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *timers) Push(x any) {
	t := x.(*Timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timers) Pop() any {
	old := *h
	n := len(old)
	t := old[n-1]
	old[n-1] = nil
	t.index = -1
	*h = old[:n-1]
	return t
}
