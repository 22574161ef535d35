// Package templates renders mcplab traces and pages with templ: the timeline
// SVG, the request summary, the checks, the event table, the scenario
// controls, and the full pages that embed them.
//
// The exported surface is what site/ (prerendering) and wasm/ (the
// browser) use, 32 names; everything else is unexported:
//
//   - Output(tr) is everything the browser re-renders after a run: outcome
//     headlines, timeline, the charts of the trace's other summaries (task
//     lanes, SSE buffer occupancy, reconnect herd and backoff, reconnects,
//     the idempotency ledger; charts.go, tasks.go, herd.go, ledger.go),
//     request summary, retry classes, checks and events.
//   - ScenarioPage(p) and IndexPage(root, entries) are the prerendered pages.
//   - NewView(tr) and NewControls(s) are the view models those components
//     draw: plain values (lanes, arrows, marks, x positions, controls), so
//     tests can assert a position or a label without parsing SVG.
//   - PlaygroundPage, ImportPage and ImportResult are the playground and
//     import pages; Embed, OEmbed and HostSnippet serve embedding.
//   - LocateError and IndentScenario serve the playground's editor.
//
// templates edits no scenario: each control carries its path and value
// kind (scenario.Value*), and the browser glue applies it with
// scenario.Edit.
//
// Design decision (STYLE.md, Model and view): the engine knows no pixels and
// the templates know no protocol rules. The view model only places and
// labels what the trace records: an arrow goes from a send event's time and
// lane to its delivery event's time and lane (both carried by the trace,
// linked by the wire number), a mark sits at its event's time on its actor's
// lane, and an outcome headline is read from a request's state and signal.
// Consequence: an imported real transcript draws the same way as a simulated
// one, and a rule change in the engine never needs a template change.
//
// Files: view.go is the surface (View, the request, check and event rows);
// timeline.go lays out the timeline (lanes, time scale, arrows and marks in
// their rows); layout.go is its label geometry (the network band, legend,
// summary); labels.go classifies wire messages and writes the labels and
// tooltips.
//
// Every number written into SVG goes through formatNum, which rounds to one
// decimal and prints the shortest form, so output is byte-stable across
// platforms and between native and WebAssembly builds (golden tests pin it).
package templates

import (
	"sync"

	"github.com/mcplab/mcplab/engine/trace"
)

// View is everything Output draws for one trace.
type View struct {
	Timeline timeline
	// narrow lays the same timeline out for a phone (narrowFrame) the
	// first time it is called (NarrowTimeline): a page that shows the
	// wide one renders the narrow one later, after the frame (a
	// change within a frame; the narrow layout is a third of a view).
	narrow func() timeline
	// Verdict is the run's headline: the story's point in domain words.
	Verdict verdict
	// Cards are the outcomes under the verdict, repeats summarized.
	Cards    []outcomeCard
	Outcomes []outcome
	Requests []requestRow
	Checks   []checkRow
	Events   []eventRow
	// Pass, Fail and Undecided count the checks by result.
	Pass, Fail, Undecided int
}

// NewView builds the view model of a trace. It never fails: anything it
// cannot interpret is drawn as a plain mark or raw message. A nil trace
// gives an empty view.
func NewView(tr *trace.Trace) View {
	if tr == nil {
		tr = &trace.Trace{}
	}
	v := View{Timeline: newTimeline(tr), narrow: sync.OnceValue(func() timeline { return newNarrowTimeline(tr) })}
	for _, r := range tr.Requests {
		row := newRequestRow(r)
		v.Requests = append(v.Requests, row)
		v.Outcomes = append(v.Outcomes, row.Outcome)
	}
	for _, c := range tr.Checks {
		row := checkRow{Rule: c.Rule, Detail: checkDetail(tr, c), Events: c.Events}
		switch {
		case c.OK == nil:
			row.Result, row.Symbol = "undecided", "?"
			v.Undecided++
		case *c.OK:
			row.Result, row.Symbol = "pass", "✓"
			v.Pass++
		default:
			row.Result, row.Symbol = "fail", "✗"
			v.Fail++
		}
		v.Checks = append(v.Checks, row)
	}
	for _, e := range tr.Events {
		v.Events = append(v.Events, newEventRow(e))
	}
	v.Verdict, v.Cards = newVerdict(tr), append(groupOutcomes(v.Requests), taskCards(tr)...)
	judgeCards(tr, v.Verdict, v.Cards)
	return v
}

// NarrowTimeline is the timeline laid out for a phone (narrowFrame), laid
// out on the first call; the zero View's is empty.
func (v View) NarrowTimeline() timeline {
	if v.narrow == nil {
		return timeline{}
	}
	return v.narrow()
}
