//go:build js && wasm

package page

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/wasm/bridge"
)

// Pane keeps #lab-output in step with the latest run, block by block
// (templates.OutputPart, rendered to HTML in the worker: api.go's
// outputReply, read by readOutput), so a change costs what it changes:
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
//     replaces the whole output at once;
//   - a scenario page's run comes in two steps (api.go's splitOutput):
//     the worker renders only the picture first, so it reaches the page
//     sooner, and the rest at once after it, which fill adds to the run
//     waiting: the later task waits for it (and a run of another shape,
//     drawn whole, waits for it before anything is drawn).
//
// While something waits, #lab-output has data-pending="1"; when it is
// drawn the attribute goes, data-later-ms says what drawing it cost, and
// settled runs (the share link, which should follow the tables).
type Pane struct {
	el      js.Value // #lab-output
	fail    func(error)
	settled func()

	keys  []string          // the blocks on screen, in order
	html  []string          // the digest (sum) of the HTML each was drawn from ("" for a block with views)
	views map[string]string // the digest of the HTML each view (by id) was drawn from

	later    []outPart         // the newest run's blocks, while some wait
	awaiting *output           // a run of another shape, shown once fill brings what it lacks
	stale    map[string]bool   // the views (by id) not drawn from the newest run
	onScreen map[string]string // block key -> the id of its view on screen when last seen
	waiting  js.Value          // the pending idle callback or timer, or null
	laterFn  js.Func
}

// laterMaxMs bounds how long the later blocks may trail the picture.
const laterMaxMs = 120

// El is the element the pane keeps.
func (p *Pane) El() js.Value { return p.el }

// NewPane manages el (#lab-output); fail reports a panic in the later
// task, settled (may be nil) runs whenever the whole run is on screen.
func NewPane(el js.Value, fail func(error), settled func()) *Pane {
	p := &Pane{el: el, fail: fail, settled: settled, waiting: js.Null(), stale: map[string]bool{}, onScreen: map[string]string{}}
	p.laterFn = js.FuncOf(func(js.Value, []js.Value) any {
		defer bridge.Recover(p.fail)
		p.waiting = js.Null()
		p.drawLater()
		return nil
	})
	return p
}

// outPart is one block of a rendered run (api.go's outputReply). Its HTML
// stays a JavaScript string, in Src: the pane compares digests and hands
// Src to app.js's mcplabMorph, so a megabyte of SVG is never copied into
// Go and back.
type outPart struct {
	Key   string
	Later bool
	// Pending is true while the block's HTML has not come yet (the first
	// step of a two-step reply: api.go's splitOutput); fill brings it.
	Pending bool
	Sum     string    // the digest of the block's HTML (api.go's htmlSum)
	Src     js.Value  // the reply's part: Src.html is the block, with a viewSlot for each view
	Views   []outView // the block's pictures, of which the page shows at most one
}

// outView is one picture of a block: Src.html is its HTML, Sum its digest.
type outView struct {
	ID, Sum string
	Src     js.Value
	Pending bool // its HTML has not come yet (as outPart's)
}

// output is a rendered run as the worker sends it (api.go's outputReply).
type output struct {
	Attrs [][2]string // div#output's attributes
	Shell string      // div#output, empty
	Parts []outPart
}

// ReadOutput reads a reply's "out" (api.go's outputReply) into Go.
func ReadOutput(v js.Value) output {
	var o output
	attrs := v.Get("attrs")
	for i := 0; i < attrs.Length(); i++ {
		a := attrs.Index(i)
		o.Attrs = append(o.Attrs, [2]string{a.Index(0).String(), a.Index(1).String()})
	}
	o.Shell = v.Get("shell").String()
	parts := v.Get("parts")
	o.Parts = make([]outPart, parts.Length())
	for i := range o.Parts {
		o.Parts[i] = readPart(parts.Index(i))
	}
	return o
}

// readPart reads one part of a reply (or of a fill: then later is false
// and html may be missing: readPart leaves Pending false, fill decides).
func readPart(p js.Value) outPart {
	part := outPart{Key: p.Get("key").String(), Later: p.Get("later").Truthy(), Pending: p.Get("pending").Truthy(), Sum: str(p.Get("sum")), Src: p}
	views := p.Get("views")
	for j := 0; j < views.Length(); j++ {
		v := views.Index(j)
		part.Views = append(part.Views, outView{ID: v.Get("id").String(), Sum: str(v.Get("sum")), Src: v, Pending: v.Get("pending").Truthy()})
	}
	return part
}

