//go:build js && wasm

// Package importpage is the transcript import page's controller
// (templates.ImportPage), over the page glue of package page: only
// import.wasm links it, and with it the transcript reader.
package importpage

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// The transcript import page (templates.ImportPage): the textarea's text
// and the side selector are the state. Every change sends the transcript
// to the worker, which imports it (transcript.Import: nothing is uploaded)
// and renders it (api_import.go); the page shows the answer in
// #imp-result as templates.ImportPage lays it out (templates.ImportHead,
// then #lab-output patched block by block by output.go's pane, the tables
// after the next frame), and points "Open as a scenario in the playground"
// at the scenario that reproduces it (transcript.ShareFragment), redacted
// unless the reader unticks the option. An invalid transcript, or one
// whose run was stopped past its budget, keeps the last good result,
// marked stale, and says why.

type importPage struct {
	doc    js.Value
	input  js.Value   // textarea#imp-input
	side   js.Value   // select#imp-side
	redact js.Value   // input#imp-redact
	result js.Value   // #imp-result
	link   js.Value   // a#imp-to-scenario
	pane   *page.Pane // #imp-result's #lab-output, once a result is shown
	head   string     // the digest of the ImportHead HTML on screen (api.go's htmlSum)
	gen    int        // counts the changes, so an answer to an older one is dropped
	window int        // the page of events shown (api_import.go's windowOf)
	pager  js.Value   // nav#imp-window, made by showPager, or undefined
	// linkLater is true when the scenario link is made when followed
	// (followLink): the trace is longer than one window.
	linkLater bool
	// big is a transcript of largeText characters or more, pasted or
	// loaded, kept out of the textarea (null when the textarea holds the
	// transcript), as a JavaScript string: it goes to the worker without
	// a copy into Go. placeholder is the textarea's own placeholder.
	big         js.Value
	placeholder string
	// example is true while the text is the built-in example (the page
	// opens with it; its button loads it), shown is true while the result
	// on screen is the example's: a transcript that fails to import then
	// takes the example's result away (clear) rather than leave it dimmed
	// behind the error, and keeps a result of the reader's own, dimmed
	// (templates.ImportFailedText).
	example, shown bool
	// fields are the other options (templates' importFields), by request key.
	fields map[string]js.Value
}

// largeText is the length (UTF-16 code units, 256 Ki) from which a pasted
// or loaded transcript is kept out of the textarea: the browser lays out
// every line of a textarea's text, and for 20,000 lines (2 MB) that alone
// holds the page for seconds, whatever the simulator does.
const largeText = 256 << 10

// text is the transcript, a JavaScript string: the large one kept out of
// the box, else the textarea's.
func (p *importPage) text() js.Value {
	if p.hasBig() {
		return p.big
	}
	return p.input.Get("value")
}

// setText puts a pasted or loaded transcript (a JavaScript string) where
// it belongs: in the textarea, or kept out of it when it is large
// (largeText), the textarea then empty and saying what it stands for.
func (p *importPage) setText(text js.Value) {
	if strOf(text).Length() < largeText {
		p.clearBig()
		p.input.Set("value", text)
		return
	}
	p.big = text
	p.input.Set("value", "")
	p.input.Set("placeholder", templates.ImportLoadedText(js.Global().Call("mcplabLines", text).Int(), strOf(text).Length()))
}

// hasBig reports whether a large transcript is kept out of the textarea.
// It asks the type, never Truthy: syscall/js's Truthy of a string copies
// the whole string into Go to compare it with "", and for a 20,000-line
// transcript that copy was the paste's longest task on the main thread.
func (p *importPage) hasBig() bool { return p.big.Type() == js.TypeString }

// blank reports whether text (a JavaScript string) holds only white space
// (String.prototype.trim's), asking JavaScript where its first other
// character is: trimmed, a 2 MB transcript was copied once more.
func blank(text js.Value) bool { return strOf(text).Call("search", nonSpace).Int() < 0 }

// nonSpace is the regular expression \S: a character that is not white
// space (as trim's).
var nonSpace = js.Global().Get("RegExp").New(`\S`)

// strOf is a JavaScript string as a String object, whose length and
// methods syscall/js can reach (it reaches none of a primitive's).
func strOf(s js.Value) js.Value { return js.Global().Get("Object").Invoke(s) }

// clearBig forgets the large transcript: the textarea holds it now.
func (p *importPage) clearBig() {
	if p.hasBig() {
		p.big = js.Null()
		p.input.Set("placeholder", p.placeholder)
	}
}

