package templates

import "strconv"

// numberSameLabels makes every control's label unique on its page: where
// two or more controls share a label (a stream that drops twice, "Stream
// 1 drops at"; a worker that checkpoints twice), each says which one it
// is, in the panel's order: "Stream 1 drops at (1 of 2)". A screen reader
// names a control by its label alone, so two alike leave the reader
// guessing which slider moves which step.
func numberSameLabels(groups []controlGroup) {
	count := map[string]int{}
	for _, g := range groups {
		for _, c := range g.Controls {
			count[c.Label]++
		}
	}
	seen := map[string]int{}
	for gi := range groups {
		for ci := range groups[gi].Controls {
			c := &groups[gi].Controls[ci]
			n := count[c.Label]
			if n < 2 {
				continue
			}
			seen[c.Label]++
			c.Label += " (" + strconv.Itoa(seen[c.Label]) + " of " + strconv.Itoa(n) + ")"
		}
	}
}
