package templates

// View models of the reconnect-herd experiment (DOMAIN.md §10): the
// backoff chart (each sampled client's window and drawn delay per attempt),
// the herd chart (attempts per bucket against the server's capacity), and
// the strategies side by side on one scale.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/recovery"
)

// herdBar is one histogram bucket: attempts that reached the server in
// [At, At+BucketMs) and how many of them were admitted.
type herdBar struct {
	At       int64
	N        int64
	Admitted int64
	X, W     float64
	Y, AY    float64 // tops of the attempts bar and of the admitted bar
	Title    string
}

// herdChart is the herd histogram of one strategy: reconnect attempts per
// bucket over time, admitted ones in a darker shade, against the server's
// capacity per second.
type herdChart struct {
	Strategy              string
	Clients               int
	Attempts              int
	Peak                  int // trace herd.peakPerBucket
	PeakAdmittedPerSecond int
	Capacity              int // per second
	BucketMs              int64
	Reconnected           int
	Exhausted             int
	AllBackMs             int64 // -1 when some client exhausted its attempts

	Width, Height       float64
	PlotLeft, PlotRight float64
	PlotTop, PlotBottom float64
	// IDPrefix is "" for the wide chart and narrowFrame's for the phone
	// layout; Narrow says which: the phone's legend has an item a row,
	// its header two lines (Header, then Header2).
	IDPrefix     string
	Narrow       bool
	Header2      string
	DomainMs     int64
	YMax         int64
	Bars         []herdBar
	CapacityY    float64
	PeakX, PeakY float64 // where the peak label goes
	XTicks       []tick
	YTicks       []yTick
	Seconds      []float64 // x of each whole second (capacity windows)
	Summary      string
	// Header is the line under the strategy's name: "10,000 clients ·
	// 34,000 attempts · all back at 7,518 ms" or "… · 4,000 gave up". It
	// starts at the left edge, on a line of its own, so a phone (which
	// shows about herdPhoneUnits of the chart before scrolling) reads it
	// whole (the header was cut off at 390 px).
	Header string
}

// herdPhoneUnits is how many of the chart's 1,000 units a 390 px screen
// shows before scrolling: about 340 px of content of a chart drawn at its
// 750 px minimum width (site/static/app.css), 340/750 × 1,000 ≈ 453.
const herdPhoneUnits = 450.0

// Layout of the herd chart.
const (
	herdLeft    = 70.0
	herdRight   = 960.0
	herdTop     = 48.0 // under the title (y 16) and the header (y 32)
	herdPlotH   = 220.0
	herdAxisGap = 40.0
)

// newHerdChart draws the herd result r, or returns nil for none.
func newHerdChart(r *recovery.Result) *herdChart { return layoutHerdChart(r, false) }

// newNarrowHerdChart is newHerdChart for a phone: the timeline's narrow
// frame (380 units, drawn about as wide as a 390 px screen, so its 12-unit
// text stays legible and the whole time axis, to the last client's
// return, shows without scrolling), the header on two lines, fewer time
// ticks, the legend an item a row. The wide chart's 1,000 units scrolled
// in their box there and showed 3,000 of a herd's 7,518 ms.
func newNarrowHerdChart(r *recovery.Result) *herdChart { return layoutHerdChart(r, true) }

