//go:build js && wasm

package page

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

// Sharing from a scenario page: a page opened with a
// #s= link runs the linked scenario with its controls set to match (and,
// when the link holds another scenario, says so and takes that scenario's
// heading, notes and controls: describeLink); every
// edit rewrites the address bar to the edited scenario's #s= link (lab.apply,
// history.replaceState, no new history entry); "Copy link" and "Copy
// embed" copy the page's address and an iframe snippet of it (?embed=1).

// openLink replaces the page's scenario with the one a #s= fragment holds
// and sets every control to its value there; when the link holds another
// scenario than the page's (sameScenario), the page describes that one
// instead, heading, notes and controls (describeLink). #example=NAME is
// the link of a built-in scenario (loadExample reads it from its page):
// it opens as that scenario's #s= link does, or, naming the page's own,
// as no link. A link that cannot be read (or names no built-in scenario)
// leaves the page's own scenario and says why in #lab-error (l.linkNote,
// kept there until the reader changes a control); a link whose scenario
// cannot run here (one with a ledger on a page without SQLite) is undone
// after its first run fails (lab.rerun: dropLink). then runs once the
// link is open (at once, but for #example=, which waits for its page).
func (l *lab) openLink(then func()) {
	hash := js.Global().Get("location").Get("hash").String()
	if !strings.HasPrefix(hash, "#s=") && !strings.HasPrefix(hash, "#example=") {
		then()
		return
	}
	link, err := scenario.ParseLink(hash)
	if err == nil && link.Example != "" {
		l.loadExample(link.Example, func(data []byte, err error) {
			if err == nil && string(data) == l.script.Get("textContent").String() {
				data = nil // the page's own scenario: nothing to open
			}
			l.openData(data, err)
			then()
		})
		return
	}
	l.openData(link.Scenario, err)
	then()
}

// openData opens data, a link's scenario (nil: none), or says why the
// link could not be read (err, when not nil): openLink.
func (l *lab) openData(data []byte, err error) {
	if err == nil && data == nil {
		return
	}
	var s *scenario.Scenario
	if err == nil {
		s, err = scenario.Decode(data)
	}
	if err != nil {
		l.linkNote = "This link cannot be opened: " + err.Error() + ". The page shows its own scenario."
		ShowLabError(l.doc, l.linkNote)
		return
	}
	l.own = l.script.Get("textContent").String()
	l.script.Set("textContent", string(data))
	l.edited = true
	if own, err := scenario.Decode([]byte(l.own)); err == nil && !sameScenario(own, s) {
		err := l.describeLink(s, own)
		if err == nil {
			return
		}
		l.fail(err)
	}
	l.setControls(s)
}

// loadExample hands done the scenario of the built-in called name, read
// from its page (its script#scenario-json: this binary holds no built-in
// scenario), which the site's index links (s/NAME/ under the site root),
// or an error wrapping scenario.ErrShare when the index links no such
// page (only lowercase letters, digits and hyphens name one: the index is
// asked first, so an unknown name requests no missing page) or a page
// could not be loaded.
func (l *lab) loadExample(name string, done func([]byte, error)) {
	missing := fmt.Errorf("%w: no built-in scenario is called %q", scenario.ErrShare, name)
	if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		done(nil, missing)
		return
	}
	root := "../../"
	if a := l.doc.Call("querySelector", ".crumbs a"); a.Truthy() {
		root = a.Call("getAttribute", "href").String()
	}
	rootURL := js.Global().Get("URL").New(root, js.Global().Get("location").Get("href")).Get("href")
	unloaded := func(msg string) {
		done(nil, fmt.Errorf("%w: the built-in scenario %q could not be loaded (%s)", scenario.ErrShare, name, msg))
	}
	fetchPage(rootURL, l.fail, unloaded, func(index js.Value) {
		a := index.Call("querySelector", `a[href$="s/`+name+`/"]`)
		if !a.Truthy() {
			done(nil, missing)
			return
		}
		url := js.Global().Get("URL").New(a.Call("getAttribute", "href"), rootURL).Get("href")
		fetchPage(url, l.fail, unloaded, func(page js.Value) {
			script := page.Call("getElementById", "scenario-json")
			if !script.Truthy() {
				done(nil, missing)
				return
			}
			done([]byte(script.Get("textContent").String()), nil)
		})
	})
}

