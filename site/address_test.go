package site

import (
	"testing"
)

// TestAddressBarFollowsADrag proves the address bar keeps up with a
// control dragged for a while without rewriting itself on every re-run
// (wasm/dom.go's addressBar): 40 changes 20 ms apart (about 0.8 s, as a
// drag makes them) rewrite it at most once per addressEveryMs (250 ms)
// plus the first and the last, so a long drag never reaches the browsers'
// limits (Chromium ignores rewrites past 200 in 10 s); and once the runs
// are done it holds the share link of the last value (mcplab.share of the
// scenario the page shows), not of one before it.
func TestAddressBarFollowsADrag(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL("race-cancel-in-flight"))
	waitReady(t, ctx)
	got := evalJSONAwait[[2]float64](t, ctx, `(async () => {
  let rewrites = 0;
  const replace = history.replaceState.bind(history);
  history.replaceState = (...a) => { rewrites++; return replace(...a); };
  const el = document.querySelector('#lab-controls input[type=range]:not(:disabled)');
  const min = Number(el.min), max = Number(el.max);
  const t0 = performance.now();
  for (let i = 0; i < 40; i++) {
    el.value = String(min + ((i * 7) % (max - min + 1)));
    el.dispatchEvent(new Event("input", {bubbles: true}));
    await new Promise((r) => setTimeout(r, 20));
  }
  return [rewrites, performance.now() - t0];
})()`)
	waitFor(t, ctx, "the runs to finish", `!mcplabEngine.busy && !mcplabMorph.busy && !document.getElementById("lab-output").dataset.pending`)
	want := `"#" + mcplab.share(document.getElementById("scenario-json").textContent).fragment`
	waitFor(t, ctx, "the address bar to hold the last value's link", `location.hash === `+want)
	rewrites, ms := got[0], got[1]
	if limit := ms/250 + 2; rewrites > limit {
		t.Errorf("40 changes in %.0f ms rewrote the address bar %.0f times during the drag, want at most %.0f (one per 250 ms, plus the first and the last)", ms, rewrites, limit)
	}
}