// layoutHerdChart lays out the herd chart wide (svgWidth) or narrow
// (narrowFrame's width).
func layoutHerdChart(r *recovery.Result, narrow bool) *herdChart {
	if r == nil {
		return nil
	}
	c := &herdChart{
		Strategy: r.Strategy, Clients: r.Clients, Attempts: r.Attempts, Peak: r.PeakPerBucket,
		PeakAdmittedPerSecond: r.PeakAdmittedPerSecond, Capacity: r.CapacityPerSecond, BucketMs: max(r.BucketMs, 1),
		Reconnected: r.Reconnected, Exhausted: r.Exhausted, AllBackMs: -1,
		Width: svgWidth, PlotLeft: herdLeft, PlotRight: herdRight, PlotTop: herdTop, PlotBottom: herdTop + herdPlotH,
	}
	if r.AllReconnectedAtMs != nil {
		c.AllBackMs = *r.AllReconnectedAtMs
	}
	c.Header = groupDigits(int64(c.Clients)) + " clients · " + groupDigits(int64(c.Attempts)) + " attempts · "
	outcome := groupDigits(int64(c.Exhausted)) + " gave up"
	if c.AllBackMs >= 0 {
		outcome = "all back at " + groupDigits(c.AllBackMs) + " ms"
	}
	c.Header += outcome
	ticks := int64(10)
	if narrow {
		c.IDPrefix, c.Narrow = narrowFrame.idPrefix, true
		c.Width, c.PlotLeft, c.PlotRight = narrowFrame.width, 56, narrowFrame.width-22
		c.PlotTop, c.PlotBottom = herdTop+16, herdTop+16+herdPlotH
		c.Header = groupDigits(int64(c.Clients)) + " clients · " + groupDigits(int64(c.Attempts)) + " attempts"
		c.Header2 = outcome
		ticks = 5
	}
	c.DomainMs = herdDomain(r)
	c.YMax = niceCeil(int64(max(r.PeakPerBucket, r.CapacityPerSecond, 1)))
	xOf := func(ms int64) float64 {
		return c.PlotLeft + float64(ms)*(c.PlotRight-c.PlotLeft)/float64(c.DomainMs)
	}
	yOf := func(n int64) float64 { return c.PlotBottom - float64(n)*herdPlotH/float64(c.YMax) }
	c.Bars = herdBars(r, xOf, yOf)
	c.CapacityY = yOf(int64(r.CapacityPerSecond))
	for _, b := range c.Bars {
		if b.N == int64(r.PeakPerBucket) && r.PeakPerBucket > 0 {
			c.PeakX, c.PeakY = b.X+b.W/2, b.Y
			break
		}
	}
	for ms, step := int64(0), niceStepN(c.DomainMs, ticks); ms <= c.DomainMs; ms += step {
		c.XTicks = append(c.XTicks, tick{Ms: ms, X: xOf(ms), Label: strconv.FormatInt(ms, 10)})
	}
	step := niceStep(c.YMax)
	for v := int64(0); v <= c.YMax; v += step {
		c.YTicks = append(c.YTicks, yTick{Value: v, Y: yOf(v), Label: groupDigits(v)})
	}
	for s := int64(1000); s < c.DomainMs; s += 1000 {
		c.Seconds = append(c.Seconds, xOf(s))
	}
	c.Height = c.PlotBottom + herdAxisGap + 26
	if narrow {
		c.Height += 3 * 18 // the legend's three more rows
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Herd of %s clients, strategy %s: %s reconnect attempts, at most %s in one %d ms bucket against a capacity of %s per second; ",
		groupDigits(int64(r.Clients)), r.Strategy, groupDigits(int64(r.Attempts)), groupDigits(int64(r.PeakPerBucket)), c.BucketMs, groupDigits(int64(r.CapacityPerSecond)))
	if c.AllBackMs >= 0 {
		fmt.Fprintf(&b, "every client is back at %d ms.", c.AllBackMs)
	} else {
		fmt.Fprintf(&b, "%s clients reconnected and %s gave up after every attempt.", groupDigits(int64(r.Reconnected)), groupDigits(int64(r.Exhausted)))
	}
	c.Summary = b.String()
	return c
}

// herdDomain is the time axis's end for a herd: past its last bucket, at a
// 1-2-5 step.
func herdDomain(r *recovery.Result) int64 {
	last := int64(0)
	if n := len(r.Buckets); n > 0 {
		last = r.Buckets[n-1][0] + max(r.BucketMs, 1)
	}
	step := niceStep(max(last, 1))
	return max(step, (last+step-1)/step*step)
}

// herdBars turns the buckets (and the admitted counts, bucket by bucket)
// into bars, leaving out empty buckets.
func herdBars(r *recovery.Result, xOf func(int64) float64, yOf func(int64) float64) []herdBar {
	admitted := map[int64]int64{}
	for _, a := range r.Admitted {
		admitted[a[0]] = a[1]
	}
	bucket := max(r.BucketMs, 1)
	var out []herdBar
	for _, b := range r.Buckets {
		if b[1] == 0 {
			continue
		}
		x1, x2 := xOf(b[0]), xOf(b[0]+bucket)
		w := max(x2-x1-0.6, 1.2)
		a := admitted[b[0]]
		out = append(out, herdBar{At: b[0], N: b[1], Admitted: a, X: x1, W: w, Y: yOf(b[1]), AY: yOf(a),
			Title: fmt.Sprintf("%d–%d ms: %s attempts, %s admitted, %s refused", b[0], b[0]+bucket, groupDigits(b[1]), groupDigits(a), groupDigits(b[1]-a))})
	}
	return out
}

