package templates

// The geometry every chart shares: the timeline's frames (wide and
// narrow), the colours and fonts of SVG text, and the time axis.

import "strconv"

// Layout of the timeline, in SVG user units (the SVG scales to its box).
// svgWidth, plotLeft, plotRight and labelMinX are the wide frame's; the
// other charts share its x scale.
const (
	svgWidth    = 1000.0 // viewBox width
	plotLeft    = 112.0  // x of time 0: room for lane names
	plotRight   = 940.0  // x of the domain's end
	topPad      = 18.0   // space above the first lane's marks
	rowH        = 18.0   // height of one row of marks or labels
	laneGap     = 40.0   // space between a lane line and the network band
	glyphR      = 6.0    // half size of a mark glyph
	labelPad    = 4.0    // padding around a label's background
	minBandRows = 3      // network band rows at least
	maxBandRows = 15     // network band rows at most; past that labels overlap
	labelMinX   = 82.0   // arrow labels start right of the lane names ("network", bold, ends near 72)
)

// frame is the horizontal geometry of one timeline layout, in SVG user
// units: the viewBox width, the x of time 0 and of the domain's end, where
// arrow labels may start (right of the lane names), and the most ticks the
// axis may carry.
type frame struct {
	width, left, right, labelMinX float64
	maxTicks                      int64
	idPrefix                      string // prefixed to every element id, so two layouts share a page
	// onceLabels: a mark whose words (its label without the request id)
	// its lane already shows, and whose label would not fit the lane's
	// first row, is drawn as its glyph alone (its title keeps the label),
	// so that runs of alike marks (idle resets every 400 ms, a task's
	// accepted polls) do not stack a row each on a phone (before,
	// four rows of idle resets in C at 390 px, five rows near 400 ms
	// on the task page). The legend names the glyph.
	onceLabels bool
}

// Design decision (a layout from a phone-width iframe to a wide
// screen). Context: the timeline's text is 12 user units, and the SVG
// scales with its box, so the 1000-unit drawing is legible (>= 9 px) only
// in a box at least 750 px wide; on a phone it would shrink to 4 px or
// scroll sideways, hiding the cause (a cancel) from its effect (the
// suppressed response). Decision: the same trace is also laid out in a
// narrow frame, 380 units wide (lane names in a 70-unit gutter, fewer
// ticks, labels stacked in more rows of the network band), which stays
// legible down to a 285 px box, so a 320 px phone sees the whole run at
// once; the stylesheet shows one of the two by the width of the figure (a
// container query). Consequence: Output carries two SVGs (#timeline, the
// wide one the tests and tools read, and #narrow-timeline), and the view
// model lays out twice; both are plain functions of the trace.
var (
	wideFrame   = frame{width: svgWidth, left: plotLeft, right: plotRight, labelMinX: labelMinX, maxTicks: 10}
	narrowFrame = frame{width: 380, left: 70, right: 364, labelMinX: 68, maxTicks: 5, idPrefix: "narrow-", onceLabels: true}
)

// tick is one labelled time on the axis.
type tick struct {
	Ms     int64
	X      float64
	LabelX float64 // the label's centre: X, or nearer the plot where the label would cross the chart's right edge
	Label  string  // e.g. "300" (the axis says ms once)
}

// Colours: the page's custom properties (site/static/app.css) with their
// light-theme values as fallbacks.
const (
	colFg        = "var(--fg, #1c1f24)"
	colMuted     = "var(--muted, #5b6270)"
	colLine      = "var(--line-strong, #9aa1ad)"
	colGrid      = "var(--grid, #eceef1)"
	colPanel     = "var(--panel, #ffffff)"
	colRequest   = "var(--c-request, #2563d9)"
	colResult    = "var(--c-result, #15803d)"
	colError     = "var(--c-error, #c62828)"
	colProgress  = "var(--c-progress, #7c4dcc)"
	colCancel    = "var(--c-cancel, #b45309)"
	colNeutral   = "var(--c-notification, #57606f)"
	colUndecided = "var(--c-undecided, #a16207)"
)

// Fonts of the charts' text (SVG presentation attributes).
const (
	fontSans = "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif"
	fontMono = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
)

// yTick is one labelled value on a chart's vertical axis.
type yTick struct {
	Value int64
	Y     float64
	Label string
}

// timeScale maps virtual ms to x on the timeline's plot (plotLeft..plotRight
// over 0..domainMs).
func timeScale(domainMs int64) func(int64) float64 {
	d := float64(max(domainMs, 1))
	return func(ms int64) float64 { return plotLeft + float64(ms)*(plotRight-plotLeft)/d }
}

// xTicks labels a time axis at the 1-2-5 step of domainMs.
func xTicks(domainMs int64, xOf func(int64) float64) []tick {
	step := niceStep(domainMs)
	var out []tick
	for ms := int64(0); ms <= domainMs; ms += step {
		x := xOf(ms)
		out = append(out, tick{Ms: ms, X: x, LabelX: x, Label: strconv.FormatInt(ms, 10)})
	}
	return out
}
