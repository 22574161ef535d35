package site

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// budgetAfter is a script the page runs before its own: app.js's engine
// bridge arms a timer of its budget (mcplabEngine.budgetMs) for each
// request, and every such timer after the first n fires at once, as if
// that part of the exploration had run past the budget.
func budgetAfter(n int) string {
	return `(() => {
  const set = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = (f, ms, ...args) => {
    if (typeof f === "function" && String(f).includes("this.stop(") && ++armed > ` + strconv.Itoa(n) + `) ms = 0;
    return set(f, ms, ...args);
  };
})();`
}

// explorerText is what the explorer page says of its exploration.
type explorerText struct {
	Status   string `json:"status"`
	Error    string `json:"error"`
	Progress string `json:"progress"`
	None     string `json:"none"`
	Stale    string `json:"stale"`
	Picked   string `json:"picked"`
}

// readExplorer reads the explorer page's status, error box, progress line,
// counterexamples, whether the map is marked stale and the picker's choice.
func readExplorer(t *testing.T, ctx context.Context) explorerText {
	t.Helper()
	return evalJSON[explorerText](t, ctx, `(() => ({
  status: document.getElementById("lab-status").textContent,
  error: document.getElementById("lab-error").hidden ? "" : document.getElementById("lab-error").textContent,
  progress: document.getElementById("explore-progress")?.textContent ?? "",
  none: document.querySelector("#explore-out .explore-none")?.textContent ?? "",
  stale: document.getElementById("explore-out").dataset.stale ?? "",
  picked: document.getElementById("explore-pick-select").selectedOptions[0]?.dataset.name ?? "",
}))()`)
}

// Rule (a page tells the truth about its exploration): when a part of
// lesson A's window runs past the page's 20 s budget for one run, the
// page says the exploration stopped, why (the limit, 20 s) and what to do,
// what it covered, and states no conclusion of the whole window.
func TestExploreStoppedPastBudget(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: budgetAfter(2)}); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, siteURL+"/explore/")
	waitReady(t, ctx)
	// The map is patched over a few frames (mcplabMorph): read it once
	// the patch is done.
	waitFor(t, ctx, "the exploration stopped", `document.getElementById("lab-status").textContent.includes("stopped") && !mcplabMorph.busy`)
	got := readExplorer(t, ctx)
	for _, c := range []struct{ what, text, want string }{
		{"status", got.Status, "The exploration stopped after"},
		{"error", got.Error, "took longer than 20 s"},
		{"error", got.Error, "mcplab explore"},
		{"progress", got.Progress, "Stopped before the end"},
		{"progress", got.Progress, "Covered: "},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("the %s says %q, want %q in it", c.what, c.text, c.want)
		}
	}
	if strings.Contains(got.None, "anywhere in this window") || strings.Contains(got.Progress, "Exploring:") {
		t.Errorf("a stopped exploration concludes %q with progress %q", got.None, got.Progress)
	}
}

// Rule (the page never shows another scenario's map as current): a window
// on a step the scenario lacks stops with its located error, and the map
// of lesson A drawn before is marked stale, the status saying whose it is.
func TestExploreBadPathMarksMapStale(t *testing.T) {
	a := examplestest.Get(t, scenarioA)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/explore/")
	waitReady(t, ctx)
	waitExplored(t, ctx)
	// The map is patched over a few frames (mcplabMorph), which rewrites
	// #explore-out's attributes: edit once it is drawn, as a reader does.
	waitFor(t, ctx, "the map patched", `!mcplabMorph.busy`)
	bad := strings.Replace(string(a.JSON), `"steps[2].at"`, `"steps[9].at"`, 1)
	evalJSON[bool](t, ctx, `(() => {
  document.getElementById("explore-edit").open = true;
  document.getElementById("explore-text").value = `+strconv.Quote(bad)+`;
  document.getElementById("explore-go").click();
  return true;
})()`)
	waitFor(t, ctx, "the located error", `!document.getElementById("lab-error").hidden`)
	got := readExplorer(t, ctx)
	if !strings.Contains(got.Error, "steps[9]") || got.Stale != "1" || !strings.Contains(got.Status, "A: ") {
		t.Errorf("error %q, stale %q, status %q: want the located error, the old map marked stale and the status naming it", got.Error, got.Stale, got.Status)
	}
	if got.Picked != "" {
		t.Errorf("the picker names %q for an edited scenario, want none", got.Picked)
	}
}

// Rule (the picker names the scenario explored): the explorer opens on
// lesson A with the picker on it; following the flagship's link (with
// ?ledger=1) the picker names the flagship.
func TestExplorePickerFollowsLink(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/explore/")
	waitReady(t, ctx)
	if got := readExplorer(t, ctx); got.Picked != scenarioA {
		t.Errorf("the picker names %q on the explorer's first scenario, want %s", got.Picked, scenarioA)
	}
	evalJSON[bool](t, ctx, `(document.querySelector('.explore-choices a[data-name="flagship-retry-charges-twice"]').click(), true)`)
	waitFor(t, ctx, "the flagship explored", `location.search.includes("ledger=1") && document.documentElement.dataset.ready === "1" && document.getElementById("explore-pick-select").selectedOptions[0]?.dataset.name === "flagship-retry-charges-twice"`)
}

// Rule (#example=NAME opens a built-in, as on the playground and the
// command line): /explore/#example=flagship-retry-charges-twice explores
// the flagship (with ?ledger=1, which it needs), the picker naming it,
// never scenario A in silence; a name the picker lacks is said in the
// error box, and the status says the map is still the one drawn before.
func TestExploreOpensExampleFragment(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/explore/#example=flagship-retry-charges-twice")
	waitFor(t, ctx, "the flagship explored", `location.search.includes("ledger=1") && location.hash.startsWith("#s=") && document.documentElement.dataset.ready === "1" && document.getElementById("explore-pick-select").selectedOptions[0]?.dataset.name === "flagship-retry-charges-twice"`)
	waitExplored(t, ctx)
	if got := evalJSON[string](t, ctx, `document.querySelector("#explore-out .explore-title")?.textContent ?? ""`); !strings.Contains(strings.ToLower(got), "retry") {
		t.Errorf("the map drawn is of %q, want the flagship's", got)
	}

	navigate(t, ctx, siteURL+"/explore/#example=no-such-scenario")
	waitFor(t, ctx, "the unknown name said", `document.documentElement.dataset.ready === "1" && !document.getElementById("lab-error").hidden`)
	got := readExplorer(t, ctx)
	if !strings.Contains(got.Error, "#example=no-such-scenario is not a scenario this page explores") {
		t.Errorf("error %q, want it to name #example=no-such-scenario as not explored here", got.Error)
	}
	if !strings.Contains(got.Status, "cannot be explored") || got.Stale != "1" {
		t.Errorf("status %q (map stale %q), want it to say the scenario cannot be explored and the map is the one before", got.Status, got.Stale)
	}
}