// barsPath is the SVG path data of bars standing on the baseline bottom,
// one closed rectangle per bar ("M x bottom V top h w V bottom z"): the
// attempts (Y), or with admitted the admitted part (AY) of the bars that
// admitted any. "" when no bar has one.
func barsPath(bars []herdBar, bottom float64, admitted bool) string {
	var b strings.Builder
	base := formatNum(bottom)
	for _, bar := range bars {
		top := bar.Y
		if admitted {
			if bar.Admitted <= 0 {
				continue
			}
			top = bar.AY
		}
		b.WriteString("M" + formatNum(bar.X) + " " + base + "V" + formatNum(top) + "h" + formatNum(bar.W) + "V" + base + "z")
	}
	return b.String()
}

// herdCompare is the same herd under every strategy, side by side on one
// scale (trace.herdCompare).
type herdCompare struct {
	// IDPrefix is prefixed to the svg's ids ("" for the wide layout,
	// #herd-compare; "narrow-" for the phone layout).
	IDPrefix string
	// AxisFont is the font size of the axis labels, in user units: 11
	// wide, 12 narrow (scaled down on a phone, it still renders at 9 px).
	AxisFont      string
	Width, Height float64
	DomainMs      int64
	YMax          int64
	Capacity      int
	Panels        []herdPanel
	YTicks        []yTick // for the first panel's axis (shared scale)
	Summary       string
}

// herdPanel is one strategy's small histogram.
type herdPanel struct {
	Strategy    string
	Peak        int
	Exhausted   int
	AllBackMs   int64 // -1 when some client gave up
	Current     bool  // the scenario's own strategy
	X, W        float64
	Top, Bottom float64
	// DY is how far below the first row of panels this panel's row sits
	// (herdCompare.YTicks are the first row's); Axis says this panel
	// begins a row and carries the y tick labels.
	DY   float64
	Axis bool
	Bars []herdBar
	// AttemptsPath and AdmittedPath draw Bars as two SVG paths (barsPath):
	// one element each, where a <rect> per bar made the heaviest allowed
	// herd's small multiples 8,000 elements and 740 KB of HTML, which
	// the page parsed, patched and restyled on every change.
	AttemptsPath, AdmittedPath string
	CapacityY                  float64
	Outcome                    string // "all back at 7518 ms" or "4,000 gave up"
}

// Layout of the small multiples.
const (
	cmpLeft  = 56.0
	cmpGap   = 14.0
	cmpTop   = 44.0
	cmpPlotH = 150.0
	cmpFootH = 52.0 // below a plot: the axis ends and the outcome
)

// newHerdCompare draws results side by side on one x and y scale, marking
// the one whose strategy is current; nil when there are none.
func newHerdCompare(results []recovery.Result, current string) *herdCompare {
	return layoutHerdCompare(results, current, svgWidth, max(1, len(results)), cmpPlotH, "")
}

// newNarrowHerdCompare is newHerdCompare for a phone (the timeline's
// narrow frame, 380 units): the panels two to a row, on the same scales,
// so each stays wide enough to show its histogram's shape.
func newNarrowHerdCompare(results []recovery.Result, current string) *herdCompare {
	return layoutHerdCompare(results, current, narrowFrame.width, 2, 110, narrowFrame.idPrefix)
}

