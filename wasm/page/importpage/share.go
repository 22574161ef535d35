//go:build js && wasm

package importpage

import (
	"syscall/js"

	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// Sharing from the import page. A share link carries a
// scenario (#s=, SCENARIO.md "Sharing"), not a transcript, and the page
// says so (#imp-share-help): "Copy link" copies the absolute link of the
// scenario that replays the transcript (a#imp-to-scenario's, redacted
// unless the reader unticked redaction), "Copy embed" an iframe snippet of
// that scenario in the playground (?embed=1). The transcript itself never
// leaves the browser.

// embedTitle names the replay in the embed snippet.
const embedTitle = "Replay of an imported MCP transcript"

// wireShare wires #imp-copy-link and #imp-copy-embed.
func (p *importPage) wireShare() {
	say := func(msg string) {
		if st := page.ByID(p.doc, "imp-share-status"); st.Truthy() {
			st.Set("textContent", msg)
		}
	}
	page.On(page.ByID(p.doc, "imp-copy-link"), "click", p.fail, func(js.Value) {
		p.scenarioLink(say, func(href string) { page.CopyText(absoluteURL(href, ""), js.Null(), p.fail, say) })
	})
	page.On(page.ByID(p.doc, "imp-copy-embed"), "click", p.fail, func(js.Value) {
		p.scenarioLink(say, func(href string) {
			page.CopyText(templates.NewEmbed(absoluteURL(href, "?embed=1"), embedTitle).HTML, js.Null(), p.fail, say)
		})
	})
}

// scenarioLink calls then with the href of the scenario that replays the
// transcript, asking the worker for it first when the trace is long
// (linkLater; api_import.go makes it: it costs seconds); when no scenario
// can be made, say hears why and then is not called.
func (p *importPage) scenarioLink(say func(string), then func(href string)) {
	if p.link.Call("getAttribute", "aria-disabled").String() == "true" {
		say("No scenario can be made of this transcript yet, so there is nothing to link to.")
		return
	}
	if !p.linkLater {
		then(p.link.Call("getAttribute", "href").String())
		return
	}
	say("Making the scenario of this transcript…")
	page.Ask(p.request(true, p.text()), p.fail, func(r page.Answer) {
		switch {
		case r.Stopped() > 0:
			page.ShowLabError(p.doc, "Making the scenario of this transcript was stopped: it took longer than the limit for one run in this page.")
		case r.Err != nil:
			page.ShowLabError(p.doc, "Cannot make a scenario of this transcript: "+r.Err.Message+".")
		default:
			href := page.TrimFragment(p.link.Call("getAttribute", "href").String()) + "#" + protocol.ReadImportReply(r.Object()).Fragment
			p.link.Set("href", href)
			then(href)
		}
	})
}

// absoluteURL resolves href against the page's address, with its query
// replaced by search when search is not "".
func absoluteURL(href, search string) string {
	u := js.Global().Get("URL").New(href, js.Global().Get("location").Get("href"))
	if search != "" {
		u.Set("search", search)
	}
	return u.Get("href").String()
}
