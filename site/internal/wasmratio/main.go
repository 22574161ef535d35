// Command wasmratio measures the performance budget "WebAssembly under Node at
// most 3× native on lesson-sized runs" for `make bench`, in one window so a
// busy machine does not move it.
//
// It compiles the engine's tests natively and for GOOS=js GOARCH=wasm
// (and a third time as the site ships its wasm, below) before it measures
// anything, so compile time is never measured, then runs
// BenchmarkLessonScenario (engine/bench_test.go: three lessons, warm, a
// fixed number of runs each) from those binaries in rounds: each round runs
// every build once, seconds apart, and the order rotates from round to
// round so neither side always runs first. A lesson's ratio in a round is
// the wasm side's CPU time per run over the native side's, two runs
// seconds apart, and the budgeted figure is the median of those ratios
// over the rounds. It prints every round's figures with the load average
// at that moment, then one budget line per lesson.
//
// The figures are CPU time per run, so a round that waited for a core is
// not slower: natively the process's CPU time (every thread, the
// collector's workers too) with GOMAXPROCS=1 by default, one thread like
// the wasm module (-native-procs to change: at 2 the collector's idle-time
// mark workers take the other core whenever it is free, and the process
// spends about twice the CPU time for the same runs); under Node its main
// thread's,
// the thread that runs the wasm module, Go's collector included (see
// engine/cputime_js_test.go; each of its two reads around a lesson's loop
// costs the main thread 1-5 ms, a few percent of a 400-run loop, which
// errs toward a higher wasm figure). Wall-clock time per run is printed
// beside it.
//
// The budget applies to `go test`'s build, which inlines as usual. The site
// ships its wasm without inlining outside the Go runtime (wasmGCFlags in
// site/internal/build/wasm.go, for size) and main.wasm runs with GOGC=400
// (wasm/bridge/gc.go); -shipped (on by default) measures that build too, as a
// third side of each round, and prints its ratio beside the budgeted one.
//
// -base DIR measures a second checkout of the repository beside this one,
// in the same rounds (sides base-native and base-wasm), so that a change's
// effect on the ratio is read from one window of load rather than from two
// runs minutes apart, whose ratios moved 10% on their own: e.g.
// `git worktree add /tmp/base HEAD~1`, then -base /tmp/base -shipped=false.
// The summary then prints the base's ratio beside each lesson's, and each
// side's CPU time over its base's in the same round (median).
//
// Usage (from the repository root): go run ./site/internal/wasmratio
// [-rounds 5] [-benchtime 400x] [-native-procs 1] [-shipped=true] [-base DIR]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcplab/mcplab/site/internal/loadavg"
)

// shippedGCFlags are site/internal/build/wasm.go's wasmGCFlags (every package but the
// Go runtime compiled without inlining); TestShippedFlagsMatchTheSiteBuild
// keeps the two lists equal.
var shippedGCFlags = []string{"-gcflags=all=-l", "-gcflags=runtime=", "-gcflags=internal/runtime/...="}

// shippedGOGC is main.wasm's collector setting (wasm/bridge/gc.go: GOGC=400).
const shippedGOGC = "400"

func main() {
	rounds := flag.Int("rounds", 5, "rounds; each runs every build once (at least 1)")
	benchtime := flag.String("benchtime", "400x", "runs of each lesson per round, as go test's -benchtime (Nx)")
	procs := flag.Int("native-procs", 1, "GOMAXPROCS of the native side (the wasm module runs on one thread)")
	shipped := flag.Bool("shipped", true, "also measure the wasm build the site ships (no inlining, GOGC=400)")
	pkg := flag.String("pkg", "./engine", "the package whose BenchmarkLessonScenario runs")
	base := flag.String("base", "", "another checkout of the repository, measured in the same rounds (sides base-native, base-wasm)")
	flag.Parse()
	if *rounds < 1 {
		fmt.Fprintln(os.Stderr, "wasmratio: -rounds must be at least 1")
		os.Exit(2)
	}
	if err := run(context.Background(), os.Stdout, config{rounds: *rounds, benchtime: *benchtime, procs: *procs, shipped: *shipped, pkg: *pkg, base: *base}); err != nil {
		fmt.Fprintln(os.Stderr, "wasmratio:", err)
		os.Exit(1)
	}
}

