package engine_test

import (
	"testing"

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
