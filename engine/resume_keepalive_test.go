package engine_test

import (
	"fmt"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestResumedStreamKeepsAlive proves that a resumed 2025-11-25 response
// stream restarts its keep-alive (server.keepaliveEveryMs, DOMAIN.md §8) as
// a fresh stream does: the first SSE comment on it comes keepaliveEveryMs
// after the server re-attaches it, then one every keepaliveEveryMs until
// the final response; none is written while the stream is down. Without
// it, a proxy's idle timeout would close the resumed stream of a long
// call that the fresh stream's comments had kept open (DOMAIN.md §8).
func TestResumedStreamKeepsAlive(t *testing.T) {
	cases := []struct {
		name     string
		every    int64
		dropAt   int64
		complete int64
	}{
		// The drop at 230 falls between the comments at 210 and 310: the
		// stream is down until the server re-attaches it at 230 + the
		// resume delay + 10 ms of latency.
		{"dropped between two comments", 100, 230, 1200},
		// The drop at 210 falls on a comment's tick.
		{"dropped on a comment's tick", 100, 210, 1200},
		// The dropped connection's next comment (1010) is still pending
		// when the stream is re-attached: it is not written, and one chain
		// runs from the resumption.
		{"resumed before the next comment was due", 1000, 100, 3500},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := run(t, sc(http2025+fmt.Sprintf(`,"client":{"maxTimeoutMs":5000},"server":{"keepaliveEveryMs":%d}`, c.every),
				`{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p"}`,
				fmt.Sprintf(`{"at":%d,"do":"drop","id":7}`, c.dropAt),
				fmt.Sprintf(`{"at":%d,"do":"complete","id":7}`, c.complete)))
			var resumedAt int64 = -1
			var before, after []int64
			var final int64 = -1
			for _, e := range tr.Events {
				switch {
				case e.Actor == trace.ActorServer && e.Type == trace.TypeStatus && e.ID != nil && e.ID.Raw() == "7" && resumedAt < 0 && e.At > c.dropAt:
					resumedAt = e.At
				case e.Type == trace.TypeKeepalive && e.Actor == trace.ActorServer:
					if resumedAt < 0 {
						before = append(before, e.At)
					} else {
						after = append(after, e.At)
					}
				case e.Actor == trace.ActorServer && e.Type == trace.TypeSend && final < 0 && string(e.Message) != "" && e.At >= c.complete:
					final = e.At
				}
			}
			t.Logf("resumed at %d; comments before %v, after %v; final at %d", resumedAt, before, after, final)
			if resumedAt < 0 {
				t.Fatal("the stream was never resumed")
			}
			for _, at := range before {
				if at > c.dropAt {
					t.Errorf("a keep-alive comment at %d, while the stream was down (dropped at %d)", at, c.dropAt)
				}
			}
			if len(after) == 0 {
				t.Fatalf("no keep-alive comment after the resumption at %d", resumedAt)
			}
			for i, at := range after {
				if want := resumedAt + int64(i+1)*c.every; at != want {
					t.Errorf("comment %d after the resumption at %d, want %d (every %d ms from %d)", i+1, at, want, c.every, resumedAt)
				}
			}
			if last := after[len(after)-1]; last > c.complete || last+c.every <= c.complete {
				t.Errorf("last comment at %d; want the comments to run until the final response at %d", last, c.complete)
			}
		})
	}
}
