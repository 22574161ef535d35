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

// ScenarioAPI is globalThis.mcplab of a binary that runs scenarios:
// run(json) the trace JSON, render(json) templates.Output's HTML, and
// share(json).
func ScenarioAPI(s *worker.Server) []Func {
	return []Func{
		{Name: "run", Result: "trace", Do: func(args []string) (string, error) { return s.RunJSON(args[0]) }},
		{Name: "render", Result: "html", Do: func(args []string) (string, error) { return s.RenderJSON(args[0]) }},
		ShareFunc,
	}
}
