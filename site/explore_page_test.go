package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

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
			waitFor(t, ctx, "every part explored", `!!document.documentElement.dataset.exploreRuns`)
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
			shot(t, ctx, width)
		})
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

// shot keeps a screenshot of the whole page at width.
func shot(t *testing.T, ctx context.Context, width int64) {
	t.Helper()
	evalJSON[bool](t, ctx, `(scrollTo(0, 0), true)`)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(80))
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	file := filepath.Join(os.TempDir(), fmt.Sprintf("mcplab-explore-%d.jpg", width))
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
	waitFor(t, ctx, "every part explored", `!!document.documentElement.dataset.exploreRuns`)
}
