//go:build js && wasm

// Command lab is main.wasm, the scenario pages' simulator: the scenario
// page's controller (wasm/page.StartLab) and, in its worker, the scenario
// runs (wasm/worker's Lab). It links neither the playground, the review,
// the transcript importer nor SQLite, and so draws no ledger
// (templates.ScenarioCharts): a scenario with one loads ledger.wasm.
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
		Handlers: worker.Handlers{protocol.PageLab: s.Lab},
		API:      []bridge.Func{bridge.RunFunc(s), bridge.RenderFunc(s), bridge.ShareFunc},
		Pages:    []bridge.Page{{ID: "lab", Start: page.StartLab}},
		Fatal:    page.ShowFatal,
	})
}
