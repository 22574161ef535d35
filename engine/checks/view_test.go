package checks_test

import (
	"reflect"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// The checks read wire numbers only as names: a trace whose wire numbers
// are far apart (a hand-written or foreign trace, where the view keeps
// them in maps instead of slices) is judged exactly as the same trace
// numbered 1, 2, ... as the runner numbers it.
func TestSparseWireNumbersJudgedTheSame(t *testing.T) {
	for _, name := range []string{"a-cancel-then-complete", "d-cancel-on-streamable-http", "reconnect-2025-last-event-id", "proxy-buffering-burst"} {
		tr := examplestest.Run(t, name)
		want := checks.Evaluate(tr)
		for i := range tr.Events {
			if tr.Events[i].Wire > 0 {
				tr.Events[i].Wire = tr.Events[i].Wire*1_000_003 + 17
			}
		}
		if got := checks.Evaluate(tr); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: with sparse wire numbers the checks are\n%+v\nwant\n%+v", name, got, want)
		}
	}
}
