//go:build js && wasm

package page

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// The review page (templates.ReviewPage): the user pastes or
// edits a scenario in #review-input, picks the call in #review-op and
// presses Review (or Ctrl+Enter); the worker reviews it part by part
// (api_review.go) while #review-progress counts the parts and derived
// runs, and the finished review replaces #review-body. The address bar
// then carries the scenario and the call (#s=...&op=ID, review.LinkFragment),
// which "Copy link" copies: opened anywhere, the page reviews it again. An
// invalid scenario keeps the last review on screen, marked stale, and says
// what is wrong and where (line and column, as the playground does).

// reviewPartBudgetMs is how long one part of a review may take in the
// worker before app.js stops it (mcplabEngine.budgetMs, 20 s on other
// pages): a part runs up to five derived runs on SQLite, which is several
// times slower in the browser than natively, and more on a busy machine.
const reviewPartBudgetMs = 60_000

type reviewPage struct {
	doc      js.Value
	input    js.Value // textarea#review-input
	opSel    js.Value // select#review-op
	body     js.Value // #review-body
	errBox   js.Value // #review-error
	errText  js.Value // #review-error-text
	link     js.Value // input#review-link
	progress js.Value // #review-progress
	bar      js.Value // progress#review-progress-bar
	progText js.Value // #review-progress-text
	root     string   // the site root, relative to the page

	gen     int // the newest review asked for; older answers are dropped
	lastErr templates.EditorError
	// edited is true when the text changed since #review-op last listed
	// its calls: the selected call may no longer exist.
	edited bool
	// empty is true from a link's opening until a review of it is shown:
	// the review on screen is then the one prerendered for the page's own
	// scenario, not the link's, and a review that does not run takes it
	// off the page (showNothing) rather than keep it as the last one.
	empty bool
}

// StartReview wires the review page found in doc (#review-live) and, when
// the address carries a scenario (#s=...&op=ID or #example=NAME), reviews
// it.
func StartReview(doc js.Value) {
	live := ByID(doc, "review-live")
	p := &reviewPage{
		doc: doc, input: ByID(doc, "review-input"), opSel: ByID(doc, "review-op"), body: ByID(doc, "review-body"),
		errBox: ByID(doc, "review-error"), errText: ByID(doc, "review-error-text"), link: ByID(doc, "review-link"),
		progress: ByID(doc, "review-progress"), bar: ByID(doc, "review-progress-bar"), progText: ByID(doc, "review-progress-text"),
		root: live.Get("dataset").Get("root").String(),
	}
	if !p.input.Truthy() || !p.body.Truthy() || !p.opSel.Truthy() {
		showFatal(doc, fmt.Errorf("the review page has no #review-input, #review-op or #review-body"))
		return
	}
	if engine := js.Global().Get("mcplabEngine"); engine.Truthy() {
		engine.Set("budgetMs", reviewPartBudgetMs)
	}
	fail := p.fail
	On(ByID(doc, "review-run"), "click", fail, func(js.Value) { p.run() })
	On(p.opSel, "change", fail, func(js.Value) { p.run() })
	On(p.input, "input", fail, func(js.Value) {
		p.edited = true
		p.listCalls()
	})
	On(p.input, "keydown", fail, func(ev js.Value) {
		if ev.Get("key").String() == "Enter" && (ev.Get("ctrlKey").Truthy() || ev.Get("metaKey").Truthy()) {
			ev.Call("preventDefault")
			p.run()
		}
	})
	On(ByID(doc, "review-error-goto"), "click", fail, func(js.Value) { p.showErrorInEditor() })
	On(ByID(doc, "review-copy-link"), "click", fail, func(js.Value) {
		CopyText(p.link.Get("value").String(), p.link, fail, p.say)
	})
	On(ByID(doc, "review-copy-md"), "click", fail, func(js.Value) {
		md := ByID(doc, "review-markdown")
		CopyText(md.Get("value").String(), md, fail, p.say)
	})
	On(js.Global(), "hashchange", fail, func(js.Value) { p.open() })
	p.link.Set("value", js.Global().Get("location").Get("href").String())
	Enable(doc, "review-input", "review-op", "review-run", "review-copy-link", "review-copy-md")
	if !p.open() {
		p.say(liveText)
		markReady(doc, fail)
	}
}

