//go:build js && wasm

package page

import (
	"reflect"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// labOriginal is what a scenario page said of its own scenario before any
// edit: the h1, the document title, the "Try it:" label and the
// prerendered scenario (script#scenario-json), kept so that an edit that
// returns every value to the original's gives the page its words back.
type labOriginal struct {
	heading, title, try string
	scenario            *scenario.Scenario
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
