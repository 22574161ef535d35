//go:build js && wasm

package page

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/wasm/bridge"
)

// DOM helpers shared by the pages' glue.

// ByID returns document.getElementById(id) (undefined-safe: check Truthy).
func ByID(doc js.Value, id string) js.Value { return doc.Call("getElementById", id) }

// ByIDIn returns the element with id id inside el (null if none).
func ByIDIn(el js.Value, id string) js.Value { return el.Call("querySelector", `[id="`+id+`"]`) }

// On adds an event listener whose handler runs under recover: a panic in
// it becomes fail(err), never a dead page.
func On(el js.Value, event string, fail func(error), handler func(ev js.Value)) {
	if !el.Truthy() {
		return
	}
	el.Call("addEventListener", event, js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer bridge.Recover(fail)
		var ev js.Value
		if len(args) > 0 {
			ev = args[0]
		}
		handler(ev)
		return nil
	}))
}

// then attaches fulfilment and rejection handlers to a promise, both under
// recover; a rejection goes to rejected with the reason's message.
func then(promise js.Value, fail func(error), fulfilled func(v js.Value), rejected func(msg string)) {
	var ok, bad js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer ok.Release()
		defer bad.Release()
		defer bridge.Recover(fail)
		var v js.Value
		if len(args) > 0 {
			v = args[0]
		}
		fulfilled(v)
		return nil
	})
	bad = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer ok.Release()
		defer bad.Release()
		defer bridge.Recover(fail)
		msg := "unknown error"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		rejected(msg)
		return nil
	})
	promise.Call("then", ok, bad)
}

// replaceFragment rewrites the address bar's fragment without a new
// history entry or a hashchange event, and returns the new URL. The
// address bar follows at once, or, when it changed less than
// addressEveryMs ago, at the end of that time, to the newest URL asked
// for by then (address).
func replaceFragment(frag string) string {
	loc := js.Global().Get("location")
	url := loc.Get("origin").String() + loc.Get("pathname").String() + loc.Get("search").String() + "#" + frag
	address.set(url)
	return url
}

// addressEveryMs is the least time between two rewrites of the address
// bar (history.replaceState), 250 ms: a control dragged for a while
// re-runs the scenario many times a second, and browsers refuse more than
// a few hundred rewrites in a few seconds (Chromium ignores those past
// 200 in 10 s, with a console warning; Safari throws past 100 in 30 s),
// which would leave the bar on a stale link. Each rewrite also costs the
// page a few ms, where a change has one frame (16 ms).
const addressEveryMs = 250

// address throttles the rewrites of the address bar (replaceFragment).
var address addressBar

// addressBar is the address bar's state: when it was last rewritten and
// the URL that waits for its turn.
type addressBar struct {
	lastMs  float64 // when the bar was last rewritten (bridge.Now()); 0: never
	pending string  // the URL it waits to show; "" for none
	waiting bool    // a timer will show pending
	timer   js.Func // shows pending; made once
}

// set shows url in the address bar now, or once addressEveryMs have passed
// since the last rewrite (and then the newest URL set by then).
func (a *addressBar) set(url string) {
	wait := a.lastMs + addressEveryMs - bridge.Now()
	if a.lastMs == 0 || wait <= 0 {
		a.pending = ""
		a.show(url)
		return
	}
	a.pending = url
	if a.waiting {
		return
	}
	if a.timer.IsUndefined() {
		a.timer = js.FuncOf(func(js.Value, []js.Value) any {
			a.waiting = false
			if url := a.pending; url != "" {
				a.pending = ""
				a.show(url)
			}
			return nil
		})
	}
	a.waiting = true
	js.Global().Call("setTimeout", a.timer, wait)
}

// show rewrites the address bar.
func (a *addressBar) show(url string) {
	a.lastMs = bridge.Now()
	js.Global().Get("history").Call("replaceState", js.Null(), "", url)
}