// liveText is what #lab-status says once the page is wired.
const liveText = "Live: edit the scenario or paste your own, pick the call and press Review (Ctrl+Enter). The review runs in your browser."

// open reviews what the address's fragment names (#s=... or #example=...,
// with &op=ID), and reports whether it named anything. A link that cannot
// be read says why and shows no review (showNothing): the one prerendered
// is of the page's own scenario, not the link's, as the playground shows
// no run for such a link; the editor keeps the page's scenario, which
// Review reviews.
func (p *reviewPage) open() bool {
	hash := js.Global().Get("location").Get("hash").String()
	share, op := review.SplitLink(hash)
	if !isShareHash(share) {
		return false
	}
	text, err := linkText(share)
	if err != nil {
		ShowLabError(p.doc, "This link cannot be opened: "+err.Error()+".")
		p.name("", "link that cannot be opened", "")
		p.empty = true
		p.showNothing()
		p.body.Get("dataset").Set("state", "error")
		SetStatus(p.doc, "error", "The link cannot be opened, so nothing was reviewed. The editor holds this page's own scenario: press Review (Ctrl+Enter) to review it, or paste yours.")
		markReady(p.doc, p.fail)
		return true
	}
	p.input.Set("value", text)
	name := ""
	if l, err := scenario.ParseLink(share); err == nil {
		name = l.Example
	}
	p.name(name, "linked scenario", text)
	p.empty = true
	p.setOps([]string{op}, op)
	p.run()
	return true
}

// name makes the page say which scenario it reviews: the document title
// (its title, or other) and the breadcrumb name it (the built-in's name,
// or other: "linked scenario" for a link, "your scenario" for text the
// reader edited or pasted),
// and the built-in picker marks it current (aria-current, bold) or, for a
// scenario of the reader's own, none. The prerendered page names its own
// built-in, which an #example= or #s= link replaces.
func (p *reviewPage) name(example, other, text string) {
	var head struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal([]byte(text), &head)
	if head.Title == "" {
		head.Title = other
	}
	p.doc.Set("title", "Reliability review: "+head.Title+" · mcplab")
	crumb := example
	if crumb == "" {
		crumb = other
	}
	if spans := p.doc.Call("querySelectorAll", "#review .crumbs span"); spans.Length() > 0 {
		spans.Index(spans.Length()-1).Set("textContent", crumb)
	}
	links := p.doc.Call("querySelectorAll", "#review-picker a[data-name]")
	for i := 0; i < links.Length(); i++ {
		a := links.Index(i)
		current := a.Get("dataset").Get("name").String() == example
		if current == a.Call("hasAttribute", "aria-current").Bool() {
			continue
		}
		label := a.Get("textContent").String()
		if current {
			a.Call("setAttribute", "aria-current", "page")
			strong := p.doc.Call("createElement", "strong")
			strong.Set("textContent", label)
			a.Set("textContent", "")
			a.Call("appendChild", strong)
		} else {
			a.Call("removeAttribute", "aria-current")
			a.Set("textContent", label)
		}
	}
}

// listCalls asks the worker for the calls of the text as it is now: the
// picker lists them (the selected one kept when it is still there) and an
// invalid text shows its located error while the user types.
func (p *reviewPage) listCalls() {
	text := p.input.Get("value").String()
	Ask(protocol.ReviewRequest{Action: protocol.ReviewCalls, Text: text}.Fields(), p.fail, func(r Answer) {
		if r.Stopped() > 0 || text != p.input.Get("value").String() {
			return // a newer edit asks again
		}
		reply := protocol.ReadReviewCallList(r.Object())
		if reply.Err != nil && reply.Err.Kind != protocol.KindInternal && reply.Err.Kind != protocol.KindWorkerStopped {
			p.showError(editorError(reply.Err))
			// No calls to pick in a text that does not read: the
			// picker is emptied, not left on the last scenario's.
			p.setOps(nil, "")
			p.opSel.Set("disabled", true)
			return
		}
		if reply.Err != nil {
			return
		}
		p.clearError()
		p.opSel.Set("disabled", false)
		if p.edited {
			p.name("", "your scenario", text)
		}
		list := reply.Ops
		cur := p.opSel.Get("value").String()
		keep := slices.Contains(list, cur)
		if !keep && len(list) > 0 {
			cur = list[0]
		}
		p.setOps(list, cur)
		p.edited = false
	})
}

