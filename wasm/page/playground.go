//go:build js && wasm

package page

import (
	"errors"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

// The playground (templates.PlaygroundPage): the editor's text is the
// state. Every edit, from the textarea or from a control, is sent to the
// worker, which decodes, runs and renders it (api_playground.go); a valid
// run replaces the output, an invalid one keeps the last good output,
// marked stale, and shows the located error (templates.LocateError).
// Either way the address bar becomes the text's #s= link (the text as
// written, worker.ShareOf; history.replaceState; while edits follow each other, once
// they pause: shareLater), and the share and embed fields with it.
//
// Where the code editor runs (site/editor/editor.js, CodeMirror 6), it
// replaces the textarea on screen but keeps it as the state: it copies
// every edit into the textarea's value with an "input" event, and hears
// from here through events on the textarea (tellEditor): the text was
// replaced (setEditor), the located error to underline (diagnose), the
// place to select (showErrorInEditor). Without it the textarea is the
// editor and nobody listens.

// Without a fragment the editor keeps the scenario the page was
// prerendered on (site build's playgroundDefault).

type playground struct {
	doc      js.Value
	editor   js.Value // textarea#pg-editor
	output   js.Value // #lab-output
	controls js.Value // fieldset#lab-controls
	errBox   js.Value // #pg-error
	errText  js.Value // #pg-error-text
	title    js.Value // #pg-title
	link     js.Value // input#pg-link
	embedSel js.Value // select#pg-embed-format
	embedBox js.Value // textarea#pg-embed
	pane     *Pane    // what #lab-output shows

	lastErr       templates.EditorError
	ctlErr        templates.EditorError // a control's value scenario.Edit refused (onControl), shown over every later answer until an edit applies
	embed         templates.Embed
	scenarioTitle string
	// fragment is the share fragment of the editor's text as last sent
	// (run or not: shareOf), "" when it has none; shareTitle its title
	// when it ran, else "" (templates.NewEmbed's neutral title).
	fragment   string
	shareTitle string
	// state is what the answers so far left on the page, which decides
	// the status line; status is the line last written (StatusLoading
	// until then), so an edit that changes nothing writes nothing.
	state      PlaygroundState
	status     Status
	shareTimer js.Value // the pending setTimeout id of shareLater, or null
	shareFn    js.Func  // its callback, made once
	// setPending is true while the code editor has not been told of the
	// textarea's new text (setEditor); setFn tells it, made once.
	setPending bool
	setFn      js.Func
}

// StartPlayground wires the playground found in doc (#playground).
func StartPlayground(doc js.Value) {
	p := &playground{
		doc:      doc,
		editor:   ByID(doc, "pg-editor"),
		output:   ByID(doc, "lab-output"),
		controls: ByID(doc, "lab-controls"),
		errBox:   ByID(doc, "pg-error"),
		errText:  ByID(doc, "pg-error-text"),
		title:    ByID(doc, "pg-title"),
		link:     ByID(doc, "pg-link"),
		embedSel: ByID(doc, "pg-embed-format"),
		embedBox: ByID(doc, "pg-embed"),
	}
	if !p.editor.Truthy() || !p.output.Truthy() || !p.controls.Truthy() {
		showFatal(doc, errors.New("the page has no #pg-editor, #lab-output or #lab-controls"))
		return
	}
	fail := p.fail
	p.pane = NewPane(p.output, fail, nil)
	On(p.editor, "input", fail, func(js.Value) {
		p.ctlErr = templates.EditorError{}
		p.update(true, p.sharedLater)
	})
	// One listener for every control, present and future: the panel is
	// re-rendered when the scenario's shape changes.
	On(p.controls, "input", fail, func(ev js.Value) { p.onControl(ev.Get("target")) })
	On(js.Global(), "hashchange", fail, func(js.Value) {
		if hash := js.Global().Get("location").Get("hash").String(); isShareHash(hash) {
			p.open(hash, nil)
		}
	})
	KeepAnchors(doc, p.output, fail)
	On(ByID(doc, "pg-error-goto"), "click", fail, func(js.Value) { p.showErrorInEditor() })
	On(ByID(doc, "pg-copy-link"), "click", fail, func(js.Value) {
		CopyText(p.link.Get("value").String(), p.link, fail, p.say)
	})
	On(ByID(doc, "pg-copy-embed"), "click", fail, func(js.Value) {
		CopyText(p.embedBox.Get("value").String(), p.embedBox, fail, p.say)
	})
	On(p.embedSel, "change", fail, func(js.Value) { p.showEmbed() })
	// The host page's sizing snippet names this lab's origin, so it works
	// as copied: the page's text holds it with templates.HostOrigin.
	if hs := ByID(doc, "pg-host-snippet"); hs.Truthy() {
		hs.Set("textContent", strings.Replace(hs.Get("textContent").String(), templates.HostOrigin, js.Global().Get("location").Get("origin").String(), 1))
	}
	p.wireOpen()

	p.open(js.Global().Get("location").Get("hash").String(), func() {
		Enable(doc, "pg-pick-select", "pg-pick-open", "pg-editor", "lab-controls", "pg-copy-link", "pg-download", "pg-file", "pg-embed-format", "pg-copy-embed")
		p.state = p.state.Wire()
		p.showLive()
		doc.Get("documentElement").Get("dataset").Set("ready", "1")
	})
}

// open loads what a fragment names into the editor: "#example=NAME", a
// "#s=..." share link, or nothing (the prerendered default), and runs it;
// then (may be nil) follows the answer. A bad link keeps the editor as it
// is and says why; the page stays usable.
func (p *playground) open(hash string, then func()) {
	defer bridge.Recover(p.fail)
	ShowLabError(p.doc, "")
	after := func(bool) {
		if then != nil {
			then()
		}
	}
	if hash != "" && hash != "#" {
		text, err := linkText(hash)
		if err != nil {
			p.openBroken(err, after)
			return
		}
		p.setEditor(text)
		// The picker shows the built-in the link opened, or none: a
		// scenario of the link's own is not the first built-in.
		p.pick(builtinOf(hash, text))
	}
	first := p.scenarioTitle == ""
	if first && hash != "" && hash != "#" {
		p.state = p.state.Nothing() // unless it runs (apply)
	} else {
		p.state.Output = OutputRun
	}
	p.update(true, func(ok bool) {
		if !ok && first {
			// The link's scenario is invalid, or valid but too large to
			// run (past an engine bound), and nothing has run: the title
			// is not the default's, and (but for the worker's own
			// failure) neither are the output and the controls: the
			// prerendered default's would look like the link's run.
			switch {
			case p.state.Worker == TroubleDown:
				p.title.Set("textContent", workerLinkTitle)
			case p.state.Editor == SaidBound:
				p.title.Set("textContent", boundLinkTitle)
				p.showNothing(p.errText.Get("textContent").String())
			default:
				p.title.Set("textContent", invalidLinkTitle)
				p.showNothing(p.errText.Get("textContent").String())
			}
		}
		p.shareNow()
		after(ok)
	})
}

// pick shows the built-in scenario named name in the picker
// (#pg-pick-select), or, for a name it does not list ("" or a "#s=..."
// fragment), its placeholder "None (a scenario of your own)", so the
// picker never names a built-in the editor does not hold.
func (p *playground) pick(name string) {
	sel := ByID(p.doc, "pg-pick-select")
	if !sel.Truthy() {
		return
	}
	sel.Set("value", name)
	if sel.Get("selectedIndex").Int() < 0 {
		sel.Set("value", "")
	}
}

// The playground's title (#pg-title) when a link opened nothing that ran:
// neutral, never the prerendered default scenario's name, which would
// stand over the error as if the link had opened it.
const (
	brokenLinkTitle  = "This link cannot be opened"
	invalidLinkTitle = "The linked scenario is not valid"
	boundLinkTitle   = "The linked scenario is too large to run"
	workerLinkTitle  = "The simulator could not run the linked scenario"
)

// setEditor replaces the editor's text and tells the code editor, if the
// page has one (site/editor/editor.js: "mcplab-set"), to show it, in a
// task of its own: CodeMirror's replacement of its document reads the
// page's selection, which lays the page out, and with the run's request
// in the same task a share link of the heaviest herd was one task of up
// to 62 ms of the page's CPU, past a task's 50 ms. The textarea holds the
// text at once; any other message to the code editor (tellEditor) is
// sent after the text it refers to.
func (p *playground) setEditor(text string) {
	p.editor.Set("value", text)
	if p.setPending {
		return
	}
	p.setPending = true
	if p.setFn.IsUndefined() {
		p.setFn = js.FuncOf(func(js.Value, []js.Value) any {
			defer bridge.Recover(p.fail)
			p.flushEditor()
			return nil
		})
	}
	js.Global().Call("setTimeout", p.setFn, 0)
}

// flushEditor tells the code editor of the textarea's text now, if
// setEditor has not yet.
func (p *playground) flushEditor() {
	if p.setPending {
		p.setPending = false
		p.dispatchToEditor("mcplab-set", nil)
	}
}

// tellEditor dispatches a cancelable event named name, with detail, on the
// textarea, where the code editor (site/editor/editor.js) listens; it
// reports whether a listener cancelled it, i.e. the code editor took it.
// Without the code editor nobody listens and the textarea is the editor.
// The text setEditor put in the textarea reaches the code editor first.
func (p *playground) tellEditor(name string, detail any) bool {
	p.flushEditor()
	return p.dispatchToEditor(name, detail)
}

// dispatchToEditor is tellEditor without the flush.
func (p *playground) dispatchToEditor(name string, detail any) bool {
	ev := js.Global().Get("CustomEvent").New(name, map[string]any{"detail": detail, "cancelable": true})
	return !p.editor.Call("dispatchEvent", ev).Bool()
}

// diagnose shows e in the code editor, underlined at its place with its
// message (no mark when e has no place or is the zero EditorError).
func (p *playground) diagnose(e templates.EditorError, msg string) {
	list := []any{}
	if e.Line != 0 {
		list = append(list, map[string]any{"from": e.Start, "to": e.End, "message": msg})
	}
	p.tellEditor("mcplab-diagnostics", list)
}

// onControl applies one control's value to the editor's text
// (scenario.Edit) and re-runs it, keeping the controls as they are
// so a slider being dragged is not replaced under the pointer.
func (p *playground) onControl(el js.Value) {
	ds := el.Get("dataset")
	if !ds.Get("path").Truthy() {
		return
	}
	path, kind := ds.Get("path").String(), ds.Get("kind").String()
	value := el.Get("value").String()
	if out := ByID(p.doc, el.Get("id").String()+"-value"); out.Truthy() {
		out.Set("textContent", value+" "+out.Get("dataset").Get("unit").String())
	}
	next, err := scenario.Edit([]byte(p.editor.Get("value").String()), path, kind, value, el.Get("checked").Truthy())
	if err != nil {
		// A value the control's kind refuses (7.5 ms), or JSON the
		// controls cannot edit; said again over the answer of a run
		// still under way (apply), which would otherwise clear it and
		// look like the value was taken (7.5 would seem to run as 7).
		p.ctlErr = templates.EditorError{Message: "The controls cannot edit the JSON until it is valid again: " + err.Error()}
		if errors.Is(err, scenario.ErrValue) {
			p.ctlErr = templates.EditorError{Message: err.Error(), Path: path}
		}
		p.showError(p.ctlErr)
		return
	}
	p.ctlErr = templates.EditorError{}
	p.setEditor(string(next))
	p.update(false, p.sharedLater)
}

// sharedLater rewrites the link once the edits pause, whether the text
// ran or not: the link is what the editor holds.
func (p *playground) sharedLater(bool) { p.shareLater() }

// update sends the editor's text to the worker (wasm/worker's
// Playground) and shows the answer: on success the run (pane: the
// headline and charts at once, the tables after the next frame) and, when
// withControls, the control panel; on error it keeps the last good
// output, marked stale, and shows where the error is; a run stopped past
// its budget says so. then (may be nil) hears whether a run is on screen;
// it is not called when a newer edit replaced this one before it ran.
func (p *playground) update(withControls bool, then func(ok bool)) {
	req := protocol.PlaygroundRequest{Text: p.editor.Get("value").String(), Controls: withControls}
	Ask(req.Fields(), p.fail, func(r Answer) {
		reply := protocol.ReadPlaygroundReply(r.Object())
		ok := p.apply(r, reply)
		if !ok {
			// The link is the editor's text though it did not run: the
			// worker's reply carries it, else (stopped, the worker down)
			// it is made here; none while the page reloads into
			// ledger.wasm.
			p.fragment, p.shareTitle = reply.Fragment, ""
			if p.fragment == "" && (reply.Err == nil || reply.Err.Kind != protocol.KindNoLedger) {
				p.fragment = worker.ShareOf([]byte(req.Text))
			}
		}
		if then != nil {
			then(ok)
		}
	})
}

// apply shows one answer of the worker; false when it holds no run.
func (p *playground) apply(r Answer, reply protocol.PlaygroundReply) bool {
	if e := reply.Err; e != nil {
		p.showFailure(e, reply.Canon)
		return false
	}
	prev := p.state
	p.state = p.state.Ran()
	start := bridge.Now()
	p.pane.Show(ReadOutput(r.Get("out")))
	if panel := r.Get("controls"); panel.Type() == js.TypeString {
		p.controls.Set("innerHTML", panel)
	}
	ds := p.output.Get("dataset")
	ds.Set("renderMs", strconv.FormatFloat(r.Get("ms").Float(), 'f', 1, 64))
	ds.Set("applyMs", strconv.FormatFloat(bridge.Now()-start, 'f', 1, 64))
	ds.Delete("stale")
	ds.Delete("stopped")
	if prev.Editor != SaidNothing {
		p.clearError() // only when one is shown: no message to the editor per edit
	}
	p.showLive()
	if p.ctlErr.Message != "" {
		p.showError(p.ctlErr) // a control's refused value, until an edit applies
	}
	if prev.Worker == TroubleStopped { // the stopped message goes; a broken link's stays
		ShowLabError(p.doc, "")
	}

	p.scenarioTitle = reply.Title
	if p.scenarioTitle == "" {
		p.scenarioTitle = "Untitled scenario"
	}
	p.title.Set("textContent", p.scenarioTitle) // text, never markup
	p.fragment, p.shareTitle = reply.Fragment, p.scenarioTitle
	return true
}

// showFailure shows an answer's error by its kind: a run stopped past its
// budget or the worker's failure in #lab-error, the reload into
// ledger.wasm (with canon, the scenario's canonical JSON), a bound or a
// located error under the editor.
func (p *playground) showFailure(e *protocol.Error, canon string) {
	switch {
	case e.Kind == protocol.KindWorkerStopped && e.BudgetMs > 0:
		ShowLabError(p.doc, StoppedText(e.BudgetMs))
		p.state = p.state.Stopped()
		p.output.Get("dataset").Set("stale", "1")
		p.output.Get("dataset").Set("stopped", "1")
	case e.Kind == protocol.KindWorkerStopped:
		// Not the scenario's fault: nothing in the editor is marked.
		p.state = p.state.WorkerFailed()
		ShowLabError(p.doc, workerText(e.Message))
		p.output.Get("dataset").Set("stale", "1")
		p.showLive()
	case e.Kind == protocol.KindNoLedger && switchToLedger([]byte(canon)):
	default:
		if text, ok := boundText(e); ok {
			p.showBound(text)
		} else {
			p.showError(editorError(e))
		}
	}
}

// editorError is e as templates.EditorError, for the editor's marks.
func editorError(e *protocol.Error) templates.EditorError {
	return templates.EditorError{Message: e.Message, Path: e.Place.Path, Line: e.Place.Line, Col: e.Place.Col, Start: e.Place.Start, End: e.Place.End}
}

func (p *playground) showError(e templates.EditorError) {
	p.lastErr, p.state = e, p.state.Invalid()
	msg := e.Message
	if w := e.Where(); w != "" && !strings.Contains(msg, w) {
		msg = w + ": " + msg // a syntax error names its place already
	}
	p.errText.Set("textContent", msg+"."+p.outputNote(" The output shows the last valid run."))
	p.diagnose(e, msg)
	p.errBox.Set("hidden", false)
	ByID(p.doc, "pg-error-goto").Set("hidden", e.Line == 0)
	p.editor.Call("setAttribute", "aria-invalid", "true")
	p.output.Get("dataset").Set("stale", "1")
	p.showLive()
	p.markControl(e.Path)
}

// showBound says text (boundText: the scenario is valid, but its run went
// past one of the engine's bounds, named with its number, and what to
// change) where an edit's error would be, under the editor. The last run
// that finished stays on screen, marked stale; nothing in the editor or
// the controls is marked invalid, and #lab-status says the scenario is
// valid (showLive).
func (p *playground) showBound(text string) {
	p.clearError()
	p.state = p.state.Bound()
	p.errText.Set("textContent", strings.TrimSuffix(text, lastFinishedNote)+p.outputNote(lastFinishedNote))
	p.errBox.Set("hidden", false)
	ByID(p.doc, "pg-error-goto").Set("hidden", true)
	p.output.Get("dataset").Set("stale", "1")
	p.showLive()
}

// nothingRanNote ends a message while no run is on screen (p.empty).
const nothingRanNote = " Nothing has run yet."

// outputNote is note (what the output keeps: the last run) or, while no
// run is on screen, nothingRanNote.
func (p *playground) outputNote(note string) string {
	if p.state.Output == OutputNothing {
		return nothingRanNote
	}
	return note
}

// showNothing takes the prerendered default off the page when a link's
// first run did not run, or the link could not be opened (open):
// #lab-output (not faded) says that nothing has run and why (the message
// under the editor or, for a damaged link, in #lab-error), and the
// control panel, the default's, waits for a run; apply draws both once
// one runs.
func (p *playground) showNothing(why string) {
	p.pane.cancelLater()
	box := p.doc.Call("createElement", "div")
	box.Set("id", "pg-nothing")
	box.Set("className", "lab-error")
	strong := p.doc.Call("createElement", "strong")
	strong.Set("textContent", strings.TrimSpace(nothingRanNote))
	why = strings.TrimSuffix(why, nothingRanNote)
	if why != "" && why[0] >= 'a' && why[0] <= 'z' { // "line 2, column 13: ..." starts a sentence here
		why = string(why[0]-'a'+'A') + why[1:]
	}
	box.Call("append", strong, " "+why)
	p.output.Call("replaceChildren", box)
	p.output.Get("dataset").Delete("stale")
	p.output.Get("dataset").Delete("pending")
	help := p.doc.Call("createElement", "p")
	help.Set("className", "help")
	help.Set("textContent", "The controls appear once the scenario runs.")
	p.controls.Call("replaceChildren", help)
}

func (p *playground) clearError() {
	p.lastErr, p.state.Editor = templates.EditorError{}, SaidNothing
	p.errBox.Set("hidden", true)
	p.errText.Set("textContent", "")
	p.editor.Call("removeAttribute", "aria-invalid")
	p.diagnose(templates.EditorError{}, "")
	p.markControl("")
}

// markControl flags the control that edits path (aria-invalid), and clears
// the flag on every other.
func (p *playground) markControl(path string) {
	old := p.controls.Call("querySelectorAll", "[aria-invalid]")
	for i := 0; i < old.Length(); i++ {
		old.Index(i).Call("removeAttribute", "aria-invalid")
	}
	if path == "" {
		return
	}
	els := p.controls.Call("querySelectorAll", "[data-path]")
	for i := 0; i < els.Length(); i++ {
		if el := els.Index(i); el.Get("dataset").Get("path").String() == path {
			el.Call("setAttribute", "aria-invalid", "true")
		}
	}
}

// showErrorInEditor selects the erroneous value in the editor (a caret
// where something is missing, as a comma) and scrolls it into view.
func (p *playground) showErrorInEditor() {
	e := p.lastErr
	if e.Line == 0 {
		return
	}
	if p.tellEditor("mcplab-reveal", map[string]any{"from": e.Start, "to": e.End}) {
		return // the code editor selected it
	}
	p.editor.Call("focus")
	p.editor.Call("setSelectionRange", e.Start, e.End)
	lh := js.Global().Call("getComputedStyle", p.editor).Get("lineHeight").String()
	// "18px", or "normal" (then the default).
	px, err := strconv.ParseFloat(strings.TrimSuffix(lh, "px"), 64)
	if err != nil || px <= 0 {
		px = 18
	}
	p.editor.Set("scrollTop", float64(max(e.Line-4, 0))*px)
}

// say writes text in #lab-status; the next change of status writes over
// it.
func (p *playground) say(text string) {
	p.status = StatusLoading
	SetStatus(p.doc, "live", text)
}

// showLive says in #lab-status whether edits re-run (PlaygroundState's
// Status), when that changed since it last said it. Before the page is
// wired it says nothing: the loading status stands.
func (p *playground) showLive() {
	st := p.state.Status()
	if st == p.status {
		return
	}
	p.status = st
	SetStatus(p.doc, st.State(), st.Text())
}

// fail shows an internal error (a recovered panic); the page lives on.
func (p *playground) fail(err error) {
	ShowLabError(p.doc, "Simulator error: "+err.Error()+". The page still works; the last valid run is shown.")
}

// wireOpen wires the ways to open another scenario: the built-in picker,
// the download of the editor's text and the file chooser.
func (p *playground) wireOpen() {
	doc, fail := p.doc, p.fail
	// The picker (#pg-pick): choosing a built-in, or Open (or Enter),
	// follows its link: #example=NAME, a new history entry whose
	// hashchange opens it in place (Back returns to the scenario left),
	// or ?ledger=1#example=NAME, a reload with ledger.wasm, when it needs
	// the SQLite build this binary lacks.
	sel := ByID(doc, "pg-pick-select")
	picked := func(ev js.Value) {
		ev.Call("preventDefault")
		i := sel.Get("selectedIndex").Int()
		if i < 0 {
			return
		}
		href := sel.Get("options").Index(i).Get("dataset").Get("href").String()
		if strings.HasPrefix(href, "?") && ledgerBuild() {
			href = href[strings.IndexByte(href, '#'):] // this build runs it
		}
		if href != "" && href != js.Global().Get("location").Get("hash").String() {
			js.Global().Get("location").Call("assign", href)
		}
	}
	On(sel, "change", fail, picked)
	On(ByID(doc, "pg-pick"), "submit", fail, picked)
	On(ByID(doc, "pg-download"), "click", fail, func(js.Value) {
		download(doc, slug(p.scenarioTitle)+".json", "application/json", p.editor.Get("value").String())
	})
	file := ByID(doc, "pg-file")
	On(file, "change", fail, func(js.Value) {
		ReadFile(file.Get("files"), scenario.MaxBytes, fail, func(name, text string) {
			p.setEditor(text)
			p.pick("")
			file.Set("value", "")
			p.update(true, func(ok bool) {
				p.shareNow()
				if ok {
					p.say("Opened " + name + ".")
				}
			})
		}, func(msg string) { ShowLabError(doc, msg) })
	})

}

// openBroken handles a link that cannot be opened (err): the address bar
// keeps it, so it can be reloaded and inspected; the editor keeps what it
// shows; then after hears whether a run is on screen.
func (p *playground) openBroken(err error, after func(bool)) {
	// Leave the address bar as it is, so the broken link can be
	// reloaded and inspected; the editor keeps what it shows.
	// An iframe has no editor or address bar to speak of.
	embed := p.doc.Get("documentElement").Get("dataset").Get("embed").Truthy()
	msg := func(shown string) string {
		if embed {
			return "This link cannot be opened: " + err.Error() + ". Showing " + shown + " instead."
		}
		return "This link cannot be opened: " + err.Error() + ". The editor shows " + shown + "; the address bar keeps the broken link until you edit."
	}
	if p.scenarioTitle == "" {
		// Nothing has run: the output and controls on screen are
		// the prerendered default's, which would look like the
		// link's run. None runs; the page says why (README: a
		// damaged link shows no run, never the default's output).
		m := msg("the default scenario, “" + p.title.Get("textContent").String() + "”")
		// The output says nothing ran and points at the message,
		// which it does not repeat; an embed shows it whole.
		why := "The link cannot be opened (the message above says why)."
		if embed {
			m = "This link cannot be opened: " + err.Error() + "."
			why = m
		}
		p.title.Set("textContent", brokenLinkTitle)
		p.state = p.state.Nothing()
		ShowLabError(p.doc, m)
		p.showNothing(why)
		after(false)
		return
	}
	p.update(true, func(ok bool) {
		// The page was asked for something else: its title says
		// so, not the name of the scenario that runs.
		p.title.Set("textContent", brokenLinkTitle)
		ShowLabError(p.doc, msg("the scenario that was already there"))
		after(ok)
	})
}
