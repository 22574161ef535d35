//go:build js && wasm && ledger

package main

// With -tags ledger, every run gets a fresh in-memory ledger on the
// browser's SQLite (ledgerdb.go: the memdb VFS, so connections of one run
// share it and really race).
func init() { options.OpenLedger = newJSLedger }
