// Package explore is the race explorer (SCENARIO.md, Explore): it runs one
// scenario over a window of timings, the integer members its explore.vary
// names (or Options.Vary), groups the runs into outcome classes and, for
// every rule that fails anywhere in the window, shrinks a counterexample
// to the smallest values that still fail it, with a share link to that
// run.
//
// # The grid and its refinement
//
// Dimension i takes the values from, from+byMs, ... to (to included), so
// the window is a grid of Points grid points. Every run goes through the
// one entry (entry.Run) on the scenario document with the explore member
// removed and each varied member set at its place (scenario.SetPath), so
// a run is exactly the run its share link replays.
//
// A window of at most SmallSpace (1,024) grid points is run at every
// point. A larger one is run on a coarse grid first (CoarseIntervals
// intervals per dimension: 64 for one dimension, 16 for two, 8 for three,
// 4 for four), then refined: a box of the grid whose corners all have the
// same outcome class and the same order of events (the kinds, ids and
// ends of its trace's events, times left out) is filled with that class;
// any other box is halved along every dimension wider than one step, down
// to boxes of neighbouring grid points, whose points are all run. So every
// boundary between two classes is found exactly, to byMs, without running
// every point.
//
// Why filling is sound: in a run the time of every event is a sum of
// scenario times (step times, latencies, timeouts) along the chain of
// events that caused it, so for timings it is an affine function of the
// varied values while the order of events stays the same. The difference
// between two event times keeps its sign inside a box when it keeps it at
// every corner, so a box whose corners share one order of events has it
// at every point, and the same outcome. Where a varied member is not a
// time (a count, a capacity), each value usually changes the events, so
// refinement runs those points. Options.EveryPoint runs every point for a
// reader who wants no inference at all.
//
// # Bounds
//
// A window has at most scenario.MaxExploreDims (4) dimensions and at most
// MaxPoints (2^53 - 1) grid points. An exploration runs at most maxRuns
// scenarios (explore.maxRuns, default 100,000, at most 1,000,000); a box
// whose corners would pass it stays unresolved, its points are counted in
// Report.Unknown and Report.Exhaustive is false. A window whose coarse
// grid alone needs more than maxRuns runs is refused with a located error
// (explore.maxRuns, or explore.vary when maxRuns is the default). Memory
// is linear in the runs: one class per run at most, and at most
// MaxRegionBoxes (100,000) boxes kept to draw regions.
//
// The package is pure and deterministic: the same document and options
// give the same report, natively and in WebAssembly; it never panics (a
// panic inside a run is entry's *InternalError, returned).
package explore

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Bounds and thresholds of an exploration (see the package doc).
const (
	// SmallSpace is the largest window, in grid points, that is run at
	// every point without refinement.
	SmallSpace = 1024
	// MaxPoints bounds a window's grid points: 2^53 - 1, so every count
	// is exact as a JSON number in a browser.
	MaxPoints = 1<<53 - 1
	// MaxRegionBoxes bounds the boxes kept to describe the classes'
	// regions; past it regions are left off (Class.RegionsLeftOff).
	MaxRegionBoxes = 100_000
	// MaxRegions bounds the regions reported per class, after merging.
	MaxRegions = 50
)

// CoarseIntervals is the coarse grid's intervals per dimension for a
// window of dims dimensions (1..4): 64, 16, 8 or 4, so the coarse grid has
// at most 65, 289, 729 or 625 points.
func CoarseIntervals(dims int) int64 {
	switch dims {
	case 1:
		return 64
	case 2:
		return 16
	case 3:
		return 8
	}
	return 4
}

