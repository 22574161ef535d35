package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/scenario"
)

// BenchmarkLessonScenario measures one lesson-sized scenario (<= 50 steps)
// from JSON to encoded trace, natively. Budget (ARCHITECTURE.md): < 1 ms.
func BenchmarkLessonScenario(b *testing.B) {
	for _, name := range []string{"a-cancel-then-complete", "c-progress-then-maximum", "malformed-and-unknown-cancellations"} {
		ex, ok := examples.Get(name)
		if !ok {
			b.Fatalf("no example %s", name)
		}
		s, err := scenario.Decode(ex.JSON)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Steps) > 50 {
			b.Fatalf("%s has %d steps; a lesson-sized scenario has at most 50", name, len(s.Steps))
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := engine.RunJSON(ex.JSON); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// growthScenarios are the three shapes of issue 11's growth budget, each
// at size n: many concurrent requests (n calls at once, each completed),
// many idle timeouts (n calls that never hear back), and a long progress
// stream (n progress values on one request, in produce steps of 1,000).
var growthScenarios = []struct {
	name string
	n    int
	make func(n int) []byte
}{
	{"concurrent-requests", 100, func(n int) []byte {
		var steps []string
		for i := 0; i < n; i++ {
			steps = append(steps, fmt.Sprintf(`{"at":0,"do":"call","id":%d,"name":"crunch"}`, i))
		}
		for i := 0; i < n; i++ {
			steps = append(steps, fmt.Sprintf(`{"at":100,"do":"complete","id":%d}`, i))
		}
		return []byte(growthDoc(`"transport":"stdio","latencyMs":{"up":10,"down":10}`, steps))
	}},
	{"idle-timeouts", 200, func(n int) []byte {
		var steps []string
		for i := 0; i < n; i++ {
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"call","id":%d,"name":"crunch"}`, i, i))
		}
		return []byte(growthDoc(`"transport":"stdio","latencyMs":{"up":10,"down":10},"client":{"idleTimeoutMs":500}`, steps))
	}},
	{"progress-stream", 1000, func(n int) []byte {
		steps := []string{`{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p-7"}`}
		for k := 0; k < n; k += 1000 {
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"produce","id":7,"count":%d,"everyMs":10,"fromValue":%d}`, k*10, min(1000, n-k), k))
		}
		steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"complete","id":7}`, n*10+10))
		return []byte(growthDoc(`"transport":"stdio","latencyMs":{"up":10,"down":10}`, steps))
	}},
}

func growthDoc(members string, steps []string) string {
	return `{"mcplab":1,` + members + `,"steps":[` + strings.Join(steps, ",") + `]}`
}

// BenchmarkGrowth measures a whole run (decode, simulate, check, encode)
// at n and at 10n, alternately in one benchmark so a busy machine moves
// both alike, and reports t(10n)/t(n) as "growth" (issue 11 budget: at
// most 13; linear work gives 10).
func BenchmarkGrowth(b *testing.B) {
	for _, g := range growthScenarios {
		small, large := g.make(g.n), g.make(10*g.n)
		for _, in := range [][]byte{small, large} {
			if _, err := engine.RunJSON(in); err != nil {
				b.Fatalf("%s: %v", g.name, err)
			}
		}
		b.Run(g.name, func(b *testing.B) {
			var ts, tl time.Duration
			for b.Loop() {
				start := time.Now()
				_, _ = engine.RunJSON(small)
				mid := time.Now()
				_, _ = engine.RunJSON(large)
				ts, tl = ts+mid.Sub(start), tl+time.Since(mid)
			}
			b.ReportMetric(float64(tl)/float64(ts), "growth")
			b.ReportMetric(float64(ts.Microseconds())/float64(b.N), "µs(n)/op")
		})
	}
}

// BenchmarkFloor reports, for the growth scenarios at 10n, a whole run
// (decode, simulate, check, encode) over what the standard library needs
// to decode the same trace as generic JSON and encode it again indented,
// measured alternately in one benchmark ("floor"; issue 11 budget: at most
// 0.6).
func BenchmarkFloor(b *testing.B) {
	for _, g := range growthScenarios {
		in := g.make(10 * g.n)
		out, err := engine.RunJSON(in)
		if err != nil {
			b.Fatalf("%s: %v", g.name, err)
		}
		b.Run(g.name, func(b *testing.B) {
			var tr, ts time.Duration
			for b.Loop() {
				start := time.Now()
				_, _ = engine.RunJSON(in)
				mid := time.Now()
				var v any
				_ = json.Unmarshal(out, &v)
				_, _ = json.MarshalIndent(v, "", "  ")
				tr, ts = tr+mid.Sub(start), ts+time.Since(mid)
			}
			b.ReportMetric(float64(tr)/float64(ts), "floor")
		})
	}
}
