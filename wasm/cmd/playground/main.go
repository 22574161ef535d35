//go:build js && wasm

// Command playground is playground.wasm, which only the playground loads:
// its controller (wasm/page.StartPlayground) and, in its worker, the
// playground's runs (wasm/worker's Playground). A scenario with a ledger
// reloads the page into ledger.wasm, so it draws no ledger
// (templates.ScenarioCharts).
package main

import (
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

func main() {
	s := &worker.Server{Charts: templates.ScenarioCharts}
	bridge.Main(bridge.Binary{
		Server:   s,
		Handlers: worker.Handlers{protocol.PagePlayground: s.Playground},
		API:      []bridge.Func{bridge.RunFunc(s), bridge.ShareFunc},
		Pages:    []bridge.Page{{ID: "playground", Start: page.StartPlayground}},
		Fatal:    page.ShowFatal,
	})
}
