//go:build js && wasm

// Command wasm is mcplab's browser entry point, compiled with GOOS=js
// GOARCH=wasm into the site's main.wasm. It is glue only (ARCHITECTURE.md):
// it hands JSON to the engine, hands the trace to the templates, and puts
// the HTML in the page. Every decision lives in engine/ or templates/.
//
// It exposes
//
//	globalThis.mcplab.run(json)    -> {trace: string|null, error: string|null}
//	globalThis.mcplab.render(json) -> {html: string|null, error: string|null}
//	globalThis.mcplab.share(json)  -> {fragment: string|null, error: string|null}
//	globalThis.mcplab.import(text, side) -> {trace: string|null, error: string|null}  (import.wasm only)
//
// and starts the page it finds: the playground (#playground,
// playground.go), the transcript import page (#import, import.go), or a
// scenario page. On a page with a #lab element (templates.ScenarioPage) it wires every
// [data-path] control: on input or change it applies the control's value
// to the scenario JSON held in script#scenario-json (scenario.Edit,
// which encodes it by data-kind and calls scenario.SetPath or
// scenario.DeletePath), runs the scenario, shows templates.Output in
// #lab-output block by block (output.go: the headline and charts before
// the next frame, the tables after it, only what changed), and on an
// invalid scenario keeps the last good render and shows the located error
// in #lab-error. After the first render it enables the controls and sets
// <html data-ready="1"> ("error" if that render failed), and keeps the
// page's "Open in playground" link pointing at the edited scenario (once
// the tables are drawn too). A panic anywhere becomes a visible error.
//
// Built plainly it is main.wasm; built with -tags ledger it also links the
// SQLite ledger (ledger.go) and is ledger.wasm, which only the pages of
// scenarios with a ledger load, since SQLite multiplies the binary's size;
// built with -tags transcript it links the transcript importer (import.go)
// instead of the playground (playground.go) and is import.wasm, which only
// the import page loads, so each page saves what it does not use
// (ARCHITECTURE.md's transfer budget).
package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/templates"
)

// options are what this binary links into a run: nothing by default, the
// in-memory SQLite ledger when built with -tags ledger (ledger.go), which
// only the pages of ledger scenarios load.
var options engine.Options

// startImport starts the transcript import page and importAPI is
// mcplab.import; both are nil unless the binary is built with -tags
// transcript (import.go sets them).
//
// startPlayground starts the playground; nil in import.wasm (playground.go
// is built without -tags transcript).
var (
	startPlayground func(doc js.Value)
	startImport     func(doc js.Value)
	importAPI       func(this js.Value, args []js.Value) any
)

func main() {
	js.Global().Set("mcplab", js.ValueOf(map[string]any{
		"run":    js.FuncOf(jsRun),
		"render": js.FuncOf(jsRender),
		"share":  js.FuncOf(jsShare),
	}))
	if importAPI != nil {
		js.Global().Get("mcplab").Set("import", js.FuncOf(importAPI))
	}
	doc := js.Global().Get("document")
	func() {
		defer recoverInto(func(err error) { showFatal(doc, err) })
		switch {
		case doc.Call("getElementById", "playground").Truthy():
			if startPlayground == nil {
				panic("this page needs main.wasm or ledger.wasm, not import.wasm")
			}
			startPlayground(doc)
		case doc.Call("getElementById", "import").Truthy():
			if startImport == nil {
				panic("this page needs import.wasm (the build with -tags transcript), not main.wasm")
			}
			startImport(doc)
		case doc.Call("getElementById", "lab").Truthy():
			startLab(doc)
		}
	}()
	select {} // keep the callbacks alive
}

// jsRun is mcplab.run(json): the trace JSON of a scenario, or its error.
func jsRun(_ js.Value, args []js.Value) (result any) {
	defer recoverInto(func(err error) { result = reply("trace", "", err) })
	data, err := stringArg(args)
	if err != nil {
		return reply("trace", "", err)
	}
	out, err := engine.RunJSONWith([]byte(data), options)
	return reply("trace", string(out), err)
}

// jsRender is mcplab.render(json): the HTML of templates.Output for a
// scenario, or its error.
func jsRender(_ js.Value, args []js.Value) (result any) {
	defer recoverInto(func(err error) { result = reply("html", "", err) })
	data, err := stringArg(args)
	if err != nil {
		return reply("html", "", err)
	}
	html, err := render([]byte(data))
	return reply("html", html, err)
}

// jsShare is mcplab.share(json): the canonical "s=..." share fragment of a
// scenario document (scenario.ShareFragment), or its error.
func jsShare(_ js.Value, args []js.Value) (result any) {
	defer recoverInto(func(err error) { result = reply("fragment", "", err) })
	data, err := stringArg(args)
	if err != nil {
		return reply("fragment", "", err)
	}
	frag, err := scenario.ShareFragment([]byte(data))
	return reply("fragment", frag, err)
}

// showFatal shows an error that stopped a page from starting and marks the
// page as failed, without killing it: the prerendered content stays.
func showFatal(doc js.Value, err error) {
	if box := doc.Call("getElementById", "lab-error"); box.Truthy() {
		box.Set("textContent", "Simulator error: "+err.Error())
		box.Set("hidden", false)
	}
	doc.Get("documentElement").Get("dataset").Set("ready", "error")
}

// runScenario decodes a scenario and runs it.
func runScenario(data []byte) (*trace.Trace, error) {
	s, err := scenario.Decode(data)
	if err != nil {
		return nil, err
	}
	return engine.RunWith(s, options)
}

