package explore

import (
	"bytes"
	"errors"
	"math/bits"
	"sort"
	"strconv"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// point is a grid point by index, one per dimension (unused ones 0).
type point [scenario.MaxExploreDims]int64

// box is the grid points lo..hi (corner indices, both included) of the
// refinement. It owns [lo, hi) in each dimension, and hi as well where hi
// is the dimension's last index, so the boxes of one level partition the
// grid.
type box struct{ lo, hi point }

// outcome is one run's class and its order of events (sig).
type outcome struct {
	class int
	sig   uint64
}

// explorer holds one exploration's state. Its maps are looked up, never
// ranged, so nothing depends on their order.
type explorer struct {
	data      []byte // the document as given
	vary      []scenario.Vary
	fromFlags bool
	dims      int
	n         point // grid points per dimension
	points    int64
	maxRuns   int
	every     bool
	engine    engine.Options
	linkBase  string

	// pieces are the run document around the varied values: pieces[0],
	// value of dimension order[0], pieces[1], ...
	pieces [][]byte
	order  []int
	buf    []byte

	seen     map[point]outcome
	runs     int
	classes  []*class
	byKey    map[string]int
	rules    []trace.RuleID
	ruleSet  map[trace.RuleID]bool
	unknown  int64
	boxes    int // region boxes kept, at most MaxRegionBoxes
	grid     *Grid
	samples  [][]int64 // the grid's sampled indices per dimension
	sampleAt [][]int64 // Options.Samples: the values to sample, nil for spread
	coarseN  []int64   // Options.Coarse: the coarse intervals per dimension
}

// class accumulates one outcome class.
type class struct {
	key     string
	failing []trace.RuleID
	count   int64
	min     point
	regions []box // owned ranges, both ends included
	over    bool  // regions past MaxRegionBoxes were left off
}

func newExplorer(data []byte, s *scenario.Scenario, opts Options) (*explorer, error) {
	x := &explorer{data: data, engine: opts.Engine, linkBase: opts.LinkBase, every: opts.EveryPoint, sampleAt: opts.Samples, coarseN: opts.Coarse,
		seen: map[point]outcome{}, byKey: map[string]int{}, ruleSet: map[trace.RuleID]bool{}}
	x.maxRuns = scenario.DefaultExploreRuns
	if s.Explore != nil {
		x.vary, x.maxRuns = s.Explore.Vary, s.Explore.MaxRuns
	}
	if len(opts.Vary) > 0 {
		x.vary, x.fromFlags = opts.Vary, true
		if err := x.checkFlags(); err != nil {
			return nil, err
		}
	}
	if opts.MaxRuns > 0 {
		if opts.MaxRuns > scenario.MaxExploreRuns {
			return nil, &scenario.Error{Path: "-max-runs", Err: &reason{text: "must be <= " + strconv.Itoa(scenario.MaxExploreRuns)}}
		}
		x.maxRuns = opts.MaxRuns
	}
	if len(x.vary) == 0 {
		return nil, x.failAs(ErrNothingToVary, "explore", "nothing to vary: add \"explore\": {\"vary\": [{\"path\": \"steps[2].at\", \"from\": 0, \"to\": 600}]} to the scenario")
	}
	x.dims = len(x.vary)
	x.points = 1
	for i, v := range x.vary {
		x.n[i] = v.Points()
		hi, lo := bits.Mul64(uint64(x.points), uint64(x.n[i]))
		if hi != 0 || lo > MaxPoints {
			return nil, x.fail(x.varyPlace(), "the window has more than %s grid points (MaxPoints); raise byMs or narrow a range", thousands(MaxPoints))
		}
		x.points = int64(lo)
	}
	if err := x.template(); err != nil {
		return nil, err
	}
	coarse := int64(1)
	for i := 0; i < x.dims; i++ {
		coarse *= int64(len(x.coarse(i)))
	}
	if x.points <= SmallSpace && !opts.Refine {
		coarse, x.every = x.points, true
	}
	if coarse > int64(x.maxRuns) {
		return nil, x.fail(x.runsPlace(), "the coarse grid alone needs %s runs, more than maxRuns (%s); raise maxRuns (at most %s) or narrow the window", thousands(coarse), thousands(int64(x.maxRuns)), thousands(scenario.MaxExploreRuns))
	}
	return x, nil
}

// varyPlace is where an error about the whole window is located.
func (x *explorer) varyPlace() string {
	if x.fromFlags {
		return "-vary"
	}
	return "explore.vary"
}

// runsPlace is where an error about maxRuns is located: the member when
// the document states it, else the window.
func (x *explorer) runsPlace() string {
	if loc, ok := scenario.Locate(x.data, "explore.maxRuns"); ok && loc.Path == "explore.maxRuns" {
		return "explore.maxRuns"
	}
	return x.varyPlace()
}

// checkFlags holds Options.Vary to explore.vary's rules (scenario's decode),
// its errors naming the parts as the -vary flag's syntax does
// (PATH=FROM..TO/BY), not as the document's members.
func (x *explorer) checkFlags() error {
	if len(x.vary) > scenario.MaxExploreDims {
		return x.fail("-vary", "%d members vary, the limit is %d", len(x.vary), scenario.MaxExploreDims)
	}
	for i, v := range x.vary {
		switch {
		case v.From < 0 || v.To > scenario.MaxDurationMs:
			return x.fail(x.place(i), "FROM and TO must be in 0..%d (one virtual day)", scenario.MaxDurationMs)
		case v.To < v.From:
			return x.fail(x.place(i), "TO (%d) must be >= FROM (%d)", v.To, v.From)
		case v.ByMs < 1 || v.ByMs > scenario.MaxDurationMs:
			return x.fail(x.place(i), "BY must be in 1..%d", scenario.MaxDurationMs)
		}
		for _, prev := range x.vary[:i] {
			if prev.Path == v.Path {
				return x.fail(x.place(i), "%s varies twice", v.Path)
			}
		}
	}
	return nil
}

// template builds the run document: the scenario without its explore
// member, every varied member set to its first value (SetPath keeps every
// other byte), cut around those values. A member the scenario cannot take
// (not an integer member, an index out of range, unknown to the format)
// is refused at its place.
func (x *explorer) template() error {
	doc, err := scenario.DeletePath(x.data, "explore")
	if err != nil {
		return err
	}
	for i, v := range x.vary {
		if doc, err = scenario.SetPath(doc, v.Path, []byte(strconv.FormatInt(v.From, 10))); err != nil {
			return x.fail(x.place(i), "%s", pathError(err))
		}
	}
	if _, err := scenario.Decode(doc); err != nil {
		var se *scenario.Error
		if errors.As(err, &se) && (errors.Is(err, scenario.ErrUnknown) || errors.Is(err, scenario.ErrType)) {
			for i, v := range x.vary {
				if se.Path == v.Path {
					return x.fail(x.place(i), "%s", se.Error())
				}
			}
		}
	}
	type span struct{ dim, off, end int }
	spans := make([]span, 0, x.dims)
	for i, v := range x.vary {
		loc, ok := scenario.Locate(doc, v.Path)
		if !ok || loc.Path != v.Path || string(bytes.TrimSpace(doc[loc.Offset:loc.End])) != strconv.FormatInt(v.From, 10) {
			return x.fail(x.place(i), "%s cannot be set in this document", v.Path)
		}
		spans = append(spans, span{i, loc.Offset, loc.End})
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a].off < spans[b].off })
	at := 0
	for k, sp := range spans {
		if sp.off < at {
			return x.fail(x.place(sp.dim), "%s lies inside another varied member", x.vary[sp.dim].Path)
		}
		x.pieces = append(x.pieces, doc[at:sp.off])
		x.order = append(x.order, sp.dim)
		at = spans[k].end
	}
	x.pieces = append(x.pieces, doc[at:])
	return nil
}