// run asks the worker to review the editor's scenario and the selected
// call, then to run each part in turn.
func (p *reviewPage) run() {
	p.gen++
	gen := p.gen
	ShowLabError(p.doc, "")
	p.body.Get("dataset").Set("stale", "1")
	p.body.Get("dataset").Set("state", "running")
	p.showProgress(0, 0, "Starting the review…")
	base := js.Global().Get("URL").New(p.root+"playground/", js.Global().Get("location").Get("href")).Get("href").String()
	req := protocol.ReviewRequest{Action: protocol.ReviewStart, Text: p.input.Get("value").String(), Op: p.opSel.Get("value").String(), LinkBase: base, OpMayBeStale: p.edited}
	Ask(req.Fields(), p.fail, func(r Answer) {
		if gen != p.gen {
			return
		}
		reply := protocol.ReadReviewStarted(r.Object())
		switch e := reply.Err; {
		case r.Stopped() > 0:
			p.stop(StoppedText(r.Stopped()))
			return
		case e != nil && e.Kind != protocol.KindInternal && e.Kind != protocol.KindWorkerStopped:
			p.showError(editorError(e))
			if reply.Ops != nil {
				// A call the scenario lacks (a link's &op=): the picker
				// lists the calls it has, none chosen.
				p.setOps(reply.Ops, "")
			}
			p.stop("")
			return
		case e != nil:
			p.stop("The review failed: " + e.Message)
			return
		}
		p.clearError()
		p.edited = false
		list, op := reply.Ops, reply.Op
		p.setOps(list, op)
		frag := reply.Fragment
		if len(list) > 0 && op != list[0] { // the first call needs no &op=
			frag = review.LinkFragment(frag, op)
		}
		p.step(gen, reply.Token, reply.Parts, frag)
	})
}

// step asks for the next part of review token and shows the progress;
// after the last it shows the review and rewrites the address bar to the
// review's link (fragment frag).
func (p *reviewPage) step(gen, token int, parts []string, frag string) {
	Ask(protocol.ReviewRequest{Action: protocol.ReviewStep, Token: token, Root: p.root}.Fields(), p.fail, func(r Answer) {
		if gen != p.gen {
			return
		}
		switch {
		case r.Stopped() > 0:
			p.stop(StoppedText(r.Stopped()))
			return
		case r.Err != nil:
			p.stop("The review failed: " + r.Err.Message)
			return
		}
		reply := protocol.ReadReviewProgress(r.Object())
		n, runs := reply.Step, reply.Runs
		if !reply.Done {
			p.showProgress(n, runs, fmt.Sprintf("Part %d of %d done (%s): %d derived runs so far; next, %s…", n, len(parts), parts[n-1], runs, parts[n]))
			p.step(gen, token, parts, frag)
			return
		}
		if el := p.body.Get("firstElementChild"); el.Truthy() && el.Get("id").String() != "review-nothing" {
			js.Global().Call("mcplabMorph", el, reply.HTML)
		} else {
			p.body.Set("innerHTML", reply.HTML)
		}
		url := replaceFragment(frag)
		p.link.Set("value", url)
		p.empty = false
		p.body.Get("dataset").Delete("stale")
		p.body.Get("dataset").Set("state", "done")
		p.body.Get("dataset").Set("gen", strconv.Itoa(gen))
		p.showProgress(n, runs, fmt.Sprintf("Reviewed: %d parts, %d derived runs, in your browser.", n, runs))
		p.say("Reviewed request " + p.opSel.Get("value").String() + ". The address bar now carries this review: Copy link shares it.")
		markReady(p.doc, p.fail)
	})
}

