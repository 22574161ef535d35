package scenario_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// A produce step stands for Count progress steps on its request: values
// FromValue, FromValue+1, ... one every EveryMs ms from At, each with the
// step's total (SCENARIO.md, produce).
func TestProducedCountsUpEveryMs(t *testing.T) {
	s, err := scenario.Decode([]byte(`{"mcplab":1,"steps":[
		{"at":0,"do":"call","id":7,"progressToken":"p"},
		{"at":40,"do":"produce","id":7,"count":3,"everyMs":25,"fromValue":10,"total":12}]}`))
	if err != nil {
		t.Fatal(err)
	}
	st := &s.Steps[1]
	for k, want := range []struct {
		at int64
		v  float64
	}{{40, 10}, {65, 11}, {90, 12}} {
		got := st.Produced(k)
		if got.Do != scenario.VerbProgress || got.At != want.at || st.ProducedAt(k) != want.at || *got.Progress != want.v || *got.Total != 12 || got.ID.Raw() != "7" {
			t.Errorf("Produced(%d) = %s at %d, value %v, total %v, id %s; want progress at %d, value %v, total 12, id 7",
				k, got.Do, got.At, *got.Progress, *got.Total, got.ID.Raw(), want.at, want.v)
		}
	}
	st.FromValue = nil
	if got := st.Produced(2); *got.Progress != 2 {
		t.Errorf("without fromValue, Produced(2) has value %v; want 2 (counting from 0)", *got.Progress)
	}
}
