package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// An exploration in parts: the page spreads one window over several
// workers. Split cuts the window along its first dimension into disjoint
// ranges of grid points (so each part's grid points are the window's, and
// every count adds up) and says the coarse window to show first; each part
// is explored on its own (Part) and Merge joins the parts' reports into
// the window's: the same classes, counts, rules and counterexamples as one
// exploration of the whole window, with the runs the parts spent.

// MaxParts bounds the parts of a Split: 64, one per row of the map.
const MaxParts = 64

// Plan is a window split into parts (Split).
type Plan struct {
	// Vary is the window, as the scenario (or the caller) states it.
	Vary []scenario.Vary `json:"vary"`
	// Coarse is the window at most CoarseIntervals+1 values a dimension
	// (byMs widened), run at every point first so a picture shows at once.
	Coarse []scenario.Vary `json:"coarse"`
	// Parts are the window cut along its first dimension, in order.
	Parts [][]scenario.Vary `json:"parts"`
	// Samples are the values the map shows, per dimension (the whole
	// window's Report.Grid values); nil past two dimensions.
	Samples [][]int64 `json:"samples,omitempty"`
}

// Split plans the exploration of data's window (vary when not empty, else
// its explore.vary) in at most parts parts (1..MaxParts), each at least
// one row of the map. Errors are Explore's for a window it cannot run.
func Split(data []byte, vary []scenario.Vary, parts int) (*Plan, error) {
	res, err := entry.Decode(data, entry.Document{})
	if err != nil {
		return nil, err
	}
	x, err := newExplorer(data, res.Scenario, Options{Vary: vary})
	if err != nil {
		return nil, err
	}
	p := &Plan{Vary: x.vary}
	for i, v := range x.vary {
		step := (x.n[i] - 1 + CoarseIntervals(x.dims) - 1) / CoarseIntervals(x.dims)
		c := v
		c.ByMs = v.ByMs * max(step, 1)
		p.Coarse = append(p.Coarse, c)
	}
	x.startGrid()
	if x.grid != nil {
		p.Samples = x.grid.Values
	}
	parts = min(max(parts, 1), MaxParts)
	rows := spread(x.n[0], gridSamples) // the map's rows, by index
	parts = min(parts, len(rows))
	for k := 0; k < parts; k++ {
		lo := rows[k*len(rows)/parts]
		hi := x.n[0] - 1
		if k+1 < parts {
			hi = rows[(k+1)*len(rows)/parts] - 1
		}
		part := append([]scenario.Vary{}, x.vary...)
		part[0].From, part[0].To = x.vary[0].Value(lo), x.vary[0].Value(hi)
		p.Parts = append(p.Parts, part)
	}
	return p, nil
}

// Part explores part k of plan over data (k = -1: the coarse window, every
// point run), as Explore does with the part's window and the plan's
// samples; maxRuns is the scenario's.
func Part(data []byte, plan *Plan, k int, opts Options) (*Report, error) {
	if k < -1 || k >= len(plan.Parts) {
		return nil, &scenario.Error{Path: "part", Err: &reason{text: fmt.Sprintf("no part %d of %d", k, len(plan.Parts))}}
	}
	opts.Samples = plan.Samples
	if k == -1 {
		opts.Vary, opts.EveryPoint = plan.Coarse, true
	} else {
		opts.Vary, opts.Refine = plan.Parts[k], true
		// The part's share of the whole window's coarse intervals along
		// the first dimension, the whole's along the others.
		dims := int64(len(plan.Vary))
		whole := CoarseIntervals(len(plan.Vary))
		opts.Coarse = make([]int64, dims)
		for i := range opts.Coarse {
			opts.Coarse[i] = whole
		}
		n, all := plan.Parts[k][0].Points(), plan.Vary[0].Points()
		opts.Coarse[0] = max((whole*n+all-1)/all, 1)
	}
	return Explore(data, opts)
}