// StartImport wires the transcript import page found in doc (#import).
func StartImport(doc js.Value) {
	p := &importPage{
		doc:    doc,
		input:  page.ByID(doc, "imp-input"),
		side:   page.ByID(doc, "imp-side"),
		fields: map[string]js.Value{"observer": page.ByID(doc, "imp-observer"), "zone": page.ByID(doc, "imp-zone"), "latency": page.ByID(doc, "imp-latency"), "maxTimeout": page.ByID(doc, "imp-max-timeout")},
		redact: page.ByID(doc, "imp-redact"),
		result: page.ByID(doc, "imp-result"),
		link:   page.ByID(doc, "imp-to-scenario"),
		// The prerendered result is the example's, and so is the text.
		example: true,
		shown:   true,
	}
	if !p.input.Truthy() || !p.result.Truthy() {
		page.ShowFatal(doc, errors.New("the page has no #imp-input or #imp-result"))
		return
	}
	fail := p.fail
	p.placeholder = p.input.Get("placeholder").String()
	page.On(p.input, "input", fail, func(js.Value) {
		p.clearBig() // typed over the large transcript: the box holds it now
		p.example = false
		p.update(nil)
	})
	p.wirePaste()
	page.On(p.side, "change", fail, func(js.Value) { p.update(nil) })
	for _, f := range p.fields {
		if f.Truthy() {
			page.On(f, "change", fail, func(js.Value) { p.update(nil) })
		}
	}
	page.On(p.redact, "change", fail, func(js.Value) { p.update(nil) })
	// Drop a file on the textarea: read it here, never upload it.
	page.On(p.input, "dragover", fail, func(ev js.Value) { ev.Call("preventDefault") })
	page.On(p.input, "drop", fail, func(ev js.Value) {
		ev.Call("preventDefault")
		p.load(ev.Get("dataTransfer").Get("files"))
	})
	file := page.ByID(doc, "imp-file")
	page.On(file, "change", fail, func(js.Value) {
		p.load(file.Get("files"))
		file.Set("value", "")
	})
	page.On(page.ByID(doc, "imp-example"), "click", fail, func(js.Value) {
		if ex := page.ByID(doc, "transcript-example"); ex.Truthy() {
			p.setText(js.Global().Get("JSON").Call("parse", ex.Get("textContent")))
			p.example = true
			p.side.Set("value", "")
			for _, f := range p.fields {
				if f.Truthy() {
					f.Set("value", "")
				}
			}
			p.update(nil)
		}
	})
	page.KeepAnchors(doc, p.result, fail)
	page.On(p.link, "click", fail, p.followLink)
	p.wireShare()
	p.update(func(bool) {
		page.Enable(doc, "imp-input", "imp-side", "imp-observer", "imp-zone", "imp-latency", "imp-max-timeout", "imp-redact", "imp-file", "imp-example", "imp-copy-link", "imp-copy-embed")
		// The first update's own status (an empty box, an error) stands;
		// any other says the page is live.
		if st := page.ByID(doc, "lab-status"); !st.Truthy() || st.Get("dataset").Get("state").String() != "idle" && st.Get("dataset").Get("state").String() != "error" {
			page.SetStatus(doc, "live", importLive)
		}
		doc.Get("documentElement").Get("dataset").Set("ready", "1")
	})
}

// load reads a dropped or chosen file into the textarea and imports it.
func (p *importPage) load(files js.Value) {
	page.ReadFile(files, transcript.MaxBytes, p.fail, func(name, text string) {
		p.setText(js.ValueOf(text))
		p.example = false
		p.update(func(ok bool) {
			if ok {
				page.SetStatus(p.doc, "live", "Judged "+name+" in your browser.")
			}
		})
	}, func(msg string) { page.ShowLabError(p.doc, msg) })
}

// update sends the textarea's transcript to the worker and shows the
// answer; then (may be nil) hears whether a result is on screen, unless a
// newer change replaced this one.
func (p *importPage) update(then func(ok bool)) {
	p.gen++
	gen := p.gen
	text := p.text()
	if blank(text) {
		// An empty box is no error: the status says what to do, the
		// error box is hidden, the last result stays dimmed.
		page.ShowLabError(p.doc, "")
		p.result.Get("dataset").Set("stale", "1")
		page.SetStatus(p.doc, "idle", templates.ImportEmptyStatus)
		if then != nil {
			then(false)
		}
		return
	}
	example := p.example
	req := p.request(false, text)
	busy := strOf(text).Length() >= busyText
	if busy {
		p.judging(text)
	}
	page.Ask(req, p.fail, func(r page.Answer) {
		if gen != p.gen {
			return // the text changed since (emptied: nothing was asked)
		}
		if busy {
			p.judged()
		}
		ok := p.apply(r)
		if ok {
			p.shown = example
		}
		if then != nil {
			then(ok)
		}
	})
}