// pathError is a SetPath error's text without the category the place
// already says.
func pathError(err error) string {
	var se *scenario.Error
	if errors.As(err, &se) {
		msg := se.Error()
		return string(bytes.Replace([]byte(msg), []byte(scenario.ErrBadPath.Error()+": "), nil, 1))
	}
	return err.Error()
}

// document returns the run document of grid point p (in a buffer reused
// by the next call).
func (x *explorer) document(p point) []byte {
	b := x.buf[:0]
	for k, d := range x.order {
		b = append(b, x.pieces[k]...)
		b = strconv.AppendInt(b, x.vary[d].Value(p[d]), 10)
	}
	b = append(b, x.pieces[len(x.pieces)-1]...)
	x.buf = b
	return b
}

// values returns p's values keyed by path.
func (x *explorer) values(p point) Values {
	vs := make(Values, x.dims)
	for i, v := range x.vary {
		vs[i] = Value{Path: v.Path, Value: v.Value(p[i])}
	}
	return vs
}

// link returns the share link of p's run.
func (x *explorer) link(p point) (string, error) {
	frag, err := scenario.ShareFragment(x.document(p))
	if err != nil {
		return "", err
	}
	return x.linkBase + "#" + frag, nil
}

// run returns p's outcome, running it once. A scenario error or an engine
// bound is an outcome; a panic or any other error stops the exploration.
func (x *explorer) run(p point) (outcome, error) {
	if o, ok := x.seen[p]; ok {
		return o, nil
	}
	x.runs++
	res, err := entry.Run(x.document(p), entry.Document{Options: x.engine})
	var o outcome
	var se *scenario.Error
	var be *engine.BoundError
	switch {
	case err == nil:
		key, failing, sig := classify(res.Trace)
		o = outcome{class: x.class(key, failing), sig: sig}
		for _, c := range res.Trace.Checks {
			if !x.ruleSet[c.Rule] {
				x.ruleSet[c.Rule] = true
				x.rules = append(x.rules, c.Rule)
			}
		}
	case errors.As(err, &se):
		o = outcome{class: x.class("invalid: "+se.Error(), nil)}
	case errors.As(err, &be):
		o = outcome{class: x.class("past a bound: "+be.Error(), nil)}
	default:
		return outcome{}, err
	}
	x.seen[p] = o
	return o, nil
}

