//go:build js && wasm

// Command explore is explore.wasm, which only the race explorer page
// loads: its controller (wasm/page/explorepage) and, in each of its
// workers, the explorer (wasm/worker/explorer). It links neither the
// playground, the review, the transcript importer nor SQLite: a scenario
// with a ledger is refused with the engine's no-ledger error.
package main

import (
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/page/explorepage"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
	"github.com/mcplab/mcplab/wasm/worker/explorer"
)

func main() {
	x := &explorer.Server{}
	bridge.Main(bridge.Binary{
		Server:   &worker.Server{},
		Handlers: worker.Handlers{protocol.PageExplore: x.Explore},
		API:      []bridge.Func{bridge.ShareFunc},
		Pages:    []bridge.Page{{ID: "explore", Start: explorepage.StartExplore}},
		Fatal:    page.ShowFatal,
	})
}
