//go:build js && wasm

package page

import (
	"reflect"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// labOriginal is what a scenario page said of its own scenario before any
// edit: the h1, the document title, the "Try it:" label and the
// prerendered scenario (script#scenario-json) and its "Explore this race"
// link (a#explore-this), kept so that an edit that returns every value to
// the original's gives the page its words back.
type labOriginal struct {
	heading, title, try, explore string
	scenario                     *scenario.Scenario
}

// keepOriginal records the page's own words and scenario before a #s=
// link or an edit replaces them (StartLab).
func (l *lab) keepOriginal() {
	o := &labOriginal{title: l.doc.Get("title").String()}
	if h1 := l.doc.Call("querySelector", "#lab h1"); h1.Truthy() {
		o.heading = h1.Get("textContent").String()
	}
	if s := l.doc.Call("querySelector", "#lab > p.try > strong"); s.Truthy() {
		o.try = s.Get("textContent").String()
	}
	if a := ByID(l.doc, "explore-this"); a.Truthy() {
		o.explore = a.Call("getAttribute", "href").String()
	}
	o.scenario, _ = scenario.Decode([]byte(l.script.Get("textContent").String()))
	l.original = o
}

// markEdited makes every word above the output agree with the run on
// screen (templates.EditedWords): once the scenario differs from the
// page's own, the h1 and the document title (which "Copy embed" names the
// iframe by) say it is edited and what this run shows (its headline,
// #verdict .verdict-text), a note under the h1 says so in full, and the
// summary and "Try it" are labelled as the original's. A page showing
// another scenario than its own (describeLink) has its own heading; an
// edit back to every original value gives the page its words back.
func (l *lab) markEdited() {
	l.markExplore()
	o := l.original
	if o == nil || l.undoLink != nil {
		return
	}
	h1 := l.doc.Call("querySelector", "#lab h1")
	if !h1.Truthy() {
		return
	}
	now, err := scenario.Decode([]byte(l.script.Get("textContent").String()))
	edited := l.edited && err == nil && o.scenario != nil && !reflect.DeepEqual(now, o.scenario)
	note := ByID(l.doc, "lab-edited-note")
	summary := l.doc.Call("querySelector", "#lab > p.summary:not(.link-note):not(.edited-note)")
	label := l.doc.Call("querySelector", "#lab > p.summary .original-label")
	try := l.doc.Call("querySelector", "#lab > p.try > strong")
	if !edited {
		setText(h1, o.heading)
		l.doc.Set("title", o.title)
		for _, el := range []js.Value{note, label} {
			if el.Truthy() {
				el.Call("remove")
			}
		}
		if try.Truthy() {
			setText(try, o.try)
		}
		return
	}
	headline := ""
	if v := l.doc.Call("querySelector", "#verdict .verdict-text"); v.Truthy() {
		headline = v.Get("textContent").String()
	}
	w := templates.NewEditedWords(o.heading, headline)
	setText(h1, w.Heading)
	if l.doc.Get("title").String() != w.Title {
		l.doc.Set("title", w.Title)
	}
	if !note.Truthy() {
		note = l.doc.Call("createElement", "p")
		note.Set("id", "lab-edited-note")
		note.Set("className", "summary edited-note")
		h1.Call("after", note)
	}
	setText(note, w.Note)
	if summary.Truthy() && !label.Truthy() {
		label = l.doc.Call("createElement", "strong")
		label.Set("className", "original-label")
		label.Set("textContent", w.Summary)
		summary.Call("prepend", label, " ")
	}
	if try.Truthy() {
		setText(try, w.Try)
	}
}

// setText sets el's text, only when it changes (a mutation observer sees
// text changes).
func setText(el js.Value, text string) {
	if el.Get("textContent").String() != text {
		el.Set("textContent", text)
	}
}

// markExplore makes the "Explore this race" panel explore the scenario on
// screen: once it differs from the page's own, the link opens the
// explorer on the edit (templates.ExploreHref, with the window it states
// or the one its timed steps suggest) and a note over the prerendered map
// says the map is the original's (templates.ExploreEditedNote); an edit
// with no window to explore hides the panel; the original's values give
// the panel its own link back.
func (l *lab) markExplore() {
	o := l.original
	a := ByID(l.doc, "explore-this")
	panel := ByID(l.doc, "explore-panel")
	if o == nil || o.explore == "" || !a.Truthy() || !panel.Truthy() {
		return
	}
	text := []byte(l.script.Get("textContent").String())
	now, err := scenario.Decode(text)
	edited := err == nil && o.scenario != nil && !reflect.DeepEqual(now, o.scenario)
	note := ByID(l.doc, "explore-edited-note")
	href := o.explore
	if edited {
		base, _, _ := strings.Cut(o.explore, "#")
		h, ok, err := templates.ExploreHref(base, text)
		if err != nil || !ok {
			panel.Set("hidden", true)
			return
		}
		href = h
	}
	panel.Set("hidden", false)
	if a.Call("getAttribute", "href").String() != href {
		a.Call("setAttribute", "href", href)
	}
	mapped := panel.Call("querySelector", ".explore-block").Truthy()
	switch {
	case edited && mapped && !note.Truthy():
		note = l.doc.Call("createElement", "p")
		note.Set("id", "explore-edited-note")
		note.Set("className", "edited-note")
		note.Set("textContent", templates.ExploreEditedNote)
		ByID(l.doc, "explore-panel-h").Call("after", note)
	case !edited && note.Truthy():
		note.Call("remove")
	}
}
