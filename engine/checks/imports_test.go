package checks_test

import (
	gobuild "go/build"
	"slices"
	"strings"
	"testing"
)

// TestImportsOnlyTraceAndJSONRPC proves the place of checks in the package
// map (ARCHITECTURE.md): the rules are functions of the trace's
// events and the wire, so the only engine packages checks imports are
// trace and jsonrpc.
func TestImportsOnlyTraceAndJSONRPC(t *testing.T) {
	p, err := gobuild.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	var engine []string
	for _, imp := range p.Imports {
		if strings.HasPrefix(imp, "github.com/mcplab/mcplab/") {
			engine = append(engine, strings.TrimPrefix(imp, "github.com/mcplab/mcplab/"))
		}
	}
	if want := []string{"engine/jsonrpc", "engine/trace"}; !slices.Equal(engine, want) {
		t.Errorf("checks imports %v, want only %v", engine, want)
	}
}
