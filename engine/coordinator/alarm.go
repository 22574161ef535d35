package coordinator

import "github.com/mcplab/mcplab/engine/sim"

// Alarm is the client's deadline timer for one request on the run's queue
// (package sim): it rings at the request's next deadline (Deadlines.Next)
// while the request is pending (DOMAIN.md §2). At most one ring is
// pending. The zero value is never armed; Stop on it is a no-op.
type Alarm struct {
	q     *sim.Queue
	c     *Client
	ring  func()
	timer *sim.Timer
}

// Set ties a to q and to c, the request's client half, and makes ring
// what happens at a deadline (the caller asks c.Timeout what is due). It
// arms nothing.
func (a *Alarm) Set(q *sim.Queue, c *Client, ring func()) {
	a.q, a.c = q, c
	a.ring = func() {
		a.timer = nil
		ring()
	}
}

// Arm (re)schedules the ring at c's next deadline, after any activity
// moved it; nothing is scheduled when c has no deadline left or is no
// longer pending, or when a was never Set.
func (a *Alarm) Arm() {
	a.Stop()
	if a.c == nil {
		return
	}
	at, ok := a.c.Deadlines.Next()
	if !ok || !a.c.Pending() {
		return
	}
	a.timer = a.q.Schedule(at, a.ring)
}

// Stop cancels the pending ring, if any: the request ended.
func (a *Alarm) Stop() {
	if a.q != nil {
		a.q.Stop(a.timer)
	}
	a.timer = nil
}
