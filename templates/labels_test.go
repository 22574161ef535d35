package templates

import (
	"testing"
)

// TestNarrowToolCallKeepsWords: on a phone (the narrow frame, 380 units)
// scenario A's tools/call arrow sits between the network lane's name and
// the progress arrow, too tight for "tools/call crunch"; its label says
// the tool's name ("crunch", the arrow's Short) rather than collapsing to
// the key number "1" with its words under the legend (issue 13's QA at
// 390 px). The title keeps the whole label.
func TestNarrowToolCallKeepsWords(t *testing.T) {
	tl := newNarrowTimeline(runEdited(t, "a-cancel-then-complete"))
	if len(tl.Keys) != 0 {
		t.Errorf("scenario A's narrow timeline keys %d labels (%+v), want words on every arrow", len(tl.Keys), tl.Keys)
	}
	found := false
	for _, a := range tl.Arrows {
		if a.Kind == kindRequest && a.Method == "tools/call" {
			found = true
			if a.Label != "crunch" {
				t.Errorf("the tools/call arrow is labelled %q, want its tool's name \"crunch\"", a.Label)
			}
		}
	}
	if !found {
		t.Fatal("no tools/call arrow in scenario A's narrow timeline")
	}
}
