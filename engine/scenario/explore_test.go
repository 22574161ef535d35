package scenario

import (
	"errors"
	"testing"
)

// exploreDoc is scenario A's shape with explore member m.
func exploreDoc(m string) []byte {
	return []byte(`{"mcplab":1,"latencyMs":{"up":10,"down":10},"steps":[` +
		`{"at":0,"do":"call","id":7,"name":"crunch"},` +
		`{"at":300,"do":"cancel","id":7},` +
		`{"at":320,"do":"complete","id":7}],` +
		`"explore":` + m + `}`)
}

// TestExploreDecodes: the explore member (SCENARIO.md, Explore) is read
// with its defaults (byMs 1, maxRuns 100,000), and the normalized form
// leaves it out, so the trace of a scenario is the same with or without it.
func TestExploreDecodes(t *testing.T) {
	s, err := Decode(exploreDoc(`{"vary":[{"path":"steps[1].at","from":0,"to":600},{"path":"latencyMs.up","from":0,"to":200,"byMs":5}],"maxRuns":20000}`))
	if err != nil {
		t.Fatal(err)
	}
	e := s.Explore
	if e == nil || len(e.Vary) != 2 || e.MaxRuns != 20000 {
		t.Fatalf("explore %+v, want two dimensions and maxRuns 20000", e)
	}
	if e.Vary[0] != (Vary{Path: "steps[1].at", From: 0, To: 600, ByMs: 1}) || e.Vary[1].ByMs != 5 {
		t.Errorf("vary %+v: byMs defaults to 1 and keeps 5", e.Vary)
	}
	s2, _ := Decode(exploreDoc(`{"vary":[{"path":"latencyMs.down","from":1,"to":2}]}`))
	if s2.Explore.MaxRuns != DefaultExploreRuns {
		t.Errorf("maxRuns %d, want the default %d", s2.Explore.MaxRuns, DefaultExploreRuns)
	}
	if pts := (Vary{From: 0, To: 10, ByMs: 3}).Points(); pts != 5 {
		t.Errorf("0..10 by 3 has %d points, want 5 (0, 3, 6, 9 and 10: to is included)", pts)
	}
	if v := (Vary{From: 0, To: 10, ByMs: 3}).Value(4); v != 10 {
		t.Errorf("the last value of 0..10 by 3 is %d, want 10", v)
	}
}

// TestExploreBadInput: every mistake in explore is a located error naming
// the member (SCENARIO.md, Bad input), never a panic.
func TestExploreBadInput(t *testing.T) {
	for _, tc := range []struct {
		rule, explore, path string
		sentinel            error
	}{
		{"explore is an object", `[]`, "explore", ErrType},
		{"vary is required", `{}`, "explore.vary", ErrMissing},
		{"vary is not empty", `{"vary":[]}`, "explore.vary", ErrValue},
		{"at most 4 dimensions", `{"vary":[{"path":"a","from":0,"to":1},{"path":"b","from":0,"to":1},{"path":"c","from":0,"to":1},{"path":"d","from":0,"to":1},{"path":"e","from":0,"to":1}]}`, "explore.vary", ErrLimit},
		{"path is required", `{"vary":[{"from":0,"to":1}]}`, "explore.vary[0].path", ErrMissing},
		{"path is a path", `{"vary":[{"path":"steps[x].at","from":0,"to":1}]}`, "explore.vary[0].path", ErrValue},
		{"a path varies once", `{"vary":[{"path":"latencyMs.up","from":0,"to":1},{"path":"latencyMs.up","from":0,"to":1}]}`, "explore.vary[1].path", ErrDuplicate},
		{"the member is an integer", `{"vary":[{"path":"steps[0].name","from":0,"to":1}]}`, "explore.vary[0].path", ErrType},
		{"from is required", `{"vary":[{"path":"latencyMs.up","to":1}]}`, "explore.vary[0].from", ErrMissing},
		{"from >= 0", `{"vary":[{"path":"latencyMs.up","from":-1,"to":1}]}`, "explore.vary[0].from", ErrValue},
		{"to <= one virtual day", `{"vary":[{"path":"latencyMs.up","from":0,"to":86400001}]}`, "explore.vary[0].to", ErrLimit},
		{"to >= from", `{"vary":[{"path":"latencyMs.up","from":5,"to":4}]}`, "explore.vary[0].to", ErrValue},
		{"byMs >= 1", `{"vary":[{"path":"latencyMs.up","from":0,"to":4,"byMs":0}]}`, "explore.vary[0].byMs", ErrValue},
		{"maxRuns <= 1,000,000", `{"vary":[{"path":"latencyMs.up","from":0,"to":4}],"maxRuns":1000001}`, "explore.maxRuns", ErrLimit},
		{"unknown member of a dimension", `{"vary":[{"path":"latencyMs.up","from":0,"to":4,"step":2}]}`, "explore.vary[0].step", ErrUnknown},
		{"unknown member of explore", `{"vary":[{"path":"latencyMs.up","from":0,"to":4}],"runs":3}`, "explore.runs", ErrUnknown},
	} {
		_, err := Decode(exploreDoc(tc.explore))
		var e *Error
		if !errors.As(err, &e) || e.Path != tc.path || !errors.Is(err, tc.sentinel) || e.Line == 0 {
			t.Errorf("%s: %s gives %v (located %+v); want %v at %s with its line", tc.rule, tc.explore, err, e, tc.sentinel, tc.path)
		}
	}
}