// class returns the index of the class key, adding it when new.
func (x *explorer) class(key string, failing []trace.RuleID) int {
	if i, ok := x.byKey[key]; ok {
		return i
	}
	x.byKey[key] = len(x.classes)
	x.classes = append(x.classes, &class{key: key, failing: failing})
	return len(x.classes) - 1
}

// coarse returns dimension i's coarse grid indices: every index when the
// dimension has at most CoarseIntervals+1 points, else CoarseIntervals+1
// indices spread evenly, both ends included.
func (x *explorer) coarse(i int) []int64 {
	if i < len(x.coarseN) && x.coarseN[i] > 0 {
		return spread(x.n[i], x.coarseN[i]+1)
	}
	return spread(x.n[i], CoarseIntervals(x.dims)+1)
}

// spread returns k indices of 0..n-1 spread evenly, both ends included
// (all n when n <= k).
func spread(n, k int64) []int64 {
	if n <= k {
		out := make([]int64, n)
		for j := range out {
			out[j] = int64(j)
		}
		return out
	}
	out := make([]int64, k)
	for j := int64(0); j < k; j++ {
		out[j] = j * (n - 1) / (k - 1)
	}
	return out
}

// explore refines the grid breadth first (coarse boxes first, then their
// halves), so a refinement stopped by maxRuns has its coarse picture.
func (x *explorer) explore() error {
	x.startGrid()
	var queue []box
	if x.every {
		queue = []box{{hi: x.last()}}
	} else {
		cs := make([][]int64, x.dims)
		for i := range cs {
			cs[i] = x.coarse(i)
		}
		// The coarse grid's points, then its boxes.
		for p := range x.product(cs, 0) {
			if _, err := x.run(p); err != nil {
				return err
			}
		}
		queue = x.coarseBoxes(cs)
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		children, err := x.visit(b)
		if err != nil {
			return err
		}
		queue = append(queue, children...)
	}
	return nil
}

// last is the grid's last point.
func (x *explorer) last() point {
	var p point
	for i := 0; i < x.dims; i++ {
		p[i] = x.n[i] - 1
	}
	return p
}

