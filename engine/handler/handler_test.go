package handler

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
)

// TestProgressCadence pins SCENARIO.md's cadence: progress k at
// k × progressEveryMs for every k with k × progressEveryMs < workMs, so
// an update never coincides with the completion; none without a cadence.
func TestProgressCadence(t *testing.T) {
	tests := []struct {
		work, every int64
		n           int
	}{
		{300, 100, 2}, // 100, 200: not 300, the completion
		{301, 100, 3}, // 100, 200, 300
		{100, 100, 0}, // the only multiple is the completion
		{99, 100, 0},
		{1000, 0, 0}, // no progressEveryMs: no progress
		{1, 1, 0},
	}
	for _, tt := range tests {
		if _, n := Progress(scenario.Handler{WorkMs: tt.work, ProgressEveryMs: tt.every}); n != tt.n {
			t.Errorf("workMs %d, progressEveryMs %d: %d updates, want %d", tt.work, tt.every, n, tt.n)
		}
	}
}

// TestCheckpoint pins when a handler notices a cancellation (DOMAIN.md §1,
// the server's side of a cancellation): at once without checkpoints, at
// its next checkpoint (a cancellation arriving exactly on one is noticed
// there), at the end of the work at the latest; a handler that ignores it
// works to the end, observing nothing.
func TestCheckpoint(t *testing.T) {
	tests := []struct {
		name           string
		work, every    int64
		start, arrives int64
		ignores        bool
		when           int64
		observed       bool
	}{
		{"no checkpoints: at once", 600, 0, 10, 260, false, 260, true},
		{"the next checkpoint", 800, 100, 10, 260, false, 310, true},
		{"arriving on a checkpoint", 800, 100, 10, 310, false, 310, true},
		{"the end is the last checkpoint", 1000, 1000, 10, 390, false, 1010, true},
		{"a checkpoint past the end is the end", 250, 100, 0, 220, false, 250, true},
		{"arriving as the work starts", 300, 50, 40, 40, false, 40, true},
		{"handlerIgnoresCancel: to the end", 800, 100, 10, 260, true, 810, false},
	}
	for _, tt := range tests {
		w := New(scenario.Handler{WorkMs: tt.work, CheckpointEveryMs: tt.every})
		w.Begin(tt.start)
		if when, obs := w.Observes(tt.arrives, tt.ignores); when != tt.when || obs != tt.observed {
			t.Errorf("%s: observes at %d (%v), want %d (%v)", tt.name, when, obs, tt.when, tt.observed)
		}
	}
}

// TestStopWastesTheWorkSinceTheArrival: the work from the cancellation's
// arrival to the stop is wasted; releaseOnCancel false keeps the resource.
func TestStopWastesTheWorkSinceTheArrival(t *testing.T) {
	for _, release := range []bool{true, false} {
		w := New(scenario.Handler{WorkMs: 800, CheckpointEveryMs: 100, Holds: "db-lock"})
		w.Begin(10)
		w.Holding = true
		w.Cancelled(260)
		_, released := w.Stop(310, "5", release)
		if w.WastedMs != 50 || released != release || w.Holding == release || !w.Done {
			t.Errorf("releaseOnCancel %v: wasted %d, released %v, holding %v; want 50, %v, %v", release, w.WastedMs, released, w.Holding, release, !release)
		}
	}
}

// TestPoolFirstComeFirstServed: a resource of capacity 2 admits two
// holders, queues the third and fourth in order, and hands each release
// to the first still waiting (one that left the queue is skipped).
func TestPoolFirstComeFirstServed(t *testing.T) {
	p := NewPool[string](map[string]int{"db": 2})
	var got []string
	for _, who := range []string{"a", "b", "c", "d", "e"} {
		got = append(got, fmt.Sprint(who, p.Acquire("db", who)))
	}
	p.Leave("db", "d")
	for range 3 {
		next, ok := p.Release("db")
		got = append(got, fmt.Sprint(next, ok))
	}
	if want := "[atrue btrue cfalse dfalse efalse ctrue etrue false]"; fmt.Sprint(got) != want {
		t.Errorf("got %v, want %s", got, want)
	}
	if c := NewPool[int](nil).Capacity("lock"); c != 1 {
		t.Errorf("an unlisted resource has capacity %d, want 1", c)
	}
}

