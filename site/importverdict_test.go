package site

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/templates"
)

// Rule (a client-side transcript's headline was definite
// while its deciding check was undecided): pasted into the import page, a
// client's own log of a cancellation race (claude-desktop-race.log: whether
// the server wrote its response before reading the cancellation is not in
// it, no-message-after-cancel is undecided) is headed "cannot be decided
// from a one-sided log", under the key undecided, in the neutral (muted)
// colour, neither the success nor the failure colour. A screenshot is kept
// in $TMPDIR/mcplab-import-undecided.png.
func TestImportOneSidedHeadlineUndecided(t *testing.T) {
	log, err := os.ReadFile(filepath.Join("..", "engine", "transcript", "testdata", "claude-desktop-race.log"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	typeInto(t, ctx, "#imp-input", " ")
	waitFor(t, ctx, "the empty box's status", `document.getElementById("lab-status").textContent === `+strconv.Quote(templates.ImportEmptyStatus))
	typeInto(t, ctx, "#imp-input", string(log))
	waitFor(t, ctx, "the import", `document.getElementById("lab-error").hidden && !document.getElementById("imp-result").dataset.stale && !mcplabMorph.busy`)
	type headline struct {
		Key, Rule, Text  string
		Colour, Muted    string
		Success, Failure string
	}
	h := evalJSON[headline](t, ctx, `(() => {
  const v = document.getElementById("verdict");
  const probe = (name) => { const s = document.createElement("span"); s.style.color = "var(" + name + ")"; document.body.append(s); const c = getComputedStyle(s).color; s.remove(); return c; };
  return {key: v?.dataset.verdict ?? "", rule: v?.dataset.rule ?? "", text: v?.querySelector(".verdict-text")?.textContent ?? "",
    colour: v ? getComputedStyle(v).borderLeftColor : "", muted: probe("--muted"), success: probe("--c-result"), failure: probe("--c-error")};
})()`)
	evalJSON[bool](t, ctx, `(document.getElementById("verdict")?.scrollIntoView({block: "center"}), true)`)
	if shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
		file := filepath.Join(os.TempDir(), "mcplab-import-undecided.png")
		if err := os.WriteFile(file, shot, 0o644); err == nil {
			t.Logf("screenshot: %s", file)
		}
	}
	if h.Key != "undecided" || h.Rule != "no-message-after-cancel" || !strings.HasPrefix(h.Text, "cannot be decided from a one-sided log") {
		t.Errorf("headline %+v: want key undecided, rule no-message-after-cancel, \"cannot be decided from a one-sided log\"", h)
	}
	if h.Colour != h.Muted || h.Colour == h.Success || h.Colour == h.Failure {
		t.Errorf("the headline's colour is %s, want the neutral %s (success %s, failure %s)", h.Colour, h.Muted, h.Success, h.Failure)
	}
}
