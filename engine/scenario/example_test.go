package scenario_test

import (
	"errors"
	"fmt"

	"github.com/mcplab/mcplab/engine/scenario"
)

// An invalid scenario's error says where it is, by path and in the text;
// Edit changes one member by path and keeps every other byte.
func Example() {
	text := []byte(`{"mcplab": 1,
 "steps": [{"at": 0, "do": "call", "id": 7},
           {"at": -5, "do": "cancel", "id": 7}]}`)
	_, err := scenario.Decode(text)
	var e *scenario.Error
	if errors.As(err, &e) {
		fmt.Printf("%v (line %d, column %d: %s)\n", err, e.Line, e.Column, text[e.Offset:e.End])
	}
	fixed, _ := scenario.Edit(text, e.Path, scenario.ValueInteger, "300", false)
	s, err := scenario.Decode(fixed)
	fmt.Println(s.Steps[1].Do, "at", s.Steps[1].At, err)
	// Output:
	// steps[1].at: must be >= 0 (line 3, column 19: -5)
	// cancel at 300 <nil>
}

// A call of a tool without a handler of its own runs the "*" handler.
func ExampleServer_HandlerFor() {
	s, _ := scenario.Decode([]byte(`{"mcplab":1,"server":{"handlers":{"crunch":{"workMs":300},"*":{"workMs":20}}},"steps":[]}`))
	own, _ := s.Server.HandlerFor("crunch")
	other, ok := s.Server.HandlerFor("lookup")
	fmt.Println(own.WorkMs, other.WorkMs, ok)
	// Output: 300 20 true
}
