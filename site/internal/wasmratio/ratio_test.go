package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Output of BenchmarkLessonScenario as go test prints it, natively (with
// the -N GOMAXPROCS suffix) and under WebAssembly (without).
const nativeOut = `goos: linux
goarch: amd64
pkg: github.com/mcplab/mcplab/engine
BenchmarkLessonScenario/a-cancel-then-complete-2         	     300	     85028 ns/op	     83910 cpu-ns/op	   42799 B/op	     329 allocs/op
BenchmarkLessonScenario/malformed-and-unknown-cancellations-2         	     300	    329667 ns/op	    306497 cpu-ns/op	   92408 B/op	     719 allocs/op
PASS
`

const wasmOut = `goos: js
goarch: wasm
BenchmarkLessonScenario/a-cancel-then-complete         	     300	    280463 ns/op	    400000 cpu-ns/op	   42759 B/op	     329 allocs/op
BenchmarkLessonScenario/malformed-and-unknown-cancellations         	     300	    622421 ns/op	    700000 cpu-ns/op	   92318 B/op	     719 allocs/op
PASS
`

// parse reads each lesson's ns/op and cpu-ns/op and drops the GOMAXPROCS
// suffix, so the native and the wasm line of a lesson pair up.
func TestParseReadsBothFiguresPerLesson(t *testing.T) {
	nat, err := parse(nativeOut)
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := parse(wasmOut)
	if err != nil {
		t.Fatal(err)
	}
	if got := nat["a-cancel-then-complete"]; got != (sample{cpu: 83910, wall: 85028}) {
		t.Errorf("native a-cancel-then-complete = %+v, want cpu 83910, wall 85028", got)
	}
	if got := wasm["malformed-and-unknown-cancellations"]; got != (sample{cpu: 700000, wall: 622421}) {
		t.Errorf("wasm malformed-and-unknown-cancellations = %+v, want cpu 700000, wall 622421", got)
	}
	if len(nat) != 2 || len(wasm) != 2 {
		t.Errorf("lessons: native %d, wasm %d, want 2 each", len(nat), len(wasm))
	}
}

// A benchmark line without cpu-ns/op, or no benchmark line at all, is an
// error: the figure the budget divides is missing.
func TestParseRefusesOutputWithoutCPUTime(t *testing.T) {
	for _, out := range []string{
		"BenchmarkLessonScenario/a-cancel-then-complete-2 \t 300 \t 85028 ns/op\nPASS\n",
		"PASS\nok  \tgithub.com/mcplab/mcplab/engine\t0.5s\n",
	} {
		if _, err := parse(out); err == nil {
			t.Errorf("parse(%q) = nil error, want one", out)
		}
	}
}

// The budget figure is the median of the per-round ratios (each round's
// wasm over that round's native), not the ratio of two minimums from
// different rounds; each side's least CPU time is printed beside it.
func TestSummaryDividesEachSidesMinimum(t *testing.T) {
	rounds := []round{
		{n: 1, order: []string{"native", "wasm"}, figures: map[string]map[string]sample{
			"native": {"a": {cpu: 100, wall: 120}},
			"wasm":   {"a": {cpu: 500, wall: 510}},
		}},
		{n: 2, order: []string{"wasm", "native"}, figures: map[string]map[string]sample{
			"native": {"a": {cpu: 200, wall: 220}},
			"wasm":   {"a": {cpu: 260, wall: 270}},
		}},
		{n: 3, order: []string{"native", "wasm"}, figures: map[string]map[string]sample{
			"native": {"a": {cpu: 150, wall: 160}},
			"wasm":   {"a": {cpu: 450, wall: 460}},
		}},
	}
	if got := minimum(rounds, "wasm", "a"); got != (sample{cpu: 260, wall: 270}) {
		t.Errorf("minimum wasm = %+v, want round 2's {260 270}", got)
	}
	if got := median(roundRatios(rounds, "wasm", "a")); got != 3 {
		t.Errorf("median of per-round ratios 5, 1.3, 3 = %v, want 3", got)
	}
	var b strings.Builder
	if err := printSummary(&b, rounds, []string{"native", "wasm"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "wasm/native =   3.00  (budget <= 3)    ok") {
		t.Errorf("summary lacks the median ratio 3.00 within budget:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "least CPU wasm 0.000 ms, native 0.000 ms: 2.60") {
		t.Errorf("summary lacks each side's least time, 260/100 = 2.60:\n%s", b.String())
	}
}

// The shipped side compiles with the site build's flags: the list here and
// wasmGCFlags in site/internal/build/wasm.go are the same.
func TestShippedFlagsMatchTheSiteBuild(t *testing.T) {
	src, err := os.ReadFile("../build/wasm.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^var wasmGCFlags = \[\]string\{(.*)\}$`).FindSubmatch(src)
	if m == nil {
		t.Fatal("site/internal/build/wasm.go has no line `var wasmGCFlags = []string{...}`")
	}
	var want []string
	for _, f := range strings.Split(string(m[1]), ",") {
		want = append(want, strings.Trim(strings.TrimSpace(f), `"`))
	}
	if strings.Join(want, " ") != strings.Join(shippedGCFlags, " ") {
		t.Errorf("shippedGCFlags = %q, site/internal/build/wasm.go's wasmGCFlags = %q", shippedGCFlags, want)
	}
	gc, err := os.ReadFile("../../../wasm/bridge/gc.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gc), "debug.SetGCPercent("+shippedGOGC+")") {
		t.Errorf("wasm/bridge/gc.go does not set GOGC=%s", shippedGOGC)
	}
}

// With -base, a base-wasm side divides by base-native in its round (not by
// this checkout's native), and the summary prints the base's median ratio
// and each side's CPU time over its base's: the change's effect read from
// the same rounds.
func TestSummaryComparesWithTheBase(t *testing.T) {
	over := map[string]string{"wasm": "native", "base-wasm": "base-native"}
	rounds := []round{
		{n: 1, order: []string{"native", "wasm", "base-native", "base-wasm"}, over: over, figures: map[string]map[string]sample{
			"native": {"a": {cpu: 100, wall: 1}}, "wasm": {"a": {cpu: 300, wall: 1}},
			"base-native": {"a": {cpu: 100, wall: 1}}, "base-wasm": {"a": {cpu: 400, wall: 1}},
		}},
		{n: 2, order: []string{"base-wasm", "native", "wasm", "base-native"}, over: over, figures: map[string]map[string]sample{
			"native": {"a": {cpu: 200, wall: 1}}, "wasm": {"a": {cpu: 700, wall: 1}},
			"base-native": {"a": {cpu: 250, wall: 1}}, "base-wasm": {"a": {cpu: 1000, wall: 1}},
		}},
	}
	if got := roundRatios(rounds, "base-wasm", "a"); len(got) != 2 || got[0] != 4 || got[1] != 4 {
		t.Errorf("base-wasm ratios = %v, want [4 4] (each over base-native)", got)
	}
	var b strings.Builder
	if err := printSummary(&b, rounds, []string{"native", "wasm", "base-native", "base-wasm"}); err != nil {
		t.Fatal(err)
	}
	// wasm: 3 and 3.5, median 3.25; native over base 1 and 0.8: 0.9;
	// wasm over base 0.75 and 0.7: 0.725.
	for _, want := range []string{"wasm/native =   3.25", "base wasm/native =   4.00", "this over base, CPU: native 0.900, wasm 0.725"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}
