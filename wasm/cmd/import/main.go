//go:build js && wasm

// Command import is import.wasm, which only the transcript import page
// loads: its controller (wasm/page/importpage) and, in its worker, the
// transcript importer (wasm/worker/importer). It runs no scenario, and
// draws only the timeline and the tables (templates.TranscriptCharts).
package main

import (
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/page/importpage"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
	"github.com/mcplab/mcplab/wasm/worker/importer"
)

func main() {
	imp := &importer.Server{Charts: templates.TranscriptCharts}
	bridge.Main(bridge.Binary{
		Server:   &worker.Server{},
		Handlers: worker.Handlers{protocol.PageImport: imp.Import},
		API:      []bridge.Func{bridge.ShareFunc, {Name: "import", Result: "trace", Do: importJSON}},
		Pages:    []bridge.Page{{ID: "import", Start: importpage.StartImport}},
		Fatal:    page.ShowFatal,
	})
}

// importJSON is mcplab.import(text, side).
func importJSON(args []string) (string, error) {
	side := ""
	if len(args) > 1 {
		side = args[1]
	}
	return importer.ImportJSON(args[0], side)
}
