package examples

import (
	"bytes"
	"errors"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// A share link opens to the scenario it names (SCENARIO.md, "Sharing"): a
// "#example=NAME" link to the built-in's file exactly as shipped, a "#s="
// link to the document it carries, and an unknown name to an error that
// names it and wraps scenario.ErrShare.
func TestOpenNamesTheScenarioOfALink(t *testing.T) {
	a, ok := Get("a-cancel-then-complete")
	if !ok {
		t.Fatal("built-in a-cancel-then-complete is missing")
	}
	got, err := Open(scenario.Link{Example: "a-cancel-then-complete"})
	if err != nil || !bytes.Equal(got, a.JSON) {
		t.Errorf("Open(#example=a-cancel-then-complete) = %d bytes, %v; want the file as shipped (%d bytes)", len(got), err, len(a.JSON))
	}
	doc := []byte(`{"mcplab":1}`)
	if got, err := Open(scenario.Link{Scenario: doc}); err != nil || !bytes.Equal(got, doc) {
		t.Errorf("Open(#s=...) = %q, %v; want the carried document", got, err)
	}
	_, err = Open(scenario.Link{Example: "no-such-scenario"})
	if !errors.Is(err, scenario.ErrShare) || !bytes.Contains([]byte(err.Error()), []byte(`"no-such-scenario"`)) {
		t.Errorf("Open(#example=no-such-scenario) error = %v; want scenario.ErrShare naming the scenario", err)
	}
}
