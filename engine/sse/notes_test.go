package sse_test

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/sse"
)

// DOMAIN.md §7: a full evict-progress buffer evicts the oldest progress for
// new progress, and a progress for the same token coalesces; DropNote tells
// the two apart.
func TestDropNoteTellsEvictionFromCoalescing(t *testing.T) {
	b, _ := sse.New[int](2, sse.EvictProgress)
	b.Push(sse.Event[int]{Kind: sse.Progress, Token: "a", ID: 0})
	res, _ := b.Push(sse.Event[int]{Kind: sse.Progress, Token: "a", ID: 1})
	if len(res.Dropped) != 1 || !strings.HasPrefix(sse.DropNote(res.Dropped[0], res, 1), "Coalesced") {
		t.Fatalf("same token: %+v; want one coalesced progress", res)
	}
	b.Push(sse.Event[int]{Kind: sse.Progress, Token: "b", ID: 2})
	res, _ = b.Push(sse.Event[int]{Kind: sse.Progress, Token: "c", ID: 3})
	if len(res.Dropped) != 1 || !strings.Contains(sse.DropNote(res.Dropped[0], res, 3), "oldest progress is evicted") {
		t.Fatalf("full buffer: %+v; want the oldest progress evicted", res)
	}
}

// The consumer drains on the grid start + k×every: from any time it picks
// the next tick strictly after it.
func TestNextDrainOnTheGrid(t *testing.T) {
	for _, c := range []struct{ start, now, every, want int64 }{{0, 0, 100, 100}, {0, 100, 100, 200}, {30, 99, 50, 130}} {
		if got := sse.NextDrain(c.start, c.now, c.every); got != c.want {
			t.Errorf("NextDrain(%d, %d, %d) = %d; want %d", c.start, c.now, c.every, got, c.want)
		}
	}
	if sse.CapText(0) != "unbounded" || sse.CapText(4) != "4" {
		t.Error("CapText: want unbounded for 0, the number otherwise")
	}
}

// TestHeaders: a Streamable HTTP response stream carries its SSE headers,
// with the no-buffering pair by reference (DOMAIN.md §8); stdio has none.
func TestHeaders(t *testing.T) {
	for _, tc := range []struct {
		rule              string
		http, noBuffering bool
		want              int
		wantAccel         string
	}{
		{"stdio has no response headers", false, true, 0, ""},
		{"the reference stream tells proxies not to buffer", true, true, 3, "no"},
		{"sseHeaders false sends the content type alone", true, false, 1, ""},
	} {
		h := sse.Headers(tc.http, tc.noBuffering)
		if len(h) != tc.want || h["X-Accel-Buffering"] != tc.wantAccel || (tc.http && h["Content-Type"] != "text/event-stream") {
			t.Errorf("%s: Headers(%v, %v) = %v; want %d headers, X-Accel-Buffering %q", tc.rule, tc.http, tc.noBuffering, h, tc.want, tc.wantAccel)
		}
	}
}
