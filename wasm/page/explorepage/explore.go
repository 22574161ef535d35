//go:build js && wasm

// Package explorepage is the race explorer page's controller (#explore):
// it splits the window into parts (engine/explore's Split), spreads them
// over several engine workers (app.js's mcplabEngine and its clones, one
// per core up to maxWorkers), the coarse window first, merges the parts
// as they answer (explore.Merge) and redraws the map once a frame, so the
// map fills progressively and the page never waits. Only explore.wasm
// links it.
package explorepage

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

// maxWorkers bounds the workers the page starts: 8, past which a part's
// reply costs the page more than the runs it saves.
const maxWorkers = 8

// partsPerWorker is how many parts each worker gets on average (4), so the
// map fills in steps and a slow part does not hold the rest.
const partsPerWorker = 4

// linkBase is where a run's link opens, relative to this page.
const linkBase = "../playground/"

// explorer is the page's state: the exploration in progress (generation
// gen; replies of an older one are dropped) and the map's cursor.
type explorer struct {
	doc     js.Value
	engines []js.Value
	idle    []bool
	gen     int
	text    string
	plan    *explore.Plan
	coarse  *explore.Report
	parts   []*explore.Report
	queue   []int // parts not sent yet (-1: the coarse window)
	done    int
	merged  *explore.Report
	started float64
	dirty   bool
	row     int
	col     int
	stopped string   // why the exploration stopped early, "" while it runs or once done
	shown   bool     // the cursor shows (the map was hovered or focused)
	run     *pending // the run of the cell last opened, until a worker takes it
}

// StartExplore starts the explorer page's controller.
func StartExplore(doc js.Value) {
	x := &explorer{doc: doc}
	fail := x.fail
	n := js.Global().Get("navigator").Get("hardwareConcurrency").Int()
	n = min(max(n, 1), maxWorkers)
	first := js.Global().Get("mcplabEngine")
	x.engines = append(x.engines, first)
	for len(x.engines) < n {
		x.engines = append(x.engines, first.Call("clone"))
	}
	x.idle = make([]bool, n)
	for i := range x.idle {
		x.idle[i] = true
	}
	for _, id := range []string{"explore-text", "explore-go", "explore-pick-select"} {
		page.ByID(doc, id).Set("disabled", false)
	}
	page.On(page.ByID(doc, "explore-go"), "click", fail, func(js.Value) {
		x.start(page.ByID(doc, "explore-text").Get("value").String())
	})
	page.On(page.ByID(doc, "explore-pick-select"), "change", fail, func(ev js.Value) {
		// "#s=..." stays on this page; "?ledger=1#s=..." loads it
		// with SQLite, unless it has it already (then only the hash
		// changes).
		js.Global().Get("location").Set("href", ev.Get("target").Get("value"))
	})
	page.On(js.Global(), "hashchange", fail, func(js.Value) { x.fromAddress() })
	x.wireMap()
	x.fromAddress()
}

// fail shows an error of the page's glue.
func (x *explorer) fail(err error) { x.say(err.Error(), "error") }

// say sets the status line.
func (x *explorer) say(text, state string) {
	st := page.ByID(x.doc, "lab-status")
	st.Set("textContent", text)
	st.Get("dataset").Set("state", state)
}

// fromAddress explores the scenario the address carries (#s=...), or the
// editor's when it carries none. "#example=NAME", as the playground and
// the command take it, opens the picker's choice of that name (its
// "#s=..." link, replacing the address); a name the picker lacks is said,
// never replaced by another scenario in silence.
func (x *explorer) fromAddress() {
	hash := js.Global().Get("location").Get("hash").String()
	text := page.ByID(x.doc, "explore-text").Get("value").String()
	if name, ok := strings.CutPrefix(hash, "#example="); ok {
		name = js.Global().Call("decodeURIComponent", name).String()
		if href := x.choiceHref(name); href != "" {
			js.Global().Get("location").Call("replace", href)
			return
		}
		x.showError(unknownExample(name))
		x.say(templates.ExploreCannotStatus(x.stale()), "error")
		x.markReady()
		return
	}
	if strings.HasPrefix(hash, "#s=") {
		link, err := scenario.ParseLink(hash)
		if err != nil {
			x.showError(err.Error())
			return
		}
		text = string(link.Scenario)
		page.ByID(x.doc, "explore-text").Set("value", text)
	}
	x.start(text)
}

// choiceHref is the link of the picker's built-in scenario named name
// ("#s=..." or "?ledger=1#s=..."), "" when the picker has none.
func (x *explorer) choiceHref(name string) string {
	opts := page.ByID(x.doc, "explore-pick-select").Get("options")
	for i := 0; i < opts.Length(); i++ {
		if o := opts.Index(i); o.Get("dataset").Get("name").String() == name {
			return o.Get("value").String()
		}
	}
	return ""
}

