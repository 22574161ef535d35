package sse_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/sse"
)

// TestStreamTimers proves the stream's two clocks (DOMAIN.md §7–8): the
// consumer drains on the stream's tick grid (every drainEveryMs ms from
// the open, batch messages at a time) while the buffer holds messages; a
// cancellation's Discard stops the pending drain; the proxy closes the
// stream idleCloseMs ms after the last byte, each byte restarting the clock.
func TestStreamTimers(t *testing.T) {
	var q sim.Queue
	var drained []string
	var closedAt []int64
	buf, _ := sse.New[sse.Msg](8, sse.EvictProgress)
	s := sse.NewStream(0, buf, sse.Proxy[sse.Sent]{IdleCloseMs: 250})
	s.Attach(&q, &scenario.Consumer{DrainEveryMs: 100, Batch: 1},
		func(m sse.Msg) { drained = append(drained, fmt.Sprintf("%s@%d", m.Msg, q.Now())) },
		func() { closedAt = append(closedAt, q.Now()) })
	q.Schedule(30, func() {
		for _, m := range []string{"a", "b", "c"} {
			s.Push(q.Now(), sse.Msg{Msg: []byte(m), Final: true})
			s.ArmDrain()
		}
	})
	q.Schedule(120, func() { s.ArmIdle() }) // a byte passes the proxy at 120 ms
	if err := q.Run(100); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a@100", "b@200", "c@300"}; !slices.Equal(drained, want) {
		t.Errorf("drained %v, want %v (one per 100 ms tick from the open)", drained, want)
	}
	// The idle close is background: the run ends with the last drain at
	// 300 ms, after the close due at 120 + 250 = 370 ms was restarted once.
	if len(closedAt) != 0 {
		t.Errorf("idle close ran at %v; it must not keep the run going past its last foreground action", closedAt)
	}

	var q2 sim.Queue
	drained = nil
	buf2, _ := sse.New[sse.Msg](8, sse.EvictProgress)
	s2 := sse.NewStream(0, buf2, sse.Proxy[sse.Sent]{IdleCloseMs: 50})
	s2.Attach(&q2, &scenario.Consumer{DrainEveryMs: 100, Batch: 0},
		func(m sse.Msg) { drained = append(drained, string(m.Msg)) },
		func() { closedAt = append(closedAt, q2.Now()) })
	q2.Schedule(10, func() {
		s2.Push(q2.Now(), sse.Msg{Msg: []byte("x"), Progress: true, Token: `"t"`})
		s2.ArmDrain()
	})
	q2.Schedule(40, func() { s2.ArmIdle() })
	q2.Schedule(60, func() {
		if _, _, ok := s2.Discard(q2.Now()); !ok {
			t.Error("Discard of an open buffer: ok false")
		}
	})
	q2.Schedule(200, func() {}) // keeps the run going past the idle close
	if err := q2.Run(100); err != nil {
		t.Fatal(err)
	}
	if len(drained) != 0 {
		t.Errorf("drained %v after the discard at 60 ms; the drain due at 100 ms must be stopped", drained)
	}
	if want := []int64{90}; !slices.Equal(closedAt, want) {
		t.Errorf("idle close at %v, want %v (50 ms after the byte at 40 ms, which restarted the clock started at 0)", closedAt, want)
	}
}

// TestKeepalives proves the keep-alive clock (DOMAIN.md §8): a comment
// every everyMs ms while the server writes the stream, none once it stops
// writing or the clock is stopped.
func TestKeepalives(t *testing.T) {
	var q sim.Queue
	var at []int64
	var k sse.Keepalives
	writing := true
	k.Start(&q, 100, func() bool { return writing }, func(m sse.Msg) {
		if m.Comment == "" {
			t.Errorf("keep-alive %+v carries no comment", m)
		}
		at = append(at, q.Now())
	})
	q.Schedule(250, func() { writing = false }) // the server stops writing
	q.Schedule(450, func() {})                  // the run goes on to 450 ms
	if err := q.Run(100); err != nil {
		t.Fatal(err)
	}
	if want := []int64{100, 200}; !slices.Equal(at, want) {
		t.Errorf("comments at %v, want %v: every 100 ms while the server writes the stream", at, want)
	}

	var q2 sim.Queue
	var k2 sse.Keepalives
	n := 0
	k2.Start(&q2, 100, func() bool { return true }, func(sse.Msg) { n++ })
	q2.Schedule(150, k2.Stop)
	q2.Schedule(500, func() {})
	if err := q2.Run(100); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d comments; want 1 (at 100 ms) before Stop at 150 ms", n)
	}

	var q3 sim.Queue
	var k3 sse.Keepalives
	at = nil
	k3.Restart() // never started: a no-op
	k3.Start(&q3, 100, func() bool { return true }, func(sse.Msg) { at = append(at, q3.Now()) })
	q3.Schedule(150, k3.Restart) // a resumed stream keeps alive as a fresh one
	q3.Schedule(300, func() {})
	if err := q3.Run(100); err != nil {
		t.Fatal(err)
	}
	if want := []int64{100, 250}; !slices.Equal(at, want) {
		t.Errorf("comments at %v, want %v: one chain, restarted at 150 ms", at, want)
	}
}
