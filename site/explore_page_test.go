package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
)

// exploreState is what TestExplorePage reads of the explorer page.
type exploreState struct {
	Overflow float64  `json:"overflow"`
	Rects    int      `json:"rects"`
	Edges    int      `json:"edges"`
	Legend   []string `json:"legend"`
	Cells    int      `json:"cells"`
	Letters  string   `json:"letters"`
	Runs     string   `json:"runs"`
	Points   string   `json:"points"`
	Hash     string   `json:"hash"`
	Status   string   `json:"status"`
}

// Rule (SCENARIO.md, Explore; the explorer page): at a laptop's and a
// phone's width, /explore/ on lesson A fills the outcome map from its
// workers (cells by class, boundaries drawn), says every class in words
// (the legend holds lesson A's three classes as explore.Explore names
// them natively), has the map as a table of class letters, carries the
// exploration in its address, does not scroll sideways, and a click on a
// cell opens that cell's run below with its values. Screenshots are kept
// in $TMPDIR/mcplab-explore-WIDTH.png.
func TestExplorePage(t *testing.T) {
	a := examplestest.Get(t, scenarioA)
	native, err := explore.Explore(a.JSON, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range []int64{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			ctx, _ := openTab(t, siteURL)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
				t.Fatal(err)
			}
			navigate(t, ctx, siteURL+"/explore/")
			waitReady(t, ctx)
			waitExplored(t, ctx)
			st := evalJSON[exploreState](t, ctx, `(() => ({
  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  rects: document.querySelectorAll("#explore-svg rect[class^=xc]").length,
  edges: (document.querySelector("#explore-svg .explore-edges").getAttribute("d").match(/M/g) || []).length,
  legend: Array.from(document.querySelectorAll("#explore-out .explore-key"), (e) => e.textContent),
  cells: document.querySelectorAll("#explore-table td").length,
  letters: Array.from(new Set(Array.from(document.querySelectorAll("#explore-table td"), (e) => e.textContent))).sort().join(""),
  runs: document.documentElement.dataset.exploreRuns,
  points: document.documentElement.dataset.explorePoints,
  hash: location.hash,
  status: document.getElementById("lab-status").textContent,
}))()`)
			if st.Overflow > 0 {
				t.Errorf("the page scrolls sideways by %.0f px at %d px", st.Overflow, width)
			}
			if st.Rects == 0 || st.Edges == 0 {
				t.Errorf("the map has %d runs of cells and %d boundary segments, want both", st.Rects, st.Edges)
			}
			var want []string
			for _, c := range native.Classes {
				want = append(want, c.Key)
			}
			if strings.Join(st.Legend, "|") != strings.Join(want, "|") {
				t.Errorf("legend %q, want the native classes %q", st.Legend, want)
			}
			if st.Cells != 64*61 || st.Letters != "ABC" {
				t.Errorf("the table has %d cells with letters %q, want 64 x 61 with A, B and C", st.Cells, st.Letters)
			}
			if st.Points != fmt.Sprint(native.Points) || st.Runs == "" {
				t.Errorf("explored %s points in %s runs, want %d points", st.Points, st.Runs, native.Points)
			}
			if !strings.HasPrefix(st.Hash, "#s=") {
				t.Errorf("the address carries %q, want the exploration's #s= link", st.Hash)
			}
			clickCell(t, ctx)
			keyboardCell(t, ctx)
			shot(t, ctx, width)
		})
	}
}

// exploredTimeout bounds the wait for a whole exploration: 75 s of the
// tab's 90, as the flagship's window on the browser's SQLite is over a
// thousand runs, slow on a loaded machine (the page is ready, and live,
// long before).
const exploredTimeout = 75 * time.Second

// waitExplored waits until every part of the page's exploration is drawn
// (<html data-explore-runs>).
func waitExplored(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := pollJS[bool](ctx, `!!document.documentElement.dataset.exploreRuns`, exploredTimeout); err != nil {
		t.Fatalf("waiting for every part explored: %v", err)
	}
}

