package entry_test

import (
	"errors"
	"fmt"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
)

// A document runs through the one entry; a bad one comes back as a located
// scenario error and no trace.
func Example() {
	res, err := entry.Run([]byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":20,"do":"complete","id":1}]}`), entry.Document{})
	fmt.Println(err, len(res.Trace.Requests), res.Trace.Requests[0].State, res.Trace.Requests[0].ClientOutcome)

	_, err = entry.Run([]byte(`{"mcplab":1,"steps":[{"at":0,"do":"call"}]}`), entry.Document{})
	var e *scenario.Error
	fmt.Println(errors.As(err, &e), e.Path, errors.Is(err, entry.ErrInternal))
	// Output:
	// <nil> 1 completed result
	// true steps[0].id false
}

// A scenario is untrusted input: a bad one gives an error that names the
// place, and no trace.
func ExampleRunJSON_badInput() {
	out, err := entry.RunJSON([]byte(`{"mcplab": 1, "steps": [
	  {"at": 0, "do": "call", "id": 7},
	  {"at": -5, "do": "cancel", "id": 7}
	]}`), entry.Document{})
	fmt.Println(len(out), err)
	// Output:
	// 0 steps[1].at: must be >= 0
}
