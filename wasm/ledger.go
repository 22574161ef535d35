//go:build js && wasm && ledger

package main

import "github.com/mcplab/mcplab/engine/ledger/sqlite"

// With -tags ledger, every run gets a fresh in-memory SQLite ledger (the
// memdb VFS, so connections of one run share it and really race).
func init() { options.OpenLedger = sqlite.NewMemory }
