package site

// The README's screenshot (site/testdata/screenshot.png): scenario A at
// 1,280 px, taken by the headless Chromium of the browser tests.
//
//	go test -count=1 -run TestREADMEScreenshot ./site -update-screenshot
//
// (make screenshot) rewrites it from the current site.

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

var updateScreenshot = flag.Bool("update-screenshot", false, "rewrite site/testdata/screenshot.png (scenario A at 1280 px)")

// screenshotFile is the README's image; screenshotW and screenshotH its
// size in CSS pixels (the first screen of a 1,280 px laptop, tall enough
// for the verdict and the whole timeline).
const (
	screenshotFile = "testdata/screenshot.png"
	screenshotW    = 1280
	screenshotH    = 1000
)

// Rule (the README screenshot is current): scenario A's page at
// 1,280 px, once the simulator is live, shows its verdict and timeline on
// the first screen; the capture is a PNG of 1280 x 1000, and so is the
// committed one (written by -update-screenshot).
func TestREADMEScreenshot(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(screenshotW, screenshotH)); err != nil {
		t.Fatal(err)
	}
	navigate(t, ctx, siteURL+"/s/"+scenarioA+"/")
	waitReady(t, ctx)
	type where struct{ Verdict, TimelineBottom float64 }
	w := evalJSON[where](t, ctx, `(() => {
	  const v = document.getElementById("verdict"), tl = document.getElementById("timeline");
	  return {verdict: v ? v.getBoundingClientRect().top : -1, timelineBottom: tl ? tl.getBoundingClientRect().bottom : -1};
	})()`)
	if w.Verdict < 0 || w.TimelineBottom < 0 || w.TimelineBottom > screenshotH {
		t.Errorf("verdict top %v, timeline bottom %v: want both on the first %d px", w.Verdict, w.TimelineBottom, screenshotH)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, "the capture", shot)
	if *updateScreenshot {
		if err := os.WriteFile(filepath.FromSlash(screenshotFile), shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", screenshotFile)
	}
	committed, err := os.ReadFile(filepath.FromSlash(screenshotFile))
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, screenshotFile, committed)
}

// checkPNG fails unless data is a PNG of screenshotW x screenshotH.
func checkPNG(t *testing.T, what string, data []byte) {
	t.Helper()
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if cfg.Width != screenshotW || cfg.Height != screenshotH {
		t.Errorf("%s is %d x %d, want %d x %d", what, cfg.Width, cfg.Height, screenshotW, screenshotH)
	}
}
