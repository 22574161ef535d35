//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/templates"
)

// pane keeps #lab-output in step with the latest run, block by block
// (templates.OutputPart), so a change costs what it changes:
//
//   - show draws the picture a reader watches while dragging a control
//     at once: the headline, the charts, and of the timeline's two
//     layouts (OutputPart.Views) the one on screen; it patches only what
//     changed (string comparison, then app.js's mcplabMorph);
//   - the rest (the tables, the hidden layout) is drawn by one later
//     task, once the browser is idle after the next frame
//     (requestIdleCallback), at most laterMaxMs after the first change it
//     waits for: changes that come before it only retarget it to the
//     newest run, so a drag costs one table update per idle moment, always
//     of the newest run, and the tables never trail the picture by more
//     than laterMaxMs;
//   - a run of another shape (other blocks, or none on screen yet)
//     replaces the whole output at once.
//
// While something waits, #lab-output has data-pending="1"; when it is
// drawn the attribute goes, data-later-ms says what drawing it cost, and
// settled runs (the share link, which should follow the tables).
type pane struct {
	el      js.Value // #lab-output
	fail    func(error)
	settled func()

	keys  []string          // the blocks on screen, in order
	html  []string          // the HTML each was drawn from ("" for a block with views)
	views map[string]string // the HTML each view (by id) was drawn from

	later    []templates.OutputPart // the newest run's blocks, while some wait
	stale    map[string]bool        // the views (by id) not drawn from the newest run
	onScreen map[string]string      // block key -> the id of its view on screen when last seen
	waiting  js.Value               // the pending idle callback or timer, or null
	laterFn  js.Func
}

// laterMaxMs bounds how long the later blocks may trail the picture.
const laterMaxMs = 120

// newPane manages el (#lab-output); fail reports a panic in the later
// task, settled (may be nil) runs whenever the whole run is on screen.
func newPane(el js.Value, fail func(error), settled func()) *pane {
	p := &pane{el: el, fail: fail, settled: settled, waiting: js.Null(), stale: map[string]bool{}, onScreen: map[string]string{}}
	p.laterFn = js.FuncOf(func(js.Value, []js.Value) any {
		defer recoverInto(p.fail)
		p.waiting = js.Null()
		p.drawLater()
		return nil
	})
	return p
}

// show puts a run on screen: what is watched now, the rest later.
func (p *pane) show(v templates.View, c templates.Charts) error {
	parts := templates.OutputParts(v, c)
	wrapper := p.el.Get("firstElementChild")
	if !p.sameShape(parts, wrapper) {
		return p.showAll(v, parts)
	}
	for _, a := range v.OutputData() {
		wrapper.Call("setAttribute", a[0], a[1])
	}
	kids := wrapper.Get("children")
	for i, part := range parts {
		if part.Later {
			continue
		}
		if len(part.Views) == 0 {
			if err := p.draw(kids.Index(i), i, part.Component); err != nil {
				return err
			}
			continue
		}
		// The stylesheet shows at most one of the views: draw that one,
		// leave the others for later.
		shown, known := p.onScreen[part.Key]
		if !known {
			shown = p.viewOnScreen(kids.Index(i), part)
		}
		for _, view := range part.Views {
			el := viewElement(kids.Index(i), view.ID)
			if !el.Truthy() { // not what this pane drew: start again
				return p.showAll(v, parts)
			}
			if view.ID != shown {
				p.stale[view.ID] = true
				continue
			}
			if err := p.drawView(el, view); err != nil {
				return err
			}
		}
	}
	p.later = parts
	if p.waiting.IsNull() {
		p.el.Get("dataset").Set("pending", "1")
		p.waiting = afterNextFrame(p.laterFn)
	}
	return nil
}

// sameShape reports whether the blocks on screen are the ones of parts.
func (p *pane) sameShape(parts []templates.OutputPart, wrapper js.Value) bool {
	if len(parts) != len(p.keys) || !wrapper.Truthy() || wrapper.Get("id").String() != "output" ||
		wrapper.Get("children").Length() != len(parts) {
		return false
	}
	for i, part := range parts {
		if part.Key != p.keys[i] {
			return false
		}
	}
	return true
}

// showAll replaces the whole output with the run's blocks, all at once.
func (p *pane) showAll(v templates.View, parts []templates.OutputPart) error {
	p.cancelLater()
	keys, html := make([]string, len(parts)), make([]string, len(parts))
	views := map[string]string{}
	raw := make([]templates.OutputPart, len(parts))
	for i, part := range parts {
		c := part.Component
		if len(part.Views) > 0 {
			vs := make([]templ.Component, len(part.Views))
			for j, view := range part.Views {
				s, err := renderHTML(view.Component)
				if err != nil {
					return err
				}
				views[view.ID] = s
				vs[j] = templ.Raw(s)
			}
			c = part.Shell(vs)
		}
		s, err := renderHTML(c)
		if err != nil {
			return err
		}
		keys[i], raw[i] = part.Key, templates.OutputPart{Key: part.Key, Component: templ.Raw(s)}
		if len(part.Views) == 0 {
			html[i] = s
		}
	}
	full, err := renderHTML(templates.OutputWith(v, raw))
	if err != nil {
		return err
	}
	p.el.Set("innerHTML", full)
	p.keys, p.html, p.views = keys, html, views
	p.settle()
	return nil
}