// TestFate pins what the server's status note says a handler does about
// a cancellation observed at 260 ms (DOMAIN.md §1): it stops now without
// checkpoints, at its next checkpoint otherwise, leaves its resource's
// queue when it has not started, and works on to the end under
// handlerIgnoresCancel; respondAfterCancel still answers; without a
// handler only what is sent.
func TestFate(t *testing.T) {
	tests := []struct {
		name   string
		h      scenario.Handler
		begun  bool
		policy scenario.ServerPolicy
		want   string
	}{
		{"no checkpoints: it stops now", scenario.Handler{WorkMs: 600}, true, scenario.ServerPolicy{},
			"its handler stops now; nothing more is sent for it."},
		{"a checkpoint later than the arrival", scenario.Handler{WorkMs: 800, CheckpointEveryMs: 10000}, true, scenario.ServerPolicy{},
			"its handler works on until its next checkpoint at 810 ms, then stops; nothing more is sent for it."},
		{"the next checkpoint", scenario.Handler{WorkMs: 800, CheckpointEveryMs: 100}, true, scenario.ServerPolicy{RespondAfterCancel: true},
			"its handler works on until its next checkpoint at 310 ms, then stops; policy respondAfterCancel: the server still answers it."},
		{"handlerIgnoresCancel: to the end", scenario.Handler{WorkMs: 800, CheckpointEveryMs: 100}, true, scenario.ServerPolicy{HandlerIgnoresCancel: true},
			"its handler ignores the cancellation (policy handlerIgnoresCancel) and works on to the end at 810 ms."},
		{"waiting for its resource", scenario.Handler{WorkMs: 800, Holds: "db-lock"}, false, scenario.ServerPolicy{HandlerIgnoresCancel: true},
			"its handler, still waiting for db-lock, leaves the queue and never starts; nothing more is sent for it."},
	}
	for _, tt := range tests {
		var q sim.Queue
		q.Begin(260)
		s := NewServer(&q, scenario.Server{Policy: tt.policy})
		w := New(tt.h)
		if tt.begun {
			w.Begin(10)
		}
		if got := s.Fate(w); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	var q sim.Queue
	if got := NewServer(&q, scenario.Server{Policy: scenario.ServerPolicy{RespondAfterCancel: true}}).Fate(nil); got != "policy respondAfterCancel: the server still answers it." {
		t.Errorf("no handler: %q", got)
	}
}

// TestAnsweredWhileWaitingNeverTakesTheResource: a scripted completion of
// a call whose handler waits for its resource withdraws the handler: when
// the holder releases the resource, the answered call leaves the queue
// without taking it, its work never starts, and the next waiting call
// gets it.
func TestAnsweredWhileWaitingNeverTakesTheResource(t *testing.T) {
	var q sim.Queue
	s := NewServer(&q, scenario.Server{Resources: map[string]int{"lock": 1},
		Handlers: map[string]scenario.Handler{"x": {WorkMs: 300, Holds: "lock"}}})
	var got []string
	srvs := make([]coordinator.Server, 3)
	works := make([]*Work, 3)
	for i := range srvs {
		id := fmt.Sprint(i + 1)
		hooks := Hooks{Tell: func(e trace.Event) { got = append(got, id+" "+string(e.Type)) },
			Complete: func(json.RawMessage, *jsonrpc.ErrorObject) {
				srvs[i].Finish(q.Now(), id, []byte(`{}`), false, 0, false, coordinator.Policy{})
				got = append(got, id+" answered")
			}}
		srvs[i].Arrived = true
		works[i] = s.Start("x", true, id, nil, &srvs[i], hooks)
	}
	srvs[1].Finish(100, "2", []byte(`{}`), false, 0, false, coordinator.Policy{}) // the scripted complete step
	if err := q.Run(1000); err != nil {
		t.Fatal(err)
	}
	want := "1 acquire,2 wait,3 wait,1 answered,1 release,2 ignore,3 acquire,3 answered,3 release"
	if g := strings.Join(got, ","); g != want || works[1].Begun || !works[1].Done {
		t.Errorf("events %s (request 2 begun %v, done %v), want %s", g, works[1].Begun, works[1].Done, want)
	}
}
