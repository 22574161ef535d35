package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// ledgerOptions run the ledger lessons on the in-memory SQLite store.
var ledgerOptions = engine.Options{OpenLedger: sqlite.NewMemory}

func lesson(t testing.TB, name string) []byte {
	t.Helper()
	ex, ok := examples.Get(name)
	if !ok {
		t.Fatalf("no built-in scenario %s", name)
	}
	return ex.JSON
}

func explore(t *testing.T, data []byte, opts Options) *Report {
	t.Helper()
	rep, err := Explore(data, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// classAt returns the key of the class holding the grid point whose
// first dimension has value v (a one-dimensional window).
func classAt(rep *Report, v int64) string {
	for _, c := range rep.Classes {
		for _, r := range c.Regions {
			if r[0].From <= v && v <= r[0].To {
				return c.Key
			}
		}
	}
	return ""
}

// Rule (issue: the race explorer, tests): lesson A (stdio, 10 ms each way,
// completion at 320 ms) is cancelled exactly when the cancel is sent
// before 310 ms; on a grid the refinement finds that edge exactly, also
// when it falls between two grid points (exact to byMs), while running far
// fewer points than the grid has.
func TestLessonABoundaryIsExactToByMs(t *testing.T) {
	a := lesson(t, "a-cancel-then-complete")
	const cancelled = "7 cancelled at the server, as the client asked (client), client abandoned, no response; fails: none"
	for _, tc := range []struct {
		rule              string
		byMs, to          int64
		lastWin, firstOut int64
	}{
		{"every millisecond: the last winning cancel is at 309", 1, 20000, 309, 310},
		{"by 7 ms: the edge 309|310 lies between 308 and 315", 7, 20000, 308, 315},
		{"by 25 ms: the edge lies between 300 and 325", 25, 40000, 300, 325},
	} {
		rep := explore(t, a, Options{Vary: []scenario.Vary{{Path: "steps[2].at", From: 0, To: tc.to, ByMs: tc.byMs}}})
		if got := classAt(rep, tc.lastWin); got != cancelled {
			t.Errorf("%s: at %d the class is %q, want %q", tc.rule, tc.lastWin, got, cancelled)
		}
		if got := classAt(rep, tc.firstOut); got == cancelled || got == "" {
			t.Errorf("%s: at %d the class is %q, want one where the completion wins", tc.rule, tc.firstOut, got)
		}
		if c := rep.Classes[0]; c.Key != cancelled || len(c.Regions) != 1 || c.Regions[0][0].To != tc.lastWin {
			t.Errorf("%s: the first class %q holds %v, want cancellation on 0..%d", tc.rule, c.Key, c.Regions, tc.lastWin)
		}
		if !rep.Exhaustive || int64(rep.Runs) >= rep.Points/4 {
			t.Errorf("%s: %d runs for %d grid points (exhaustive %v); want the edge found refined, in under a quarter of the grid", tc.rule, rep.Runs, rep.Points, rep.Exhaustive)
		}
	}
}

// Rule (the package doc: filling a box whose corners agree is sound): on
// windows past SmallSpace, the refined exploration gives every grid point
// the class that running every point gives, with the same counts and the
// same counterexamples.
func TestRefinedMatchesEveryPoint(t *testing.T) {
	for _, tc := range []struct {
		rule, lesson string
		vary         []scenario.Vary
	}{
		{"lesson A: cancel time by latency up", "a-cancel-then-complete", []scenario.Vary{{Path: "steps[2].at", From: 200, To: 590, ByMs: 10}, {Path: "latencyMs.up", From: 0, To: 39, ByMs: 1}}},
		{"lesson B: completion and cancel time", "b-complete-then-cancel", []scenario.Vary{{Path: "steps[2].at", From: 250, To: 400, ByMs: 3}, {Path: "latencyMs.down", From: 0, To: 60, ByMs: 2}}},
		{"flagship: the charge's commit against the maximum timeout", "flagship-retry-charges-twice", []scenario.Vary{{Path: "steps[3].at", From: 1900, To: 2100, ByMs: 5}, {Path: "client.maxTimeoutMs", From: 1900, To: 2150, ByMs: 10}}},
		{"HTTP lesson D in one dimension", "d-cancel-on-streamable-http", []scenario.Vary{{Path: "latencyMs.up", From: 0, To: 3000, ByMs: 1}}},
	} {
		data := lesson(t, tc.lesson)
		refined := explore(t, data, Options{Engine: ledgerOptions, Vary: tc.vary})
		every := explore(t, data, Options{Engine: ledgerOptions, Vary: tc.vary, EveryPoint: true})
		if refined.Points <= SmallSpace || int64(every.Runs) != every.Points {
			t.Fatalf("%s: %d points, %d runs for every point: the window must pass SmallSpace and be run whole", tc.rule, refined.Points, every.Runs)
		}
		if refined.Runs >= every.Runs {
			t.Errorf("%s: refinement ran %d of %d points", tc.rule, refined.Runs, every.Runs)
		}
		if len(refined.Classes) != len(every.Classes) || len(every.Classes) < 2 {
			t.Fatalf("%s: %d classes refined, %d running every point (want the same, at least 2)", tc.rule, len(refined.Classes), len(every.Classes))
		}
		for i := range every.Classes {
			r, e := refined.Classes[i], every.Classes[i]
			if r.Key != e.Key || r.Count != e.Count {
				t.Errorf("%s: class %d is %q on %d points refined, %q on %d running every point", tc.rule, i, r.Key, r.Count, e.Key, e.Count)
			}
		}
		if !equalInts(refined.Grid.Cells, every.Grid.Cells) {
			t.Errorf("%s: the refined map differs from the map of every point", tc.rule)
		}
		rc, _ := json.Marshal(refined.Counterexamples)
		ec, _ := json.Marshal(every.Counterexamples)
		if !bytes.Equal(rc, ec) {
			t.Errorf("%s: counterexamples %s refined, %s running every point", tc.rule, rc, ec)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Rule (SCENARIO.md, Explore: counterexamples shrunk to the smallest values
// that still violate, the first dimension first, then the next): each
// counterexample is the lexicographically smallest grid point, among every
// point run one by one, whose run fails the rule, and its link replays a
// run that fails it.
func TestCounterexamplesAreTheSmallestViolation(t *testing.T) {
	for _, tc := range []struct {
		rule, lesson string
		vary         []scenario.Vary
		want         map[trace.RuleID]Values // hand-computed, where known
	}{
		{"a server that answers after the cancel: no-message-after-cancel fails once the cancel arrives before the completion", "broken-respond-after-cancel",
			[]scenario.Vary{{Path: "steps[2].at", From: 0, To: 600, ByMs: 1}, {Path: "latencyMs.up", From: 0, To: 40, ByMs: 4}}, nil},
		{"the flagship retries, and charges twice, only where the commit misses the 2,000 ms timeout", "flagship-retry-charges-twice",
			[]scenario.Vary{{Path: "steps[3].at", From: 1500, To: 2600, ByMs: 1}},
			nil},
	} {
		data := lesson(t, tc.lesson)
		rep := explore(t, data, Options{Engine: ledgerOptions, Vary: tc.vary})
		if len(rep.Counterexamples) == 0 {
			t.Fatalf("%s: no counterexample", tc.rule)
		}
		for _, c := range rep.Counterexamples {
			smallest := bruteSmallest(t, data, tc.vary, c.Rule)
			if got, want := valuesText(c.Values), valuesText(smallest); got != want {
				t.Errorf("%s: %s's counterexample is %s, the smallest failing point is %s", tc.rule, c.Rule, got, want)
			}
			if w, ok := tc.want[c.Rule]; ok && valuesText(w) != valuesText(c.Values) {
				t.Errorf("%s: %s's counterexample is %s, want %s", tc.rule, c.Rule, valuesText(c.Values), valuesText(w))
			}
			if !linkFails(t, c.Link, c.Rule) {
				t.Errorf("%s: the link of %s's counterexample does not replay a run that fails it", tc.rule, c.Rule)
			}
		}
	}
}

// bruteSmallest runs every grid point in order (the first dimension
// first) and returns the first whose run fails rule.
func bruteSmallest(t *testing.T, data []byte, vary []scenario.Vary, rule trace.RuleID) Values {
	t.Helper()
	doc, _ := scenario.DeletePath(data, "explore")
	var walk func(i int, doc []byte, vs Values) Values
	walk = func(i int, doc []byte, vs Values) Values {
		if i == len(vary) {
			res, err := entry.Run(doc, entry.Document{Options: ledgerOptions})
			if err != nil {
				return nil
			}
			for _, c := range res.Trace.Checks {
				if c.Rule == rule && c.OK != nil && !*c.OK {
					return vs
				}
			}
			return nil
		}
		for k := int64(0); k < vary[i].Points(); k++ {
			v := vary[i].Value(k)
			d, err := scenario.SetPath(doc, vary[i].Path, []byte(itoa(v)))
			if err != nil {
				t.Fatal(err)
			}
			if got := walk(i+1, d, append(append(Values{}, vs...), Value{vary[i].Path, v})); got != nil {
				return got
			}
		}
		return nil
	}
	return walk(0, doc, nil)
}

func valuesText(vs Values) string {
	b, _ := vs.MarshalJSON()
	return string(b)
}

// linkFails reports whether the run a share link carries fails rule.
func linkFails(t *testing.T, link string, rule trace.RuleID) bool {
	t.Helper()
	l, err := scenario.ParseLink(link)
	if err != nil {
		t.Fatal(err)
	}
	res, err := entry.Run(l.Scenario, entry.Document{Options: ledgerOptions})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Trace.Checks {
		if c.Rule == rule && c.OK != nil && !*c.OK {
			return true
		}
	}
	return false
}

// Rule (SCENARIO.md, Explore: exhaustive says whether every grid point's
// class is known; maxRuns bounds the runs): a budget that the refinement
// needs more than leaves points unknown and says so, never runs past
// maxRuns, and still counts every point once; a budget that suffices
// leaves none unknown.
func TestMaxRunsAndTheExhaustiveFlag(t *testing.T) {
	a := lesson(t, "a-cancel-then-complete")
	vary := []scenario.Vary{{Path: "steps[2].at", From: 0, To: 630, ByMs: 10}, {Path: "latencyMs.up", From: 0, To: 63, ByMs: 1}}
	full := explore(t, a, Options{Vary: vary})
	for _, tc := range []struct {
		rule       string
		opts       Options
		exhaustive bool
	}{
		{"the default budget covers a 64 x 64 map", Options{Vary: vary}, true},
		{"a budget of exactly the runs needed covers it", Options{Vary: vary, MaxRuns: full.Runs}, true},
		{"one run fewer leaves points unknown", Options{Vary: vary, MaxRuns: full.Runs - 1}, false},
		{"the coarse grid alone (289 runs) leaves most of the edge unknown", Options{Vary: vary, MaxRuns: 300}, false},
		{"running every point on a budget below the grid leaves points unknown", Options{Vary: vary, MaxRuns: 4000, EveryPoint: true}, false},
	} {
		rep := explore(t, a, tc.opts)
		var counted int64
		for _, c := range rep.Classes {
			counted += c.Count
		}
		if rep.Runs > rep.MaxRuns || rep.MaxRuns != max(tc.opts.MaxRuns, 0) && tc.opts.MaxRuns > 0 {
			t.Errorf("%s: %d runs, maxRuns %d", tc.rule, rep.Runs, rep.MaxRuns)
		}
		if rep.Exhaustive != tc.exhaustive || (rep.Unknown == 0) != tc.exhaustive || counted+rep.Unknown != rep.Points {
			t.Errorf("%s: exhaustive %v with %d unknown, %d counted of %d points; want exhaustive %v and every point counted once", tc.rule, rep.Exhaustive, rep.Unknown, counted, rep.Points, tc.exhaustive)
		}
		if !tc.exhaustive && !strings.Contains(Markdown(rep), "Not exhaustive") {
			t.Errorf("%s: the Markdown does not say the window is not covered", tc.rule)
		}
	}
}

// Rule (SCENARIO.md, Bad input; the explorer's bounds): a window the
// explorer cannot run is a located error at the member to change, never a
// panic or a frozen run: nothing to vary, a member the scenario cannot
// take, a coarse grid past maxRuns, a grid past MaxPoints (a 10^9-point
// window is refused only when its coarse grid is), a bad -vary.
func TestErrorsAreLocated(t *testing.T) {
	base, err := scenario.DeletePath(lesson(t, "a-cancel-then-complete"), "explore")
	if err != nil {
		t.Fatal(err)
	}
	a := string(base)
	with := func(explore string) []byte {
		b, err := scenario.SetPath(base, "explore", []byte(explore))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		rule string
		data []byte
		opts Options
		path string
		text string
	}{
		{"nothing to vary", []byte(a), Options{}, "explore", "nothing to vary"},
		{"an index past the steps", with(`{"vary": [{"path": "steps[9].at", "from": 0, "to": 5}]}`), Options{}, "explore.vary[0].path", "steps[9]: index out of range"},
		{"a member the format does not have", with(`{"vary": [{"path": "latencyMs.sideways", "from": 0, "to": 5}]}`), Options{}, "explore.vary[0].path", "latencyMs.sideways: unknown field"},
		{"a coarse grid past maxRuns", with(`{"vary": [{"path": "steps[2].at", "from": 0, "to": 600}, {"path": "latencyMs.up", "from": 0, "to": 60}], "maxRuns": 100}`), Options{}, "explore.maxRuns", "the coarse grid alone needs 289 runs, more than maxRuns (100)"},
		{"a grid past MaxPoints", with(`{"vary": [{"path": "steps[2].at", "from": 0, "to": 86400000}, {"path": "latencyMs.up", "from": 0, "to": 86400000}, {"path": "latencyMs.down", "from": 0, "to": 86400000}]}`), Options{}, "explore.vary", "more than 9,007,199,254,740,991 grid points"},
		{"a -vary flag with to before from", []byte(a), Options{Vary: []scenario.Vary{{Path: "latencyMs.up", From: 9, To: 1, ByMs: 1}}}, "-vary latencyMs.up", "TO (1) must be >= FROM (9)"},
		{"a -vary flag's step named as its syntax names it", []byte(a), Options{Vary: []scenario.Vary{{Path: "latencyMs.up", From: 0, To: 10, ByMs: 0}}}, "-vary latencyMs.up", "BY must be in 1..86400000"},
		{"a -vary flag naming no integer member", []byte(a), Options{Vary: []scenario.Vary{{Path: "transport", From: 0, To: 1, ByMs: 1}}}, "-vary transport", "transport: must be"},
	} {
		_, err := Explore(tc.data, tc.opts)
		var se *scenario.Error
		if !errors.As(err, &se) || se.Path != tc.path || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: %v; want an error at %s saying %q", tc.rule, err, tc.path, tc.text)
			continue
		}
		// Only a scenario with no window is ErrNothingToVary, and its
		// words name no command-line flag: the caller says how its reader
		// gives one.
		if nothing := tc.rule == "nothing to vary"; errors.Is(err, ErrNothingToVary) != nothing || !errors.Is(err, ErrExplore) || nothing && strings.Contains(err.Error(), "-vary") {
			t.Errorf("%s: %v: ErrNothingToVary %v, ErrExplore %v", tc.rule, err, errors.Is(err, ErrNothingToVary), errors.Is(err, ErrExplore))
		}
		if strings.HasPrefix(tc.path, "explore.") && se.Line == 0 {
			t.Errorf("%s: %v is not located in the document (line 0)", tc.rule, err)
		}
	}
	// A 10^9-point window whose coarse grid fits runs, bounded by maxRuns.
	rep, err := Explore(with(`{"vary": [{"path": "steps[2].at", "from": 0, "to": 31622}, {"path": "latencyMs.up", "from": 0, "to": 31622}], "maxRuns": 2000}`), Options{})
	if err != nil || rep.Points < 1e9 || rep.Runs > 2000 {
		t.Errorf("a 10^9-point window on 2,000 runs: %v, %+v", err, rep)
	}
}

// Rule (SCENARIO.md, Explore): a grid point whose scenario is invalid
// (the call moved after its own cancel) is an outcome class saying why,
// not an error, and the valid points keep theirs.
func TestInvalidPointsAreAClass(t *testing.T) {
	rep := explore(t, lesson(t, "a-cancel-then-complete"), Options{Vary: []scenario.Vary{{Path: "steps[0].at", From: 0, To: 400, ByMs: 1}}})
	var invalid, valid int64
	for _, c := range rep.Classes {
		if strings.HasPrefix(c.Key, "invalid: steps[") {
			invalid += c.Count
		} else {
			valid += c.Count
		}
	}
	if invalid == 0 || valid == 0 || invalid+valid != rep.Points {
		t.Errorf("invalid %d, valid %d of %d points: want both, every point counted", invalid, valid, rep.Points)
	}
}

// Rule (the package doc: deterministic): the same document and options
// give the same report, byte for byte.
func TestDeterministic(t *testing.T) {
	a := lesson(t, "a-cancel-then-complete")
	opts := Options{Vary: []scenario.Vary{{Path: "steps[2].at", From: 0, To: 630, ByMs: 10}, {Path: "latencyMs.up", From: 0, To: 63, ByMs: 1}}}
	one, _ := json.Marshal(explore(t, a, opts))
	two, _ := json.Marshal(explore(t, a, opts))
	if !bytes.Equal(one, two) || Markdown(explore(t, a, opts)) != Markdown(explore(t, a, opts)) {
		t.Error("two explorations of one window differ")
	}
}
