package sse

import (
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
)

// A Stream's two clocks on the run's queue (package sim): the consumer's
// drains of the buffer (DOMAIN.md §7; SCENARIO.md, consumer) and the
// proxy's idle close (DOMAIN.md §8). The stream schedules and stops them;
// the caller says only what a drained message and an idle close do.

// timers is what Attach ties to a stream: the queue, the consumer, what
// happens when they fire, and the pending timers (nil when none).
type timers struct {
	q            *sim.Queue
	drainEveryMs int64
	batch        int
	drainFn      func()
	idleFn       func()
	drain, idle  *sim.Timer
}

// Attach puts s on queue q and returns it: the consumer (nil when the
// scenario has no buffer) drains every DrainEveryMs ms on the stream's
// tick grid (NextDrain), Batch messages at a time, and out puts each on
// the network, oldest first; idle runs when the proxy closes the stream
// after Proxy.IdleCloseMs ms without a byte, unless it declines (the
// caller checks that the stream is still read and its request still
// open). Attach starts the proxy's idle clock (ArmIdle). Drains are
// foreground timers; the idle close runs in q's background, so it never
// keeps a run going on its own.
func (s *Stream) Attach(q *sim.Queue, consumer *scenario.Consumer, out func(Msg), idle func()) *Stream {
	s.q = q
	if consumer != nil {
		s.drainEveryMs, s.batch = consumer.DrainEveryMs, consumer.Batch
	}
	s.drainFn = func() {
		s.drain = nil
		if s.Closed {
			return
		}
		for _, m := range s.Drain(q.Now(), s.batch) {
			out(m)
		}
		s.ArmDrain()
	}
	s.idleFn = func() {
		s.idle = nil
		idle()
	}
	s.ArmIdle()
	return s
}

// ArmDrain schedules the consumer's next drain while the buffer holds
// messages and none is due yet (one pending drain at most); Push's caller
// arms it after each push, and each drain re-arms it.
func (s *Stream) ArmDrain() {
	at, ok := s.NextDrain(s.q.Now(), s.drainEveryMs)
	if s.drain != nil || !ok {
		return
	}
	s.drain = s.q.Schedule(at, s.drainFn)
}

// ArmIdle restarts the proxy's idle-close clock (DOMAIN.md §8: any byte
// that passes restarts it): IdleCloseMs ms from now, unless another byte
// passes first. No-op when the proxy never closes idle streams
// (IdleCloseMs 0, or no proxy).
func (s *Stream) ArmIdle() {
	if s.Proxy.IdleCloseMs <= 0 {
		return
	}
	s.q.Stop(s.idle)
	s.idle = s.q.ScheduleBackground(s.q.Now()+s.Proxy.IdleCloseMs, s.idleFn)
}

// stopDrain cancels the pending drain, if any (the buffer was discarded).
func (s *Stream) stopDrain() {
	if s.q != nil {
		s.q.Stop(s.drain)
	}
	s.drain = nil
}

// Keepalives is a stream's keep-alive clock (DOMAIN.md §8): the server
// writes a keep-alive comment (Keepalive) every so many ms while it still
// writes the stream. The zero value is stopped.
type Keepalives struct {
	q     *sim.Queue
	every int64
	tick  func()
	timer *sim.Timer
}

// Start writes the first comment everyMs ms from now on q and one every
// everyMs ms after it, each through send, as long as writing reports that
// the server still writes the stream; no-op when everyMs <= 0 (no
// keep-alives). The comments are background timers: they never keep a run
// going on their own, or comments would beget comments forever.
func (k *Keepalives) Start(q *sim.Queue, everyMs int64, writing func() bool, send func(Msg)) {
	if everyMs <= 0 {
		return
	}
	k.q, k.every = q, everyMs
	k.tick = func() {
		if !writing() {
			return
		}
		send(Keepalive())
		k.timer = q.ScheduleBackground(q.Now()+k.every, k.tick)
	}
	k.timer = q.ScheduleBackground(q.Now()+everyMs, k.tick)
}

// Restart starts the chain again from now, as on a fresh stream (a
// stream re-attached after a resumption): the pending comment, if any, is
// stopped, so one chain runs. No-op on a clock never started.
func (k *Keepalives) Restart() {
	if k.q == nil {
		return
	}
	k.Stop()
	k.timer = k.q.ScheduleBackground(k.q.Now()+k.every, k.tick)
}

// Stop stops the clock: no comment after the final response.
func (k *Keepalives) Stop() {
	if k.q != nil {
		k.q.Stop(k.timer)
	}
}