// clickCell clicks the map's top-left cell (lesson A's window at 250 ms
// and 0 ms up: cancelled) and checks the run shown below is that cell's.
func clickCell(t *testing.T, ctx context.Context) {
	t.Helper()
	evalJSON[bool](t, ctx, `(() => {
  const svg = document.getElementById("explore-svg");
  svg.scrollIntoView();
  const b = svg.getBoundingClientRect();
  const at = {clientX: b.left + b.width * 6 / 492, clientY: b.top + b.height * 6 / 516, bubbles: true};
  svg.querySelector("rect").dispatchEvent(new MouseEvent("click", at));
  return true;
})()`)
	waitFor(t, ctx, "the cell's run", `!!document.querySelector("#explore-run-out svg.timeline")`)
	label := evalJSON[string](t, ctx, `document.getElementById("explore-run-label").textContent`)
	if label != "steps[2].at = 250, latencyMs.up = 0" {
		t.Errorf("the run shown is %q, want steps[2].at = 250, latencyMs.up = 0", label)
	}
	href := evalJSON[string](t, ctx, `document.getElementById("explore-run-open").getAttribute("href")`)
	link, err := scenario.ParseLink(href)
	if err != nil || !strings.Contains(string(link.Scenario), `"at":250`) {
		t.Errorf("the run's link %q does not hold the cell's scenario (%v)", href, err)
	}
}

// keyboardCell moves the focused map's cursor one row down and one column
// right with the arrow keys (lesson A's second sampled values: 252 ms and
// 1 ms), checks the cell is read out in words, and opens its run with
// Enter.
func keyboardCell(t *testing.T, ctx context.Context) {
	t.Helper()
	evalJSON[bool](t, ctx, `(document.getElementById("explore-svg").focus(), true)`)
	for _, k := range []string{kb.ArrowDown, kb.ArrowRight} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
	}
	const want = "steps[2].at = 252, latencyMs.up = 1"
	read := evalJSON[string](t, ctx, `document.getElementById("explore-cell").textContent`)
	if !strings.HasPrefix(read, want+": class A, 7 cancelled") {
		t.Errorf("the map reads %q, want %s in class A, cancelled", read, want)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the run of the cell reached by keyboard", fmt.Sprintf(`document.getElementById("explore-run-label").textContent === %q`, want))
}

// shot keeps a screenshot of the whole page at width.
func shot(t *testing.T, ctx context.Context, width int64) {
	t.Helper()
	evalJSON[bool](t, ctx, `(scrollTo(0, 0), true)`)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	file := filepath.Join(os.TempDir(), fmt.Sprintf("mcplab-explore-%d.png", width))
	if err := os.WriteFile(file, png, 0o644); err == nil {
		t.Logf("screenshot: %s", file)
	}
}

// Rule (an "Explore this race" panel on every scenario page whose controls
// are times): lesson A's page shows its own window's map prerendered and
// links to the explorer with its scenario; following the link explores it.
func TestExplorePanelLink(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/s/"+scenarioA+"/")
	waitReady(t, ctx)
	href := evalJSON[string](t, ctx, `(document.getElementById("explore-this") || {}).href || ""`)
	keys := evalJSON[int](t, ctx, `document.querySelectorAll("#explore-panel .explore-key").length`)
	if !strings.Contains(href, "/explore/#s=") || keys != 3 {
		t.Fatalf("panel link %q with %d classes, want a link to /explore/#s= and lesson A's 3 classes", href, keys)
	}
	navigate(t, ctx, href)
	waitReady(t, ctx)
	waitExplored(t, ctx)
}

// Rule (the panel explores the scenario on screen): once lesson A's
// transport is set to Streamable HTTP, the panel's link opens the explorer
// on the edit with its own window, a note says the map under it is the
// original's, and setting stdio back gives the panel its own link back.
func TestExplorePanelFollowsEdit(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(ex.Name))
	waitReady(t, ctx)
	const hrefJS = `document.getElementById("explore-this").getAttribute("href")`
	const noteJS = `document.getElementById("explore-edited-note")?.textContent ?? ""`
	orig := evalJSON[string](t, ctx, hrefJS)
	setControl(t, ctx, "transport", scenario.TransportHTTP)
	waitFor(t, ctx, "the panel's link to the edit", hrefJS+` !== `+fmt.Sprintf("%q", orig))
	link, err := scenario.ParseLink(evalJSON[string](t, ctx, hrefJS))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Decode(link.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	if s.Transport != scenario.TransportHTTP || s.Explore == nil {
		t.Errorf("the edited panel explores transport %q with window %v, want streamable-http with lesson A's window", s.Transport, s.Explore)
	}
	if note := evalJSON[string](t, ctx, noteJS); !strings.Contains(note, "original scenario's") {
		t.Errorf("the edited panel's note is %q, want it to say the map is the original scenario's", note)
	}
	setControl(t, ctx, "transport", scenario.TransportStdio)
	waitFor(t, ctx, "the panel's own link back", hrefJS+` === `+fmt.Sprintf("%q", orig))
	if note := evalJSON[string](t, ctx, noteJS); note != "" {
		t.Errorf("back to the original, the panel still notes %q", note)
	}
}

