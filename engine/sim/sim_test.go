package sim

import (
	"errors"
	"fmt"
	"testing"
)

// TestOrderTimeThenScheduling proves the determinism rule of SCENARIO.md:
// actions run by time, and equal times run in the order they were scheduled.
func TestOrderTimeThenScheduling(t *testing.T) {
	var q Queue
	var got []string
	for i, at := range []int64{30, 10, 20, 10, 30, 10} {
		name := fmt.Sprintf("%d@%d", i, at)
		q.Schedule(at, func() { got = append(got, name) })
	}
	if err := q.Run(100); err != nil {
		t.Fatal(err)
	}
	want := "[1@10 3@10 5@10 2@20 0@30 4@30]"
	if fmt.Sprint(got) != want {
		t.Fatalf("order = %v, want %s", got, want)
	}
}

// TestStopAndReschedule proves a stopped timer never runs and that a timer
// scheduled while running at the same time runs after the ones already due.
func TestStopAndReschedule(t *testing.T) {
	var q Queue
	var got []string
	a := q.Schedule(5, func() { got = append(got, "a") })
	q.Schedule(5, func() {
		got = append(got, "b")
		q.Schedule(5, func() { got = append(got, "d") })
		q.Schedule(1, func() { got = append(got, "e-past") }) // clamps to now
	})
	q.Schedule(5, func() { got = append(got, "c") })
	if !q.Stop(a) || q.Stop(a) {
		t.Fatal("Stop must succeed once")
	}
	if err := q.Run(100); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[b c d e-past]" || q.Now() != 5 {
		t.Fatalf("got %v at %d", got, q.Now())
	}
}

// TestBackgroundDoesNotKeepAlive proves periodic background timers stop once
// no foreground work remains, and the action limit is enforced.
func TestBackgroundDoesNotKeepAlive(t *testing.T) {
	var q Queue
	ticks := 0
	var tick func()
	tick = func() { ticks++; q.ScheduleBackground(q.Now()+10, tick) }
	q.ScheduleBackground(10, tick)
	q.Schedule(35, func() {})
	if err := q.Run(100); err != nil {
		t.Fatal(err)
	}
	if ticks != 3 {
		t.Fatalf("ticks = %d, want 3 (at 10, 20, 30)", ticks)
	}
	var r Queue
	var loop func()
	loop = func() { r.Schedule(r.Now()+1, loop) }
	r.Schedule(0, loop)
	if err := r.Run(50); !errors.Is(err, ErrTooManyActions) {
		t.Fatalf("err = %v, want ErrTooManyActions", err)
	}
}

// A timer scheduled counts toward the limit even if it never runs: one
// action that schedules more timers than the limit fails the run, and the
// queue holds no more than the limit.
func TestScheduledTimersCount(t *testing.T) {
	var q Queue
	q.Schedule(0, func() {
		for i := 0; i < 1000; i++ {
			q.ScheduleBackground(q.Now()+1000, func() {})
		}
	})
	if err := q.Run(100); !errors.Is(err, ErrTooManyActions) {
		t.Fatalf("err = %v, want ErrTooManyActions", err)
	}
	if len(q.h) > 100 {
		t.Fatalf("the queue holds %d timers past the limit of 100", len(q.h))
	}
}
