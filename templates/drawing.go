package templates

import (
	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/trace"
)

// AllCharts draws every summary chart: the site's build (every page),
// ledger.wasm (the pages of scenarios with a ledger, their playground and
// the review) and explore.wasm (its workers run a ledger when the page
// loaded SQLite).
var AllCharts = Drawing{
	tasks:   chartKind{build: buildTasks, part: tasksPart},
	buffers: chartKind{build: buildBuffers, part: buffersPart},
	herd:    chartKind{build: buildHerd, part: herdPart},
	ledger:  chartKind{build: buildLedger, part: ledgerPart},
}

// ScenarioCharts draws the summary charts of a scenario without a ledger:
// main.wasm and playground.wasm, whose engine has no ledger (a scenario
// with one answers the engine's no-ledger error, and its pages load
// ledger.wasm), so their traces never hold one.
var ScenarioCharts = Drawing{
	tasks:   chartKind{build: buildTasks, part: tasksPart},
	buffers: chartKind{build: buildBuffers, part: buffersPart},
	herd:    chartKind{build: buildHerd, part: herdPart},
}

// TranscriptCharts draws none of the summary charts: an imported
// transcript's trace (engine/transcript) has no durable tasks, no
// buffers, no herd and no ledger, only the timeline and the tables
// (import.wasm).
var TranscriptCharts = Drawing{}

// Charts builds the charts of tr that d draws; v is tr's view (NewView),
// whose timeline sets the time scale and whose checks colour the ledger
// counter.
func (d Drawing) Charts(tr *trace.Trace, v View) Charts {
	if tr == nil {
		return Charts{}
	}
	c := Charts{
		drawing:     d,
		Reconnects:  newReconnectRows(tr),
		RetryMatrix: newRetryMatrix(tr),
	}
	for _, k := range []chartKind{d.tasks, d.buffers, d.herd, d.ledger} {
		if k.build != nil {
			k.build(&c, tr, v)
		}
	}
	for _, r := range tr.Requests {
		rr := requestRetry{Class: r.RetryClass, Hints: hintList(r.Hints)}
		if r.RetryOf != nil {
			rr.RetryOf = r.RetryOf.String()
		}
		c.Requests = append(c.Requests, rr)
	}
	return c
}

// Output is Output drawn with d's charts.
func (d Drawing) Output(tr *trace.Trace) templ.Component {
	v := NewView(tr)
	return OutputWith(v, OutputParts(v, d.Charts(tr, v)))
}

// The chart kinds' builders and blocks are plain functions, so a Drawing
// is a static value: a binary links the charts of the Drawings it names
// and no others.

func buildTasks(c *Charts, tr *trace.Trace, v View) {
	c.Tasks = newTaskLanes(tr, v.Timeline.DomainMs)
	c.TasksNarrow = newNarrowTaskLanes(tr, v.Timeline.DomainMs)
}

func tasksPart(c Charts) (OutputPart, bool) {
	if c.Tasks == nil {
		return OutputPart{}, false
	}
	return OutputPart{Key: "tasks", Component: tasksFigure(*c.Tasks, c.TasksNarrow)}, true
}

func buildBuffers(c *Charts, tr *trace.Trace, v View) {
	c.Buffers = newBufferCharts(tr, v.Timeline.DomainMs)
	c.BuffersNarrow = newNarrowBufferCharts(tr, v.Timeline.DomainMs)
}

func buffersPart(c Charts) (OutputPart, bool) {
	if len(c.Buffers) == 0 {
		return OutputPart{}, false
	}
	return OutputPart{Key: "buffers", Component: buffersSection(c.Buffers, c.BuffersNarrow)}, true
}

// buildHerd lays out the herd section: the herd and backoff charts and,
// when the trace compares strategies, the small multiples.
func buildHerd(c *Charts, tr *trace.Trace, _ View) {
	c.Herd = newHerdChart(tr.Herd)
	c.Backoff = newBackoffChart(tr.Herd)
	c.HerdFirst = tr.Herd != nil && len(tr.Events) == 0
	if tr.Herd != nil {
		c.HerdCompare = newHerdCompare(tr.HerdCompare, tr.Herd.Strategy)
		c.HerdCompareNarrow = newNarrowHerdCompare(tr.HerdCompare, tr.Herd.Strategy)
		c.BackoffNarrow = newNarrowBackoffChart(tr.Herd)
		c.HerdNarrow = newNarrowHerdChart(tr.Herd)
	}
}

func herdPart(c Charts) (OutputPart, bool) {
	if c.Herd == nil && c.HerdCompare == nil {
		return OutputPart{}, false
	}
	return OutputPart{Key: "herd", Component: herdSection(c)}, true
}

func buildLedger(c *Charts, tr *trace.Trace, v View) {
	c.Ledger = newLedgerView(tr, v.Checks)
}

func ledgerPart(c Charts) (OutputPart, bool) {
	if c.Ledger == nil {
		return OutputPart{}, false
	}
	return OutputPart{Key: "ledger", Later: true, Component: ledgerSection(*c.Ledger)}, true
}