// draw renders block i and, if its HTML changed, patches el with it.
func (p *pane) draw(el js.Value, i int, c templ.Component) error {
	s, err := renderHTML(c)
	if err != nil {
		return err
	}
	if s != p.html[i] {
		patch(el, s)
		p.html[i] = s
	}
	return nil
}

// drawView renders a view and, if its HTML changed, patches el with it.
func (p *pane) drawView(el js.Value, view templates.OutputView) error {
	s, err := renderHTML(view.Component)
	if err != nil {
		return err
	}
	if s != p.views[view.ID] {
		patch(el, s)
		p.views[view.ID] = s
	}
	delete(p.stale, view.ID)
	return nil
}

// drawLater draws what the newest run left for later: the later blocks
// and the views that were hidden.
func (p *pane) drawLater() {
	if p.later == nil {
		return
	}
	start := now()
	kids := p.el.Get("firstElementChild").Get("children")
	for i, part := range p.later {
		if len(part.Views) > 0 {
			// After a frame the page's style is clean: asking which view
			// is on screen costs nothing now, and the next change need not
			// ask. A view that came on screen since is stale, so drawn
			// below.
			p.viewOnScreen(kids.Index(i), part)
		}
	}
	for i, part := range p.later {
		var err error
		switch {
		case part.Later:
			err = p.draw(kids.Index(i), i, part.Component)
		default:
			for _, view := range part.Views {
				if el := viewElement(kids.Index(i), view.ID); p.stale[view.ID] && el.Truthy() && err == nil {
					err = p.drawView(el, view)
				}
			}
		}
		if err != nil {
			p.fail(err)
		}
	}
	p.el.Get("dataset").Set("laterMs", strconv.FormatFloat(now()-start, 'f', 1, 64))
	p.settle()
}

// flush draws what waits now, so what follows sees the whole run.
func (p *pane) flush() {
	if p.waiting.IsNull() {
		return
	}
	cancelAfterNextFrame(p.waiting)
	p.waiting = js.Null()
	p.drawLater()
}

// cancelLater forgets what waits (a full render replaces it).
func (p *pane) cancelLater() {
	if !p.waiting.IsNull() {
		cancelAfterNextFrame(p.waiting)
		p.waiting = js.Null()
	}
	p.later = nil
	clear(p.stale)
	clear(p.onScreen)
}

func (p *pane) settle() {
	p.later = nil
	p.el.Get("dataset").Delete("pending")
	if p.settled != nil {
		p.settled()
	}
}

// viewOnScreen finds which of part's views (in block) the page shows, ""
// if none, and remembers it for the next change.
func (p *pane) viewOnScreen(block js.Value, part templates.OutputPart) string {
	shown := ""
	for _, view := range part.Views {
		if el := viewElement(block, view.ID); el.Truthy() && visible(el) {
			shown = view.ID
			break
		}
	}
	p.onScreen[part.Key] = shown
	return shown
}

// viewElement is the element with id id inside block.
func viewElement(block js.Value, id string) js.Value {
	return block.Call("querySelector", `[id="`+id+`"]`)
}

// visible reports whether el is rendered (not display: none, itself or
// an ancestor, nor in a closed <details>). Only style is consulted, which
// the input event has barely touched, so it forces no layout of the page.
// Where the browser cannot tell (no checkVisibility), everything counts
// as visible.
func visible(el js.Value) bool {
	if el.Get("checkVisibility").Type() != js.TypeFunction {
		return true
	}
	return el.Call("checkVisibility").Bool()
}

// patch makes el match html (one element) in place: app.js's mcplabMorph
// keeps the nodes that did not change, so the browser restyles and lays
// out only what did, and focus and scroll positions survive; without it,
// el is replaced.
func patch(el js.Value, html string) {
	if morph := js.Global().Get("mcplabMorph"); morph.Type() == js.TypeFunction {
		morph.Invoke(el, html)
		return
	}
	el.Set("outerHTML", html)
}

// afterNextFrame runs fn once the browser is idle after the next frame (at
// most laterMaxMs from now), and returns a handle for cancelAfterNextFrame.
func afterNextFrame(fn js.Func) js.Value {
	g := js.Global()
	if ric := g.Get("requestIdleCallback"); ric.Type() == js.TypeFunction {
		return js.ValueOf([]any{"idle", g.Call("requestIdleCallback", fn, map[string]any{"timeout": laterMaxMs})})
	}
	return js.ValueOf([]any{"timer", g.Call("setTimeout", fn, 16)})
}

func cancelAfterNextFrame(h js.Value) {
	g := js.Global()
	if h.Index(0).String() == "idle" {
		g.Call("cancelIdleCallback", h.Index(1))
	} else {
		g.Call("clearTimeout", h.Index(1))
	}
}

// now is performance.now() in milliseconds.
func now() float64 { return js.Global().Get("performance").Call("now").Float() }
