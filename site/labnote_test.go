package site

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
)

// Rule (layout, one column): a scenario page's #lab-error says what
// the output shows (here: a ledger link this page cannot run, so it shows
// its own scenario), so at 390 px it stands just above the output, before
// the verdict, not a screen below it at the top of the controls; at
// 1,280 px it stays at the top of the controls panel beside the output.
func TestLabErrorStandsAboveTheOutputOnAPhone(t *testing.T) {
	ledger := examplestest.Get(t, "ledger-keyed-race")
	frag, err := scenario.ShareFragment(ledger.JSON)
	if err != nil {
		t.Fatal(err)
	}
	type box struct{ ErrTop, ErrBottom, ErrLeft, VerdictTop, OutputLeft, StatusTop float64 }
	for _, w := range []int64{390, 1280} {
		ctx, _ := openTab(t, siteURL)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900)); err != nil {
			t.Fatal(err)
		}
		navigate(t, ctx, pageURL(scenarioA)+"#"+frag)
		waitReady(t, ctx)
		waitFor(t, ctx, "the link's note", `!document.getElementById("lab-error").hidden && !mcplabEngine.busy && !document.getElementById("lab-output").dataset.pending`)
		b := evalJSON[box](t, ctx, `(() => {
  const r = (id) => document.getElementById(id).getBoundingClientRect();
  const e = r("lab-error"), v = r("verdict"), o = r("lab-output"), s = r("lab-status");
  return {errTop: e.top + scrollY, errBottom: e.bottom + scrollY, errLeft: e.left, verdictTop: v.top + scrollY, outputLeft: o.left, statusTop: s.top + scrollY};
})()`)
		switch w {
		case 390:
			if b.ErrBottom > b.VerdictTop || b.ErrTop > 900 {
				t.Errorf("at 390 px #lab-error spans %.0f-%.0f px, the verdict starts at %.0f px: want the note above the verdict, on the first screen (900 px)", b.ErrTop, b.ErrBottom, b.VerdictTop)
			}
		case 1280:
			if b.ErrLeft >= b.OutputLeft || b.ErrTop < b.StatusTop {
				t.Errorf("at 1280 px #lab-error at x %.0f, y %.0f (status at y %.0f), the output at x %.0f: want it under the status in the panel left of the output", b.ErrLeft, b.ErrTop, b.StatusTop, b.OutputLeft)
			}
		}
	}
}
