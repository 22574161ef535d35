package templates

import (
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// Rule (every control has a label of its own, WCAG 2.4.6): on every
// built-in scenario's page no two controls share a label; a step verb a
// script repeats says which occurrence each slider moves, in order.
func TestControlLabelsAreUnique(t *testing.T) {
	want := map[string][]string{
		// The stream of request 1 drops twice: resumption keeps its position.
		"resume-keeps-position": {"Stream 1 drops at (1 of 2)", "Stream 1 drops at (2 of 2)"},
		// The worker checks twice whether it should stop.
		"task-cancel-ack-not-final": {"Worker checkpoint of task-42 at (1 of 2)", "Worker checkpoint of task-42 at (2 of 2)"},
	}
	for _, ex := range examples.All() {
		seen := map[string]string{}
		for _, g := range NewControls(examplestest.DecodeExample(t, ex), 1000) {
			for _, c := range g.Controls {
				if other, dup := seen[c.Label]; dup {
					t.Errorf("%s: %s and %s share the label %q", ex.Name, other, c.Path, c.Label)
				}
				seen[c.Label] = c.Path
			}
		}
		for _, l := range want[ex.Name] {
			if _, ok := seen[l]; !ok {
				t.Errorf("%s: no control labelled %q", ex.Name, l)
			}
		}
	}
}