// render runs a scenario and renders its Output.
func render(data []byte) (string, error) {
	tr, err := runScenario(data)
	if err != nil {
		return "", err
	}
	html, err := renderHTML(templates.Output(tr))
	if err != nil {
		return "", fmt.Errorf("rendering the trace: %w", err)
	}
	return html, nil
}

func stringArg(args []js.Value) (string, error) {
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return "", errors.New("expected one argument: the scenario JSON as a string")
	}
	return args[0].String(), nil
}

func reply(key, value string, err error) map[string]any {
	if err != nil {
		return map[string]any{key: nil, "error": err.Error()}
	}
	return map[string]any{key: value, "error": nil}
}

// recoverInto turns a panic into an error handed to set.
func recoverInto(set func(error)) {
	if r := recover(); r != nil {
		set(fmt.Errorf("internal error: %v", r))
	}
}

// lab is the live state of a scenario page.
type lab struct {
	doc      js.Value
	root     js.Value // <html>
	script   js.Value // script#scenario-json: the current scenario
	output   js.Value // #lab-output
	errorBox js.Value // #lab-error
	status   js.Value // #lab-status
	pane     *pane    // what #lab-output shows
}

func startLab(doc js.Value) {
	l := &lab{
		doc:      doc,
		root:     doc.Get("documentElement"),
		script:   doc.Call("getElementById", "scenario-json"),
		output:   doc.Call("getElementById", "lab-output"),
		errorBox: doc.Call("getElementById", "lab-error"),
		status:   doc.Call("getElementById", "lab-status"),
	}
	if !l.script.Truthy() || !l.output.Truthy() {
		l.fail(errors.New("the page has no script#scenario-json or #lab-output"))
		return
	}
	l.pane = newPane(l.output, l.fail, l.settled)
	controls := doc.Call("querySelectorAll", "[data-path]")
	for i := 0; i < controls.Length(); i++ {
		el := controls.Index(i)
		event := "change"
		if t := el.Get("type").String(); t == "range" || t == "number" {
			event = "input"
		}
		el.Call("addEventListener", event, js.FuncOf(func(js.Value, []js.Value) any {
			l.onChange(el)
			return nil
		}))
	}
	if !l.rerun([]byte(l.script.Get("textContent").String())) {
		l.root.Get("dataset").Set("ready", "error")
		l.setStatus("error", "The scenario did not run; see the error above.")
		return
	}
	if fs := doc.Call("getElementById", "lab-controls"); fs.Truthy() {
		fs.Set("disabled", false)
	}
	l.setStatus("live", "Live: every change re-runs the scenario in your browser.")
	l.root.Get("dataset").Set("ready", "1")
}

// onChange applies one control's value to the scenario and re-runs it.
func (l *lab) onChange(el js.Value) {
	defer recoverInto(l.fail)
	ds := el.Get("dataset")
	path, kind := ds.Get("path").String(), ds.Get("kind").String()
	value := el.Get("value").String()
	// The readout changes last: the run asks the page which timeline
	// layout is on screen, which a page with no pending change answers at
	// once.
	defer func() {
		if out := l.doc.Call("getElementById", el.Get("id").String()+"-value"); out.Truthy() {
			out.Set("textContent", value+" "+out.Get("dataset").Get("unit").String())
		}
	}()
	current := []byte(l.script.Get("textContent").String())
	next, err := scenario.Edit(current, path, kind, value, el.Get("checked").Truthy())
	if err != nil {
		l.showError(err)
		return
	}
	l.script.Set("textContent", string(next))
	l.rerun(next)
}

// rerun runs the scenario (the text of script#scenario-json) and shows it
// in #lab-output (the headline and charts now, the tables after the next
// frame: pane); on error it keeps the last good render, marks it stale and
// shows the error. data-render-ms on #lab-output is what the run and the
// drawing before the frame cost (pane sets data-later-ms for the tables).
func (l *lab) rerun(data []byte) bool {
	start := now()
	tr, err := runScenario(data)
	if err == nil {
		v := templates.NewView(tr)
		if err = l.pane.show(v, templates.NewCharts(tr, v)); err != nil {
			err = fmt.Errorf("rendering the trace: %w", err)
		}
	}
	if err != nil {
		l.showError(err)
		return false
	}
	ds := l.output.Get("dataset")
	ds.Set("renderMs", fmt.Sprintf("%.1f", now()-start))
	ds.Delete("stale")
	if l.errorBox.Truthy() && !l.errorBox.Get("hidden").Bool() {
		l.errorBox.Set("hidden", true)
		l.errorBox.Set("textContent", "")
	}
	return true
}

// settled runs once the whole run is on screen: it points "Open in
// playground" at the edited scenario.
func (l *lab) settled() {
	link := l.doc.Call("getElementById", "open-playground")
	if !link.Truthy() {
		return
	}
	if frag, err := scenario.ShareFragment([]byte(l.script.Get("textContent").String())); err == nil {
		href := link.Call("getAttribute", "href").String()
		if i := strings.IndexByte(href, '#'); i >= 0 {
			href = href[:i]
		}
		link.Set("href", href+"#"+frag)
	}
}

func (l *lab) showError(err error) {
	l.errorBox.Set("textContent", "Invalid scenario: "+err.Error()+". The output shows the last valid run.")
	l.errorBox.Set("hidden", false)
	l.output.Get("dataset").Set("stale", "1")
}

// fail reports an internal error (a panic) without killing the page.
func (l *lab) fail(err error) {
	if l.errorBox.Truthy() {
		l.errorBox.Set("textContent", "Simulator error: "+err.Error())
		l.errorBox.Set("hidden", false)
	}
}

func (l *lab) setStatus(state, text string) {
	if l.status.Truthy() {
		l.status.Set("textContent", text)
		l.status.Get("dataset").Set("state", state)
	}
}
