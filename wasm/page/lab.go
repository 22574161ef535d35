//go:build js && wasm

package page

import (
	"errors"
	"strconv"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// The scenario page (templates.ScenarioPage, a #lab element): it wires
// every [data-path] control: on input or change it applies the control's
// value to the scenario JSON held in script#scenario-json
// (scenario.Edit, which encodes it by data-kind and calls
// scenario.SetPath or scenario.DeletePath), asks the worker to run and
// render it (api.go's serveLab), and shows templates.Output in #lab-output
// block by block (output.go: the headline and charts at once, the tables
// after the next frame, only what changed). An invalid scenario keeps the
// last good render and shows the located error in #lab-error; so does a
// run stopped past its budget, saying so. Its first run of its own
// scenario is not re-rendered: the page shows it prerendered, so the
// worker only runs it and the pane adopts what is on screen (adopt). After
// that first run it enables the controls and sets <html data-ready="1">
// ("error" if the run failed), and keeps the page's "Open in playground" and "Review
// this operation" links pointing at the edited scenario (once the tables
// are drawn too).

// lab is the live state of a scenario page.
type lab struct {
	doc      js.Value
	root     js.Value // <html>
	script   js.Value // script#scenario-json: the current scenario
	output   js.Value // #lab-output
	errorBox js.Value // #lab-error
	pane     *Pane    // what #lab-output shows
	fragment string   // the share fragment of the run on screen
	// edited is true once the scenario differs from the page's own (an
	// edit, or a #s= link opened): from then on every run rewrites the
	// address bar to its #s= link (history.replaceState).
	edited bool
	// own is the page's own scenario while a #s= link replaces it and has
	// not run yet ("" otherwise); linkNote is what #lab-error says about
	// the link (it could not be read, or not run here) until the reader
	// changes a control.
	own, linkNote string
	// ctlErr is what #lab-error says about a control's value that
	// scenario.Edit refused (onChange), over every later answer until the
	// next change: "" when the last change applied.
	ctlErr string
	// ledgerLink is the #s= fragment of a link whose scenario needs the
	// SQLite build (dropLink), which "Open in playground" opens there
	// (?ledger=1) until the reader changes a control; "" otherwise.
	ledgerLink string
	// undoLink gives the page back its own heading, summary and controls
	// after describeLink replaced them (nil when it did not).
	undoLink func()
	// playHref is "Open in playground"'s address as prerendered, without
	// its fragment.
	playHref string
	// renderFirst is true once the page's output turned out not to be
	// the prerendered one it could adopt: first runs render it whole.
	renderFirst bool
	// original is what the page said of its own scenario before any edit
	// (keepOriginal), nil until StartLab records it.
	original *labOriginal
}

// StartLab wires the scenario page found in doc (#lab).
func StartLab(doc js.Value) {
	l := &lab{
		doc:      doc,
		root:     doc.Get("documentElement"),
		script:   ByID(doc, "scenario-json"),
		output:   ByID(doc, "lab-output"),
		errorBox: ByID(doc, "lab-error"),
	}
	if !l.script.Truthy() || !l.output.Truthy() {
		l.fail(errors.New("the page has no script#scenario-json or #lab-output"))
		return
	}
	l.pane = NewPane(l.output, l.fail, l.settled)
	l.keepOriginal()
	l.openLink(func() {
		l.wireShare()
		KeepAnchors(doc, l.output, l.fail)
		l.wireControls(doc)
		l.rerun(true)
	})
}

// wireControls wires every [data-path] control under root to onChange.
func (l *lab) wireControls(root js.Value) {
	controls := root.Call("querySelectorAll", "[data-path]")
	for i := 0; i < controls.Length(); i++ {
		el := controls.Index(i)
		event := "change"
		if t := el.Get("type").String(); t == "range" || t == "number" {
			event = "input"
		}
		On(el, event, l.fail, func(js.Value) { l.onChange(el) })
	}
}

// onChange applies one control's value to the scenario and re-runs it.
func (l *lab) onChange(el js.Value) {
	ds := el.Get("dataset")
	path, kind := ds.Get("path").String(), ds.Get("kind").String()
	value := el.Get("value").String()
	if out := ByID(l.doc, el.Get("id").String()+"-value"); out.Truthy() {
		out.Set("textContent", value+" "+out.Get("dataset").Get("unit").String())
	}
	l.linkNote, l.ledgerLink, l.ctlErr = "", "", ""
	current := []byte(l.script.Get("textContent").String())
	next, err := scenario.Edit(current, path, kind, value, el.Get("checked").Truthy())
	if err != nil {
		l.ctlErr = "Invalid value: " + err.Error() + ". The output shows the last valid run."
		l.showError(l.ctlErr)
		return
	}
	l.script.Set("textContent", string(next))
	l.edited = true
	l.rerun(false)
}

// rerun asks the worker to run the scenario (the text of
// script#scenario-json) and shows the answer, which comes in two steps
// (api.go's serveLab): the headline and charts, drawn at once, then the
// tables, drawn after the next frame (pane). On an error or a stopped run
// it keeps the last good render, marks it stale and says why.
// data-render-ms on #lab-output is what the worker spent on the first
// step; data-apply-ms what showing it on the page cost (pane sets
// data-later-ms for the tables). The request names the timeline view on
// screen, once the pane knows it, so the worker renders only that one in
// the first step. first starts the page, once the whole run is there.
func (l *lab) rerun(first bool) {
	req := protocol.LabRequest{Text: l.script.Get("textContent").String()}
	req.Shown, req.ShownKnown = l.pane.shownView("timeline")
	// The page shows this scenario's run, prerendered: the worker need
	// only run it (protocol.LabAdopt).
	req.Adopt = first && !l.edited && !l.renderFirst
	Ask(req.Fields(), l.fail, func(r Answer) {
		if r.More {
			l.apply(r)
			return
		}
		var ok bool
		if a, isAdopt := protocol.ReadLabAdopt(r.Object()); req.Adopt && isAdopt {
			if !l.adopt(r, a) {
				l.renderFirst = true // the output on screen is not the prerendered one
				l.rerun(true)
				return
			}
			ok = true
		} else {
			ok = l.finish(r)
		}
		if !first {
			return
		}
		if !ok {
			l.failed(r)
			return
		}
		l.own = ""
		if fs := ByID(l.doc, "lab-controls"); fs.Truthy() {
			fs.Set("disabled", false)
		}
		Enable(l.doc, "lab-copy-link", "lab-copy-embed")
		SetStatus(l.doc, "live", "Live: every change re-runs the scenario in your browser, off the page's thread.")
		markReady(l.doc, l.fail)
	})
}

// failed handles a first run that did not run (r): a link's scenario that
// cannot run here gives the page its own back (dropLink) and runs it;
// else the page is marked failed.
func (l *lab) failed(r Answer) {
	if r.Err != nil && r.Stopped() == 0 && l.dropLink(r.Err) {
		l.rerun(true)
		return
	}
	l.own = ""
	l.root.Get("dataset").Set("ready", "error")
	SetStatus(l.doc, "error", "The scenario did not run; see the message below.")
}

// adopt takes the first answer for the page's own scenario, run but not
// rendered (api_lab.go's adoptReply): the pane keeps the prerendered
// output as that run's (pane.adopt). False when the output on screen is
// not the prerendered one (then the page asks for a full render).
func (l *lab) adopt(r Answer, a protocol.LabAdopt) bool {
	list := a.Keys
	l.fragment = a.Fragment
	ds := l.output.Get("dataset")
	ds.Set("renderMs", strconv.FormatFloat(r.Get("ms").Float(), 'f', 1, 64))
	if !l.pane.adopt(list) {
		return false
	}
	ShowLabError(l.doc, l.linkNote)
	return true
}

// apply shows one answer of the worker, or the first step of one; false
// when it holds no run.
func (l *lab) apply(r Answer) bool {
	if ms := r.Stopped(); ms > 0 {
		l.showError(StoppedText(ms))
		l.output.Get("dataset").Set("stopped", "1")
		return false
	}
	if r.Err != nil {
		if text, ok := boundText(r.Err); ok {
			l.showError(text) // valid, but past one of the engine's bounds
		} else if r.WorkerFailed() {
			l.showError(workerText(r.Err.Message))
		} else {
			l.showError("Invalid scenario: " + r.Err.Message + ". The output shows the last valid run.")
		}
		return false
	}
	start := bridge.Now()
	l.pane.Show(ReadOutput(r.Get("out")))
	ds := l.output.Get("dataset")
	ds.Set("renderMs", strconv.FormatFloat(r.Get("ms").Float(), 'f', 1, 64))
	ds.Set("applyMs", strconv.FormatFloat(bridge.Now()-start, 'f', 1, 64))
	ds.Delete("stale")
	ds.Delete("stopped")
	ShowLabError(l.doc, l.linkNote)
	if l.ctlErr != "" {
		// The answer of a run still under way when a control's value was
		// refused: that value is not in this run, and without the error
		// 7.5 ms would seem to run as 7.
		l.showError(l.ctlErr)
	}
	return true
}

// finish takes a request's last answer: the second step of a run (its
// fill and share fragment), or an answer in one step (apply: an error, a
// stopped run).
func (l *lab) finish(r Answer) bool {
	fill := r.Get("fill")
	if r.Err != nil || fill.Type() != js.TypeObject {
		return l.apply(r)
	}
	l.fragment = protocol.ReadLabFragment(r.Object())
	l.pane.fill(fill)
	return true
}

// settled runs once the whole run is on screen: once edited, it rewrites
// the address bar to the run's #s= link (history.replaceState, which costs
// about a millisecond, so it waits for the tables rather than delay the
// picture); it points "Open in playground" at the edited scenario, and
// "Review this operation" (when the scenario has a call) once edited at
// the live review page on it (its data-edited, review/ under the site
// root, + "#s=...": the review's first call); unedited, that link keeps
// its prerendered review.
func (l *lab) settled() {
	if l.fragment == "" {
		return
	}
	if l.edited {
		replaceFragment(l.fragment)
	}
	l.markEdited()
	if link := ByID(l.doc, "open-playground"); link.Truthy() {
		if l.playHref == "" {
			l.playHref = TrimFragment(link.Call("getAttribute", "href").String())
		}
		if l.ledgerLink != "" {
			u := js.Global().Get("URL").New(l.playHref, js.Global().Get("location").Get("href"))
			u.Get("searchParams").Call("set", "ledger", "1")
			u.Set("hash", l.ledgerLink)
			link.Set("href", u.Call("toString"))
		} else {
			link.Set("href", l.playHref+"#"+l.fragment)
		}
	}
	if link := ByID(l.doc, "review-operation"); link.Truthy() && l.edited {
		if base := link.Get("dataset").Get("edited"); base.Truthy() {
			link.Set("href", base.String()+"#"+l.fragment)
		}
	}
}

// showError shows msg in #lab-error and marks the output stale.
func (l *lab) showError(msg string) {
	ShowLabError(l.doc, msg)
	l.output.Get("dataset").Set("stale", "1")
}

// fail reports an internal error (a panic) without killing the page.
func (l *lab) fail(err error) {
	ShowLabError(l.doc, "Simulator error: "+err.Error())
}
