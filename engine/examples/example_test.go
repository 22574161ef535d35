package examples_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/examples"
)

// The built-in scenarios are files shipped in the binary, found by name;
// each has the golden trace the engine must reproduce byte for byte
// (testdata/NAME.trace.json).
func ExampleGet() {
	ex, ok := examples.Get("a-cancel-then-complete")
	fmt.Println(ok, ex.Name)
	fmt.Println(ex.Title)
	_, ok = examples.Get("no-such-scenario")
	fmt.Println(ok)
	// Output:
	// true a-cancel-then-complete
	// A: cancellation wins (stdio)
	// false
}
