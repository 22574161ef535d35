package site

// A valid scenario whose run goes past one of the engine's bounds
// (engine.MaxEvents here) is reported as valid, with the bound named and
// its number, by `mcplab run` and by the playground alike (as a
// new user met it: the playground called it "the scenario is invalid").

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

// pastEventBound is a valid scenario whose run goes past engine.MaxEvents:
// 40 produce steps of 1,000 progress values, three events each (send,
// deliver, activity), about 120,000 events.
func pastEventBound(t *testing.T) []byte {
	t.Helper()
	steps := []string{`{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p-7"}`}
	for k := 0; k < 40; k++ {
		steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"produce","id":7,"count":1000,"everyMs":1,"fromValue":%d}`, k*1000, k*1000))
	}
	doc := []byte(`{"mcplab":1,"title":"Too many events","protocol":"2026-07-28","transport":"stdio","latencyMs":{"up":10,"down":10},"steps":[` + strings.Join(steps, ",") + `]}`)
	if _, err := scenario.Decode(doc); err != nil {
		t.Fatalf("the scenario past the event bound must be valid: %v", err)
	}
	return doc
}

// boundSays is how the engine words a run past MaxEvents, up to what to
// change.
const boundSays = "the scenario is valid, but its run went past the engine's bound of 100,000 events (MaxEvents), so it has no trace; to run it, make it smaller"

// `mcplab run` of a scenario past the event bound: exit 2, no trace, and
// stderr says the scenario is valid, which bound, its number, what to
// change.
func TestRunPastBoundSaysValid(t *testing.T) {
	file := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(file, pastEventBound(t), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := run([]string{"run", file}, &out, &errOut)
	if code := exitCode(err); code != 2 || out.Len() > 0 || !strings.HasPrefix(errOut.String(), "error: "+boundSays) {
		t.Errorf("run past MaxEvents: exit %d, %d bytes out, stderr %q; want 2, no trace, and %q", code, out.Len(), errOut.String(), "error: "+boundSays+"...")
	}
	if strings.Contains(errOut.String(), "invalid") {
		t.Errorf("stderr %q calls a valid scenario invalid", errOut.String())
	}
}

// The playground, given a scenario past the event bound, says under the
// editor that it is valid and which bound its run went past, keeps the
// last run on screen (stale), marks nothing invalid, and its status says
// paused because of the bound, not because the scenario is invalid; a
// link to it is titled "too large to run", not "not valid", and shows
// no run at all (not the prerendered default's, which would look like the
// link's), saying nothing has run and why where the output goes. The next
// edit that runs clears it all.
func TestPlaygroundPastBoundSaysValid(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	waitFor(t, ctx, "the canonical link", `location.hash.startsWith("#s=")`)
	good := evalJSON[string](t, ctx, editorValue)
	outcome := evalJSON[string](t, ctx, `document.querySelector("#outcome-0").dataset.outcome`)

	typeInto(t, ctx, "#pg-editor", string(pastEventBound(t)))
	waitFor(t, ctx, "the bound's message", `!mcplabEngine.busy && !document.getElementById("pg-error").hidden`)
	msg := evalJSON[string](t, ctx, `document.getElementById("pg-error-text").textContent`)
	want := strings.ToUpper(boundSays[:1]) + boundSays[1:]
	if !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, ". The output shows the last run that finished.") || strings.Contains(msg, "invalid") {
		t.Errorf("under the editor: %q\nwant %q... ending with the last run that finished, and no \"invalid\"", msg, want)
	}
	status := evalJSON[string](t, ctx, `document.getElementById("lab-status").textContent`)
	if !strings.HasPrefix(status, "Paused: the scenario is valid, but its run went past one of the engine's bounds") || strings.Contains(status, "invalid") {
		t.Errorf("#lab-status says %q, want paused because the valid scenario's run went past a bound", status)
	}
	if got := evalJSON[string](t, ctx, `document.getElementById("pg-editor").getAttribute("aria-invalid") ?? ""`); got != "" {
		t.Errorf("the editor is marked aria-invalid=%q for a valid scenario", got)
	}
	if n := evalJSON[int](t, ctx, `document.querySelectorAll("#lab-controls [aria-invalid]").length`); n != 0 {
		t.Errorf("%d controls are marked aria-invalid for a valid scenario", n)
	}
	if evalJSON[bool](t, ctx, `!document.getElementById("pg-error-goto").hidden`) {
		t.Errorf("Show in editor is offered for an error that has no place in the text")
	}
	if got := evalJSON[string](t, ctx, `document.getElementById("lab-output").dataset.stale ?? ""`); got != "1" {
		t.Errorf("the last run's output is not marked stale")
	}
	if got := evalJSON[string](t, ctx, `document.querySelector("#outcome-0")?.dataset.outcome ?? ""`); got != outcome {
		t.Errorf("the output changed to %q; want the last run's %q kept", got, outcome)
	}

	// The same scenario opened from a link in a fresh tab: nothing has
	// run, and the title says it is too large to run, not that it is
	// invalid.
	frag, err := scenario.ShareFragment(pastEventBound(t))
	if err != nil {
		t.Fatal(err)
	}
	linked, _ := openTab(t, siteURL)
	navigate(t, linked, playgroundURL("#"+frag))
	waitReady(t, linked)
	waitFor(t, linked, "the bound's message", `!mcplabEngine.busy && !document.getElementById("pg-error").hidden`)
	if title := evalJSON[string](t, linked, `document.getElementById("pg-title").textContent`); title != "The linked scenario is too large to run" {
		t.Errorf("a link to a valid scenario past a bound titled %q, want \"The linked scenario is too large to run\"", title)
	}
	if msg := evalJSON[string](t, linked, `document.getElementById("pg-error-text").textContent`); !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, ". Nothing has run yet.") {
		t.Errorf("from a link, under the editor: %q, want %q... ending with nothing has run yet (no run is on screen)", msg, want)
	}
	// Nothing of the prerendered default (scenario A) is left to look like
	// the link's run: the output says nothing has run and why, unfaded,
	// and A's controls are gone.
	shown := evalJSON[[4]string](t, linked, `[document.getElementById("pg-nothing")?.textContent ?? "", String(document.querySelectorAll("#lab-output #output, #lab-output [id^=outcome-]").length), document.getElementById("lab-output").dataset.stale ?? "", String(document.querySelectorAll("#lab-controls [data-path]").length)]`)
	if !strings.HasPrefix(shown[0], "Nothing has run yet. "+want) || shown[1] != "0" || shown[2] != "" || shown[3] != "0" {
		t.Errorf("from a link, #pg-nothing says %q, %s output blocks, stale %q, %s controls; want \"Nothing has run yet. %s...\", no output, not faded, no controls", shown[0], shown[1], shown[2], shown[3], want)
	}
	if status := evalJSON[string](t, linked, `document.getElementById("lab-status").textContent`); !strings.Contains(status, "nothing has run yet") || strings.Contains(status, "last run") {
		t.Errorf("from a link, #lab-status says %q, want that nothing has run yet", status)
	}
	// A scenario that runs brings the output and its controls back.
	typeInto(t, linked, "#pg-editor", good)
	waitFor(t, linked, "the good scenario's run from the link's page", `!mcplabEngine.busy && !mcplabMorph.busy && document.getElementById("pg-error").hidden && !!document.querySelector("#outcome-0") && !document.getElementById("pg-nothing")`)
	if n := evalJSON[int](t, linked, `document.querySelectorAll("#lab-controls [data-path]").length`); n == 0 {
		t.Errorf("after a run from the link's page there are no controls")
	}

	typeInto(t, ctx, "#pg-editor", good)
	waitFor(t, ctx, "the good scenario's run", `!mcplabEngine.busy && document.getElementById("pg-error").hidden && document.getElementById("lab-output").dataset.stale === undefined`)
	if status := evalJSON[string](t, ctx, `document.getElementById("lab-status").textContent`); !strings.HasPrefix(status, "Live:") {
		t.Errorf("after a run that finished #lab-status says %q, want Live", status)
	}
}