// apply shows one answer of the worker; false when it holds no result.
func (p *importPage) apply(r page.Answer) bool {
	switch {
	case r.Stopped() > 0:
		p.stale(page.StoppedText(r.Stopped()))
		return false
	case r.Err != nil:
		if p.shown {
			p.clear()
		}
		kept := p.result.Call("querySelector", "#lab-output").Truthy() // a result of the reader's own
		p.stale(templates.ImportFailedText(r.Err.Message, kept))
		page.SetStatus(p.doc, "error", templates.ImportFailedStatus)
		return false
	}
	page.SetStatus(p.doc, "live", importLive)
	reply := protocol.ReadImportReply(r.Object())
	out := p.output()
	// The head goes from the reply to the DOM as a JavaScript string,
	// never copied through Go; its digest says whether it changed.
	if sum := reply.HeadSum; sum != p.head {
		for prev := out.Get("previousSibling"); prev.Truthy(); prev = out.Get("previousSibling") {
			prev.Call("remove") // the pager too: showPager puts it back
		}
		out.Call("insertAdjacentHTML", "beforebegin", r.Get("head"))
		p.head = sum
	}
	p.showPager(out, reply.Window)
	p.pane.Show(page.ReadOutput(r.Get("out")))
	p.result.Get("dataset").Delete("stale")
	page.ShowLabError(p.doc, "")
	href := page.TrimFragment(p.link.Call("getAttribute", "href").String())
	p.linkLater = false
	switch frag := reply.Fragment; {
	case frag != "":
		p.link.Set("href", href+"#"+frag)
		p.link.Call("removeAttribute", "aria-disabled")
	case reply.Window.Count > 1:
		// A long trace: followLink asks for the link when it is followed.
		p.link.Set("href", href)
		p.link.Call("removeAttribute", "aria-disabled")
		p.linkLater = true
	default:
		p.link.Call("setAttribute", "aria-disabled", "true")
	}
	return true
}

// followLink makes the scenario link of a long trace (linkLater), asking
// the worker for it (scenarioLink), then follows it.
func (p *importPage) followLink(ev js.Value) {
	if !p.linkLater {
		return
	}
	ev.Call("preventDefault")
	say := func(msg string) { page.SetStatus(p.doc, "live", msg) }
	p.scenarioLink(say, func(href string) { js.Global().Get("location").Call("assign", href) })
}

// output is #imp-result's #lab-output (templates.ImportPage's), made
// when #imp-result holds none yet, with the pane that keeps it.
func (p *importPage) output() js.Value {
	out := p.result.Call("querySelector", "#lab-output")
	if !out.Truthy() {
		p.result.Set("textContent", "")
		out = p.doc.Call("createElement", "div")
		out.Set("id", "lab-output")
		out.Set("className", "lab-output")
		p.result.Call("appendChild", out)
		p.head, p.pane = "", nil
	}
	if p.pane == nil || !p.pane.El().Equal(out) {
		p.pane = page.NewPane(out, p.fail, nil)
	}
	return out
}

// showPager puts the pager of a long trace (win: api_import.go's windowOf)
// just before out, or takes it away when the trace fits in one window:
// "Events 501–1000 of 20000", and buttons for the pages before and after.
func (p *importPage) showPager(out js.Value, win protocol.Window) {
	count := win.Count
	if count <= 1 {
		if p.pager.Truthy() {
			p.pager.Call("remove")
		}
		return
	}
	if !p.pager.Truthy() {
		p.pager = p.doc.Call("createElement", "nav")
		p.pager.Set("id", "imp-window")
		p.pager.Call("setAttribute", "aria-label", "Pages of events")
		text := p.doc.Call("createElement", "span")
		text.Set("id", "imp-window-text")
		prev, next := p.doc.Call("createElement", "button"), p.doc.Call("createElement", "button")
		prev.Set("id", "imp-window-prev")
		next.Set("id", "imp-window-next")
		prev.Set("type", "button")
		next.Set("type", "button")
		prev.Set("textContent", "← Earlier events")
		next.Set("textContent", "Later events →")
		p.pager.Call("append", text, " ", prev, " ", next)
		page.On(prev, "click", p.fail, func(js.Value) { p.turn(-1) })
		page.On(next, "click", p.fail, func(js.Value) { p.turn(+1) })
	}
	index := win.Index
	p.window = index
	page.ByIDIn(p.pager, "imp-window-text").Set("textContent", fmt.Sprintf(
		"Events %d–%d of %d, page %d of %d: the timeline and the tables show %d events at a time; the checks judge them all.",
		win.First, win.Last, win.Total, index+1, count, win.Last-win.First+1))
	page.ByIDIn(p.pager, "imp-window-prev").Set("disabled", index == 0)
	page.ByIDIn(p.pager, "imp-window-next").Set("disabled", index == count-1)
	if !out.Get("previousSibling").Equal(p.pager) {
		out.Call("before", p.pager)
	}
}

