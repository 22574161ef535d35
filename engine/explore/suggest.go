package explore

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/scenario"
)

// SuggestSpanMs is how far a suggested window reaches either side of a
// step's own time: 100 ms, wider than a lesson's latencies, so the edge
// where the race flips falls inside it.
const SuggestSpanMs = 100

// Suggest returns data with an explore member: its own when it has one,
// else a window over the times of its last two steps after time zero
// (where a script's race usually is: a cancellation and the completion it
// races; their own time ± SuggestSpanMs, by 1 ms, from 0), which is what a
// scenario page's "Explore this race" opens. ok is false when the scenario
// has no such step (no control is a time): there is no race to explore.
// Errors are the scenario's own.
func Suggest(data []byte) (doc []byte, ok bool, err error) {
	s, err := scenario.Decode(data)
	if err != nil {
		return nil, false, err
	}
	if s.Explore != nil {
		return data, true, nil
	}
	var vary []scenario.Vary
	for i := len(s.Steps) - 1; i >= 0 && len(vary) < 2; i-- {
		st := s.Steps[i]
		if st.At <= 0 {
			continue
		}
		v := scenario.Vary{Path: "steps[" + strconv.Itoa(i) + "].at",
			From: max(st.At-SuggestSpanMs, 0), To: min(st.At+SuggestSpanMs, scenario.MaxDurationMs), ByMs: 1}
		vary = append([]scenario.Vary{v}, vary...)
	}
	if len(vary) == 0 {
		return data, false, nil
	}
	member, err := json.Marshal(map[string]any{"vary": vary})
	if err != nil {
		return nil, false, err
	}
	doc, err = scenario.SetPath(data, "explore", member)
	if err != nil {
		return nil, false, err
	}
	return doc, true, nil
}