// fetchPage fetches the HTML page at url and hands it, parsed
// (DOMParser: its scripts do not run), to done, or why it could not to
// unloaded.
func fetchPage(url js.Value, fail func(error), unloaded func(string), done func(js.Value)) {
	then(js.Global().Call("fetch", url), fail, func(resp js.Value) {
		if !resp.Get("ok").Bool() {
			unloaded("HTTP " + resp.Get("status").Call("toString").String() + " for " + url.String())
			return
		}
		then(resp.Call("text"), fail, func(text js.Value) {
			done(js.Global().Get("DOMParser").New().Call("parseFromString", text, "text/html"))
		}, unloaded)
	}, unloaded)
}

// sameScenario reports whether linked is an edit of the page's own
// scenario that the page's heading and controls still describe: the same
// title and the same controls (ids, labels and kinds, in order; values
// and slider ranges may differ).
func sameScenario(own, linked *scenario.Scenario) bool {
	if own.Title != linked.Title {
		return false
	}
	a, b := templates.NewControls(own, 0), templates.NewControls(linked, 0)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || len(a[i].Controls) != len(b[i].Controls) {
			return false
		}
		for j, c := range a[i].Controls {
			d := b[i].Controls[j]
			if c.ID != d.ID || c.Label != d.Label || c.Kind != d.Kind {
				return false
			}
		}
	}
	return true
}

// describeLink makes the page describe the linked scenario s, which is
// another scenario than the page's own (sameScenario is false): the h1
// (and the document's title, which "Copy embed" uses) says s's title, or
// "Shared scenario (edited from “…”)" when s keeps the page's title but
// not its controls, or "Shared scenario" when s has none; a note under it
// (#lab-link-note) says the link holds another scenario than the page's
// (or an edited copy of it) and links to the page's own (its address without the fragment); s's
// notes, when they are not the page's, replace the summary and "Try it";
// and the control panel is rebuilt from s (templates.ControlPanel), so
// every label and slider range is s's (startLabPage then wires it).
// l.undoLink puts the page's own back (dropLink).
func (l *lab) describeLink(s, own *scenario.Scenario) error {
	fs := ByID(l.doc, "lab-controls")
	h1 := l.doc.Call("querySelector", "#lab h1")
	if !fs.Truthy() || !h1.Truthy() {
		return errors.New("the page has no #lab h1 or #lab-controls")
	}
	panel, err := worker.RenderHTML(templates.ControlPanel(templates.NewControls(s, 0)))
	if err != nil {
		return err
	}
	ownHeading, ownTitle := h1.Get("textContent").String(), l.doc.Get("title").String()
	heading, what := s.Title, "another scenario than its own"
	switch {
	case s.Title == "":
		heading = "Shared scenario"
	case s.Title == own.Title:
		heading = "Shared scenario (edited from “" + ownHeading + "”)"
		what = "an edited copy of its scenario, with other controls"
	}
	h1.Set("textContent", heading)
	l.doc.Set("title", heading+" · mcplab")

	added := l.linkNotes(s, own, ownHeading, what)
	var hidden []js.Value
	for _, sel := range []string{"#lab > p.summary", "#lab > p.try"} {
		if el := l.doc.Call("querySelector", sel); el.Truthy() {
			el.Set("hidden", true)
			hidden = append(hidden, el)
		}
	}
	args := make([]any, len(added))
	for i, el := range added {
		args[i] = el
	}
	h1.Call("after", args...)

	saved := l.doc.Call("createDocumentFragment")
	for fs.Get("firstChild").Truthy() {
		saved.Call("appendChild", fs.Get("firstChild"))
	}
	fs.Set("innerHTML", panel)
	l.undoLink = func() {
		h1.Set("textContent", ownHeading)
		l.doc.Set("title", ownTitle)
		for _, el := range added {
			el.Call("remove")
		}
		for _, el := range hidden {
			el.Set("hidden", false)
		}
		fs.Call("replaceChildren", saved)
		l.wireControls(fs)
	}
	return nil
}

