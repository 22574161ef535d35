package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// budget is the bound on WebAssembly under Node over native for a
// lesson-sized run.
const budget = 3.0

// sample is one lesson's figures from one benchmark run: CPU and wall-clock
// nanoseconds per run of the lesson.
type sample struct {
	cpu, wall float64
}

// round is one round: every side run once, in order, with the load
// average read as the round began.
type round struct {
	n       int
	load    string
	order   []string                     // the sides in the order they ran
	figures map[string]map[string]sample // side -> lesson -> figures
	over    map[string]string            // wasm side -> the native side it divides by
}

// divisor is the native side side's ratio divides by in r: r.over's
// entry, "native" for a round without one (a wasm side of this checkout).
func (r round) divisor(side string) string {
	if d, ok := r.over[side]; ok {
		return d
	}
	return "native"
}

// parse reads go test -bench output and returns, per lesson (the
// sub-benchmark's name without BenchmarkLessonScenario/ and the -N
// GOMAXPROCS suffix), its ns/op and cpu-ns/op. A line without cpu-ns/op, or
// output without any lesson, is an error: the benchmark changed.
func parse(out string) (map[string]sample, error) {
	const prefix = "BenchmarkLessonScenario/"
	fig := map[string]sample{}
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[0], prefix) {
			continue
		}
		name := strings.TrimPrefix(f[0], prefix)
		if i := strings.LastIndexByte(name, '-'); i >= 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		var s sample
		for i := 2; i+1 < len(f); i++ {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				s.wall = v
			case "cpu-ns/op":
				s.cpu = v
			}
		}
		if s.cpu <= 0 || s.wall <= 0 {
			return nil, fmt.Errorf("no ns/op and cpu-ns/op in %q", strings.TrimSpace(line))
		}
		fig[name] = s
	}
	if len(fig) == 0 {
		return nil, errors.New("no BenchmarkLessonScenario/... line in the output:\n" + out)
	}
	return fig, nil
}

// lessons lists the lessons of a round's first side, sorted.
func lessons(r round) []string {
	var names []string
	for _, side := range r.order[:1] {
		for name := range r.figures[side] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// ms formats nanoseconds as milliseconds.
func ms(ns float64) string { return fmt.Sprintf("%.3f", ns/1e6) }

// printRound prints one round: a header with the lessons, then per side (in
// the order they ran) CPU ms a run of each lesson, the wall clock in
// parentheses, and for a wasm side its ratio to native in that round.
func printRound(w io.Writer, r round) {
	fmt.Fprintf(w, "round %d, load average %s, ran %s: CPU ms a run (wall ms), × native\n", r.n, r.load, strings.Join(r.order, ", "))
	names := lessons(r)
	fmt.Fprintf(w, "  %-9s", "")
	for _, name := range names {
		fmt.Fprintf(w, " %-36s", name)
	}
	fmt.Fprintln(w)
	for _, side := range r.order {
		line := fmt.Sprintf("  %-9s", side)
		for _, name := range names {
			s := r.figures[side][name]
			cell := fmt.Sprintf("%s (%s)", ms(s.cpu), ms(s.wall))
			if nat, ok := r.figures[r.divisor(side)][name]; ok && !strings.HasSuffix(side, "native") {
				cell += fmt.Sprintf(" %.2f×", s.cpu/nat.cpu)
			}
			line += fmt.Sprintf(" %-36s", cell)
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

// minimum is the least CPU time of lesson on side over the rounds, and the
// wall clock of that round.
func minimum(rounds []round, side, lesson string) sample {
	best := sample{}
	for _, r := range rounds {
		s, ok := r.figures[side][lesson]
		if ok && (best.cpu == 0 || s.cpu < best.cpu) {
			best = s
		}
	}
	return best
}

// median is the median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// roundRatios is side over its divisor (native for a wasm side) for
// lesson in each round.
func roundRatios(rounds []round, side, lesson string) []float64 {
	var rs []float64
	for _, r := range rounds {
		rs = append(rs, sideOver(r, side, r.divisor(side), lesson)...)
	}
	return rs
}

// sideOver is side's CPU time over other's for lesson in round r, as a
// slice of one, or none when either is missing.
func sideOver(r round, side, other, lesson string) []float64 {
	s, ok1 := r.figures[side][lesson]
	n, ok2 := r.figures[other][lesson]
	if !ok1 || !ok2 || n.cpu <= 0 {
		return nil
	}
	return []float64{s.cpu / n.cpu}
}

// changeOver is the median over the rounds of side's CPU time over
// other's for lesson: with -base, how much faster (below 1) or slower this
// checkout's side is than the base's, the two measured seconds apart.
func changeOver(rounds []round, side, other, lesson string) float64 {
	var rs []float64
	for _, r := range rounds {
		rs = append(rs, sideOver(r, side, other, lesson)...)
	}
	return median(rs)
}

// printSummary prints, per lesson, the budget line of `go test`'s wasm
// build: the median over the rounds of its CPU time over native's in the
// same round (two runs seconds apart, so the load of the moment weighs on
// both; on a machine at load 10-16 the median moved about 5% from one
// make bench to the next where the ratio of each side's least time moved
// 20%), with the range of the rounds and each side's least CPU time
// beside it. The shipped build's line follows, without a verdict (the
// budget is stated for the first).
func printSummary(w io.Writer, rounds []round, sides []string) error {
	if len(rounds) == 0 {
		return errors.New("no rounds")
	}
	fmt.Fprintf(w, "wasm budget, WebAssembly under Node over native, CPU time, median of %d rounds\n", len(rounds))
	for _, name := range lessons(rounds[0]) {
		nat := minimum(rounds, "native", name)
		for _, side := range sides {
			if strings.HasSuffix(side, "native") {
				continue
			}
			if side == "base-wasm" {
				rs := roundRatios(rounds, side, name)
				if len(rs) == 0 {
					return fmt.Errorf("%s: no figures for %s", name, side)
				}
				bw, bn := minimum(rounds, side, name), minimum(rounds, "base-native", name)
				fmt.Fprintf(w, "          %-44s base wasm/native = %6.2f  [rounds %.2f–%.2f; least CPU %s ms, %s ms: %.2f]; this over base, CPU: native %.3f, wasm %.3f\n",
					"", median(rs), slices.Min(rs), slices.Max(rs), ms(bw.cpu), ms(bn.cpu), bw.cpu/bn.cpu,
					changeOver(rounds, "native", "base-native", name), changeOver(rounds, "wasm", "base-wasm", name))
				continue
			}
			s := minimum(rounds, side, name)
			rs := roundRatios(rounds, side, name)
			if len(rs) == 0 || s.cpu == 0 || nat.cpu == 0 {
				return fmt.Errorf("%s: no figures for %s", name, side)
			}
			ratio := median(rs)
			detail := fmt.Sprintf("rounds %.2f–%.2f; least CPU %s %s ms, native %s ms: %.2f",
				slices.Min(rs), slices.Max(rs), side, ms(s.cpu), ms(nat.cpu), s.cpu/nat.cpu)
			if side == "wasm" {
				verdict := "ok"
				if ratio > budget {
					verdict = "OVER BUDGET"
				}
				fmt.Fprintf(w, "  wasm    %-44s wasm/native = %6.2f  (budget <= 3)    %s  [%s]\n", "BenchmarkLessonScenario/"+name, ratio, verdict, detail)
				continue
			}
			fmt.Fprintf(w, "          %-44s as shipped  = %6.2f  (no inlining, GOGC=400)  [%s]\n", "", ratio, detail)
		}
	}
	return nil
}
