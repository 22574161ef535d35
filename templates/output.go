package templates

import (
	"strconv"

	"github.com/a-h/templ"
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
