package checks_test

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// growthScenario builds a scenario with n requests of the given shape:
//   - "requests": n concurrent tools/call requests, each with a progress
//     token and a maximum timeout, all sent before the first result;
//   - "idle": n requests with an idle timeout of 100 ms that the server never
//     answers, so each ends in an idle timeout and a cancellation.
func growthScenario(shape string, n int) []byte {
	var steps []string
	for i := 1; i <= n; i++ {
		switch shape {
		case "requests":
			steps = append(steps,
				fmt.Sprintf(`{"at":%d,"do":"call","id":%d,"progressToken":"p%d","maxTimeoutMs":100000}`, i, i, i),
				fmt.Sprintf(`{"at":%d,"do":"complete","id":%d,"result":{}}`, n+i, i))
		case "idle":
			steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"call","id":%d,"idleTimeoutMs":100}`, i, i))
		}
	}
	return []byte(`{"mcplab":1,"steps":[` + strings.Join(steps, ",") + `]}`)
}

func growthTrace(tb testing.TB, shape string, n int) *trace.Trace {
	tb.Helper()
	s, err := scenario.Decode(growthScenario(shape, n))
	if err != nil {
		tb.Fatal(err)
	}
	tr, err := engine.RunWith(s, engine.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// BenchmarkEvaluate measures Evaluate alone on traces of n and 10n requests
// and reports t(10n)/t(n) as "growth" (at most 13 for many
// concurrent requests and many idle timeouts; a linear pass gives about 10).
// Both sizes are timed in the same run, interleaved, in CPU time, so a busy
// machine moves them together; see timed for the garbage collector.
func BenchmarkEvaluate(b *testing.B) {
	for _, c := range []struct {
		shape string
		n     int
	}{{"requests", 100}, {"idle", 200}} {
		small, large := growthTrace(b, c.shape, c.n), growthTrace(b, c.shape, 10*c.n)
		b.Run(c.shape, func(b *testing.B) {
			var ts, tl time.Duration
			for b.Loop() {
				ts += timed(func() { checks.Evaluate(small) })
				tl += timed(func() { checks.Evaluate(large) })
			}
			b.ReportMetric(float64(tl)/float64(ts), "growth")
			b.ReportMetric(float64(len(large.Events)), "events(10n)")
			b.ReportMetric(float64(tl.Microseconds())/1000/float64(b.N), "cpu-ms(10n)")
		})
	}
}

// timed returns the CPU time f takes (cpuTime), with the garbage collector
// paused while f runs and a collection before it: a collection's cost is
// that of the whole live heap (both traces and the runner's leftovers), so
// whether one happens to fall inside the larger call would otherwise decide
// the ratio. Allocation itself is still timed.
func timed(f func()) time.Duration {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	t := cpuTime()
	f()
	return cpuTime() - t
}
