package templates

// The view model of one trace (View): the timeline laid out wide and
// narrow, the verdict, the outcome cards and the request, check and event
// rows, built once before any component draws them.

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
		row := checkRow{Rule: string(c.Rule), Detail: checkDetail(tr, c), Events: c.Events}
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

// judged reports whether the run's checks hold rule: a page's tally says
// when a rule is left out of it rather than let its count claim the
// whole. The browser's pages do not link the JSON Schema validator, so
// message-valid is judged only where `mcplab run -checks` adds it.
func (v View) judged(rule trace.RuleID) bool {
	for _, c := range v.Checks {
		if c.Rule == string(rule) {
			return true
		}
	}
	return false
}
