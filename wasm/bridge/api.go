//go:build js && wasm

package bridge

import (
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/wasm/worker"
)

// ShareFunc is mcplab.share(json): the canonical "s=..." share fragment of
// a scenario document (scenario.ShareFragment).
var ShareFunc = Func{Name: "share", Result: "fragment", Do: func(args []string) (string, error) {
	return scenario.ShareFragment([]byte(args[0]))
}}

// RunFunc is mcplab.run(json): the trace JSON of a scenario document
// (worker.Server.RunJSON).
func RunFunc(s *worker.Server) Func {
	return Func{Name: "run", Result: "trace", Do: func(args []string) (string, error) { return s.RunJSON(args[0]) }}
}

// RenderFunc is mcplab.render(json): templates.Output's HTML of a scenario
// document (worker.Server.RenderJSON), which the scenario pages' tests
// compare with the prerendered output.
func RenderFunc(s *worker.Server) Func {
	return Func{Name: "render", Result: "html", Do: func(args []string) (string, error) { return s.RenderJSON(args[0]) }}
}
