package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Rule (QA, a ledger page whose SQLite cannot load): when sqlite3.wasm
// cannot be fetched, a ledger lesson page says so in words, naming the
// file and the HTTP status ("fetching /sqlite3.wasm: HTTP 404"), keeps the
// prerendered run, and marks itself failed (data-ready="error"); it never
// shows Emscripten's "Aborted(both async and sync fetching of the wasm
// failed). Build with -sASSERTIONS ...".
func TestLedgerPageSaysWhySQLiteDidNotLoad(t *testing.T) {
	ensureSite(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/sqlite3.wasm") {
			http.NotFound(w, r)
			return
		}
		siteHandler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx, w := newTab(t, srv.URL)
	navigate(t, ctx, srv.URL+"/s/broken-dedupe-by-rpc-id/")
	state, err := pollJS[string](ctx, `document.documentElement.dataset.ready`, readyTimeout)
	if err != nil {
		t.Fatalf("page never set data-ready: %v", err)
	}
	if state != "error" {
		t.Fatalf("data-ready = %q without SQLite, want \"error\"", state)
	}
	status := evalJSON[string](t, ctx, `document.getElementById("lab-status").textContent`)
	if !strings.Contains(status, "fetching /sqlite3.wasm: HTTP 404") {
		t.Errorf("the status says %q, want it to name the file and its HTTP status (fetching /sqlite3.wasm: HTTP 404)", status)
	}
	if strings.Contains(status, "Aborted(") || strings.Contains(status, "ASSERTIONS") {
		t.Errorf("the status shows Emscripten's text: %q", status)
	}
	if n := evalJSON[int](t, ctx, `document.querySelectorAll("#lab-output svg.timeline").length`); n == 0 {
		t.Error("the prerendered run is gone from #lab-output")
	}
	// Expected in the console: the 404, SQLite's own report of it, and the
	// page's; nothing else.
	for _, p := range w.Problems() {
		if !strings.Contains(p, "sqlite3") && !strings.Contains(p, "could not start") {
			t.Errorf("page problem: %s", p)
		}
	}
}
