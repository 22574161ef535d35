package engine

import (
	"slices"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// TestEveryVerbHasAMove: the runner has exactly one move for each verb
// scenario.Decode admits (scenario.Verbs), so no decoded step reaches the
// runner without a move, and no move waits for a verb the format lacks.
func TestEveryVerbHasAMove(t *testing.T) {
	seen := map[scenario.Verb]int{}
	for _, m := range moves {
		seen[m.verb]++
		if _, ok := scenario.Verbs[m.verb]; !ok {
			t.Errorf("moves has %q, which scenario.Verbs does not list", m.verb)
		}
	}
	var verbs []scenario.Verb
	for v := range scenario.Verbs {
		verbs = append(verbs, v)
	}
	slices.Sort(verbs)
	for _, v := range verbs {
		if seen[v] != 1 {
			t.Errorf("verb %q has %d moves, want 1", v, seen[v])
		}
	}
}