// str is v's string, "" when v is not one.
func str(v js.Value) string {
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// pending reports whether some of o's HTML has not come yet.
func (o output) pending() bool {
	for _, part := range o.Parts {
		if part.Pending {
			return true
		}
		for _, v := range part.Views {
			if v.Pending {
				return true
			}
		}
	}
	return false
}

// fill brings what the first step of a two-step reply left pending (the
// second step's fill: api.go's splitOutput): the blocks and views it
// lacked, by key and id, into the run waiting to be drawn. A run of
// another shape that waited for them is now drawn whole; otherwise the
// later task draws them after the next frame, as show would have. A fill
// with nothing to fill (its run was replaced since) changes nothing.
func (p *Pane) fill(v js.Value) {
	target := p.later
	if p.awaiting != nil {
		target = p.awaiting.Parts
	}
	for i := 0; i < v.Length(); i++ {
		f := readPart(v.Index(i))
		for k := range target {
			part := &target[k]
			if part.Key != f.Key {
				continue
			}
			if part.Pending && f.Src.Get("html").Type() == js.TypeString {
				part.Pending, part.Sum, part.Src, part.Views = false, f.Sum, f.Src, f.Views
				break
			}
			for _, fv := range f.Views {
				for n := range part.Views {
					if part.Views[n].ID == fv.ID && part.Views[n].Pending {
						part.Views[n] = fv
					}
				}
			}
			break
		}
	}
	if o := p.awaiting; o != nil {
		if !o.pending() {
			p.awaiting = nil
			p.showAll(*o)
		}
		return
	}
	if p.later != nil && p.waiting.IsNull() {
		p.waiting = afterNextFrame(p.laterFn)
	}
}

// Show puts a run on screen: what is watched now, the rest later.
func (p *Pane) Show(o output) {
	parts := o.Parts
	wrapper := p.el.Get("firstElementChild")
	if !p.sameShape(parts, wrapper) {
		if o.pending() {
			// Drawn whole, it needs all its HTML: fill brings the rest.
			p.cancelLater()
			p.awaiting = &o
			p.el.Get("dataset").Set("pending", "1")
			return
		}
		p.showAll(o)
		return
	}
	p.awaiting = nil
	for _, a := range o.Attrs {
		if wrapper.Call("getAttribute", a[0]).String() != a[1] {
			wrapper.Call("setAttribute", a[0], a[1])
		}
	}
	kids := wrapper.Get("children")
	for i, part := range parts {
		if part.Later {
			continue
		}
		if len(part.Views) == 0 {
			p.draw(kids.Index(i), i, part)
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
				p.showAll(o)
				return
			}
			if view.ID != shown || view.Pending {
				p.stale[view.ID] = true
				continue
			}
			p.drawView(el, view)
		}
	}
	p.later = parts
	p.el.Get("dataset").Set("pending", "1")
	if p.waiting.IsNull() && !o.pending() {
		p.waiting = afterNextFrame(p.laterFn)
	}
}

