package templates

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/trace"
)

// Page is what ScenarioPage draws for one built-in scenario.
type Page struct {
	// Root is the relative path from the page to the site root, ending in
	// "/" (e.g. "../../" for s/<name>/index.html), so the site works under
	// any subpath.
	Root string
	// Name is the scenario's url-safe slug; Title and Summary describe it.
	Name, Title, Summary string
	// Scenario is the scenario JSON as authored. It is embedded in the page
	// (script#scenario-json) for the wasm to edit and re-run; defaults are
	// left for the engine to fill, so changing the protocol also changes
	// the default HTTP cancellation signal.
	Scenario json.RawMessage
	// Trace is the prerendered run of Scenario.
	Trace *trace.Trace
	// Wasm is the simulator binary this page loads, relative to Root
	// ("main.wasm" when empty; "ledger.wasm" for a scenario with a ledger).
	Wasm string
	// OEmbed is the absolute URL of the page's oEmbed JSON (NewOEmbed), or
	// "" when the site was built without a base URL to make it absolute.
	OEmbed string
	// Review is the href of the scenario's prerendered reliability review
	// page (ReviewPage), "" when it has none: the "Review this operation"
	// link then opens the live review page on the built-in scenario
	// (reviewHref).
	Review string
	// Explore is the href of the page's "Explore this race" link (the
	// explorer page with the scenario and its window), "" when no control
	// is a time; Exploration, when not nil, is the scenario's own window
	// explored, drawn on the page.
	Explore     string
	Exploration *ExploreOut
}

// reviewHref is the href of the page's "Review this operation" link (issue
// 16): Review when the scenario has a prerendered review page, else the
// live review page on the built-in scenario (Root+"review/#example=NAME"),
// which reviews its first call. It is "" when the scenario has no call to
// review (review.Calls is empty, or the page has no trace): the page then
// shows no link.
func (p Page) reviewHref() string {
	if p.Trace == nil || p.Trace.Scenario == nil || len(review.Calls(p.Trace.Scenario)) == 0 {
		return ""
	}
	if p.Review != "" {
		return p.Review
	}
	return p.Root + "review/#example=" + p.Name
}

// playgroundQuery is the query of the page's "Open in playground" link:
// "?ledger=1" when the scenario needs the SQLite build.
func (p Page) playgroundQuery() string {
	if p.Wasm == "ledger.wasm" {
		return "?ledger=1"
	}
	return ""
}

// wasm returns the page's simulator binary, relative to the site root.
func (p Page) wasm() string { return cmp(p.Wasm, "main.wasm") }

// controls returns the page's controls, derived from its trace's
// normalized scenario.
func (p Page) controls() []controlGroup {
	if p.Trace == nil {
		return nil
	}
	return NewControls(p.Trace.Scenario, p.Trace.EndMs)
}

// intro returns the page's introduction: the scenario's notes without
// their "Try:" part, or the summary when there are no notes.
func (p Page) intro() string {
	notes, _ := p.splitNotes()
	if notes == "" {
		return p.Summary
	}
	return notes
}

// hint returns what to try on this page: the "Try:" part of the scenario's
// notes when it has one, else tryHint of the scenario.
func (p Page) hint() string {
	if _, try := p.splitNotes(); try != "" {
		return try
	}
	if p.Trace == nil {
		return ""
	}
	return tryHint(p.Trace.Scenario)
}

// splitNotes splits the scenario's notes at "Try:" into what the scenario
// shows and what to try, with the first letter of the latter capitalized.
func (p Page) splitNotes() (notes, try string) {
	if p.Trace == nil || p.Trace.Scenario == nil {
		return "", ""
	}
	return SplitNotes(p.Trace.Scenario.Notes)
}

// SplitNotes splits a scenario's notes at "Try:" into what the scenario
// shows and what to try, with the first letter of the latter capitalized;
// a scenario page shows the first as its summary and the second as its
// "Try it" (the page of a linked scenario too, wasm/page/labshare.go).
func SplitNotes(notes string) (about, try string) {
	before, after, ok := strings.Cut(notes, "Try:")
	if !ok {
		return notes, ""
	}
	try = strings.TrimSpace(after)
	if r, n := utf8.DecodeRuneInString(try); n > 0 {
		try = string(unicode.ToUpper(r)) + try[n:]
	}
	return strings.TrimSpace(before), try
}

// firstHref is the link to the first entry, or "#" when there is none.
func firstHref(entries []IndexEntry) string {
	if len(entries) == 0 {
		return "#scenarios"
	}
	return entries[0].Href
}

// scenarioPage is ScenarioPage's view model: the page and what is derived
// from it.
type scenarioPage struct {
	Page
	Intro, Hint string
	Controls    []controlGroup
	Output      templ.Component
}
