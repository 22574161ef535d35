//go:build js && wasm

// Command explore is explore.wasm, which only the race explorer page
// loads: its controller (wasm/page/explorepage) and, in each of its
// workers, the explorer (wasm/worker/explorer). It links neither the
// playground, the review nor the transcript importer. Its workers run a
// ledger on the browser's SQLite when the page loaded it (?ledger=1,
// app.js); without it a scenario with a ledger answers the engine's
// no-ledger error, and the page reloads itself with ?ledger=1.
package main

import (
	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/jsledger"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/page/explorepage"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
	"github.com/mcplab/mcplab/wasm/worker/explorer"
)

func main() {
	x := &explorer.Server{Charts: templates.AllCharts}
	if jsledger.Loaded() {
		x.Options = engine.Options{OpenLedger: jsledger.Open}
	}
	bridge.Main(bridge.Binary{
		Server:   &worker.Server{},
		Handlers: worker.Handlers{protocol.PageExplore: x.Explore},
		API:      []bridge.Func{bridge.ShareFunc},
		Pages:    []bridge.Page{{ID: "explore", Start: explorepage.StartExplore}},
		Fatal:    page.ShowFatal,
	})
}
