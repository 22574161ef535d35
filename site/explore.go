package site

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/junit"
)

// exploreUsage is what `mcplab explore -h` and `mcplab help explore` print
// before the flags.
const exploreUsage = `usage: mcplab explore [-json] [-vary PATH=FROM..TO[/BY]]... [-max-runs N] [-link-base URL] [-junit FILE] FILE|-|LINK

Runs a scenario file (- for standard input) or share link ('#s=...' or
'#example=NAME') over every timing in a window: the scenario's
"explore": {"vary": [...]} or the -vary flags, which replace it. Each
-vary names an integer member by the path errors use (steps[2].at,
latencyMs.up) and its values FROM..TO, both included, every BY (default
1). The grid is refined where neighbouring points differ, so every
boundary is exact to BY without running every point. Prints the outcome
classes with their regions and, for every rule that fails anywhere, the
smallest values that fail it with a link to that run: Markdown, or JSON
with -json.

Exit status: 0 done (no rule fails anywhere in the window), 1 failure
(such as a failed write), 2 bad input or usage, 3 a check failed (a
counterexample exists), 4 internal error (a bug in mcplab: please report
it).`

// cmdExplore is `mcplab explore [-json] [-vary PATH=FROM..TO[/BY]]...
// [-max-runs N] [-link-base URL] FILE|-|LINK` (the race explorer,
// engine/explore): the input is what `review` takes; the report is
// Markdown by default (explore.Markdown) or JSON with -json. A
// counterexample is a counterexamplesFound error after the report is
// written: the process exits 3. Bad input, a bad -vary and a window the
// explorer refuses are usageErrors with the located cause ("error:
// explore.vary[0].path: steps[9]: index out of range"), exit 2; a panic in
// a run is an internalError, exit 4.
func cmdExplore(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON instead of Markdown")
	var vary []scenario.Vary
	fs.Func("vary", "vary the integer member `PATH=FROM..TO[/BY]` (repeatable; replaces the scenario's explore.vary): steps[2].at=0..600/5", func(s string) error {
		v, err := parseVary(s)
		if err == nil {
			vary = append(vary, v)
		}
		return err
	})
	maxRuns := fs.Int("max-runs", 0, "the most runs to spend, 1..1000000 (default: the scenario's explore.maxRuns, else 100000)")
	junitFile := fs.String("junit", "", "also write each rule's verdict over the window to `FILE` as JUnit XML (a failure gives the smallest counterexample)")
	base := fs.String("link-base", "", "prefix of every run's share link: the playground's address, e.g. https://lab.example/playground/ (default: a bare #s=... fragment)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, exploreUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// 0 is the flag's unset value (the scenario's own bound); given, it
	// is refused as any other value out of range.
	given := false
	fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == "max-runs" })
	if *maxRuns < 0 || *maxRuns > scenario.MaxExploreRuns || (given && *maxRuns == 0) {
		return &usageError{fmt.Errorf("-max-runs %d: want 1..%d", *maxRuns, scenario.MaxExploreRuns)}
	}
	if b := *base; b != "" {
		if want, ok := playgroundBase(b); !ok {
			return &usageError{fmt.Errorf("-link-base %q: want the playground's address, such as %s", b, want)}
		}
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return &usageError{fmt.Errorf("explore takes one scenario file, - for stdin, or a share link; got %d arguments", fs.NArg())}
	}
	name := fs.Arg(0)
	var data []byte
	var err error
	if isLink(name) {
		if data, err = linkScenario(name); err != nil {
			return &usageError{err}
		}
	} else if data, err = readInput(name, false); err != nil {
		return err
	}
	if f := transcript.Sniff(data); f != transcript.FormatScenario && f != transcript.FormatUnknown {
		return &usageError{fmt.Errorf("%s is a transcript of real traffic, and explore takes a scenario: the import page turns one into a scenario", name)}
	}
	rep, err := explore.Explore(data, explore.Options{Engine: runOptions, Vary: vary, MaxRuns: *maxRuns, LinkBase: *base})
	if err != nil {
		return exploreError(err)
	}
	if err := writeExplore(rep, *asJSON, stdout, stderr); err != nil {
		return err
	}
	if *junitFile != "" {
		if err := junit.WriteFile(*junitFile, "mcplab explore", junitOfExplore(name, rep)); err != nil {
			return err
		}
	}
	if len(rep.Counterexamples) > 0 {
		var rules []string
		for _, c := range rep.Counterexamples {
			rules = append(rules, string(c.Rule))
		}
		return &counterexamplesFound{rules: rules}
	}
	return nil
}

// writeExplore writes rep to stdout as Markdown (explore.Markdown, which
// says when message-valid is not among its rules) or as JSON, which
// cannot say it: then stderr does, in one line.
func writeExplore(rep *explore.Report, asJSON bool, stdout, stderr io.Writer) error {
	if !asJSON {
		_, err := io.WriteString(stdout, explore.Markdown(rep))
		return err
	}
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if _, err := stdout.Write(append(out, '\n')); err != nil {
		return err
	}
	if !rep.Evaluates(checks.MessageValid) {
		fmt.Fprintln(stderr, strings.ReplaceAll(explore.NotExploredLine, "`", ""))
	}
	return nil
}

// parseVary reads a -vary value, PATH=FROM..TO or PATH=FROM..TO/BY, whole
// numbers; the ranges' rules (0..86400000, FROM <= TO, BY >= 1) are
// the explorer's, which names the flag.
func parseVary(s string) (scenario.Vary, error) {
	bad := fmt.Errorf("want PATH=FROM..TO or PATH=FROM..TO/BY with whole numbers, such as steps[2].at=0..600/5")
	i := strings.LastIndexByte(s, '=')
	if i <= 0 {
		return scenario.Vary{}, bad
	}
	v := scenario.Vary{Path: strings.TrimSpace(s[:i]), ByMs: 1}
	rng := strings.TrimSpace(s[i+1:])
	if r, by, ok := strings.Cut(rng, "/"); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(by), 10, 64)
		if err != nil {
			return scenario.Vary{}, bad
		}
		v.ByMs, rng = n, r
	}
	from, to, ok := strings.Cut(rng, "..")
	if !ok {
		return scenario.Vary{}, bad
	}
	var err1, err2 error
	v.From, err1 = strconv.ParseInt(strings.TrimSpace(from), 10, 64)
	v.To, err2 = strconv.ParseInt(strings.TrimSpace(to), 10, 64)
	if err1 != nil || err2 != nil {
		return scenario.Vary{}, bad
	}
	return v, nil
}

// counterexamplesFound is returned by `explore` when a rule fails somewhere
// in the window; the process exits 3, as `run -checks` does for a violated
// check.
type counterexamplesFound struct{ rules []string }

func (e *counterexamplesFound) Error() string {
	return fmt.Sprintf("%d rule(s) fail in the window: %s (counterexamples above)", len(e.rules), strings.Join(e.rules, ", "))
}

// exploreError is the command's error for a failed exploration: a bug is
// an internal error (exit 4), anything else the input's (exit 2), and a
// scenario with no window is told of -vary.
func exploreError(err error) error {
	switch {
	case errors.Is(err, entry.ErrInternal):
		return &internalError{err}
	case errors.Is(err, explore.ErrNothingToVary):
		return &usageError{fmt.Errorf("%w, or give -vary PATH=FROM..TO", mcplabMemberError(err))}
	}
	return &usageError{mcplabMemberError(err)}
}