// product yields every point whose index in dimension i is one of cs[i],
// the last dimension fastest.
func (x *explorer) product(cs [][]int64, _ int) func(yield func(point) bool) {
	return func(yield func(point) bool) {
		idx := make([]int, x.dims)
		for {
			var p point
			for i := 0; i < x.dims; i++ {
				p[i] = cs[i][idx[i]]
			}
			if !yield(p) {
				return
			}
			i := x.dims - 1
			for ; i >= 0; i-- {
				if idx[i]++; idx[i] < len(cs[i]) {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				return
			}
		}
	}
}

// coarseBoxes returns the boxes between neighbouring coarse indices (a
// dimension of one point gives boxes of one index there).
func (x *explorer) coarseBoxes(cs [][]int64) []box {
	spans := make([][][2]int64, x.dims)
	for i, c := range cs {
		if len(c) == 1 {
			spans[i] = [][2]int64{{c[0], c[0]}}
			continue
		}
		for j := 0; j+1 < len(c); j++ {
			spans[i] = append(spans[i], [2]int64{c[j], c[j+1]})
		}
	}
	idx := make([][]int64, x.dims)
	for i := range spans {
		for j := range spans[i] {
			idx[i] = append(idx[i], int64(j))
		}
	}
	var out []box
	for p := range x.product(idx, 0) {
		var b box
		for i := 0; i < x.dims; i++ {
			s := spans[i][p[i]]
			b.lo[i], b.hi[i] = s[0], s[1]
		}
		out = append(out, b)
	}
	return out
}

// corners returns b's distinct corners, lo first.
func (x *explorer) corners(b box) []point {
	out := []point{b.lo}
	for i := 0; i < x.dims; i++ {
		if b.hi[i] == b.lo[i] {
			continue
		}
		for _, p := range out {
			p[i] = b.hi[i]
			out = append(out, p)
		}
	}
	return out
}

// visit resolves box b, or splits it: it returns the halves to visit.
func (x *explorer) visit(b box) ([]box, error) {
	cs := x.corners(b)
	need := 0
	for _, p := range cs {
		if _, ok := x.seen[p]; !ok {
			need++
		}
	}
	if x.runs+need > x.maxRuns {
		x.unknown += x.volume(b)
		return nil, nil
	}
	first, err := x.run(cs[0])
	if err != nil {
		return nil, err
	}
	uniform, atomic := true, true
	for _, p := range cs[1:] {
		o, err := x.run(p)
		if err != nil {
			return nil, err
		}
		uniform = uniform && o == first
	}
	for i := 0; i < x.dims; i++ {
		atomic = atomic && b.hi[i]-b.lo[i] <= 1
	}
	switch {
	case atomic:
		for _, p := range cs {
			if x.owns(b, p) {
				x.assign(box{p, p}, x.seen[p].class)
			}
		}
		return nil, nil
	case uniform && !x.every:
		hi := b.hi
		for i := 0; i < x.dims; i++ {
			if hi[i] != x.n[i]-1 && hi[i] > b.lo[i] {
				hi[i]--
			}
		}
		x.assign(box{b.lo, hi}, first.class)
		return nil, nil
	}
	halves := []box{b}
	for i := 0; i < x.dims; i++ {
		if b.hi[i]-b.lo[i] < 2 {
			continue
		}
		mid := b.lo[i] + (b.hi[i]-b.lo[i])/2
		next := make([]box, 0, 2*len(halves))
		for _, h := range halves {
			l, r := h, h
			l.hi[i], r.lo[i] = mid, mid
			next = append(next, l, r)
		}
		halves = next
	}
	return halves, nil
}

// owns reports whether box b owns point p (see box).
func (x *explorer) owns(b box, p point) bool {
	for i := 0; i < x.dims; i++ {
		if p[i] == b.hi[i] && b.hi[i] != b.lo[i] && b.hi[i] != x.n[i]-1 {
			return false
		}
	}
	return true
}

// volume is the number of points b owns.
func (x *explorer) volume(b box) int64 {
	v := int64(1)
	for i := 0; i < x.dims; i++ {
		w := b.hi[i] - b.lo[i]
		if b.hi[i] == x.n[i]-1 {
			w++
		}
		v *= w
	}
	return v
}

// assign gives the points lo..hi of r (both included) class c.
func (x *explorer) assign(r box, c int) {
	cl := x.classes[c]
	v := int64(1)
	for i := 0; i < x.dims; i++ {
		v *= r.hi[i] - r.lo[i] + 1
	}
	if cl.count == 0 || less(r.lo, cl.min) {
		cl.min = r.lo
	}
	cl.count += v
	if x.boxes < MaxRegionBoxes {
		cl.regions = append(cl.regions, r)
		x.boxes++
	} else {
		cl.over = true
	}
	x.paint(r, c)
}

// less orders points lexicographically, the first dimension first.
func less(a, b point) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
