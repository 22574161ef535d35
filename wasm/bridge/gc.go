//go:build js && wasm

package bridge

import "runtime/debug"

// In every binary the collector runs once the heap has grown by four
// times its live size (GOGC=400, not 100). The live heap is a couple of
// MB, so this costs about 12 MB more memory at most, and buys a drag
// through a lesson dozens of changes between collections, and first
// changes after the page loads (while the startup garbage is still about)
// that seldom pay for one.
func init() { debug.SetGCPercent(400) }
