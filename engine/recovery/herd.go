package recovery

import (
	"runtime"
	"strconv"
	"sync"

	"github.com/mcplab/mcplab/engine/trace"
)

// MaxSampleShown is how many clients have every draw reported in
// Result.Sample. The herd's input limits are the scenario decoder's
// (scenario.Decode validates herd before it reaches RunHerd).
const MaxSampleShown = 8

// HerdConfig is the herd experiment of SCENARIO.md: Clients clients lose
// their listen stream at t=0 and reconnect by Strategy; the server admits at
// most CapacityPerSecond reconnects in each second [k*1000, (k+1)*1000) ms and
// refuses the rest, who back off again, up to MaxAttempts attempts each.
// RunHerd trusts c: it comes from a decoded scenario.
type HerdConfig struct {
	Clients           int
	Strategy          string
	BaseMs            int64
	CapMs             int64
	CapacityPerSecond int
	MaxAttempts       int
	BucketMs          int64
	// OutageMs: every reconnect attempted before this virtual time is
	// refused, whatever the capacity (herd.outageMs; 0 = none).
	OutageMs int64
}

// Draw is one reconnect attempt of a sampled client (trace.HerdDraw).
type Draw = trace.HerdDraw

// Sample is the full history of one of the first clients (trace.HerdSample).
type Sample = trace.HerdSample

// Result is the herd summary of a trace (trace.HerdResult).
type Result = trace.HerdResult

// RunHerd simulates c, which must be valid. It runs in O(horizon + attempts)
// time with O(horizon + clients) memory, where horizon <= MaxAttempts x CapMs.
func RunHerd(c HerdConfig) Result { return RunHerdWith(c, NewDraws(c.Clients, c.MaxAttempts)) }

// Draws holds h(i, a) = uint32(SHA-256("client-<i>:<a>")[0:4]) for the
// herd's clients. With several CPUs it is filled in parallel up front (each
// value is a pure function of (i, a): scheduling decides only who computes
// it); with one (the browser), each value is computed the first time it is
// needed, which is far fewer than clients x attempts.
type Draws struct {
	attempts int
	clients  int
	h        []uint32
	done     []bool // nil when h was filled up front
	buf      []byte
}

// NewDraws prepares the draws for clients x attempts.
func NewDraws(clients, attempts int) *Draws {
	d := &Draws{attempts: attempts, clients: clients, buf: make([]byte, 0, 64)}
	if runtime.GOMAXPROCS(0) > 1 {
		d.h = precompute(clients, attempts, "")
		return d
	}
	d.h = make([]uint32, clients*attempts)
	d.done = make([]bool, clients*attempts)
	return d
}

// At returns h(i, a).
func (d *Draws) At(i, a int) uint32 {
	k := a*d.clients + i // attempt-major: one attempt's draws are close in memory
	if d.done != nil && !d.done[k] {
		d.buf = key(d.buf, "", "client-"+strconv.Itoa(i), a)
		d.h[k] = hash32(d.buf)
		d.done[k] = true
	}
	return d.h[k]
}

