package explore

import (
	"sort"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
)

// mapA is ARCHITECTURE.md's 64 x 64 explorer map of lesson A: the cancel's time (0..630
// ms by 10) against the latency up (0..63 ms).
var mapA = []scenario.Vary{{Path: "steps[2].at", From: 0, To: 630, ByMs: 10}, {Path: "latencyMs.up", From: 0, To: 63, ByMs: 1}}

// BenchmarkExploreVsEntry reports the explorer's cost per run over the
// cost of running the same scenarios one by one through engine/entry,
// measured alternately in one benchmark in CPU time: "explore/entry",
// budget at most 1.5 (issue: the race explorer, benchmarks). The scenarios
// are the grid points the exploration of mapA ran, as documents built
// before the clock starts, so the baseline pays nothing but entry.Run; the
// explorer pays for building each document, classifying each trace,
// refining and writing the report with its share links. It also reports
// the runs the 64 x 64 map needed ("runs", of "points" grid points).
func BenchmarkExploreVsEntry(b *testing.B) {
	a := lesson(b, "a-cancel-then-complete")
	data, _ := scenario.DeletePath(a, "explore")
	x, err := newExplorer(data, mustDecode(b, data), Options{Vary: mapA})
	if err != nil {
		b.Fatal(err)
	}
	if err := x.explore(); err != nil {
		b.Fatal(err)
	}
	var pts []point
	for p := range x.seen { // order fixed below
		pts = append(pts, p)
	}
	sort.Slice(pts, func(i, j int) bool { return less(pts[i], pts[j]) })
	docs := make([][]byte, len(pts))
	for i, p := range pts {
		docs[i] = append([]byte{}, x.document(p)...)
	}
	var te, tb time.Duration
	var runs int
	for b.Loop() {
		te += timed(func() {
			rep, err := Explore(a, Options{Vary: mapA})
			if err != nil {
				b.Fatal(err)
			}
			runs = rep.Runs
		})
		tb += timed(func() {
			for _, d := range docs {
				if _, err := entry.Run(d, entry.Document{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	if runs != len(docs) {
		b.Fatalf("the exploration ran %d points, the baseline %d", runs, len(docs))
	}
	b.ReportMetric(float64(te)/float64(tb), "explore/entry")
	b.ReportMetric(float64(runs), "runs")
	b.ReportMetric(float64(x.points), "points")
	b.ReportMetric(float64(te.Microseconds())/float64(b.N)/float64(runs), "cpu-µs/run")
}

// timed returns the CPU time f takes.
func timed(f func()) time.Duration {
	start := cpuTime()
	f()
	return cpuTime() - start
}

func mustDecode(t testing.TB, data []byte) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