// dropLink undoes openLink after the linked scenario's first run failed
// with why: the page's own scenario, heading and controls come back, and
// #lab-error says why the link did not run. False when no link was open.
func (l *lab) dropLink(e *protocol.Error) bool {
	why := e.Message
	if l.own == "" {
		return false
	}
	own := l.own
	l.own = ""
	s, err := scenario.Decode([]byte(own))
	if err != nil {
		return false
	}
	l.script.Set("textContent", own)
	l.edited = false
	if l.undoLink != nil {
		l.undoLink()
		l.undoLink = nil
	}
	l.setControls(s)
	l.linkNote = "This link cannot be run on this page: " + why + ". The page shows its own scenario."
	if e.Kind == protocol.KindNoLedger {
		l.linkNote += " Open the link in the playground, which loads the build with SQLite: “Open in playground” does."
		l.ledgerLink = js.Global().Get("location").Get("hash").String()
	}
	return true
}

// setControls sets every control to its value in s.
func (l *lab) setControls(s *scenario.Scenario) {
	for _, g := range templates.NewControls(s, 0) {
		for _, c := range g.Controls {
			el := ByID(l.doc, c.ID)
			if !el.Truthy() {
				continue
			}
			if el.Get("type").String() == "checkbox" {
				el.Set("checked", c.Checked)
				continue
			}
			if el.Get("type").String() == "range" && c.Max > int64(js.Global().Call("Number", el.Get("max")).Int()) {
				el.Set("max", c.Max)
			}
			el.Set("value", c.Value)
			if out := ByID(l.doc, c.ID+"-value"); out.Truthy() {
				out.Set("textContent", c.Value+" "+out.Get("dataset").Get("unit").String())
			}
		}
	}
}

// wireShare wires "Copy link" and "Copy embed".
func (l *lab) wireShare() {
	say := func(msg string) {
		if st := ByID(l.doc, "lab-share-status"); st.Truthy() {
			st.Set("textContent", msg)
		}
	}
	On(ByID(l.doc, "lab-copy-link"), "click", l.fail, func(js.Value) {
		CopyText(l.shareURL(""), js.Null(), l.fail, say)
	})
	On(ByID(l.doc, "lab-copy-embed"), "click", l.fail, func(js.Value) {
		title := strings.TrimSuffix(l.doc.Get("title").String(), " · mcplab")
		CopyText(templates.NewEmbed(l.shareURL("embed=1"), title).HTML, js.Null(), l.fail, say)
	})
}

// shareURL is the page's address with query (when not "") added to its
// search and, once edited, the run's #s= fragment.
func (l *lab) shareURL(query string) string {
	loc := js.Global().Get("location")
	search := loc.Get("search").String()
	if query != "" {
		if search == "" {
			search = "?" + query
		} else {
			search += "&" + query
		}
	}
	url := loc.Get("origin").String() + loc.Get("pathname").String() + search
	if l.edited && l.fragment != "" {
		url += "#" + l.fragment
	}
	return url
}

// linkNotes makes the paragraphs describeLink puts under the heading: the
// note that the link holds what (not the page's own, ownHeading), with a
// link back, and s's notes when they are not the page's.
func (l *lab) linkNotes(s, own *scenario.Scenario, ownHeading, what string) []js.Value {
	para := func(class, text string) js.Value {
		p := l.doc.Call("createElement", "p")
		p.Set("className", class)
		p.Set("textContent", text)
		return p
	}
	loc := js.Global().Get("location")
	back := l.doc.Call("createElement", "a")
	back.Set("href", loc.Get("pathname").String()+loc.Get("search").String())
	back.Set("textContent", "Open this page's own scenario")
	note := para("summary link-note", "This page was opened with a link to "+what+" (“"+ownHeading+"”): the heading, controls and output are the link's. ")
	note.Set("id", "lab-link-note")
	note.Call("append", back, ".")
	added := []js.Value{note}
	if s.Notes != own.Notes {
		about, try := templates.SplitNotes(s.Notes)
		if about != "" {
			added = append(added, para("summary", about))
		}
		if try != "" {
			p := para("try", " "+try)
			strong := l.doc.Call("createElement", "strong")
			strong.Set("textContent", "Try it:")
			p.Call("prepend", strong)
			added = append(added, p)
		}
	}
	return added
}
