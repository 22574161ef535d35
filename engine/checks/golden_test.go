package checks_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestGoldenChecks re-evaluates the checks of every golden trace and
// compares them, byte for byte, with the checks[] stored in it: the rules
// judge the events the same way however they are indexed (checks
// linear at every size, goldens byte-identical).
func TestGoldenChecks(t *testing.T) {
	files, _ := filepath.Glob("../examples/testdata/*.trace.json")
	if len(files) == 0 {
		t.Fatal("no golden traces under ../examples/testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var tr trace.Trace
			if err := json.Unmarshal(data, &tr); err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(tr.Checks)
			got, _ := json.Marshal(checks.Evaluate(&tr))
			if !bytes.Equal(got, want) {
				t.Errorf("checks differ\n got %s\nwant %s", got, want)
			}
		})
	}
}
