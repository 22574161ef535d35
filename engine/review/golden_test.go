package review_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/review"
)

var update = flag.Bool("update", false, "rewrite the golden reviews in testdata/")

// opts are the options of every review in these tests: the real SQLite
// ledger in memory, bare "#s=..." links.
var opts = review.Options{Engine: engine.Options{OpenLedger: sqlite.NewMemory}}

// goldenExamples are the built-in scenarios whose reviews are pinned: the
// flagship story and its fix, the practice lab, and a task.
var goldenExamples = []string{
	"flagship-retry-charges-twice",
	"flagship-with-idempotency-key",
	"practice-reserve-inventory",
	"task-cancel-ack-not-final",
}

// TestGoldenReviews pins the Markdown and JSON reviews of built-in
// scenarios byte for byte (natively and under WebAssembly, where the same
// test runs on the memdb ledger): a review is deterministic.
func TestGoldenReviews(t *testing.T) {
	for _, name := range goldenExamples {
		t.Run(name, func(t *testing.T) {
			ex := examplestest.Get(t, name)
			rep, err := review.Review(ex.JSON, opts)
			if err != nil {
				t.Fatal(err)
			}
			js, err := review.Encode(rep)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", name+".review.json"), js)
			golden(t, filepath.Join("testdata", name+".review.md"), []byte(review.Markdown(rep)))
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./engine/review -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the review (run with -update after checking the change):\n%s", path, firstDiff(got, want))
	}
}

func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b []byte
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if !bytes.Equal(a, b) {
			return "line " + itoa(i+1) + ":\n got: " + string(a) + "\nwant: " + string(b)
		}
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestSchemaDescribesTheReport: /review.schema.json declares every member
// a review's JSON has, at the top level, in a race row and in a failure
// card, and every member it requires is there (the JSON contract of
// /review.schema.json).
func TestSchemaDescribesTheReport(t *testing.T) {
	type object struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
		Items      *object                    `json:"items"`
	}
	var schema object
	if err := json.Unmarshal(review.Schema, &schema); err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	sub := func(name string) object {
		var o object
		if err := json.Unmarshal(schema.Properties[name], &o); err != nil || o.Items == nil {
			t.Fatalf("schema property %s: %v", name, err)
		}
		return *o.Items
	}
	ex := examplestest.Get(t, "flagship-with-idempotency-key")
	rep, err := review.Review(ex.JSON, opts)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := review.Encode(rep)
	var doc struct {
		Top   map[string]json.RawMessage
		Races []map[string]json.RawMessage `json:"races"`
		Cards []map[string]json.RawMessage `json:"failureCards"`
	}
	json.Unmarshal(js, &doc)
	json.Unmarshal(js, &doc.Top)
	for _, tc := range []struct {
		name string
		s    object
		got  map[string]json.RawMessage
	}{{"report", schema, doc.Top}, {"race row", sub("races"), doc.Races[0]}, {"failure card", sub("failureCards"), doc.Cards[0]}} {
		for k := range tc.got {
			if _, ok := tc.s.Properties[k]; !ok {
				t.Errorf("%s: member %q is not in the schema", tc.name, k)
			}
		}
		for _, k := range tc.s.Required {
			if _, ok := tc.got[k]; !ok {
				t.Errorf("%s: the schema requires %q, the review lacks it", tc.name, k)
			}
		}
	}
}
