package templates

import (
	"math"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// Rule (DOMAIN.md §2, "time drawn as time"): each progress resets
// the idle clock and never the maximum. Scenario C (idle 500 ms, maximum
// 2,000 ms, progress at 400, 800, 1200, 1600, 1999 ms) draws six idle
// windows, each starting at the send or a reset, the last cut by the
// request's end at 2000 ms with its deadline at 2499 ms, and one maximum
// line from 0 to 2000 ms; both labelled in words, in both layouts.
func TestDeadlinesOfScenarioC(t *testing.T) {
	tr := readTrace(t, "c-progress-then-maximum")
	for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
		if len(tl.Deadlines) != 1 {
			t.Fatalf("%sdeadlines: %d, want 1 (request 1)", tl.IDPrefix, len(tl.Deadlines))
		}
		d := tl.Deadlines[0]
		if d.ID != "1" || d.IdleMs != 500 || d.MaxMs != 2000 || d.MaxAt != 2000 || d.MaxBeyond {
			t.Errorf("%sdeadline = id %s idle %d max %d at %d beyond %v", tl.IDPrefix, d.ID, d.IdleMs, d.MaxMs, d.MaxAt, d.MaxBeyond)
		}
		var got []string
		for _, w := range d.Windows {
			got = append(got, i64(w.From)+"-"+i64(w.Until)+"/"+i64(w.Expiry))
		}
		want := "0-400/500 400-800/900 800-1200/1300 1200-1600/1700 1600-1999/2100 1999-2000/2499"
		if strings.Join(got, " ") != want {
			t.Errorf("%sidle windows %s\nwant %s", tl.IDPrefix, strings.Join(got, " "), want)
		}
		last := d.Windows[len(d.Windows)-1]
		if !last.Last || last.Expired {
			t.Errorf("%slast window Last %v Expired %v, want the request's end before its idle deadline", tl.IDPrefix, last.Last, last.Expired)
		}
		if d.IdleLabel.Text != "idle 500 ms" || d.MaxLabel.Text != "max 2,000 ms" {
			t.Errorf("%slabels %q, %q", tl.IDPrefix, d.IdleLabel.Text, d.MaxLabel.Text)
		}
		if !near(d.MaxX2, xOfTL(tl, 2000)) || !near(d.MaxX1, xOfTL(tl, 0)) {
			t.Errorf("%smax line %v..%v, want %v..%v", tl.IDPrefix, d.MaxX1, d.MaxX2, xOfTL(tl, 0), xOfTL(tl, 2000))
		}
		// The deadlines sit above the client lane, below the top.
		if d.Y <= 0 || d.MaxY >= tl.Lanes[0].Y {
			t.Errorf("%sdeadline rows at %v/%v, client lane at %v", tl.IDPrefix, d.Y, d.MaxY, tl.Lanes[0].Y)
		}
	}
	svg := renderString(t, timelineSVG(newTimeline(tr)))
	for _, s := range []string{">idle 500 ms</text>", ">max 2,000 ms</text>", "<title>Maximum deadline of request 1: sent at 0 ms + max 2000 ms = 2000 ms."} {
		if !strings.Contains(svg, s) {
			t.Errorf("the SVG lacks %q", s)
		}
	}
}

// Rule: an idle window that runs its full length ends at the
// idle timeout; the request without progress (idle 500 ms) has one window,
// 0-500 ms, expired.
func TestDeadlineIdleExpires(t *testing.T) {
	tl := newTimeline(examplestest.Run(t, "idle-timeout-without-progress-token"))
	if len(tl.Deadlines) != 1 || len(tl.Deadlines[0].Windows) != 1 {
		t.Fatalf("deadlines %+v, want one request with one window", tl.Deadlines)
	}
	w := tl.Deadlines[0].Windows[0]
	if w.From != 0 || w.Until != 500 || w.Expiry != 500 || !w.Expired {
		t.Errorf("window %+v, want 0-500 expired", w)
	}
	// Its maximum (5,000 ms) falls after the run: drawn to the edge, said so.
	d := tl.Deadlines[0]
	if !d.MaxBeyond || !near(d.MaxX2, tl.PlotLeft+(tl.PlotRight-tl.PlotLeft)) || !strings.HasSuffix(d.MaxLabel.Text, "→") {
		t.Errorf("max beyond %v x2 %v label %q, want clipped at the domain's end with an arrow", d.MaxBeyond, d.MaxX2, d.MaxLabel.Text)
	}
}

// Rule: a failed check is marked at each event it names, its
// rule in words once; a failed check naming no event is said in words.
// broken-respond-after-cancel fails no-message-after-cancel at #9 and #10;
// broken-progress-resets-max fails max-timeout-enforced naming no event.
func TestViolationFlags(t *testing.T) {
	tr := examplestest.Run(t, "broken-respond-after-cancel")
	for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
		var seqs []string
		words := 0
		for _, f := range tl.Flags {
			seqs = append(seqs, itoa(f.Seq))
			if f.Rules != "no-message-after-cancel" {
				t.Errorf("flag %d rules %q", f.Seq, f.Rules)
			}
			if f.Text != "" {
				words++
				if !strings.Contains(f.Text, "no-message-after-cancel") || f.FlagY >= f.Y {
					t.Errorf("flag text %q at y %v over the event at %v", f.Text, f.FlagY, f.Y)
				}
			}
		}
		if strings.Join(seqs, " ") != "9 10" || words != 1 {
			t.Errorf("%sflags at %v with %d worded, want at 9 10 with the rule said once", tl.IDPrefix, seqs, words)
		}
	}
	tl := newTimeline(examplestest.Run(t, "broken-progress-resets-max"))
	if len(tl.Notes) != 1 || !strings.Contains(tl.Notes[0].Text, "✗ breaks max-timeout-enforced") {
		t.Errorf("notes %+v, want max-timeout-enforced said in words", tl.Notes)
	}
}

// xOfTL is the x timeline tl (either frame) gives time ms.
func xOfTL(tl timeline, ms int64) float64 {
	return tl.PlotLeft + float64(ms)*(tl.PlotRight-tl.PlotLeft)/float64(tl.DomainMs)
}

// Rule (crowding): in every built-in scenario, in both layouts,
// no arrow label covers an arrow other than its own bundle (arrows within
// bundleW of its own at the label's height): the task page's labels no
// longer stack over the arrows on a phone, nor C's progress labels at
// 800 px.
func TestLabelsDoNotCoverArrows(t *testing.T) {
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		for _, tl := range []timeline{newTimeline(tr), newNarrowTimeline(tr)} {
			for i, a := range tl.Arrows {
				if a.Label == "" {
					continue
				}
				lo, hi := a.LabelX-a.LabelW/2-labelPad, a.LabelX+a.LabelW/2+labelPad
				own := xAtY([4]float64{a.X1, a.Y1, a.X2, a.Y2}, a.LabelY)
				for j, b := range tl.Arrows {
					if j == i {
						continue
					}
					x := xAtY([4]float64{b.X1, b.Y1, b.X2, b.Y2}, a.LabelY)
					if x > lo+0.5 && x < hi-0.5 && math.Abs(x-own) > bundleW {
						t.Errorf("%s %slabel %q of wire %d (%.1f..%.1f at y %.1f) covers wire %d at x %.1f", ex.Name, tl.IDPrefix, a.Label, a.Wire, lo, hi, a.LabelY, b.Wire, x)
					}
				}
			}
		}
	}
}
