package explore

import (
	"slices"
	"sort"

	"github.com/mcplab/mcplab/engine/trace"
)

// gridSamples is how many values per dimension Report.Grid samples.
const gridSamples = 64

// startGrid prepares Report.Grid for a window of one or two dimensions.
func (x *explorer) startGrid() {
	if x.dims > 2 {
		return
	}
	x.grid = &Grid{}
	cells := 1
	for i := 0; i < x.dims; i++ {
		s := spread(x.n[i], gridSamples)
		if x.sampleAt != nil && i < len(x.sampleAt) {
			s = x.indices(i, x.sampleAt[i])
		}
		x.samples = append(x.samples, s)
		vals := make([]int64, len(s))
		for j, k := range s {
			vals[j] = x.vary[i].Value(k)
		}
		x.grid.Values = append(x.grid.Values, vals)
		cells *= len(s)
	}
	x.grid.Cells = make([]int, cells)
	for j := range x.grid.Cells {
		x.grid.Cells[j] = -1
	}
}

// indices returns the grid indices of dimension i's values vals that lie
// on its grid (From + k*ByMs, or To), ascending and without repeats.
func (x *explorer) indices(i int, vals []int64) []int64 {
	v := x.vary[i]
	var out []int64
	for _, val := range vals {
		k := int64(-1)
		switch {
		case val == v.To:
			k = x.n[i] - 1
		case val >= v.From && val < v.To && (val-v.From)%v.ByMs == 0:
			k = (val - v.From) / v.ByMs
		}
		if k >= 0 && (len(out) == 0 || k > out[len(out)-1]) {
			out = append(out, k)
		}
	}
	return out
}

// paint gives the grid's sampled points inside r (both ends included)
// class c.
func (x *explorer) paint(r box, c int) {
	if x.grid == nil {
		return
	}
	var from, to [2]int
	for i := 0; i < x.dims; i++ {
		s := x.samples[i]
		from[i] = sort.Search(len(s), func(j int) bool { return s[j] >= r.lo[i] })
		to[i] = sort.Search(len(s), func(j int) bool { return s[j] > r.hi[i] })
	}
	if x.dims == 1 {
		for j := from[0]; j < to[0]; j++ {
			x.grid.Cells[j] = c
		}
		return
	}
	w := len(x.samples[1])
	for a := from[0]; a < to[0]; a++ {
		for b := from[1]; b < to[1]; b++ {
			x.grid.Cells[a*w+b] = c
		}
	}
}

// report builds the Report: classes ordered by their smallest point (the
// grid's indices renumbered to match), rules by id, counterexamples at
// the smallest point of any class where the rule fails.
func (x *explorer) report() (*Report, error) {
	rep := &Report{Vary: x.vary, Points: x.points, Runs: x.runs, MaxRuns: x.maxRuns,
		Unknown: x.unknown, Exhaustive: x.unknown == 0,
		Classes: []Class{}, Rules: []Rule{}, Counterexamples: []Counterexample{}}
	var order []int // class indices with points, by smallest point
	for i, c := range x.classes {
		if c.count > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return less(x.classes[order[a]].min, x.classes[order[b]].min) })
	renumber := make([]int, len(x.classes))
	for j := range renumber {
		renumber[j] = -1
	}
	for j, i := range order {
		renumber[i] = j
		c := x.classes[i]
		link, err := x.link(c.min)
		if err != nil {
			return nil, err
		}
		cl := Class{Key: c.key, Failing: append([]trace.RuleID{}, c.failing...), Count: c.count,
			Example: Example{Values: x.values(c.min), Link: link}}
		regions := x.merge(c.regions)
		for k, r := range regions {
			if k == MaxRegions {
				cl.RegionsLeftOff = len(regions) - MaxRegions
				break
			}
			cl.Regions = append(cl.Regions, x.region(r))
		}
		if c.over {
			cl.RegionsLeftOff = -1
		}
		rep.Classes = append(rep.Classes, cl)
	}
	if x.grid != nil {
		for j, c := range x.grid.Cells {
			if c >= 0 {
				x.grid.Cells[j] = renumber[c]
			}
		}
		rep.Grid = x.grid
	}
	rules := append([]trace.RuleID{}, x.rules...)
	slices.Sort(rules)
	for _, rule := range rules {
		r := Rule{Rule: rule}
		var at *class
		for _, i := range order {
			c := x.classes[i]
			if slices.Contains(c.failing, rule) {
				r.Violations += c.count
				if at == nil {
					at = c // order is by smallest point: the first is the smallest
				}
			}
		}
		rep.Rules = append(rep.Rules, r)
		if at != nil {
			link, err := x.link(at.min)
			if err != nil {
				return nil, err
			}
			rep.Counterexamples = append(rep.Counterexamples, Counterexample{Rule: rule, Values: x.values(at.min), Link: link})
		}
	}
	return rep, nil
}

// region turns a box of indices into values.
func (x *explorer) region(b box) Region {
	r := make(Region, x.dims)
	for i, v := range x.vary {
		r[i] = Range{Path: v.Path, From: v.Value(b.lo[i]), To: v.Value(b.hi[i])}
	}
	return r
}

// merge joins boxes that touch along one dimension and agree on the
// others, over every dimension until none joins (at most 8 rounds), and returns them ordered by their
// smallest point. In one dimension the result is the class's intervals
// exactly.
func (x *explorer) merge(in []box) []box {
	bs := append([]box{}, in...)
	// At most 8 rounds: each round that changes anything joins boxes, and
	// a round that joins none ends it.
	for round, joined := 0, true; joined && round < 8; round++ {
		joined = false
		for k := x.dims - 1; k >= 0; k-- {
			sort.Slice(bs, func(a, b int) bool {
				for i := 0; i < x.dims; i++ {
					if i == k {
						continue
					}
					if bs[a].lo[i] != bs[b].lo[i] {
						return bs[a].lo[i] < bs[b].lo[i]
					}
					if bs[a].hi[i] != bs[b].hi[i] {
						return bs[a].hi[i] < bs[b].hi[i]
					}
				}
				return bs[a].lo[k] < bs[b].lo[k]
			})
			out := bs[:0]
			for _, b := range bs {
				if n := len(out); n > 0 && x.joins(out[n-1], b, k) {
					out[n-1].hi[k] = b.hi[k]
					joined = true
					continue
				}
				out = append(out, b)
			}
			bs = out
		}
	}
	sort.Slice(bs, func(a, b int) bool { return less(bs[a].lo, bs[b].lo) })
	return bs
}

// joins reports whether b continues a along dimension k: the same ranges
// elsewhere, and b starting right after a ends.
func (x *explorer) joins(a, b box, k int) bool {
	for i := 0; i < x.dims; i++ {
		if i != k && (a.lo[i] != b.lo[i] || a.hi[i] != b.hi[i]) {
			return false
		}
	}
	return b.lo[k] == a.hi[k]+1
}