// Merge joins the reports of plan's parts (nil: not explored yet) into the
// window's report. Its classes, counts, rules and counterexamples are those
// of the parts explored: the class's example and a rule's counterexample
// come from the first part that holds them, which holds the smallest point
// since parts run along the first dimension. Cells of the map in a part not
// explored yet take the class of coarse's nearest cell at or before them
// (coarse nil: unknown), a class with Count 0 until a part finds it; such a
// merge is not Exhaustive.
func Merge(plan *Plan, coarse *Report, parts []*Report) *Report {
	m := &Report{Vary: plan.Vary, Classes: []Class{}, Rules: []Rule{}, Counterexamples: []Counterexample{}, Exhaustive: true}
	byKey := map[string]int{}
	// classOf is c's index in m.Classes, added (uncounted) when new.
	classOf := func(c Class) int {
		j, ok := byKey[c.Key]
		if !ok {
			j = len(m.Classes)
			byKey[c.Key] = j
			c.Regions, c.RegionsLeftOff, c.Count = nil, 0, 0
			m.Classes = append(m.Classes, c)
			return j
		}
		return j
	}
	violations := map[trace.RuleID]int64{}
	var rules []trace.RuleID
	seen := map[trace.RuleID]bool{}
	for k, r := range parts {
		if k >= len(plan.Parts) {
			break
		}
		if r == nil {
			m.Exhaustive = false
			m.Unknown += partPoints(plan.Parts[k])
			m.Points += partPoints(plan.Parts[k])
			continue
		}
		m.Title, m.Points, m.Runs, m.MaxRuns = r.Title, m.Points+r.Points, m.Runs+r.Runs, m.MaxRuns+r.MaxRuns
		m.Unknown += r.Unknown
		m.Exhaustive = m.Exhaustive && r.Exhaustive
		for _, c := range r.Classes {
			j := classOf(c)
			if m.Classes[j].Count == 0 {
				m.Classes[j].Example = c.Example
			}
			m.Classes[j].Count += c.Count
			addRegions(&m.Classes[j], c)
		}
		for _, rule := range r.Rules {
			if !seen[rule.Rule] {
				seen[rule.Rule] = true
				rules = append(rules, rule.Rule)
			}
			violations[rule.Rule] += rule.Violations
		}
		for _, ce := range r.Counterexamples {
			if !containsCounterexample(m.Counterexamples, ce.Rule) {
				m.Counterexamples = append(m.Counterexamples, ce)
			}
		}
	}
	for k := len(parts); k < len(plan.Parts); k++ {
		m.Exhaustive = false
		m.Unknown += partPoints(plan.Parts[k])
		m.Points += partPoints(plan.Parts[k])
	}
	slices.Sort(rules)
	for _, rule := range rules {
		m.Rules = append(m.Rules, Rule{Rule: rule, Violations: violations[rule]})
	}
	sort.SliceStable(m.Counterexamples, func(a, b int) bool { return m.Counterexamples[a].Rule < m.Counterexamples[b].Rule })
	if m.Title == "" && coarse != nil {
		m.Title = coarse.Title
	}
	m.Grid = mergeGrid(plan, coarse, parts, classOf)
	m.sortClasses()
	return m
}

// partPoints is the grid points of a part's window.
func partPoints(vary []scenario.Vary) int64 {
	n := int64(1)
	for _, v := range vary {
		n *= v.Points()
	}
	return n
}

// addRegions adds c's regions to into's, up to MaxRegions.
func addRegions(into *Class, c Class) {
	for _, r := range c.Regions {
		if len(into.Regions) == MaxRegions {
			into.RegionsLeftOff++
			continue
		}
		into.Regions = append(into.Regions, r)
	}
	if c.RegionsLeftOff < 0 || into.RegionsLeftOff < 0 {
		into.RegionsLeftOff = -1
	} else {
		into.RegionsLeftOff += c.RegionsLeftOff
	}
}

func containsCounterexample(cs []Counterexample, rule trace.RuleID) bool {
	for _, c := range cs {
		if c.Rule == rule {
			return true
		}
	}
	return false
}

// mergeGrid lays the parts' map rows one after the other (their classes
// renumbered by classOf); a part not explored takes its rows from coarse.
func mergeGrid(plan *Plan, coarse *Report, parts []*Report, classOf func(Class) int) *Grid {
	if plan.Samples == nil {
		return nil
	}
	g := &Grid{Values: plan.Samples}
	width := 1
	if len(plan.Samples) > 1 {
		width = len(plan.Samples[1])
	}
	for k, part := range plan.Parts {
		rows := 0
		for _, v := range plan.Samples[0] {
			if v >= part[0].From && v <= part[0].To {
				rows++
			}
		}
		var r *Report
		if k < len(parts) {
			r = parts[k]
		}
		if r != nil && r.Grid != nil && len(r.Grid.Cells) == rows*width {
			for _, c := range r.Grid.Cells {
				g.Cells = append(g.Cells, renumber(r, c, classOf))
			}
			continue
		}
		start := len(g.Cells) / width
		for row := 0; row < rows; row++ {
			for col := 0; col < width; col++ {
				g.Cells = append(g.Cells, coarseCell(plan, coarse, start+row, col, classOf))
			}
		}
	}
	return g
}