// config is what one measurement runs: see the flags in main.
type config struct {
	rounds    int
	benchtime string
	procs     int
	shipped   bool
	pkg       string
	base      string // another checkout's root, or ""
}

// side is one build of the benchmark and how a round runs it.
type side struct {
	name  string   // "native", "wasm", "shipped", "base-native", "base-wasm"
	over  string   // the side its ratio divides by ("" for a native side)
	root  string   // the checkout it builds from ("": this one)
	dir   string   // the package directory it runs in
	flags []string // go test -c flags beyond -o
	env   []string // environment of the build (GOOS, GOARCH)
	run   []string // environment of the run
	bin   string   // the compiled test binary
}

func run(ctx context.Context, w io.Writer, c config) error {
	goroot, err := output(ctx, nil, "go", "env", "GOROOT")
	if err != nil {
		return err
	}
	execWasm := filepath.Join(goroot, "lib", "wasm", "go_js_wasm_exec")
	if _, err := exec.LookPath("node"); err != nil {
		return errors.New("node is missing (the wasm side runs under Node); run: apt-get install -y nodejs")
	}
	tmp, err := os.MkdirTemp("", "mcplab-wasmratio-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	wasmEnv := []string{"GOOS=js", "GOARCH=wasm"}
	nativeRun := []string{fmt.Sprintf("GOMAXPROCS=%d", c.procs)}
	sides := []*side{
		{name: "native", run: nativeRun},
		{name: "wasm", over: "native", env: wasmEnv},
	}
	if c.shipped {
		sides = append(sides, &side{name: "shipped", over: "native", env: wasmEnv, flags: shippedGCFlags, run: []string{"GOGC=" + shippedGOGC}})
	}
	if c.base != "" {
		sides = append(sides,
			&side{name: "base-native", root: c.base, run: nativeRun},
			&side{name: "base-wasm", over: "base-native", root: c.base, env: wasmEnv})
	}
	for _, s := range sides {
		if s.dir, err = outputIn(ctx, s.root, nil, "go", "list", "-f", "{{.Dir}}", c.pkg); err != nil {
			return err
		}
		s.bin = filepath.Join(tmp, s.name+".test")
		start := time.Now()
		args := append(append([]string{"test", "-c", "-o", s.bin}, s.flags...), c.pkg)
		if _, err := outputIn(ctx, s.root, s.env, "go", args...); err != nil {
			return fmt.Errorf("compiling the %s side: %w", s.name, err)
		}
		fmt.Fprintf(w, "built %-7s go test -c %s%s (%.1f s, not measured)\n", s.name, strings.Join(s.flags, " "), envNote(s.env), time.Since(start).Seconds())
	}

	bench := []string{"-test.run=^$", "-test.bench=^BenchmarkLessonScenario$", "-test.benchtime=" + c.benchtime}
	var all []round
	for r := range c.rounds {
		rd := round{n: r + 1, load: loadavg.Read(), figures: map[string]map[string]sample{}, over: map[string]string{}}
		for k := range sides {
			s := sides[(r+k)%len(sides)]
			cmd := append([]string{s.bin}, bench...)
			if s.env != nil {
				cmd = append([]string{execWasm}, cmd...)
			}
			out, err := outputIn(ctx, s.dir, s.run, cmd[0], cmd[1:]...)
			if err != nil {
				return fmt.Errorf("round %d, %s side: %w", r+1, s.name, err)
			}
			fig, err := parse(out)
			if err != nil {
				return fmt.Errorf("round %d, %s side: %w", r+1, s.name, err)
			}
			rd.figures[s.name] = fig
			rd.order = append(rd.order, s.name)
			if s.over != "" {
				rd.over[s.name] = s.over
			}
		}
		all = append(all, rd)
		printRound(w, rd)
	}
	names := make([]string, len(sides))
	for i, s := range sides {
		names[i] = s.name
	}
	return printSummary(w, all, names)
}

// envNote shows a build's environment, " (GOOS=js GOARCH=wasm)", or nothing.
func envNote(env []string) string {
	if len(env) == 0 {
		return ""
	}
	return " (" + strings.Join(env, " ") + ")"
}

// output runs name with args in the current directory, env added to this
// process's environment, and returns its trimmed standard output; an error
// carries the command and its standard error.
func output(ctx context.Context, env []string, name string, args ...string) (string, error) {
	return outputIn(ctx, "", env, name, args...)
}

// outputIn is output in directory dir.
func outputIn(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}
