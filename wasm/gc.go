//go:build js && wasm && !ledger

package main

import "runtime/debug"

// In main.wasm (the pages without a ledger) the collector runs once the
// heap has grown by four times its live size (GOGC=400, not 100). The live
// heap is a couple of MB, so this costs about 12 MB more memory at most,
// and buys a drag through a lesson dozens of changes between collections,
// and first changes after the page loads (while the startup garbage is
// still about) that seldom pay for one. ledger.wasm keeps Go's default:
// SQLite's pages make its live heap larger.
func init() { debug.SetGCPercent(400) }
