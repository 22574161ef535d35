// Package recovery computes what a client does after a stream drops
// (DOMAIN.md §9–10): the reconnect plan (a new request and a refetch, never
// a replay), capped exponential backoff with deterministic jitter, the
// reconnect herd experiment (N clients reconnecting against a server with a
// capacity per second), and a 2025-11-25 client's resume position on a
// stream ([Cursor], resume.go). A listen stream's state at both ends
// (Listen: filter, what was sent and received, resumption) lives here too.
//
// Everything is deterministic: every strategy draws its jitter from the same
// uniform value, the first four bytes of SHA-256("<clientId>:<attempt>")
// (DOMAIN.md §10), never from a random source. Sharing the draws makes a
// side-by-side comparison fair (the same herd, the same luck) and lets one
// table of hashes serve every strategy.
//
// Design record: the herd is simulated with a calendar queue (one slice of
// arrivals per virtual millisecond, appended in scheduling order) rather
// than the engine's general heap, because its events are dense integer times
// and a herd of 100,000 clients x 10 attempts must run in under 100 ms
// (ARCHITECTURE.md budgets). Ties keep the (time, order scheduled) rule.
package recovery

import (
	"encoding/binary"
	"sort"
	"strconv"

	"github.com/mcplab/mcplab/engine/internal/sha256"
	"github.com/mcplab/mcplab/engine/scenario"
)

// Strategy names (SCENARIO.md, herd.strategy): scenario.HerdStrategies
// lists every one the format accepts.
const (
	Reference    = scenario.HerdReference    // DOMAIN.md §10 exactly
	None         = scenario.HerdNone         // constant baseMs, no growth, no jitter
	FullJitter   = scenario.HerdFullJitter   // uniform in [0, ceiling]
	EqualJitter  = scenario.HerdEqualJitter  // ceiling/2 + uniform in [0, ceiling/2]
	Decorrelated = scenario.HerdDecorrelated // min(cap, uniform in [base, 3 x previous])
	// Exponential is capped exponential backoff without jitter,
	// min(cap, base x 2^attempt) for every client: each wave returns in
	// lockstep (failure lockstep-backoff, bug-ops/zeph#4574). It is not in
	// Strategies, so herd.compare shows the same five strategies as before.
	Exponential = scenario.HerdExponential
)

// Strategies lists the strategies herd.compare runs side by side, in the
// order pages show them: every one of scenario.HerdStrategies but
// Exponential.
var Strategies = []string{Reference, None, FullJitter, EqualJitter, Decorrelated}

// ReferenceBaseMs and ReferenceCapMs are the reference backoff's base and
// cap (DOMAIN.md §10).
const (
	ReferenceBaseMs = 250
	ReferenceCapMs  = 8000
)

// Ceiling returns min(capMs, baseMs * 2^attempt) in ms, without overflow.
func Ceiling(baseMs, capMs int64, attempt int) int64 {
	c := baseMs
	for i := 0; i < attempt && c < capMs; i++ {
		c *= 2
	}
	if c > capMs {
		c = capMs
	}
	return c
}

// hash32 returns the first four bytes, big-endian, of SHA-256(s).
func hash32(buf []byte) uint32 {
	sum := sha256.Sum256(buf)
	return binary.BigEndian.Uint32(sum[:4])
}

// key appends "<prefix><clientID>:<attempt>" to buf.
func key(buf []byte, prefix, clientID string, attempt int) []byte {
	buf = append(buf[:0], prefix...)
	buf = append(buf, clientID...)
	buf = append(buf, ':')
	return strconv.AppendInt(buf, int64(attempt), 10)
}

// Window is the range a delay is drawn from, in ms, both ends inclusive.
type Window struct{ Lo, Hi int64 }

