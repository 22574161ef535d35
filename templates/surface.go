// Package templates renders mcplab traces and pages with templ: the timeline
// SVG, the request summary, the checks, the event table, the scenario
// controls, and the full pages that embed them.
//
// The exported surface is what site/ (prerendering) and wasm/ (the
// browser) use, 71 names; everything else is unexported. This file holds
// the entries that build a view model and render it; the other names are
// declared beside the models they belong to:
//
//   - A run's output: Output(tr) is everything the browser re-renders
//     after a run (outcome headlines, timeline, the charts of the trace's
//     other summaries, request summary, retry classes, checks and events);
//     NewView and View, OutputParts, OutputPart, OutputView and OutputWith
//     let the worker render it part by part; a Drawing (AllCharts,
//     ScenarioCharts, TranscriptCharts; drawing.go) is the set of summary
//     charts a binary draws, so each wasm binary links the charts its
//     pages' traces can have, and Output draws them all.
//   - Scenario pages and the index: ScenarioPage with its Page, IndexPage
//     with IndexEntry and NewIndexEntry, SplitNotes; NewControls and
//     ControlPanel draw the controls the playground re-renders;
//     NotFoundPage.
//   - The playground: PlaygroundPage, Playground and PlaygroundExample;
//     LocateError, EditorError and IndentScenario serve its editor; Embed,
//     NewEmbed, NewOEmbed and HostOrigin serve embedding; NewEditedWords
//     says what an edit changed.
//   - The import page: ImportPage, Import, ImportHead, ImportFailedText,
//     ImportFailedStatus, ImportEmptyStatus, ImportLoadedText and
//     ImportJudgingText.
//   - The explorer: ExplorePage, Explore, ExploreChoice, ExploreOut,
//     ExploreOutput, ExploreCell, ClassLetter, ExploreHref, ExploreNoWindow,
//     ExploreCannotStatus, ExploreStoppedText, ExploreStaleNote,
//     ExplorePicked and ExploreEditedNote.
//   - The review and the rules: ReviewPage, ReviewBody, NewReviewView and
//     ReviewLink; RulesIndex and RulePage.
//   - The docs: DocPage draws a page of the repository's docs/ that the
//     site serves, at DocPath.
//
// Also exported, though site/ and wasm/ code does not name them: the types
// that exported signatures and fields show (Charts, OEmbed, EditedWords,
// ReviewView with its ReviewSection and ReviewItem), and the embed
// snippet's values that the site's browser tests check the pages against
// (EmbedHeight, EmbedReferrerPolicy, HostSnippet, HostSnippetFor), and
// Output, the whole output with every summary chart, that the
// pages above prerender, for a caller that draws one trace.
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
// Files, bottom up (house_test.go keeps the map: a file uses only its own
// layer and those under it): format.go, rules.go, cite.go and headlines.go
// format numbers, text and links; frame.go (the charts' frame, colours and
// axes), wire.go (what a wire message is), rows.go (the request, check and
// event rows) and importview.go are the models every chart shares; then one
// view model per chart or panel (timeline.go with its label geometry in
// layout.go, labels.go, deadlines.go; herd.go, tasks.go, ledger.go,
// verdict.go, explore.go, review.go); then the page models (view.go's View,
// charts.go's Charts, output.go, the controls, page.go, playground.go);
// then the templ components of the output, the page layouts with the
// panels they embed (panels.go), and this file on top.
//
// Every number written into SVG goes through formatNum, which rounds to one
// decimal and prints the shortest form, so output is byte-stable across
// platforms and between native and WebAssembly builds (golden tests pin it).
package templates