// layoutHerdCompare lays the panels out cols to a row in a drawing width
// units wide, each plot plotH units high.
func layoutHerdCompare(results []recovery.Result, current string, width float64, cols int, plotH float64, idPrefix string) *herdCompare {
	if len(results) == 0 {
		return nil
	}
	c := &herdCompare{Width: width, IDPrefix: idPrefix, AxisFont: "11"}
	if width < svgWidth {
		c.AxisFont = "12"
	}
	var peak int
	for _, r := range results {
		c.DomainMs = max(c.DomainMs, herdDomain(&r))
		peak = max(peak, r.PeakPerBucket, r.CapacityPerSecond)
		c.Capacity = r.CapacityPerSecond
	}
	c.YMax = niceCeil(int64(max(peak, 1)))
	n := float64(cols)
	w := (width - cmpLeft - 10 - cmpGap*(n-1)) / n
	bottom := cmpTop + plotH
	yOf := func(v int64) float64 { return bottom - float64(v)*plotH/float64(c.YMax) }
	rowH := cmpTop + plotH + cmpFootH
	step := niceStep(c.YMax)
	for v := int64(0); v <= c.YMax; v += step {
		c.YTicks = append(c.YTicks, yTick{Value: v, Y: yOf(v), Label: groupDigits(v)})
	}
	var sum []string
	for i, r := range results {
		x := cmpLeft + float64(i%cols)*(w+cmpGap)
		dy := float64(i/cols) * rowH
		xOf := func(ms int64) float64 { return x + float64(ms)*w/float64(c.DomainMs) }
		yRow := func(v int64) float64 { return yOf(v) + dy }
		p := herdPanel{Strategy: r.Strategy, Peak: r.PeakPerBucket, Exhausted: r.Exhausted, AllBackMs: -1,
			Current: r.Strategy == current, X: x, W: w, Top: cmpTop + dy, Bottom: bottom + dy, DY: dy, Axis: i%cols == 0,
			Bars: herdBars(&r, xOf, yRow), CapacityY: yRow(int64(r.CapacityPerSecond))}
		p.AttemptsPath, p.AdmittedPath = barsPath(p.Bars, p.Bottom, false), barsPath(p.Bars, p.Bottom, true)
		if r.AllReconnectedAtMs != nil {
			p.AllBackMs = *r.AllReconnectedAtMs
			p.Outcome = "all back at " + groupDigits(p.AllBackMs) + " ms"
		} else {
			p.Outcome = groupDigits(int64(r.Exhausted)) + " gave up"
		}
		c.Panels = append(c.Panels, p)
		sum = append(sum, fmt.Sprintf("%s peaks at %s per bucket, %s", r.Strategy, groupDigits(int64(r.PeakPerBucket)), p.Outcome))
	}
	c.Height = float64((len(results)+cols-1)/cols) * rowH
	c.Summary = "The same herd under each strategy, on one scale: " + strings.Join(sum, "; ") + "."
	return c
}

// backoffChart shows, per reconnect attempt, the window each sampled client
// drew its delay from (a band) and the delay it drew (a dot, filled when
// that attempt was admitted, hollow when refused), on a log scale.
type backoffChart struct {
	Strategy string
	// IDPrefix prefixes the element ids ("" wide; "narrow-" for the phone
	// layout, newNarrowBackoffChart).
	IDPrefix string
	// Subtitle says what is drawn, at SubX, SubY (under the title on a
	// phone).
	Subtitle   string
	SubX, SubY float64
	// BandW is a window band's width and DotR a drawn delay's radius, in
	// SVG units.
	BandW, DotR         float64
	Width, Height       float64
	PlotLeft, PlotRight float64
	PlotTop, PlotBottom float64
	Attempts            int // columns
	Columns             []backoffColumn
	Draws               []backoffDraw
	YTicks              []yTick
	Clients             []string
	Summary             string
}

// backoffColumn is one attempt's column.
type backoffColumn struct {
	Attempt int
	X, W    float64 // left edge and width
	Label   string
}

// backoffDraw is one sampled client's draw for one attempt.
type backoffDraw struct {
	Client   string
	Index    int // the client's position in the sample
	Attempt  int
	Lo, Hi   int64 // the window, ms
	Delay    int64
	At       int64 // when the attempt reached the server
	Admitted bool
	X        float64
	Y1, Y2   float64 // the window band (Y1 top, at Hi)
	Y        float64 // the dot
	Title    string
}

// Layout of the backoff chart.
const (
	boLeft  = 70.0
	boRight = 960.0
	boTop   = 30.0
	boPlotH = 220.0
)

// newBackoffChart draws the sampled clients of the herd result r, or nil
// when there is none.
func newBackoffChart(r *recovery.Result) *backoffChart {
	return layoutBackoffChart(r, false)
}

// newNarrowBackoffChart is newBackoffChart for a phone: the timeline's
// narrow frame (380 units, drawn about as wide as a 390 px screen, so its
// 12-unit text stays legible), the subtitle under the title, the legend one
// item a row, narrower bands and dots. The wide chart's 1000 units scrolled
// sideways in its box there and showed two of its attempts.
func newNarrowBackoffChart(r *recovery.Result) *backoffChart {
	return layoutBackoffChart(r, true)
}

