package site

// on the import page: the fields of the CLI's flags
// (-observer, -zone, -latency, -max-timeout) are on the page, change the
// judgement exactly as the flags do, and #imp-inferred shows what was
// inferred or given.

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/transcript"
)

// setField sets an option field's value in the page and fires its change.
func setField(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	evalJSON[bool](t, ctx, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %s; e.dispatchEvent(new Event("change")); return true })()`, id, strconv.Quote(value)))
}

// Rule: a VS Code log (local times) with the zone, the
// round trip and the client's maximum timeout given in the page's fields
// is judged as `mcplab run -zone -latency -max-timeout` judges it
// (transcript.OptionsOf reads both); #imp-inferred names each value with
// its field, and a bad value is an error naming the field.
func TestImportFieldsMatchCLI(t *testing.T) {
	log, err := os.ReadFile(filepath.Join("..", "engine", "transcript", "testdata", "vscode-race.log"))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := transcript.OptionsOf("", "", "+02:00", "500", "150")
	if err != nil {
		t.Fatal(err)
	}
	native, err := transcript.Import(log, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	typeInto(t, ctx, "#imp-input", string(log))
	waitFor(t, ctx, "the import", `document.getElementById("lab-error").hidden && !document.getElementById("imp-result").dataset.stale && document.getElementById("imp-source").textContent.includes("VS Code") && `+settledJS)
	if got := evalJSON[string](t, ctx, `document.querySelector('#imp-inferred [data-field="imp-zone"] dd')?.textContent ?? ""`); !strings.Contains(got, "UTC") {
		t.Errorf("before the zone is given, #imp-inferred says %q, want UTC (the default, said)", got)
	}
	setField(t, ctx, "imp-zone", "+02:00")
	setField(t, ctx, "imp-latency", "500")
	setField(t, ctx, "imp-max-timeout", "150")
	waitFor(t, ctx, "the import with the fields", `(document.querySelector('#imp-inferred [data-field="imp-max-timeout"] dd')?.textContent ?? "").includes("150 ms")`)
	rows := evalJSON[map[string]string](t, ctx, `Object.fromEntries(Array.from(document.querySelectorAll("#imp-inferred [data-field]")).filter(r => r.dataset.field).map(r => [r.dataset.field, r.querySelector("dd strong").textContent]))`)
	want := map[string]string{"imp-observer": "the client", "imp-zone": "+02:00", "imp-latency": "500 ms", "imp-max-timeout": "150 ms"}
	if !maps.Equal(rows, want) {
		t.Errorf("#imp-inferred %v, want %v", rows, want)
	}
	// The checks table is patched after the head (wasm/output.go's pane):
	// wait for this import's, which judges the maximum timeout.
	waitFor(t, ctx, "the checks of the import with the fields", `!!document.querySelector('#checks tr[data-rule="max-timeout-enforced"]')`)
	if got := evalJSON[map[string]string](t, ctx, checksJS); !maps.Equal(got, checkResults(native)) {
		t.Errorf("checks in the page %v, with the same options natively %v", got, checkResults(native))
	}
	setField(t, ctx, "imp-zone", "Mars/Olympus")
	waitFor(t, ctx, "the zone's error", `!document.getElementById("lab-error").hidden && document.getElementById("lab-error").textContent.includes("time zone")`)
}