// Rule (the flagship shows the region where the retry charges twice): the
// flagship has a ledger, so its panel's link asks for the workers' SQLite
// (?ledger=1), and the page finds the retry that charges twice at the
// window's smallest values, as the native explorer does.
func TestExploreFlagshipLink(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/s/flagship-retry-charges-twice/")
	waitReady(t, ctx)
	href := evalJSON[string](t, ctx, `(document.getElementById("explore-this") || {}).href || ""`)
	if !strings.Contains(href, "/explore/?ledger=1#s=") {
		t.Fatalf("the flagship's panel links %q, want /explore/?ledger=1#s=", href)
	}
	navigate(t, ctx, href)
	waitReady(t, ctx)
	waitExplored(t, ctx)
	counter := evalJSON[string](t, ctx, `document.querySelector("#explore-out .explore-counter").textContent`)
	if !strings.Contains(counter, "no-unsafe-retry fails first at steps[3].at = 1990, latencyMs.up = 0") {
		t.Errorf("the flagship's counterexamples say %q, want no-unsafe-retry at steps[3].at = 1990, latencyMs.up = 0", counter)
	}
}

// TestMeasureExplorePage is make bench's report of the explorer page
// (ARCHITECTURE.md's budget: a 64 x 64 map with its boundaries refined in
// under 1 s on localhost): lesson A over steps[2].at 250..376 by 2 and
// latencyMs.up 0..63, 4,096 grid points, explored by the page's workers
// from a warm page (the explorer page loaded, then the window's link
// opened): the time from the start to the last part merged and drawn, the
// runs it needed against the 4,096 of the full grid, the workers, and the
// page's transfer (enforced: exploreTransferLimit). The time is reported,
// not enforced.
func TestMeasureExplorePage(t *testing.T) {
	ensureSite(t)
	a := examplestest.Get(t, scenarioA)
	doc, err := scenario.SetPath(a.JSON, "explore", []byte(`{"vary": [{"path": "steps[2].at", "from": 250, "to": 376, "byMs": 2}, {"path": "latencyMs.up", "from": 0, "to": 63, "byMs": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	frag, err := scenario.ShareFragment(doc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, w := openTab(t, siteURL)
	// A cold cache, as a first visit: another test of this browser may
	// have loaded explore.wasm already.
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, siteURL+"/explore/")
	waitReady(t, ctx)
	if n := w.PageBytes(siteURL + "/explore/"); n < 100_000 || n > exploreTransferLimit {
		t.Errorf("the explorer page transferred %d bytes compressed, want the wasm and at most its ceiling %d (ARCHITECTURE.md's budget %d)", n, exploreTransferLimit, transferBudget)
	} else {
		t.Logf("page explore transferred %d bytes compressed (budget %d)", n, transferBudget)
		logSpare(t, "the explorer page", n)
	}
	var ms []float64
	var runs, workers string
	for round := 0; round < 3; round++ {
		evalJSON[bool](t, ctx, `(delete document.documentElement.dataset.exploreRuns, true)`)
		evalJSON[bool](t, ctx, fmt.Sprintf(`(location.hash = %q, true)`, "#"+frag+fmt.Sprintf("&round=%d", round)))
		waitExplored(t, ctx)
		st := evalJSON[map[string]string](t, ctx, `({ms: document.documentElement.dataset.exploreMs, runs: document.documentElement.dataset.exploreRuns, points: document.documentElement.dataset.explorePoints, workers: String(document.querySelectorAll("#explore-svg").length && (navigator.hardwareConcurrency || 1))})`)
		if st["points"] != "4096" {
			t.Fatalf("explored %s grid points, want 4,096", st["points"])
		}
		var v float64
		fmt.Sscan(st["ms"], &v)
		ms = append(ms, v)
		runs, workers = st["runs"], st["workers"]
	}
	slices.Sort(ms)
	t.Logf("explorer page, 64 x 64 map, boundaries refined: median %.0f ms of 3 (budget 1,000 ms), %s runs against the 4,096 of the full grid, %s workers", ms[1], runs, workers)
}