// turn shows the page of events by pages after (or before) this one.
func (p *importPage) turn(by int) {
	p.window = max(0, p.window+by)
	p.update(nil)
}

// importLive is the import page's status while it waits for changes.
const importLive = "Live: the transcript is judged in your browser as you edit it, off the page's thread. Nothing is uploaded."

// busyText is the length (UTF-16 code units, 64 Ki: some 500 lines, a
// quarter of a second to judge) from which the page shows that it is
// judging (judging): below it the answer comes before anyone would see
// the result dim, and dimming it on every keystroke would flicker.
const busyText = 64 << 10

// judging marks the result on screen as not the answer to text (a
// JavaScript string) while the worker judges it: dimmed (data-stale, as
// a result that failed is) and aria-busy, the status saying "Judging
// 20,000 lines…" (8-11 s for 20,000 lines would otherwise show the
// previous verdict, bright, under the live status). judged undoes it when the
// answer comes; apply then shows the result, or keeps it stale and says why.
func (p *importPage) judging(text js.Value) {
	p.result.Get("dataset").Set("stale", "1")
	p.result.Call("setAttribute", "aria-busy", "true")
	page.SetStatus(p.doc, "busy", templates.ImportJudgingText(js.Global().Call("mcplabLines", text).Int()))
}

// judged ends judging: the answer has come.
func (p *importPage) judged() {
	p.result.Call("removeAttribute", "aria-busy")
	page.SetStatus(p.doc, "live", importLive)
}

// clear takes the result on screen away (the built-in example's, when a
// transcript of the reader's fails to import): no timeline, no checks, no
// scenario link, until a transcript imports; output makes the pane again.
func (p *importPage) clear() {
	p.result.Set("textContent", "")
	p.head, p.pane, p.pager = "", nil, js.Undefined()
	p.link.Call("setAttribute", "aria-disabled", "true")
	p.linkLater = false
	p.shown = false
}

func (p *importPage) stale(msg string) {
	page.ShowLabError(p.doc, msg)
	p.result.Get("dataset").Set("stale", "1")
}

// fail shows an internal error (a recovered panic); the page lives on.
func (p *importPage) fail(err error) {
	page.ShowLabError(p.doc, fmt.Sprintf("Simulator error: %v. The page still works.", err))
}

// request is the import request of the page's fields (protocol.ImportRequest),
// with text, the transcript, left a JavaScript string: it goes to the
// worker without a copy into Go. link asks for the scenario link only.
func (p *importPage) request(link bool, text js.Value) map[string]any {
	field := func(k string) string {
		if f := p.fields[k]; f.Truthy() {
			return f.Get("value").String()
		}
		return ""
	}
	req := protocol.ImportRequest{
		Side: p.side.Get("value").String(), Observer: field("observer"), Zone: field("zone"),
		Latency: field("latency"), MaxTimeout: field("maxTimeout"),
		Redact: p.redact.Get("checked").Truthy(), Window: p.window, Link: link,
	}
	f := req.Fields()
	f["text"] = text
	return f
}

// wirePaste keeps a large paste out of the textarea (setText), read in
// the next task.
func (p *importPage) wirePaste() {
	fail := p.fail
	// Read in
	// the next task: the paste's own task (the browser's copy of the
	// clipboard's text, 2 MB for 20,000 lines) and the request's (its copy
	// to the worker) were one task of 50-65 ms of the page's CPU, over a
	// task's 50 ms.
	var pasted js.Value
	readPaste := js.FuncOf(func(js.Value, []js.Value) any {
		defer bridge.Recover(fail)
		text := pasted
		pasted = js.Undefined()
		if text.Type() == js.TypeString {
			p.setText(text)
			p.example = false
			p.update(nil)
		}
		return nil
	})
	page.On(p.input, "paste", fail, func(ev js.Value) {
		data := ev.Get("clipboardData")
		if !data.Truthy() {
			return
		}
		if text := data.Call("getData", "text/plain"); strOf(text).Length() >= largeText {
			ev.Call("preventDefault")
			pasted = text
			js.Global().Call("setTimeout", readPaste, 0)
		}
	})
}