// sameShape reports whether the blocks on screen are the ones of parts.
func (p *Pane) sameShape(parts []outPart, wrapper js.Value) bool {
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

// showAll replaces the whole output with the run's blocks: the small ones
// at once, and each block of more HTML than app.js's parseChars (32,768
// characters) as an empty copy of its outer element, which mcplabMorph
// then fills over the next tasks and frames (mcplabMorph.busy meanwhile;
// app.js's mcplabMorph.whole assembles each block and makes the copy, so
// no block's HTML is copied into Go). Set whole, the
// 363 KB of a 100,000-client herd (its bars, its strategies) were parsed,
// styled and laid out in one task of 180 ms of CPU, 1.7-2.1 s on a loaded
// machine, when a share link opened it in the playground (the output's
// shape changes: TestHerdShareLinkNeverBlocksThePage).
func (p *Pane) showAll(o output) {
	p.cancelLater()
	keys, html := make([]string, len(o.Parts)), make([]string, len(o.Parts))
	views := map[string]string{}
	var b strings.Builder
	cut := strings.LastIndex(o.Shell, "</div>")
	if cut < 0 {
		cut = len(o.Shell)
	}
	b.WriteString(o.Shell[:cut])
	morph := js.Global().Get("mcplabMorph")
	type deferred struct {
		i    int
		html js.Value
	}
	var big []deferred
	for i, part := range o.Parts {
		keys[i] = part.Key
		if len(part.Views) == 0 {
			html[i] = part.Sum
		}
		slots := make([]any, len(part.Views))
		for j, v := range part.Views {
			slots[j] = v.Src.Get("html")
			views[v.ID] = v.Sum
		}
		// [now, later]: the block, or its emptied outer element and the
		// block (app.js's mcplabMorph.whole).
		r := morph.Call("whole", part.Src.Get("html"), slots)
		b.WriteString(r.Index(0).String())
		// Asked its type, never Truthy: syscall/js's Truthy of a string
		// copies the whole string into Go (the events block of a window
		// of 250 events is about 530 KB).
		if later := r.Index(1); later.Type() == js.TypeString {
			big = append(big, deferred{i, later})
		}
	}
	b.WriteString(o.Shell[cut:])
	p.el.Set("innerHTML", b.String())
	kids := p.el.Get("firstElementChild").Get("children")
	for _, d := range big {
		morph.Invoke(kids.Index(d.i), d.html)
	}
	p.keys, p.html, p.views = keys, html, views
	p.settle()
}

// draw patches el, block i, with part's HTML if it changed.
func (p *Pane) draw(el js.Value, i int, part outPart) {
	if part.Sum != p.html[i] {
		patch(el, part.Src)
		p.html[i] = part.Sum
	}
}

// drawView patches el with a view's HTML if it changed.
func (p *Pane) drawView(el js.Value, view outView) {
	if view.Sum != p.views[view.ID] {
		patch(el, view.Src)
		p.views[view.ID] = view.Sum
	}
	delete(p.stale, view.ID)
}

// drawLater draws what the newest run left for later: the later blocks
// and the views that were hidden.
func (p *Pane) drawLater() {
	if p.later == nil || (output{Parts: p.later}).pending() {
		return // fill schedules it again
	}
	start := bridge.Now()
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
		if part.Later {
			p.draw(kids.Index(i), i, part)
			continue
		}
		for _, view := range part.Views {
			if el := viewElement(kids.Index(i), view.ID); p.stale[view.ID] && el.Truthy() {
				p.drawView(el, view)
			}
		}
	}
	p.el.Get("dataset").Set("laterMs", strconv.FormatFloat(bridge.Now()-start, 'f', 1, 64))
	p.settle()
}

// flush draws what waits now, so what follows sees the whole run.
func (p *Pane) flush() {
	if p.waiting.IsNull() {
		return
	}
	cancelAfterNextFrame(p.waiting)
	p.waiting = js.Null()
	p.drawLater()
}

// cancelLater forgets what waits (a full render replaces it).
func (p *Pane) cancelLater() {
	if !p.waiting.IsNull() {
		cancelAfterNextFrame(p.waiting)
		p.waiting = js.Null()
	}
	p.later, p.awaiting = nil, nil
	clear(p.stale)
	clear(p.onScreen)
}

func (p *Pane) settle() {
	p.later = nil
	p.el.Get("dataset").Delete("pending")
	if p.settled != nil {
		p.settled()
	}
}

// viewOnScreen finds which of part's views (in block) the page shows, ""
// if none, and remembers it for the next change.
func (p *Pane) viewOnScreen(block js.Value, part outPart) string {
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

// adopt takes the output on screen (prerendered, or drawn before) as the
// run whose blocks are keys, in order, without drawing anything: what the
// page shows is that run's output, but the pane does not know its HTML,
// so the next run patches every block it draws (mcplabMorph keeps what
// did not change). False, and nothing changed, when the output on screen
// is not div#output with one element per key.
func (p *Pane) adopt(keys []string) bool {
	wrapper := p.el.Get("firstElementChild")
	if !wrapper.Truthy() || wrapper.Get("id").String() != "output" || wrapper.Get("children").Length() != len(keys) {
		return false
	}
	p.cancelLater()
	p.keys, p.html, p.views = keys, make([]string, len(keys)), map[string]string{}
	p.settle()
	return true
}

// shownView is the id of the view of block key the page showed when the
// pane last looked ("" for none), and whether it has looked.
func (p *Pane) shownView(key string) (string, bool) {
	id, ok := p.onScreen[key]
	return id, ok
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

// patch makes el match src.html (one element) in place: app.js's
// mcplabMorph keeps the nodes that did not change, so the browser restyles
// and lays out only what did, and focus and scroll positions survive;
// without it, el is replaced. src is the reply's object, so the HTML goes
// from the worker's message to the DOM without a copy through Go.
func patch(el, src js.Value) {
	if morph := js.Global().Get("mcplabMorph"); morph.Type() == js.TypeFunction {
		morph.Invoke(el, src)
		return
	}
	el.Set("outerHTML", src.Get("html"))
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