import (
	"context"
	"io"

	"github.com/a-h/templ"
	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// ExplorePage is /explore/: pick or paste a scenario, see its outcome
// map fill in, click a cell for its run.
func ExplorePage(p Explore) templ.Component { return explorePage(p) }

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

// ScenarioPage is the page of one built-in scenario: title, summary and
// notes, what to try, the controls, the prerendered Output, and the
// scenario JSON for the wasm (script#scenario-json). The element #lab tells
// the wasm to wire the controls; #lab-output is what it re-renders.
//
// The page's model (intro, hint, controls, Output) is built here, once,
// before rendering; scenarioPageView only draws it.
func ScenarioPage(p Page) templ.Component {
	controls := p.controls()
	hint := p.hint()
	if t, ok := tryItFor(p.Name, p.Trace); ok {
		if text := t.text(controls); text != "" {
			hint = text
			markLead(controls, t.Path)
		}
	}
	markNamed(controls, hint)
	p.Title = stripTransport(p.Title)
	return rooted(p.Root, scenarioPageView(scenarioPage{Page: p, Intro: p.intro(), Hint: hint, Controls: controls, Output: Output(p.Trace)}))
}

// IndexPage lists every built-in scenario, grouped by groupEntries, with
// its title, summary, transport and protocol, the outcome of each request
// and the check tally, each linking to its page. root is the relative path
// to the site root ("./" for the index itself).
func IndexPage(root string, entries []IndexEntry) templ.Component {
	unjudged := false
	for _, e := range entries {
		unjudged = unjudged || e.unjudged
	}
	return indexPageView(root, firstHref(entries), groupEntries(entries), unjudged)
}

// PlaygroundPage is the playground (playground/index.html): a JSON editor
// and the controls of NewControls beside the Output of the scenario, which
// the wasm re-runs on every change, plus share, embed, download and open
// buttons and the built-in scenarios to start from. It is prerendered on
// p.Scenario so it reads without JavaScript. Element ids are the wasm's
// contract (wasm/page/playground.go): #playground, #pg-editor, #pg-error,
// #lab-controls, #lab-output, #pg-link, #pg-embed.
//
// Its model (title, controls, Output) is built here, once, before
// rendering.
func PlaygroundPage(p Playground) templ.Component {
	m := playgroundPage{Playground: p, Title: title(p.Trace), Output: Output(p.Trace), Sections: pickSections(p.Examples)}
	if p.Trace != nil {
		m.Controls = NewControls(p.Trace.Scenario, p.Trace.EndMs)
	}
	return rooted(p.Root, playgroundPageView(m))
}

// ImportPage judges a transcript of real traffic in the browser
// (import/index.html): paste or drop a Go SDK LoggingTransport log or the
// lab's JSON Lines, choose the side, and the wasm imports it
// (transcript.Import) and draws the same Output the simulator's pages draw,
// with the violations listed first and linked to their events. Prerendered
// on p's example. Element ids are the wasm's contract (wasm/page/import.go).
func ImportPage(p Import) templ.Component {
	return rooted(p.Root, importPageView(p, importResultBlock(p.Trace)))
}

// importResultBlock is the import page's #imp-result as prerendered: where
// the transcript came from, its violations linked to their events, and the
// Output (headline, timeline, requests, checks, events) of its trace. The
// wasm re-renders its parts apart (ImportHead, then Output's parts).
//
// Its model (source, violations, Output) is built here, once, before
// rendering; a nil trace renders nothing.
func importResultBlock(tr *trace.Trace) templ.Component {
	r := importResult{Trace: tr}
	if tr != nil {
		r.Source, r.Violations, r.Output, r.Inferred = sourceText(tr.Source), violations(tr), Output(tr), inferredRows(tr)
	}
	return importResultView(r)
}

// ImportHead is the part of importResultBlock above #lab-output: where the
// transcript came from (#imp-source) and its violations linked to their
// events (#imp-violations). The wasm renders it apart from the Output,
// which it patches block by block (wasm/worker/import.go).
func ImportHead(tr *trace.Trace) templ.Component {
	return importHeadView(importResult{Trace: tr, Source: sourceText(tr.Source), Violations: violations(tr), Inferred: inferredRows(tr)})
}

// RulesIndex is the rules reference's index page (rules/index.html): every
// rule with what it checks and the built-ins that pass and fail it
// (package rulebook builds them). root is the relative path to the site root ("../").
func RulesIndex(root string, entries []checks.RuleEntry) templ.Component {
	return rulesIndexView(root, entries)
}

// RulePage is one rule's reference page (rules/<id>/index.html): what it
// checks, its source, the correct built-in that passes it and the broken
// one that fails it (both found by running the built-ins), every built-in
// that reports it, and what undecided means for it. root is "../../".
func RulePage(root string, e checks.RuleEntry) templ.Component { return rulePageView(root, e) }

// DocPage is the site's page of one Markdown file of the repository's
// docs/ (docs/<name>/index.html, the index docs/index.html): title, for
// the window's title and the breadcrumb, and body, the file rendered to
// HTML by the caller, which vouches for it (package docsite renders it
// with raw HTML left out), drawn as it is inside the page's article.
// root is the relative path to the site root ("../../"); index is true
// for the docs' index, which has no breadcrumb back to itself.
func DocPage(root, title, body string, index bool) templ.Component {
	return docPageView(root, title, body, index)
}
