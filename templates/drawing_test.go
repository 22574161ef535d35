package templates

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
)

// partKeys lists the keys of d's blocks of tr's Output.
func partKeys(d Drawing, tr *trace.Trace) []string {
	v := NewView(tr)
	var keys []string
	for _, p := range OutputParts(v, d.Charts(tr, v)) {
		keys = append(keys, p.Key)
	}
	return keys
}

// Rule (Drawing): a binary's Drawing draws every chart its pages' traces
// can have, so its Output is AllCharts' byte for byte: ScenarioCharts for
// every built-in scenario that runs without a ledger (one with a ledger
// answers engine.ErrNoLedger there, and its page loads ledger.wasm), and
// TranscriptCharts for every transcript fixture the importer reads. The
// Drawings differ where they must: a ledger's block is AllCharts' alone,
// and ScenarioCharts draws the task lanes, buffers and herd.
func TestDrawingDrawsWhatItsTracesHave(t *testing.T) {
	drew := map[string]bool{}
	for _, ex := range examples.All() {
		res, err := entry.Run(ex.JSON, entry.Document{})
		if errors.Is(err, engine.ErrNoLedger) {
			continue
		}
		if err != nil {
			t.Fatalf("%s does not run without a ledger: %v", ex.Name, err)
		}
		all, scen := partKeys(AllCharts, res.Trace), partKeys(ScenarioCharts, res.Trace)
		if !slices.Equal(all, scen) {
			t.Errorf("%s: ScenarioCharts draws %q, AllCharts %q", ex.Name, scen, all)
			continue
		}
		if a, s := renderString(t, Output(res.Trace)), renderString(t, ScenarioCharts.Output(res.Trace)); a != s {
			t.Errorf("%s: ScenarioCharts' Output differs from AllCharts'", ex.Name)
		}
		for _, k := range all {
			drew[k] = true
		}
	}
	for _, k := range []string{"tasks", "buffers", "herd"} {
		if !drew[k] {
			t.Errorf("no built-in scenario without a ledger drew %q with ScenarioCharts", k)
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "engine", "transcript", "testdata", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcript fixtures: %v", err)
	}
	imported := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := transcript.Import(data, transcript.Options{})
		if err != nil {
			continue // a fixture of a rejected transcript
		}
		imported++
		if a, s := renderString(t, Output(tr)), renderString(t, TranscriptCharts.Output(tr)); a != s {
			t.Errorf("%s: TranscriptCharts' Output differs from AllCharts' (keys %q)", filepath.Base(f), partKeys(AllCharts, tr))
		}
	}
	if imported == 0 {
		t.Error("no transcript fixture imported")
	}
	withLedger := examples.All()
	i := slices.IndexFunc(withLedger, func(ex examples.Example) bool { return ex.Name == "ledger-keyed-race" })
	if i < 0 {
		t.Fatal("no built-in scenario ledger-keyed-race")
	}
	if _, err := entry.Run(withLedger[i].JSON, entry.Document{}); !errors.Is(err, engine.ErrNoLedger) {
		t.Errorf("ledger-keyed-race without a ledger: %v, want engine.ErrNoLedger", err)
	}
}
