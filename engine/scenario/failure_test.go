package scenario_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// TestStepFailure proves a fail step's JSON-RPC error (SCENARIO.md, fail:
// code required, message optional): the code and message as written, and
// "" for a message the step leaves out.
func TestStepFailure(t *testing.T) {
	s, err := scenario.Decode([]byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":1,"do":"fail","id":1,"code":-32001,"message":"busy"},{"at":0,"do":"call","id":2},{"at":2,"do":"fail","id":2,"code":-32603}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]struct {
		code int64
		msg  string
	}{1: {-32001, "busy"}, 3: {-32603, ""}} {
		if code, msg := s.Steps[i].Failure(); code != want.code || msg != want.msg {
			t.Errorf("steps[%d].Failure() = %d, %q; want %d, %q", i, code, msg, want.code, want.msg)
		}
	}
}
