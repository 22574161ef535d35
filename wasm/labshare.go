//go:build js && wasm && !transcript && (ledger || !playground)

package main

import (
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// Sharing from a scenario page (issue 13, item 5): a page opened with a
// #s= link runs the linked scenario with its controls set to match; every
// edit rewrites the address bar to the edited scenario's #s= link (lab.apply,
// history.replaceState, no new history entry); "Copy link" and "Copy
// embed" copy the page's address and an iframe snippet of it (?embed=1).

// openLink replaces the page's scenario with the one a #s= fragment holds
// and sets every control to its value there. A link that cannot be read
// leaves the page's own scenario and says why in #lab-error (l.linkNote,
// kept there until the reader changes a control); a link whose scenario
// cannot run here (one with a ledger on a page without SQLite) is undone
// after its first run fails (lab.rerun: dropLink).
func (l *lab) openLink() {
	hash := js.Global().Get("location").Get("hash").String()
	if !strings.HasPrefix(hash, "#s=") {
		return
	}
	link, err := scenario.ParseLink(hash)
	if err == nil && link.Scenario == nil {
		return
	}
	var s *scenario.Scenario
	if err == nil {
		s, err = scenario.Decode(link.Scenario)
	}
	if err != nil {
		l.linkNote = "This link cannot be opened: " + err.Error() + ". The page shows its own scenario."
		showLabError(l.doc, l.linkNote)
		return
	}
	l.own = l.script.Get("textContent").String()
	l.script.Set("textContent", string(link.Scenario))
	l.edited = true
	l.setControls(s)
}

// dropLink undoes openLink after the linked scenario's first run failed
// with why: the page's own scenario and controls come back, and
// #lab-error says why the link did not run. False when no link was open.
func (l *lab) dropLink(why string) bool {
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
	l.setControls(s)
	l.linkNote = "This link cannot be run on this page: " + why + ". The page shows its own scenario."
	if strings.Contains(why, "SQLite ledger") {
		l.linkNote += " Open the link in the playground, which loads the build with SQLite: “Open in playground” does."
		l.ledgerLink = js.Global().Get("location").Get("hash").String()
	}
	return true
}

// setControls sets every control to its value in s.
func (l *lab) setControls(s *scenario.Scenario) {
	for _, g := range templates.NewControls(s, 0) {
		for _, c := range g.Controls {
			el := byID(l.doc, c.ID)
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
			if out := byID(l.doc, c.ID+"-value"); out.Truthy() {
				out.Set("textContent", c.Value+" "+out.Get("dataset").Get("unit").String())
			}
		}
	}
}

// wireShare wires "Copy link" and "Copy embed".
func (l *lab) wireShare() {
	say := func(msg string) {
		if st := byID(l.doc, "lab-share-status"); st.Truthy() {
			st.Set("textContent", msg)
		}
	}
	on(byID(l.doc, "lab-copy-link"), "click", l.fail, func(js.Value) {
		copyText(l.shareURL(""), js.Null(), l.fail, say)
	})
	on(byID(l.doc, "lab-copy-embed"), "click", l.fail, func(js.Value) {
		title := strings.TrimSuffix(l.doc.Get("title").String(), " · mcplab")
		copyText(templates.NewEmbed(l.shareURL("embed=1"), title).HTML, js.Null(), l.fail, say)
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
