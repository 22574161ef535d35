package review_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
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
			ex, ok := examples.Get(name)
			if !ok {
				t.Fatalf("no built-in scenario %s", name)
			}
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
