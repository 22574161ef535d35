//go:build js && wasm

// Command ledger is ledger.wasm: the pages of scenarios with a ledger,
// the playground for such a scenario and the review page load it. Every
// run gets a fresh in-memory ledger on the browser's SQLite (wasm/jsledger;
// SQLite itself is site/static/sqlite.js and sqlite3.wasm, loaded beside
// it).
package main

import (
	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/jsledger"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

func main() {
	s := &worker.Server{Options: engine.Options{OpenLedger: jsledger.Open}, Charts: templates.AllCharts}
	bridge.Main(bridge.Binary{
		Server: s,
		Handlers: worker.Handlers{
			protocol.PageLab:        s.Lab,
			protocol.PagePlayground: s.Playground,
			protocol.PageReview:     s.Review,
		},
		API: []bridge.Func{bridge.RunFunc(s), bridge.RenderFunc(s), bridge.ShareFunc},
		Pages: []bridge.Page{
			{ID: "playground", Start: page.StartPlayground},
			{ID: "review-live", Start: page.StartReview},
			{ID: "lab", Start: page.StartLab},
		},
		Fatal: page.ShowFatal,
	})
}