// stop ends a review that did not finish: msg (if any) in #lab-error, the
// last review kept on screen, marked stale, or, while no review of the
// page's scenario has been shown (p.empty), none (showNothing); #lab-status
// says the review did not finish.
func (p *reviewPage) stop(msg string) {
	if msg != "" {
		ShowLabError(p.doc, msg)
	}
	p.progress.Set("hidden", true)
	if p.empty {
		p.showNothing()
	}
	p.body.Get("dataset").Set("state", "error")
	SetStatus(p.doc, "error", "The review did not finish; the message on the page says why. Edit the scenario or pick a call, then press Review.")
	markReady(p.doc, p.fail)
}

// showNothing takes the review prerendered for the page's own scenario
// off the page when a link's review did not run: #review-body says that
// nothing has run yet, and why is in the message above it.
func (p *reviewPage) showNothing() {
	box := p.doc.Call("createElement", "p")
	box.Set("id", "review-nothing")
	box.Set("className", "lab-error")
	strong := p.doc.Call("createElement", "strong")
	strong.Set("textContent", "Nothing has run yet.")
	box.Call("append", strong, " The link's review did not run (the message above says why); the review prerendered on this page is of another scenario, so it is not shown.")
	p.body.Call("replaceChildren", box)
	p.body.Get("dataset").Delete("stale")
}

// setOps fills #review-op with the calls (raw ids), op selected; when op
// is none of them, a first entry says no call is chosen. No calls (a text
// that does not read) leave it empty.
func (p *reviewPage) setOps(ops []string, op string) {
	p.opSel.Set("innerHTML", "")
	if len(ops) > 0 && !slices.Contains(ops, op) {
		o := p.doc.Call("createElement", "option")
		o.Set("value", "")
		o.Set("textContent", "no call chosen")
		o.Set("disabled", true)
		o.Set("selected", true)
		p.opSel.Call("appendChild", o)
	}
	for _, id := range ops {
		o := p.doc.Call("createElement", "option")
		o.Set("value", id)
		o.Set("textContent", "request "+id)
		o.Set("selected", id == op)
		p.opSel.Call("appendChild", o)
	}
}

func (p *reviewPage) showProgress(step, runs int, text string) {
	p.progress.Set("hidden", false)
	p.bar.Set("value", step)
	p.progText.Set("textContent", text)
	p.progress.Get("dataset").Set("runs", strconv.Itoa(runs))
}

func (p *reviewPage) showError(e templates.EditorError) {
	p.lastErr = e
	msg := e.Message
	if w := e.Where(); w != "" && !strings.Contains(msg, w) {
		msg = w + ": " + msg
	}
	note := ". The review below is the last one that ran."
	if p.empty {
		note = ". Nothing has run yet."
	}
	p.errText.Set("textContent", msg+note)
	p.errBox.Get("dataset").Set("path", e.Path)
	p.errBox.Set("hidden", false)
	p.errBox.Get("dataset").Set("line", strconv.Itoa(e.Line))
	p.errBox.Get("dataset").Set("col", strconv.Itoa(e.Col))
	ByID(p.doc, "review-error-goto").Set("hidden", e.Line == 0)
	p.input.Call("setAttribute", "aria-invalid", "true")
}

func (p *reviewPage) clearError() {
	p.lastErr = templates.EditorError{}
	p.errBox.Set("hidden", true)
	p.errText.Set("textContent", "")
	p.input.Call("removeAttribute", "aria-invalid")
}

// showErrorInEditor selects the error's place in the editor.
func (p *reviewPage) showErrorInEditor() {
	e := p.lastErr
	if e.Line == 0 {
		return
	}
	p.input.Call("focus")
	p.input.Call("setSelectionRange", e.Start, e.End)
	p.input.Set("scrollTop", float64(max(e.Line-4, 0))*18)
}

func (p *reviewPage) say(text string) { SetStatus(p.doc, "live", text) }

func (p *reviewPage) fail(err error) {
	ShowLabError(p.doc, "Simulator error: "+err.Error()+". The page still works; the last review is shown.")
}