// RunHerdWith is RunHerd drawing from draws (made for at least c.Clients x
// c.MaxAttempts), so several runs of one herd share their hashes.
func RunHerdWith(c HerdConfig, draws *Draws) Result {
	n := c.Clients
	horizon := int64(c.MaxAttempts)*c.CapMs + c.CapMs + 1
	// Calendar queue: head/tail per ms, a client has at most one pending
	// attempt, so the client index is the node.
	head := make([]int32, horizon)
	tail := make([]int32, horizon)
	for i := range head {
		head[i], tail[i] = -1, -1
	}
	next := make([]int32, n)
	attempt := make([]uint8, n)
	backoffs := make([]Backoff, 1)
	prevDelay := make([]int64, 0)
	if c.Strategy == Decorrelated {
		prevDelay = make([]int64, n)
	}
	push := func(t int64, client int32) {
		next[client] = -1
		if head[t] < 0 {
			head[t] = client
		} else {
			next[tail[t]] = client
		}
		tail[t] = client
	}
	r := Result{Strategy: c.Strategy, Clients: n, BucketMs: c.BucketMs, CapacityPerSecond: c.CapacityPerSecond, Buckets: [][2]int64{}, Admitted: [][2]int64{}, Sample: []Sample{}}
	shown := n
	if shown > MaxSampleShown {
		shown = MaxSampleShown
	}
	for i := 0; i < shown; i++ {
		r.Sample = append(r.Sample, Sample{ClientID: "client-" + strconv.Itoa(i), Draws: []Draw{}})
	}
	b := &backoffs[0]

	// Every strategy but decorrelated jitter draws attempt a from the same
	// window for every client: compute the windows once.
	windows := make([]Window, c.MaxAttempts)
	b.Reset(c.Strategy, c.BaseMs, c.CapMs, "")
	for a := range windows {
		windows[a] = b.Window(a)
	}
	// draw returns client i's delay for attempt a and records it if shown.
	draw := func(i int32, a int, now int64) int64 {
		w := windows[a]
		var d int64
		switch {
		case c.Strategy == Decorrelated:
			b.Reset(c.Strategy, c.BaseMs, c.CapMs, "")
			if a > 0 {
				b.prev = prevDelay[i]
			}
			w = b.Window(a)
			d = b.delayFrom(w, draws.At(int(i), a))
			prevDelay[i] = d
		case c.Strategy == None: // the constant base
			d = w.Lo
		default:
			d = w.Lo
			if span := uint32(w.Hi - w.Lo + 1); span > 1 {
				d += int64(draws.At(int(i), a) % span)
			}
		}
		if int(i) < shown {
			r.Sample[i].Draws = append(r.Sample[i].Draws, Draw{Attempt: a, WindowMs: [2]int64{w.Lo, w.Hi}, DelayMs: d, AtMs: now + d})
		}
		return d
	}
	for i := int32(0); i < int32(n); i++ {
		push(draw(i, 0, 0), i)
	}
	nb := horizon/c.BucketMs + 1
	arrivals := make([]int64, nb)
	admitted := make([]int64, nb)
	second, inSecond := int64(-1), 0
	last := int64(-1)
	var lastAdmit int64
	for t := int64(0); t < horizon; t++ {
		for head[t] >= 0 {
			// Pop the earliest-scheduled arrival at t; one pushed back to t
			// (a zero delay) goes to the end of t's list.
			i := head[t]
			head[t] = next[i]
			if head[t] < 0 {
				tail[t] = -1
			}
			r.Attempts++
			last = t
			bk := t / c.BucketMs
			arrivals[bk]++
			if s := t / 1000; s != second {
				second, inSecond = s, 0
			}
			a := int(attempt[i])
			ok := t >= c.OutageMs && inSecond < c.CapacityPerSecond
			if int(i) < shown {
				draws := r.Sample[i].Draws
				draws[len(draws)-1].Admitted = ok
			}
			if ok {
				inSecond++
				if inSecond > r.PeakAdmittedPerSecond {
					r.PeakAdmittedPerSecond = inSecond
				}
				admitted[bk]++
				r.Reconnected++
				lastAdmit = t
				continue
			}
			if a+1 >= c.MaxAttempts {
				r.Exhausted++
				continue
			}
			attempt[i] = uint8(a + 1)
			push(t+draw(i, a+1, t), i)
		}
	}
	for k := int64(0); last >= 0 && k <= last/c.BucketMs; k++ {
		r.Buckets = append(r.Buckets, [2]int64{k * c.BucketMs, arrivals[k]})
		r.Admitted = append(r.Admitted, [2]int64{k * c.BucketMs, admitted[k]})
		if int(arrivals[k]) > r.PeakPerBucket {
			r.PeakPerBucket = int(arrivals[k])
		}
	}
	if r.Exhausted == 0 {
		at := lastAdmit
		r.AllReconnectedAtMs = &at
	}
	return r
}

// precompute returns SHA-256 draws for every client and attempt, h[a*clients+i]
// = first four bytes of SHA-256("<prefix>client-<i>:<a>"). Hashing is the
// herd's main cost, and each value is a pure function of (i, a), so the
// work is split across GOMAXPROCS goroutines: scheduling decides only who
// computes a value, never the value, and the simulation reads the table
// after every worker has finished.
func precompute(clients, attempts int, prefix string) []uint32 {
	h := make([]uint32, clients*attempts)
	workers := runtime.GOMAXPROCS(0)
	if workers > clients {
		workers = clients
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := clients*w/workers, clients*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 64)
			for i := lo; i < hi; i++ {
				id := "client-" + strconv.Itoa(i)
				for a := 0; a < attempts; a++ {
					buf = key(buf, prefix, id, a)
					h[a*clients+i] = hash32(buf)
				}
			}
		}()
	}
	wg.Wait()
	return h
}