// renumber is cell c of report r as an index into the merged classes.
func renumber(r *Report, c int, classOf func(Class) int) int {
	if c < 0 || c >= len(r.Classes) {
		return -1
	}
	return classOf(r.Classes[c])
}

// coarseCell is the class of coarse's cell nearest at or before the map's
// cell (row, col), -1 when there is none.
func coarseCell(plan *Plan, coarse *Report, row, col int, classOf func(Class) int) int {
	if coarse == nil || coarse.Grid == nil || len(coarse.Grid.Values) != len(plan.Samples) {
		return -1
	}
	at := func(vals []int64, v int64) int {
		return sort.Search(len(vals), func(j int) bool { return vals[j] > v }) - 1
	}
	i := at(coarse.Grid.Values[0], plan.Samples[0][row])
	j, width := 0, 1
	if len(plan.Samples) > 1 {
		j, width = at(coarse.Grid.Values[1], plan.Samples[1][col]), len(coarse.Grid.Values[1])
	}
	if i < 0 || j < 0 || i*width+j >= len(coarse.Grid.Cells) {
		return -1
	}
	return renumber(coarse, coarse.Grid.Cells[i*width+j], classOf)
}

// sortClasses orders the classes by their example's values (the first
// dimension first), the classes with no point counted last, and
// renumbers the map to match.
func (m *Report) sortClasses() {
	order := make([]int, len(m.Classes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ca, cb := m.Classes[order[a]], m.Classes[order[b]]
		if (ca.Count == 0) != (cb.Count == 0) {
			return cb.Count == 0
		}
		return lessValues(ca.Example.Values, cb.Example.Values)
	})
	to := make([]int, len(order))
	classes := make([]Class, len(order))
	for j, i := range order {
		to[i] = j
		classes[j] = m.Classes[i]
	}
	m.Classes = classes
	if m.Grid != nil {
		for k, c := range m.Grid.Cells {
			if c >= 0 {
				m.Grid.Cells[k] = to[c]
			}
		}
	}
}

// lessValues orders two points' values lexicographically.
func lessValues(a, b Values) bool {
	for i := range min(len(a), len(b)) {
		if a[i].Value != b[i].Value {
			return a[i].Value < b[i].Value
		}
	}
	return len(a) < len(b)
}

// At returns the run document of data's window at values (one per varied
// member, by path): the scenario without its explore member and each
// member set, the document a cell's share link carries.
func At(data []byte, values Values) ([]byte, error) {
	doc, err := scenario.DeletePath(data, "explore")
	if err != nil {
		return nil, err
	}
	for _, v := range values {
		if doc, err = scenario.SetPath(doc, v.Path, []byte(strconv.FormatInt(v.Value, 10))); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// UnmarshalJSON reads the object MarshalJSON writes, in its order.
func (vs *Values) UnmarshalJSON(b []byte) error {
	*vs = Values{}
	return readObject(b, func(key string, d *json.Decoder) error {
		var n int64
		if err := d.Decode(&n); err != nil {
			return err
		}
		*vs = append(*vs, Value{Path: key, Value: n})
		return nil
	})
}

// UnmarshalJSON reads the object MarshalJSON writes, in its order.
func (r *Region) UnmarshalJSON(b []byte) error {
	*r = Region{}
	return readObject(b, func(key string, d *json.Decoder) error {
		var ft [2]int64
		if err := d.Decode(&ft); err != nil {
			return err
		}
		*r = append(*r, Range{Path: key, From: ft[0], To: ft[1]})
		return nil
	})
}

// readObject calls member for each member of the JSON object b, in order.
func readObject(b []byte, member func(key string, d *json.Decoder) error) error {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("explore: want a JSON object, got %.20s", b)
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		if err := member(key, d); err != nil {
			return fmt.Errorf("explore: %s: %w", key, err)
		}
	}
	return nil
}
