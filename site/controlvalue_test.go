package site

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// keysInto focuses the control #id (opening the "More switches" it may sit
// in), selects its text and types text key by key, as a reader does: each
// key is an input event, so "7.5" is first 7, which runs.
func keysInto(t *testing.T, ctx context.Context, id, text string) {
	t.Helper()
	if !evalJSON[bool](t, ctx, `(() => {
  const e = document.getElementById("`+id+`");
  const d = e && e.closest("details");
  if (d) d.open = true;
  if (!e || e.disabled) return false;
  e.scrollIntoView({block: "center"}); e.focus(); e.select();
  return document.activeElement === e;
})()`) {
		t.Fatalf("cannot focus #%s", id)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(text)); err != nil {
		t.Fatalf("typing %q into #%s: %v", text, id, err)
	}
}

// Rule (scenario format: latencyMs are whole milliseconds): a number
// control refuses 7.5 with a clear error that stays on screen, naming the
// value, and the output (the last value that applied, 7) is marked stale;
// the run of the 7 typed on the way, answering after the refusal, cleared
// the error, so 7.5 looked taken as 7. On a scenario page and in the
// playground.
func TestNumberControlRefusesAFraction(t *testing.T) {
	const want = `latencyMs.up: "7.5" is not a whole number`
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(scenarioA))
	waitReady(t, ctx)
	keysInto(t, ctx, "ctl-latencyMs-up", "7.5")
	waitFor(t, ctx, "the runs to finish", `!mcplabEngine.busy && !document.getElementById("lab-output").dataset.pending`)
	got := evalJSON[[3]string](t, ctx, `[document.getElementById("lab-error").hidden ? "" : document.getElementById("lab-error").textContent, document.getElementById("lab-output").dataset.stale ?? "", String(JSON.parse(document.getElementById("scenario-json").textContent).latencyMs.up)]`)
	if !strings.Contains(got[0], want) || got[1] != "1" || got[2] != "7" {
		t.Errorf("scenario page after typing 7.5: #lab-error %q, stale %q, latencyMs.up %s; want %q shown, the output stale, the last value that applied (7)", got[0], got[1], got[2], want)
	}

	navigate(t, ctx, playgroundURL("#example="+scenarioA))
	waitReady(t, ctx)
	keysInto(t, ctx, "ctl-latencyMs-up", "7.5")
	waitFor(t, ctx, "the runs to finish", `!mcplabEngine.busy && !mcplabMorph.busy`)
	got = evalJSON[[3]string](t, ctx, `[document.getElementById("pg-error").hidden ? "" : document.getElementById("pg-error-text").textContent, document.getElementById("lab-output").dataset.stale ?? "", document.getElementById("ctl-latencyMs-up").getAttribute("aria-invalid") ?? ""]`)
	if !strings.Contains(got[0], want) || got[1] != "1" || got[2] != "true" {
		t.Errorf("playground after typing 7.5: #pg-error %q, stale %q, aria-invalid %q; want %q shown, the output stale, the control flagged", got[0], got[1], got[2], want)
	}
	if strings.Contains(got[0], "until it is valid again") {
		t.Errorf("playground: %q blames the JSON, which is valid; the value is not", got[0])
	}
}
