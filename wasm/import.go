//go:build js && wasm && transcript

package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/templates"
)

// The transcript import page (templates.ImportPage): the textarea's text
// and the side selector are the state. Every change imports the
// transcript in the browser (transcript.Import: nothing is uploaded),
// renders templates.ImportResult, and points "Open as a scenario in the
// playground" at the scenario that reproduces it (transcript.ShareFragment),
// redacted unless the reader unticks the option. An invalid transcript keeps
// the last good result, marked stale, and shows the error with its line.

type importPage struct {
	doc    js.Value
	input  js.Value // textarea#imp-input
	side   js.Value // select#imp-side
	redact js.Value // input#imp-redact
	result js.Value // #imp-result
	link   js.Value // a#imp-to-scenario
}

func init() { startImport, importAPI = startImportPage, jsImport }

// jsImport is mcplab.import(text, side): the trace JSON of a transcript
// (transcript.Import; side "client", "server" or "" to infer), or its
// located error.
func jsImport(_ js.Value, args []js.Value) (result any) {
	defer recoverInto(func(err error) { result = reply("trace", "", err) })
	data, err := stringArg(args)
	if err != nil {
		return reply("trace", "", err)
	}
	side := ""
	if len(args) > 1 && args[1].Type() == js.TypeString {
		side = args[1].String()
	}
	tr, err := transcript.Import([]byte(data), transcript.Options{Side: side})
	if err != nil {
		return reply("trace", "", err)
	}
	out, err := engine.Encode(tr)
	return reply("trace", string(out), err)
}

// startImportPage wires the import page found in doc.
func startImportPage(doc js.Value) {
	p := &importPage{
		doc:    doc,
		input:  byID(doc, "imp-input"),
		side:   byID(doc, "imp-side"),
		redact: byID(doc, "imp-redact"),
		result: byID(doc, "imp-result"),
		link:   byID(doc, "imp-to-scenario"),
	}
	if !p.input.Truthy() || !p.result.Truthy() {
		showFatal(doc, errors.New("the page has no #imp-input or #imp-result"))
		return
	}
	fail := p.fail
	on(p.input, "input", fail, func(js.Value) { p.update() })
	on(p.side, "change", fail, func(js.Value) { p.update() })
	on(p.redact, "change", fail, func(js.Value) { p.update() })
	// Drop a file on the textarea: read it here, never upload it.
	on(p.input, "dragover", fail, func(ev js.Value) { ev.Call("preventDefault") })
	on(p.input, "drop", fail, func(ev js.Value) {
		ev.Call("preventDefault")
		p.load(ev.Get("dataTransfer").Get("files"))
	})
	file := byID(doc, "imp-file")
	on(file, "change", fail, func(js.Value) {
		p.load(file.Get("files"))
		file.Set("value", "")
	})
	on(byID(doc, "imp-example"), "click", fail, func(js.Value) {
		if ex := byID(doc, "transcript-example"); ex.Truthy() {
			p.input.Set("value", js.Global().Get("JSON").Call("parse", ex.Get("textContent")).String())
			p.side.Set("value", "")
			p.update()
		}
	})
	keepAnchors(doc, p.result, fail)
	p.update()
	enable(doc, "imp-input", "imp-side", "imp-redact", "imp-file", "imp-example")
	setStatus(doc, "live", "Live: the transcript is judged in your browser as you edit it. Nothing is uploaded.")
	doc.Get("documentElement").Get("dataset").Set("ready", "1")
}

// load reads a dropped or chosen file into the textarea and imports it.
func (p *importPage) load(files js.Value) {
	readFile(files, transcript.MaxBytes, p.fail, func(name, text string) {
		p.input.Set("value", text)
		if p.update() {
			setStatus(p.doc, "live", "Judged "+name+" in your browser.")
		}
	}, func(msg string) { showLabError(p.doc, msg) })
}

// update imports the textarea's transcript and renders its result; false
// (and the located error, the last good result kept) when it is invalid.
func (p *importPage) update() bool {
	text := p.input.Get("value").String()
	side := p.side.Get("value").String()
	if strings.TrimSpace(text) == "" {
		p.stale("Paste a transcript, drop a file on the box, or load the example.")
		return false
	}
	tr, err := transcript.Import([]byte(text), transcript.Options{Side: side})
	if err != nil {
		p.stale("Cannot import this transcript: " + err.Error() + ". The result below is the last one that imported.")
		return false
	}
	html, err := renderHTML(templates.ImportResult(tr))
	if err != nil {
		p.stale("rendering the trace: " + err.Error())
		return false
	}
	p.result.Set("innerHTML", html)
	p.result.Get("dataset").Delete("stale")
	showLabError(p.doc, "")
	if frag, err := transcript.ShareFragment(tr, p.redact.Get("checked").Truthy()); err == nil {
		href := p.link.Call("getAttribute", "href").String()
		if i := strings.IndexByte(href, '#'); i >= 0 {
			href = href[:i]
		}
		p.link.Set("href", href+"#"+frag)
		p.link.Call("removeAttribute", "aria-disabled")
	} else {
		p.link.Call("setAttribute", "aria-disabled", "true")
	}
	return true
}

func (p *importPage) stale(msg string) {
	showLabError(p.doc, msg)
	p.result.Get("dataset").Set("stale", "1")
}

// fail shows an internal error (a recovered panic); the page lives on.
func (p *importPage) fail(err error) {
	showLabError(p.doc, fmt.Sprintf("Simulator error: %v. The page still works.", err))
}