// CopyText puts text on the clipboard and reports in status what happened;
// where the clipboard is refused (no permission, not a secure context) it
// selects the field instead so Ctrl+C copies it.
func CopyText(text string, field js.Value, fail func(error), say func(string)) {
	clip := js.Global().Get("navigator").Get("clipboard")
	fallback := func(string) {
		if field.Truthy() {
			field.Call("focus")
			field.Call("select")
		}
		say("Selected: press Ctrl+C (⌘C) to copy.")
	}
	if !clip.Truthy() {
		fallback("")
		return
	}
	then(clip.Call("writeText", text), fail, func(js.Value) { say("Copied.") }, fallback)
}

// download offers text as a file called name.
func download(doc js.Value, name, mime, text string) {
	blob := js.Global().Get("Blob").New(js.ValueOf([]any{text}), js.ValueOf(map[string]any{"type": mime}))
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	a := doc.Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	js.Global().Get("URL").Call("revokeObjectURL", url)
}

// ReadFile reads the first file of a FileList (an <input type=file> or a
// drop) as text, refusing one larger than limit bytes.
func ReadFile(files js.Value, limit int, fail func(error), done func(name, text string), bad func(msg string)) {
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	f := files.Index(0)
	name := f.Get("name").String()
	if size := f.Get("size").Int(); size > limit {
		bad(name + " is " + strconv.Itoa(size) + " bytes; the limit is " + strconv.Itoa(limit) + ".")
		return
	}
	then(f.Call("text"), fail, func(v js.Value) { done(name, v.String()) }, func(msg string) { bad("cannot read " + name + ": " + msg) })
}

// SetStatus writes a page's #lab-status line.
func SetStatus(doc js.Value, state, text string) {
	if st := ByID(doc, "lab-status"); st.Truthy() {
		st.Set("textContent", text)
		st.Get("dataset").Set("state", state)
	}
}

// ShowLabError shows (or, with "", hides) a page's #lab-error box.
func ShowLabError(doc js.Value, text string) {
	box := ByID(doc, "lab-error")
	if !box.Truthy() {
		return
	}
	box.Set("textContent", text)
	box.Set("hidden", text == "")
}

// Enable turns on the elements with the given ids (disabled until the wasm
// runs).
func Enable(doc js.Value, ids ...string) {
	for _, id := range ids {
		if el := ByID(doc, id); el.Truthy() {
			el.Set("disabled", false)
		}
	}
}

// KeepAnchors makes in-page links to events (#event-N) inside container
// scroll to and highlight their row without touching the fragment, which
// holds the page's share link.
func KeepAnchors(doc, container js.Value, fail func(error)) {
	On(container, "click", fail, func(ev js.Value) {
		a := ev.Get("target").Call("closest", `a[href^="#event-"]`)
		if !a.Truthy() {
			return
		}
		ev.Call("preventDefault")
		row := ByID(doc, strings.TrimPrefix(a.Call("getAttribute", "href").String(), "#"))
		if !row.Truthy() {
			return
		}
		old := doc.Call("querySelectorAll", ".targeted")
		for i := 0; i < old.Length(); i++ {
			old.Index(i).Get("classList").Call("remove", "targeted")
		}
		row.Get("classList").Call("add", "targeted")
		behavior := "smooth"
		if js.Global().Call("matchMedia", "(prefers-reduced-motion: reduce)").Get("matches").Truthy() {
			behavior = "auto"
		}
		row.Call("scrollIntoView", js.ValueOf(map[string]any{"block": "center", "behavior": behavior}))
	})
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

// ShowFatal is showFatal for a binary's main (bridge.Binary.Fatal).
func ShowFatal(doc js.Value, err error) { showFatal(doc, err) }

// TrimFragment is href without its fragment.
func TrimFragment(href string) string {
	if i := strings.IndexByte(href, '#'); i >= 0 {
		return href[:i]
	}
	return href
}