// Options configure Explore.
type Options struct {
	// Engine are the runs' engine options (the SQLite ledger store for a
	// scenario with a ledger).
	Engine engine.Options
	// Vary, when not empty, replaces the scenario's explore.vary (the
	// command's -vary flags). Its errors are located at "-vary PATH".
	Vary []scenario.Vary
	// MaxRuns, when > 0, replaces the scenario's explore.maxRuns; at most
	// scenario.MaxExploreRuns.
	MaxRuns int
	// LinkBase prefixes every share link: "" gives a bare "#s=..."
	// fragment, "https://lab.example/playground/" a link that opens it.
	LinkBase string
	// EveryPoint runs every grid point and infers nothing (still bounded
	// by maxRuns).
	EveryPoint bool
	// Refine refines a window of at most SmallSpace points too, rather
	// than running its every point: a part of a larger window (Split)
	// spends the runs the whole window would.
	Refine bool
	// Samples, when not nil, are the values Report.Grid samples, one
	// list per dimension, ascending, instead of 64 spread evenly (a
	// part's rows of the whole window's map, Split); values off the
	// window's grid are dropped.
	Samples [][]int64
	// Coarse, when not nil, is the coarse grid's intervals per dimension
	// instead of CoarseIntervals: a part of a window keeps the whole
	// window's spacing (Part), so the parts together run the coarse grid
	// the whole would.
	Coarse []int64
}

// Report is an exploration's result (SCENARIO.md, Explore).
type Report struct {
	// Title is the scenario's title.
	Title string `json:"title,omitempty"`
	// Vary are the dimensions explored, in order.
	Vary []scenario.Vary `json:"vary"`
	// Points is the window's number of grid points.
	Points int64 `json:"points"`
	// Runs is how many scenarios ran; MaxRuns the bound they were given.
	Runs    int `json:"runs"`
	MaxRuns int `json:"maxRuns"`
	// Exhaustive is true when every grid point's class is known: run, or
	// filled from the corners of its box. Unknown counts the points left
	// unresolved when maxRuns stopped the refinement (0 when exhaustive).
	Exhaustive bool  `json:"exhaustive"`
	Unknown    int64 `json:"unknown"`
	// Classes are the outcome classes, ordered by their smallest grid
	// point (the first dimension first).
	Classes []Class `json:"classes"`
	// Rules lists every rule evaluated in any run, by id, with the grid
	// points where it fails.
	Rules []Rule `json:"rules"`
	// Counterexamples holds, for every rule that fails somewhere, the
	// smallest values that fail it, in Rules order.
	Counterexamples []Counterexample `json:"counterexamples"`
	// Grid is the window sampled at most 64 values per dimension, for a
	// window of one or two dimensions (a strip or a map); nil otherwise.
	Grid *Grid `json:"grid,omitempty"`
}

// Class is one outcome class: what every request ended as (its state, the
// cause of its cancellation, the client's outcome, whether a response was
// sent) and the set of failing rules, said in Key.
type Class struct {
	Key string `json:"key"`
	// Failing are the rules that fail in this class, sorted.
	Failing []trace.RuleID `json:"failing"`
	// Count is the grid points in the class.
	Count int64 `json:"count"`
	// Example is the class's smallest grid point.
	Example Example `json:"example"`
	// Regions are the class's grid points as boxes of values (merged
	// where they touch), at most MaxRegions; RegionsLeftOff says how many
	// more there are (-1: not counted, past MaxRegionBoxes).
	Regions        []Region `json:"regions"`
	RegionsLeftOff int      `json:"regionsLeftOff,omitempty"`
}

// Example is one grid point and the share link of its run.
type Example struct {
	Values Values `json:"values"`
	Link   string `json:"link"`
}

// Rule is one rule id and the grid points where it fails.
type Rule struct {
	Rule       trace.RuleID `json:"rule"`
	Violations int64        `json:"violations"`
}

// Counterexample is the smallest grid point (the first dimension first,
// then the next) where Rule fails, and the share link of its run.
type Counterexample struct {
	Rule   trace.RuleID `json:"rule"`
	Values Values       `json:"values"`
	Link   string       `json:"link"`
}

// Value is one varied member's value at a grid point.
type Value struct {
	Path  string
	Value int64
}

// Values are a grid point's values in the order of vary; they encode as
// a JSON object keyed by path ({"steps[2].at": 309}), in that order.
type Values []Value

// MarshalJSON writes the object keyed by path, in vary's order.
func (vs Values) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(v.Path)
		b = append(b, k...)
		b = append(b, ':')
		b = strconv.AppendInt(b, v.Value, 10)
	}
	return append(b, '}'), nil
}

