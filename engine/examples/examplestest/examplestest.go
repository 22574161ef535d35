// Package examplestest runs the built-in scenarios (package examples) for
// tests, as net/http/httptest serves for them: each helper fails the test
// with the scenario's name instead of returning an error. A run goes
// through the one entry (package entry) as written, with the SQLite ledger
// in memory, as the site's build and its ledger.wasm do, so a test sees the
// trace the golden files and the pages hold.
//
// It imports the runner, so a test inside a package the runner imports
// (package checks, not checks_test) cannot use it.
package examplestest

import (
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// options are the runs' engine options: the in-memory SQLite ledger
// (sqlite.NewMemory) for scenarios that have one.
var options = engine.Options{OpenLedger: sqlite.NewMemory}

// Get returns the built-in scenario called name; t fails now when there
// is none.
func Get(t testing.TB, name string) examples.Example {
	t.Helper()
	ex, ok := examples.Get(name)
	if !ok {
		t.Fatalf("no built-in scenario %s", name)
	}
	return ex
}

// Decode returns the built-in scenario called name, decoded.
func Decode(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	return DecodeExample(t, Get(t, name))
}

// Run returns the trace of the built-in scenario called name.
func Run(t testing.TB, name string) *trace.Trace {
	t.Helper()
	return RunExample(t, Get(t, name))
}

// DecodeExample returns ex.JSON decoded (ex a built-in scenario, or one
// edited by the test; ex.Name names it in a failure).
func DecodeExample(t testing.TB, ex examples.Example) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Decode(ex.JSON)
	if err != nil {
		t.Fatalf("scenario %s does not decode: %v", ex.Name, err)
	}
	return s
}

// RunExample returns the trace of ex.JSON run as written (ex a built-in
// scenario, or one edited by the test; ex.Name names it in a failure).
func RunExample(t testing.TB, ex examples.Example) *trace.Trace {
	t.Helper()
	res, err := entry.Run(ex.JSON, entry.Document{Options: options})
	if err != nil {
		t.Fatalf("scenario %s does not run: %v", ex.Name, err)
	}
	return res.Trace
}