// layoutBackoffChart lays out the backoff chart wide (svgWidth) or narrow
// (narrowFrame's width).
func layoutBackoffChart(r *recovery.Result, narrow bool) *backoffChart {
	if r == nil || len(r.Sample) == 0 {
		return nil
	}
	c := &backoffChart{Strategy: r.Strategy, Width: svgWidth, PlotLeft: boLeft, PlotRight: boRight, PlotTop: boTop, PlotBottom: boTop + boPlotH,
		BandW: 6, DotR: 4, SubY: 16}
	c.Subtitle = "delay drawn by each of the first " + strconv.Itoa(len(r.Sample)) + " clients, per attempt (log scale, ms)"
	c.SubX = 10 + textWidth("strategy "+r.Strategy) + 16
	if narrow {
		c.IDPrefix = narrowFrame.idPrefix
		c.Width, c.PlotLeft, c.PlotRight = narrowFrame.width, 50, narrowFrame.width-10
		c.PlotTop, c.PlotBottom = boTop+16, boTop+16+boPlotH
		c.BandW, c.DotR = 4, 3
		c.Subtitle = "delay per attempt, first " + strconv.Itoa(len(r.Sample)) + " clients (log ms)"
		c.SubX, c.SubY = 10, 32
	}
	lo, hi := int64(math.MaxInt64), int64(1)
	for _, s := range r.Sample {
		c.Clients = append(c.Clients, s.ClientID)
		c.Attempts = max(c.Attempts, len(s.Draws))
		for _, d := range s.Draws {
			lo = min(lo, max(d.WindowMs[0], 1), max(d.DelayMs, 1))
			hi = max(hi, d.WindowMs[1], d.DelayMs)
		}
	}
	if c.Attempts == 0 {
		return nil
	}
	// A log scale with a little room: doubling windows are evenly spaced.
	l0, l1 := math.Log2(float64(lo))-0.3, math.Log2(float64(max(hi, lo)))+0.3
	yOf := func(ms int64) float64 {
		return c.PlotBottom - (math.Log2(float64(max(ms, 1)))-l0)/(l1-l0)*boPlotH
	}
	for _, v := range logTicks(lo, hi) {
		c.YTicks = append(c.YTicks, yTick{Value: v, Y: yOf(v), Label: groupDigits(v)})
	}
	colW := (c.PlotRight - c.PlotLeft) / float64(c.Attempts)
	for a := 0; a < c.Attempts; a++ {
		c.Columns = append(c.Columns, backoffColumn{Attempt: a, X: c.PlotLeft + float64(a)*colW, W: colW, Label: strconv.Itoa(a)})
	}
	n := float64(len(r.Sample))
	slot := min(14, (colW-12)/n)
	if narrow {
		slot = min(14, (colW-4)/n)
	}
	for i, s := range r.Sample {
		for _, d := range s.Draws {
			x := c.PlotLeft + float64(d.Attempt)*colW + colW/2 + (float64(i)-(n-1)/2)*slot
			verdict := "refused"
			if d.Admitted {
				verdict = "admitted"
			}
			c.Draws = append(c.Draws, backoffDraw{Client: s.ClientID, Index: i, Attempt: d.Attempt, Lo: d.WindowMs[0], Hi: d.WindowMs[1],
				Delay: d.DelayMs, At: d.AtMs, Admitted: d.Admitted, X: x,
				Y1: yOf(d.WindowMs[1]), Y2: yOf(d.WindowMs[0]), Y: yOf(d.DelayMs),
				Title: fmt.Sprintf("%s, attempt %d: window %d–%d ms, drew %d ms, reached the server at %d ms: %s",
					s.ClientID, d.Attempt, d.WindowMs[0], d.WindowMs[1], d.DelayMs, d.AtMs, verdict)})
		}
	}
	c.Height = c.PlotBottom + 64
	if narrow {
		c.Height = c.PlotBottom + 40 + 3*18
	}
	c.Summary = fmt.Sprintf("Backoff of the first %d clients under strategy %s: for each attempt, the window each client drew its delay from and the delay it drew (filled: admitted; hollow: refused).", len(r.Sample), r.Strategy)
	return c
}

// logTicks returns 1-2-5 values from lo to hi (ms), thinned to at most 8.
func logTicks(lo, hi int64) []int64 {
	var out []int64
	for p := int64(1); p <= hi*10 && p > 0; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if v := m * p; v >= lo && v <= hi {
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 {
		return []int64{lo}
	}
	for len(out) > 8 {
		var thin []int64
		for i := 0; i < len(out); i += 2 {
			thin = append(thin, out[i])
		}
		out = thin
	}
	return out
}

// niceCeil rounds n up to a value with one significant 1-2-5 digit pattern
// of its tick step: the top of a count axis.
func niceCeil(n int64) int64 {
	step := niceStep(n)
	return max(step, (n+step-1)/step*step)
}

// groupDigits prints n with thin-space-free comma grouping: 10000 becomes
// "10,000".
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