// ReferenceDelay returns the reference backoff delay in ms for attempt >= 0
// of clientID (DOMAIN.md §10): ceiling = min(8000, 250 x 2^attempt), floor =
// max(1, ceiling/2), delay = floor + uint32(SHA-256("<clientId>:<attempt>")[0:4])
// mod (ceiling - floor + 1). Attempt 0 is at most 250 ms, attempt 1 at most
// 500, attempt 2 at most 1000, and every attempt at most 8000.
func ReferenceDelay(clientID string, attempt int) int64 {
	var b Backoff
	b.Reset(Reference, ReferenceBaseMs, ReferenceCapMs, clientID)
	return b.Delay(attempt)
}

// Backoff computes one client's successive delays for a strategy. The zero
// value is not usable; call Reset. It keeps a scratch buffer and the
// previous delay (decorrelated jitter depends on it), so one Backoff serves
// many clients in turn without allocating.
type Backoff struct {
	strategy  string
	base, cap int64
	client    string
	prev      int64
	buf       []byte
}

// Reset prepares b for clientID under strategy with baseMs and capMs
// (baseMs >= 1, capMs >= baseMs).
func (b *Backoff) Reset(strategy string, baseMs, capMs int64, clientID string) {
	b.strategy, b.base, b.cap, b.client, b.prev = strategy, baseMs, capMs, clientID, baseMs
	if b.buf == nil {
		b.buf = make([]byte, 0, 64)
	}
}

// Window returns the range the delay of attempt is drawn from (ms).
func (b *Backoff) Window(attempt int) Window {
	switch b.strategy {
	case None:
		return Window{b.base, b.base}
	case Exponential:
		c := Ceiling(b.base, b.cap, attempt)
		return Window{c, c}
	case FullJitter:
		return Window{0, Ceiling(b.base, b.cap, attempt)}
	case Decorrelated:
		hi := b.prev * 3
		if hi > b.cap {
			hi = b.cap
		}
		if hi < b.base {
			hi = b.base
		}
		return Window{b.base, hi}
	default: // Reference and EqualJitter
		c := Ceiling(b.base, b.cap, attempt)
		floor := c / 2
		if floor < 1 {
			floor = 1
		}
		if floor > c {
			floor = c
		}
		return Window{floor, c}
	}
}

// Delay returns the delay in ms before attempt (0 is the first reconnect).
// Attempts must be asked in order 0, 1, 2 ... for decorrelated jitter.
func (b *Backoff) Delay(attempt int) int64 {
	w := b.Window(attempt)
	if w.Hi <= w.Lo {
		b.prev = w.Lo
		return w.Lo
	}
	b.buf = key(b.buf, "", b.client, attempt)
	return b.delayFrom(w, hash32(b.buf))
}

// delayFrom draws from w with the hash h of "<prefix><clientId>:<attempt>".
func (b *Backoff) delayFrom(w Window, h uint32) int64 {
	d := w.Lo
	if w.Hi > w.Lo {
		d += int64(h % uint32(w.Hi-w.Lo+1))
	}
	b.prev = d
	return d
}

// Plan is the reference reconnect plan after a subscriptions/listen stream
// drops under 2026-07-28 (DOMAIN.md §9).
type Plan struct {
	PreviousID          string   `json:"previousId"`
	NewID               string   `json:"newId"`           // previousId + "-retry"
	SendLastEventID     bool     `json:"sendLastEventId"` // false: no resumption in 2026-07-28
	Refetch             []string `json:"refetch"`         // sorted unique affected ids
	RetryUnsafeMutation bool     `json:"retryUnsafeMutation"`
}

// NewPlan returns the reference plan: a new request id previousID+"-retry",
// no Last-Event-ID, a refetch of the sorted unique affected ids, and never
// a replay of an unsafe mutation whose response was lost.
func NewPlan(previousID string, affected []string) Plan {
	seen := map[string]bool{}
	refetch := []string{}
	for _, a := range affected {
		if !seen[a] {
			seen[a] = true
			refetch = append(refetch, a)
		}
	}
	sort.Strings(refetch)
	return Plan{PreviousID: previousID, NewID: previousID + "-retry", SendLastEventID: false, Refetch: refetch, RetryUnsafeMutation: false}
}