// Range is the values From..To (both included) of the member at Path.
type Range struct {
	Path     string
	From, To int64
}

// Region is a box of grid points, one Range per dimension in vary's
// order; it encodes as {"steps[2].at": [0, 309], ...}.
type Region []Range

// MarshalJSON writes the object keyed by path, in vary's order.
func (r Region) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, v := range r {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(v.Path)
		b = append(b, k...)
		b = append(b, ':', '[')
		b = strconv.AppendInt(b, v.From, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, v.To, 10)
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// Grid samples a window of one or two dimensions: Values[i] are the
// sampled values of dimension i (all of them up to 64, else 64 spread
// evenly, both ends included), and Cells the class of each sampled point
// as an index into Report.Classes (-1: unknown), the last dimension
// fastest.
type Grid struct {
	Values [][]int64 `json:"values"`
	Cells  []int     `json:"cells"`
}

// ErrExplore is the category of an exploration's own errors (a window it
// cannot run), each a *scenario.Error located at the member to change.
var ErrExplore = errors.New("cannot explore")

// ErrNothingToVary is the error of a scenario with no window: no explore
// member and no dimension given (Options.Vary). It matches ErrExplore too;
// a caller says how its reader gives a window (the command its -vary
// flag, the explorer page its editor).
var ErrNothingToVary = fmt.Errorf("%w: nothing to vary", ErrExplore)

// Explore runs the exploration the scenario document data asks for (its
// explore member, or opts.Vary), as the package doc describes. Errors:
//   - the scenario's own (*scenario.Error, located in data);
//   - a *scenario.Error wrapping ErrExplore for a window it cannot run: no
//     dimension, a varied member the scenario cannot take
//     (`explore.vary[0].path: latencyMs.sideways: unknown field`), a grid
//     past MaxPoints, a coarse grid past maxRuns;
//   - entry's *InternalError for a panic in a run, and any other error a
//     run returns that is not about its input (engine.ErrNoLedger).
//
// A grid point whose scenario is invalid or whose run passes the engine's
// bounds is not an error: it is a class ("invalid: ...", "past a bound:
// ...") like any outcome.
func Explore(data []byte, opts Options) (rep *Report, err error) {
	defer func() {
		if r := recover(); r != nil {
			rep, err = nil, &entry.InternalError{Value: r, Stack: debug.Stack()}
		}
	}()
	res, err := entry.Decode(data, entry.Document{})
	if err != nil {
		return nil, err
	}
	x, err := newExplorer(data, res.Scenario, opts)
	if err != nil {
		return nil, err
	}
	if err := x.explore(); err != nil {
		return nil, err
	}
	rep, err = x.report()
	if rep != nil {
		rep.Title = res.Scenario.Title
	}
	return rep, err
}

// place is where an error about dimension i is located: the scenario's
// explore.vary[i].path, or the flag "-vary PATH".
func (x *explorer) place(i int) string {
	if x.fromFlags {
		return "-vary " + x.vary[i].Path
	}
	return "explore.vary[" + strconv.Itoa(i) + "].path"
}

// fail returns the *scenario.Error wrapping ErrExplore at path, located in
// the document when the path is one of its members.
func (x *explorer) fail(path, format string, args ...any) error {
	return x.failAs(nil, path, format, args...)
}

// failAs is fail with the category cat (ErrNothingToVary; nil for
// ErrExplore).
func (x *explorer) failAs(cat error, path, format string, args ...any) error {
	e := &scenario.Error{Path: path, Err: &reason{text: fmt.Sprintf(format, args...), cat: cat}}
	if loc, ok := scenario.Locate(x.data, path); ok && loc.Path != "" {
		e.Offset, e.End, e.Line, e.Column = loc.Offset, loc.End, loc.Line, loc.Column
	}
	return e
}

// reason is an exploration error's text, which matches ErrExplore with
// errors.Is (and ErrNothingToVary when cat is that).
type reason struct {
	text string
	cat  error // ErrExplore when nil
}

func (r *reason) Error() string { return r.text }
func (r *reason) Unwrap() error {
	if r.cat != nil {
		return r.cat
	}
	return ErrExplore
}