// unknownExample is what the page says of "#example=NAME" when NAME is
// not among the scenarios its picker explores (unknown, or a built-in
// with no window).
func unknownExample(name string) string {
	return "#example=" + name + " is not a scenario this page explores: pick one from the list above, or paste a scenario with its explore.vary window."
}

// showError shows msg in the error box (empty: hides it).
func (x *explorer) showError(msg string) {
	box := page.ByID(x.doc, "lab-error")
	box.Set("textContent", msg)
	box.Set("hidden", msg == "")
}

// start explores text: a new generation, its plan, the coarse window
// queued first, then the parts in order.
func (x *explorer) start(text string) {
	x.gen++
	x.text = text
	x.pick(text)
	plan, err := explore.Split([]byte(text), nil, len(x.engines)*partsPerWorker)
	if err != nil {
		msg := worker.Located([]byte(text), err).Message
		if errors.Is(err, explore.ErrNothingToVary) {
			msg = templates.ExploreNoWindow([]byte(text))
		}
		x.showError(msg)
		x.say(templates.ExploreCannotStatus(x.stale()), "error")
		x.markReady()
		return
	}
	x.showError("")
	x.stopped = ""
	if frag, err := scenario.ShareFragment([]byte(text)); err == nil {
		loc := js.Global().Get("location")
		url := loc.Get("pathname").String() + loc.Get("search").String() + "#" + frag
		js.Global().Get("history").Call("replaceState", js.Null(), "", url)
	}
	// merged is this exploration's map only: nil until its first part
	// answers, so a stop before then marks the map on screen stale.
	x.plan, x.coarse, x.parts, x.done, x.merged = plan, nil, make([]*explore.Report, len(plan.Parts)), 0, nil
	x.queue = []int{-1}
	for k := range plan.Parts {
		x.queue = append(x.queue, k)
	}
	x.started = bridge.Now()
	x.say("Exploring "+strconv.Itoa(len(plan.Parts))+" parts on "+strconv.Itoa(len(x.engines))+" workers…", "loading")
	x.pump()
}

// pump sends the run a click opened, then the queued parts, to idle
// workers (a worker is given a request only when idle: app.js's bridge
// replaces a waiting request with a newer one).
func (x *explorer) pump() {
	for i, e := range x.engines {
		if x.idle[i] && x.run != nil {
			run, worker := x.run, i
			x.run, x.idle[i] = nil, false
			x.ask(e, run.fields, func(a js.Value) {
				x.idle[worker] = true
				run.done(a)
				x.pump()
			})
			continue
		}
		if !x.idle[i] || len(x.queue) == 0 {
			continue
		}
		k := x.queue[0]
		x.queue = x.queue[1:]
		x.idle[i] = false
		req := protocol.ExploreRequest{Action: protocol.ExplorePart, Text: x.text, Part: k, Parts: len(x.plan.Parts), LinkBase: ""}
		gen, worker := x.gen, i
		x.ask(e, req.Fields(), func(a js.Value) {
			x.idle[worker] = true
			if gen == x.gen {
				x.answered(k, a)
			}
			x.pump()
		})
	}
}

// ask sends req to engine e (app.js's bridge) and calls done with its
// reply, under recover.
func (x *explorer) ask(e js.Value, req map[string]any, done func(js.Value)) {
	var fn js.Func
	fn = js.FuncOf(func(_ js.Value, args []js.Value) any {
		fn.Release()
		defer bridge.Recover(x.fail)
		done(args[0])
		return nil
	})
	e.Call("request", req, fn)
}

// answered takes part k's reply: a report merged into the map (drawn at
// the next frame), or an error shown.
func (x *explorer) answered(k int, a js.Value) {
	r := protocol.ReadExplorePartReply(bridge.Object{Value: a})
	if r.Err != nil && r.Err.Kind == protocol.KindNoLedger && x.withLedger() {
		return
	}
	if r.Err != nil {
		x.stop(r.Err)
		return
	}
	var rep explore.Report
	if err := json.Unmarshal([]byte(r.Report), &rep); err != nil {
		x.fail(err)
		return
	}
	if k == -1 {
		x.coarse = &rep
	} else {
		x.parts[k] = &rep
		x.done++
	}
	x.merged = explore.Merge(x.plan, x.coarse, x.parts)
	x.schedule()
}

