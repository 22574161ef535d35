package recovery

import "testing"

// BenchmarkHerd100k measures the herd budget of ARCHITECTURE.md: 100,000
// clients x 10 attempts, natively, in < 100 ms.
func BenchmarkHerd100k(b *testing.B) {
	for _, s := range Strategies {
		b.Run(s, func(b *testing.B) {
			c := HerdConfig{Clients: 100_000, Strategy: s, BaseMs: 250, CapMs: 8000, CapacityPerSecond: 2000, MaxAttempts: 10, BucketMs: 100}
			var r Result
			for b.Loop() {
				r = RunHerd(c)
			}
			b.ReportMetric(float64(r.Attempts), "attempts")
		})
	}
}
