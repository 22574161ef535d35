package explore

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

var update = flag.Bool("update", false, "rewrite the explorer's golden reports in testdata/")

// summary is what an exploration in parts must agree on with one of the
// whole window: each class's key, count and example, the rules with their
// violations, the counterexamples and the map.
func summary(t *testing.T, r *Report) string {
	t.Helper()
	type class struct {
		Key     string
		Count   int64
		Example Example
	}
	var cs []class
	for _, c := range r.Classes {
		cs = append(cs, class{c.Key, c.Count, c.Example})
	}
	b, err := json.Marshal(struct {
		Points          int64
		Classes         []class
		Rules           []Rule
		Counterexamples []Counterexample
		Grid            *Grid
	}{r.Points, cs, r.Rules, r.Counterexamples, r.Grid})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Rule (SCENARIO.md, Explore: the page spreads the runs over workers): a
// window explored in parts along its first dimension and merged has the
// classes, counts, examples, rules, counterexamples and map of the whole
// window explored at once, for any number of parts; with a part missing
// its rows come from the coarse picture and the merge is not exhaustive.
func TestPartsMergeToTheWholeWindow(t *testing.T) {
	cases := []struct {
		name  string
		data  []byte
		vary  []scenario.Vary
		parts []int
	}{
		{"lesson A, a 64 x 64 map", lesson(t, "a-cancel-then-complete"),
			[]scenario.Vary{{Path: "steps[2].at", From: 250, To: 376, ByMs: 2}, {Path: "latencyMs.up", From: 0, To: 63, ByMs: 1}}, []int{1, 3, 8}},
		{"lesson A, a strip", lesson(t, "a-cancel-then-complete"),
			[]scenario.Vary{{Path: "steps[2].at", From: 0, To: 600, ByMs: 1}}, []int{2, 5}},
		{"the flagship, its counterexample", lesson(t, "flagship-retry-charges-twice"),
			[]scenario.Vary{{Path: "steps[3].at", From: 1990, To: 2020, ByMs: 1}, {Path: "latencyMs.up", From: 0, To: 30, ByMs: 3}}, []int{4}},
	}
	for _, tc := range cases {
		whole := explore(t, tc.data, Options{Vary: tc.vary, Engine: ledgerOptions})
		for _, n := range tc.parts {
			plan, err := Split(tc.data, tc.vary, n)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Parts) != n {
				t.Fatalf("%s: %d parts, want %d", tc.name, len(plan.Parts), n)
			}
			coarse, err := Part(tc.data, plan, -1, Options{Engine: ledgerOptions})
			if err != nil {
				t.Fatal(err)
			}
			reps := make([]*Report, n)
			for k := range reps {
				if reps[k], err = Part(tc.data, plan, k, Options{Engine: ledgerOptions}); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := summary(t, Merge(plan, coarse, reps)), summary(t, whole); got != want {
				t.Errorf("%s in %d parts: merged differs from the whole window:\n got %.600s\nwant %.600s", tc.name, n, got, want)
			}
			if n > 1 {
				reps[n-1] = nil
				m := Merge(plan, coarse, reps)
				if m.Exhaustive || m.Unknown == 0 {
					t.Errorf("%s: a part missing, merged exhaustive %v unknown %d", tc.name, m.Exhaustive, m.Unknown)
				}
				for _, c := range m.Grid.Cells {
					if c < 0 {
						t.Errorf("%s: a part missing leaves a cell unknown, want the coarse picture", tc.name)
						break
					}
				}
			}
		}
	}
}

// Rule (Values and Region encode as objects keyed by path, in vary's
// order): a report read back from its JSON encodes to the same bytes.
func TestReportRoundTrips(t *testing.T) {
	rep := explore(t, lesson(t, "a-cancel-then-complete"), Options{})
	one, _ := json.Marshal(rep)
	var back Report
	if err := json.Unmarshal(one, &back); err != nil {
		t.Fatal(err)
	}
	if two, _ := json.Marshal(&back); !bytes.Equal(one, two) {
		t.Errorf("round trip differs:\n%s\n%s", one, two)
	}
}

// Rule (the package doc: the same report natively and in WebAssembly):
// the reports of the lessons' own windows are compared byte for byte with
// testdata/NAME.explore.json, which `go test -update` writes natively;
// make test runs this package under GOOS=js GOARCH=wasm too, where the
// same goldens must match.
func TestGoldenReports(t *testing.T) {
	for _, name := range []string{"a-cancel-then-complete", "flagship-retry-charges-twice", "flagship-with-idempotency-key"} {
		t.Run(name, func(t *testing.T) {
			rep := explore(t, lesson(t, name), Options{Engine: ledgerOptions})
			got, err := json.MarshalIndent(rep, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".explore.json")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("no golden report (go test ./engine/explore -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report differs from %s", golden)
			}
		})
	}
}

// Rule (a scenario page whose controls are times offers "Explore this
// race"): a scenario with an explore member keeps it; one without gets a
// window over its last two step times after zero (in the scenario's
// order), ±SuggestSpanMs, which explores; one whose steps are all at zero
// has none.
func TestSuggest(t *testing.T) {
	a := lesson(t, "a-cancel-then-complete")
	if doc, ok, err := Suggest(a); err != nil || !ok || !bytes.Equal(doc, a) {
		t.Errorf("lesson A: ok %v err %v, want its own window kept", ok, err)
	}
	bare := []byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1,"name":"t","progressToken":"p"},{"at":20,"do":"progress","id":1,"progress":1},{"at":50,"do":"cancel","id":1},{"at":80,"do":"complete","id":1}]}`)
	doc, ok, err := Suggest(bare)
	if err != nil || !ok {
		t.Fatalf("ok %v err %v", ok, err)
	}
	plan, err := Split(doc, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []scenario.Vary{{Path: "steps[2].at", From: 0, To: 150, ByMs: 1}, {Path: "steps[3].at", From: 0, To: 180, ByMs: 1}}
	if len(plan.Vary) != 2 || plan.Vary[0] != want[0] || plan.Vary[1] != want[1] {
		t.Errorf("suggested %+v, want %+v", plan.Vary, want)
	}
	zero := []byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1,"name":"t"},{"at":0,"do":"complete","id":1}]}`)
	if _, ok, err := Suggest(zero); ok || err != nil {
		t.Errorf("all steps at zero: ok %v err %v, want no window", ok, err)
	}
}
