package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Bounds of the explore member (SCENARIO.md, Explore), checked by Decode
// with a located error.
const (
	// MaxExploreDims bounds explore.vary: at most 4 members vary at once
	// (a map is two; a box of four dimensions has 16 corners to run).
	MaxExploreDims = 4
	// DefaultExploreRuns is explore.maxRuns when absent: 100,000 runs,
	// about 5 s natively for a lesson-sized scenario.
	DefaultExploreRuns = 100_000
	// MaxExploreRuns bounds explore.maxRuns: at most 1,000,000 runs.
	MaxExploreRuns = 1_000_000
)

// Explore is the race explorer's window over a scenario (SCENARIO.md,
// Explore): the integer members to vary and the most runs to spend. `run`
// ignores it: it is not part of the normalized form (its JSON tag on
// Scenario is "-"), so a scenario's trace is the same with or without it.
// Package engine/explore reads it.
type Explore struct {
	// Vary lists the members that vary, 1..MaxExploreDims of them, each
	// path once.
	Vary []Vary `json:"vary"`
	// MaxRuns bounds the runs of one exploration:
	// 1..MaxExploreRuns (1,000,000), default DefaultExploreRuns (100,000).
	MaxRuns int `json:"maxRuns"`
}

// Vary is one dimension of an exploration: the integer member at Path (the
// notation errors and SetPath use: "steps[2].at", "latencyMs.up") takes
// the values From, From+ByMs, ... up to To, To included even when To-From
// is not a multiple of ByMs. From and To are 0..MaxDurationMs (one virtual
// day) with From <= To; ByMs is 1..MaxDurationMs, default 1. A member the
// document lacks is added at each value (SetPath); one it has must be an
// integer.
type Vary struct {
	Path string `json:"path"`
	From int64  `json:"from"`
	To   int64  `json:"to"`
	ByMs int64  `json:"byMs"`
}

// Points returns how many values v takes: (To-From)/ByMs + 1, plus one
// when To is off the step. It is at least 1 for a valid Vary.
func (v Vary) Points() int64 {
	if v.ByMs <= 0 || v.To < v.From {
		return 0
	}
	n := (v.To-v.From)/v.ByMs + 1
	if (v.To-v.From)%v.ByMs != 0 {
		n++
	}
	return n
}

// Value returns the value of v at index i (0 <= i < Points()): From +
// i*ByMs, or To for the last index.
func (v Vary) Value(i int64) int64 {
	if i >= v.Points()-1 {
		return v.To
	}
	return v.From + i*v.ByMs
}

// explore reads the top-level explore member into s.Explore.
func (d *decoder) explore(root *object, s *Scenario) {
	raw, ok := root.get("explore")
	if !ok || d.err != nil {
		return
	}
	o := d.obj("explore", raw)
	if o == nil {
		return
	}
	e := &Explore{MaxRuns: DefaultExploreRuns}
	if n, ok := d.integer(o, "maxRuns", 1, MaxExploreRuns); ok {
		e.MaxRuns = int(n)
	}
	vraw, ok := o.get("vary")
	if d.err != nil {
		return
	}
	if !ok {
		d.fail(errAt("explore.vary", ErrMissing, ""))
		return
	}
	items, ok := fastArray(vraw)
	if !ok && (isNull(vraw) || json.Unmarshal(vraw, &items) != nil) {
		d.fail(errAt("explore.vary", ErrType, "must be an array"))
		return
	}
	switch {
	case len(items) == 0:
		d.fail(errAt("explore.vary", ErrValue, "must name at least one member to vary"))
		return
	case len(items) > MaxExploreDims:
		d.fail(errAt("explore.vary", ErrLimit, "%d members vary, the limit is %d", len(items), MaxExploreDims))
		return
	}
	for i, item := range items {
		p := "explore.vary[" + strconv.Itoa(i) + "]"
		vo := d.obj(p, item)
		if vo == nil {
			return
		}
		v := Vary{ByMs: 1}
		var has bool
		if v.Path, has = d.str(vo, "path", MaxTextLen); d.err == nil && !has {
			d.fail(errAt(p+".path", ErrMissing, ""))
		}
		if d.err == nil {
			if _, err := parsePath(v.Path); err != nil {
				d.fail(errAt(p+".path", ErrValue, "%s", pathReason(err)))
			}
		}
		for _, prev := range e.Vary {
			if d.err == nil && prev.Path == v.Path {
				d.fail(errAt(p+".path", ErrDuplicate, "%s varies twice", v.Path))
			}
		}
		if v.From, has = d.integer(vo, "from", 0, MaxDurationMs); d.err == nil && !has {
			d.fail(errAt(p+".from", ErrMissing, ""))
		}
		if v.To, has = d.integer(vo, "to", 0, MaxDurationMs); d.err == nil && !has {
			d.fail(errAt(p+".to", ErrMissing, ""))
		}
		if d.err == nil && v.To < v.From {
			d.fail(errAt(p+".to", ErrValue, "must be >= from (%d)", v.From))
		}
		if n, ok := d.integer(vo, "byMs", 1, MaxDurationMs); ok {
			v.ByMs = n
		}
		d.unknown(vo)
		if d.err != nil {
			return
		}
		e.Vary = append(e.Vary, v)
	}
	d.unknown(o)
	s.Explore = e
}

// pathReason is a parsePath error's reason without its path and category
// ("unclosed [").
func pathReason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		if r := e.Err.Error(); len(r) > len(ErrBadPath.Error())+2 {
			return "not a path: " + r[len(ErrBadPath.Error())+2:]
		}
	}
	return "not a path"
}

// checkExplorePaths refuses a varied path whose member the document has
// but is not a number (`explore.vary[0].path: transport is a string, not
// an integer member`). A member the document lacks is left to the
// explorer, which adds it and decodes the result.
func checkExplorePaths(body []byte, e *Explore) *Error {
	for i, v := range e.Vary {
		loc, ok := Locate(body, v.Path)
		if !ok || loc.Path != v.Path {
			continue
		}
		raw := bytes.TrimSpace(body[loc.Offset:loc.End])
		if _, _, err := parseInt(raw); err != nil {
			kind := kindOf(raw)
			if kind == "a number" {
				kind = "a number with a fraction"
			}
			return errAt("explore.vary["+strconv.Itoa(i)+"].path", ErrType, "%s is %s, not an integer member", v.Path, kind)
		}
	}
	return nil
}
