package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Rule (a ledger page whose SQLite cannot load): when sqlite3.wasm
// cannot be fetched, a ledger lesson page says so in words, naming the
// file and the HTTP status ("fetching /sqlite3.wasm: HTTP 404"), keeps the
// prerendered run, and marks itself failed (data-ready="error"); it never
// shows Emscripten's "Aborted(both async and sync fetching of the wasm
// failed). Build with -sASSERTIONS ...", nor calls the scenario invalid;
// nor does the playground with the SQLite build.
func TestLedgerPageSaysWhySQLiteDidNotLoad(t *testing.T) {
	ensureSiteWritten(t)
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
	// The box beside the output blames the simulator, never the scenario.
	box := evalJSON[string](t, ctx, `document.getElementById("lab-error").hidden ? "" : document.getElementById("lab-error").textContent`)
	if strings.Contains(box, "Invalid scenario") {
		t.Errorf("#lab-error calls the page's own scenario invalid: %q", box)
	}
	expectOnlySQLiteProblems(t, w.Problems())

	// The playground with the SQLite build (?ledger=1) and a valid
	// built-in: the simulator could not run it; the scenario is not
	// invalid (no title saying so, the editor not marked).
	ctx, w = newTab(t, srv.URL)
	navigate(t, ctx, srv.URL+"/playground/?ledger=1#example=broken-dedupe-by-rpc-id")
	if _, err := pollJS[bool](ctx, `!!document.documentElement.dataset.ready && !document.getElementById("lab-error").hidden`, readyTimeout); err != nil {
		t.Fatalf("the playground never said what failed: %v", err)
	}
	got := evalJSON[[3]string](t, ctx, `[document.getElementById("pg-title").textContent, document.getElementById("lab-error").textContent, String(document.getElementById("pg-editor") && document.querySelector("#pg-editor [aria-invalid], #pg-editor[aria-invalid]") !== null)]`)
	if strings.Contains(got[0], "not valid") {
		t.Errorf("the playground's title says %q for a valid built-in whose SQLite did not load", got[0])
	}
	if !strings.Contains(got[1], "fetching /sqlite3.wasm: HTTP 404") || strings.Contains(got[1], "Invalid") {
		t.Errorf("the playground's error says %q, want the simulator's failure (fetching /sqlite3.wasm: HTTP 404), not an invalid scenario", got[1])
	}
	if got[2] == "true" {
		t.Error("the playground marks the editor invalid")
	}
	expectOnlySQLiteProblems(t, w.Problems())
}

// expectOnlySQLiteProblems fails on any console problem but the 404 of
// sqlite3.wasm, SQLite's own report of it and the page's (no unhandled
// rejection either).
func expectOnlySQLiteProblems(t *testing.T, problems []string) {
	t.Helper()
	for _, p := range problems {
		if (!strings.Contains(p, "sqlite3") && !strings.Contains(p, "could not start")) || strings.Contains(p, "Uncaught") {
			t.Errorf("page problem: %s", p)
		}
	}
}
