package templates

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/trace"
)

// OutputPart is one top-level block of Output (one element inside
// div#output): the outcome headline, the timeline, a chart or a table.
// Output is exactly its parts in order, so a page that re-renders on every
// change can render, compare and swap them one by one.
type OutputPart struct {
	// Key names the block ("headline", "timeline", "tasks", "buffers",
	// "herd", "reconnects", "ledger", "requests", "retry-matrix", "checks",
	// "events"); the same keys in the same order mean the same page shape.
	Key string
	// Later is true for the blocks a reader does not watch while dragging
	// a control (the tables, and the ledger and reconnect panels with
	// theirs): a page may draw them after the next frame, once the
	// headline and the charts are on screen. False for the headline and
	// the charts on the timeline's time axis.
	Later bool
	// Component renders the block: exactly one element.
	Component templ.Component
	// Views, when not empty, are the pictures in the block that change
	// from run to run, each one element with id ID: the timeline's wide
	// and narrow layouts, of which the stylesheet shows at most one.
	// Nothing else in the block depends on the run, so a page may redraw
	// the views alone, the one on screen first and the hidden one later.
	Views []OutputView
	// Shell renders the block around the given views (their components
	// or their HTML as templ.Raw); Component is Shell of the Views'
	// components. Nil when Views is empty.
	Shell func(views []templ.Component) templ.Component
}

// OutputView is one picture of an OutputPart.
type OutputView struct {
	ID        string // the id of the element Component renders
	Component templ.Component
}

// OutputParts lists the blocks of Output for a view and its charts
// (NewView, and the Charts of the same trace by a Drawing, which draws
// its own summary charts), in page order.
func OutputParts(v View, c Charts) []OutputPart {
	parts := make([]OutputPart, 0, 11)
	add := func(key string, later bool, comp templ.Component) {
		parts = append(parts, OutputPart{Key: key, Later: later, Component: comp})
	}
	addChart := func(k chartKind) {
		if p, ok := partOf(k, c); ok {
			parts = append(parts, p)
		}
	}
	d := c.drawing
	add("headline", false, outputHeadline(v))
	if c.HerdFirst {
		addChart(d.herd)
	}
	shell := timelineFigure
	if c.HerdFirst {
		shell = timelineDetails
	}
	// Both views draw with timelineSVG; the narrow layout is made when
	// its view is rendered (View.narrow).
	var views []OutputView
	for _, t := range []struct {
		prefix string
		layout func() timeline
	}{{wideFrame.idPrefix, func() timeline { return v.Timeline }}, {narrowFrame.idPrefix, v.NarrowTimeline}} {
		views = append(views, OutputView{ID: t.prefix + "timeline", Component: templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
			return timelineSVG(t.layout()).Render(ctx, w)
		})})
	}
	parts = append(parts, OutputPart{Key: "timeline", Component: shell(viewComponents(views)), Views: views, Shell: shell})
	addChart(d.tasks)
	addChart(d.buffers)
	if !c.HerdFirst {
		addChart(d.herd)
	}
	if len(c.Reconnects) > 0 {
		add("reconnects", true, reconnectPanel(c.Reconnects))
	}
	addChart(d.ledger)
	add("requests", true, requestsSection(v, c))
	if len(c.RetryMatrix) > 0 {
		add("retry-matrix", true, retryMatrix(c.RetryMatrix))
	}
	add("checks", true, checksSection(v))
	add("events", true, eventsSection(v))
	return parts
}

// OutputData is what Output's wrapper (div#output) says about the run, as
// attribute name and value, in order: data-end-ms (the last event's time),
// data-pass, data-fail and data-undecided (the checks by result). A page
// that patches the blocks in place sets these on the wrapper it keeps.
func (v View) OutputData() [][2]string {
	return [][2]string{
		{"data-end-ms", i64(v.Timeline.EndMs)},
		{"data-pass", strconv.Itoa(v.Pass)},
		{"data-fail", strconv.Itoa(v.Fail)},
		{"data-undecided", strconv.Itoa(v.Undecided)},
	}
}

// viewComponents returns the views' components, in order.
func viewComponents(views []OutputView) []templ.Component {
	comps := make([]templ.Component, len(views))
	for i, view := range views {
		comps[i] = view.Component
	}
	return comps
}

// Output renders everything the page re-renders after a run of the
// scenario: the outcome headline of each request, the check tally, the
// timeline SVG, the task lanes beside it, the SSE buffer, herd, backoff,
// reconnect and ledger views when the trace has them (AllCharts), the
// request summary with retry classes and hints, the retry matrix, the
// checks and the event table. The wasm renders it into #lab-output on
// every change; the site prerenders it so the page reads the same with
// JavaScript off. The view models are built here, once, before rendering
// (ARCHITECTURE.md: templates receive view models built outside the
// components); the components only draw them.
func Output(tr *trace.Trace) templ.Component { return AllCharts.Output(tr) }