// stop ends the exploration on e, an error of one of its parts: the parts
// not sent are dropped, and so are the replies of those still running (a
// new generation). When this exploration drew a map, it is redrawn saying
// it stopped, why and what it covered; else the map of the one before is
// marked stale.
func (x *explorer) stop(e *protocol.Error) {
	msg := e.Message
	if e.Kind == protocol.KindWorkerStopped && e.BudgetMs > 0 {
		msg = templates.ExploreStoppedText(e.BudgetMs)
	}
	x.queue = nil
	x.gen++
	x.showError("The exploration stopped: " + msg)
	x.markReady()
	if x.merged == nil {
		x.say(templates.ExploreStaleNote(x.stale()), "error")
		return
	}
	x.stopped = msg
	x.draw()
	x.say("The exploration stopped after "+strconv.Itoa(x.done)+" of "+strconv.Itoa(len(x.parts))+" parts; the map shows only what it covered.", "error")
}

// stale marks the map on screen as not the scenario asked for (dimmed)
// and returns its title, "" when none is drawn.
func (x *explorer) stale() string {
	page.ByID(x.doc, "explore-out").Get("dataset").Set("stale", "1")
	if h := x.doc.Call("querySelector", "#explore-out .explore-title"); h.Truthy() {
		return h.Get("textContent").String()
	}
	return ""
}

// pick sets the picker to the built-in whose scenario is text, or to none
// when text is not one of them (templates.ExplorePicked).
func (x *explorer) pick(text string) {
	sel := page.ByID(x.doc, "explore-pick-select")
	opts := sel.Get("options")
	hrefs := make([]string, opts.Length())
	for i := range hrefs {
		hrefs[i] = opts.Index(i).Get("value").String()
	}
	sel.Set("selectedIndex", templates.ExplorePicked(hrefs, []byte(text)))
}

// finished says, once the last part is drawn, how long the exploration
// took from its start to the map drawn whole and how many runs it needed
// (also as <html data-explore-ms data-explore-runs data-explore-points>,
// for make bench).
func (x *explorer) finished() {
	ms := strconv.FormatFloat(bridge.Now()-x.started, 'f', 0, 64)
	runs, points := strconv.Itoa(x.merged.Runs), strconv.FormatInt(x.merged.Points, 10)
	root := x.doc.Get("documentElement").Get("dataset")
	root.Set("exploreMs", ms)
	root.Set("exploreRuns", runs)
	root.Set("explorePoints", points)
	x.say("Explored in "+ms+" ms on "+strconv.Itoa(len(x.engines))+" workers: "+trace.Thousands(int64(x.merged.Runs))+" runs for "+trace.Thousands(x.merged.Points)+" grid points.", "ready")
}

// schedule draws the map at the next frame, once however many parts
// answer before it.
func (x *explorer) schedule() {
	if x.dirty {
		return
	}
	x.dirty = true
	var fn js.Func
	fn = js.FuncOf(func(js.Value, []js.Value) any {
		fn.Release()
		defer bridge.Recover(x.fail)
		x.dirty = false
		x.draw()
		return nil
	})
	js.Global().Call("requestAnimationFrame", fn)
}

// draw renders the merged report into #explore-out.
func (x *explorer) draw() {
	if x.merged == nil {
		return
	}
	out := templates.ExploreOut{Report: x.merged, LinkBase: linkBase, Parts: len(x.parts), Done: x.done, Stopped: x.stopped}
	html, err := worker.RenderHTML(templates.ExploreOutput(out))
	if err != nil {
		x.fail(err)
		return
	}
	el := page.ByID(x.doc, "explore-out")
	js.Global().Call("mcplabMorph", el, `<div id="explore-out" class="explore-out">`+html+`</div>`)
	el.Get("dataset").Delete("stale")
	x.cursor(false)
	// Ready once the first picture is drawn (the coarse grid, usually):
	// the page is live while the parts fill it in.
	x.markReady()
	if x.done == len(x.parts) && x.stopped == "" {
		x.finished()
	}
}

// withLedger reloads the page with ?ledger=1, where its workers load the
// browser's SQLite, for a scenario with a ledger; false when it has it
// already.
func (x *explorer) withLedger() bool {
	loc := js.Global().Get("location")
	if strings.Contains(loc.Get("search").String(), "ledger=1") {
		return false
	}
	x.queue = nil
	frag, err := scenario.ShareFragment([]byte(x.text))
	if err != nil {
		return false
	}
	x.say("This scenario has a ledger: loading the browser's SQLite…", "loading")
	loc.Call("replace", loc.Get("pathname").String()+"?ledger=1#"+frag)
	return true
}

// markReady sets <html data-ready="1">.
func (x *explorer) markReady() {
	x.doc.Get("documentElement").Get("dataset").Set("ready", "1")
}
