//go:build js && wasm

package page

import (
	"bytes"
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/worker"
)

// The playground's links: the fragment a page is opened with (linkText),
// the address bar and the share, embed and "open full" fields rewritten
// once edits pause (shareLater, shareNow), and the reload into the ledger
// build when a scenario needs SQLite (switchToLedger).

// linkText returns the editor text a fragment names: a built-in example's
// file as shipped, or the shared text (worker.EditorText: as written, an
// old canonical link indented).
func linkText(hash string) (string, error) {
	l, err := scenario.ParseLink(hash)
	if err != nil {
		return "", err
	}
	text, err := examples.Open(l)
	if err != nil || l.Example != "" {
		return string(text), err
	}
	return worker.EditorText(text), nil
}

// builtinOf names the built-in scenario the editor holds after opening
// hash: the one #example=NAME names, else the one whose file is text
// exactly (a link the playground made of an unedited built-in, reopened
// by Back after the picker opened another), else "".
func builtinOf(hash, text string) string {
	if name, ok := strings.CutPrefix(hash, "#example="); ok {
		return name
	}
	for _, ex := range examples.All() {
		if string(ex.JSON) == text {
			return ex.Name
		}
	}
	return ""
}

// isShareHash reports whether a fragment is a share link the playground
// opens (#s=... or #example=...), rather than an in-page anchor.
func isShareHash(hash string) bool {
	return strings.HasPrefix(hash, "#s=") || strings.HasPrefix(hash, "#example=")
}

// shareLater rewrites the link after the edits pause (shareDelayMs), so a
// slider being dragged spends its frames on the run, not on compressing
// the link; shareNow does it at once.
func (p *playground) shareLater() {
	if p.shareTimer.Truthy() {
		return // one is pending; it shares the latest text
	}
	if p.shareFn.IsUndefined() {
		p.shareFn = js.FuncOf(func(js.Value, []js.Value) any {
			defer bridge.Recover(p.fail)
			p.shareTimer = js.Null()
			p.shareNow()
			return nil
		})
	}
	p.shareTimer = js.Global().Call("setTimeout", p.shareFn, shareDelayMs)
}

// shareDelayMs is how long after an edit the address bar is rewritten.
const shareDelayMs = 150

// shareNow rewrites the address bar to the #s= link of the editor's text
// as last sent (worker.ShareOf: the text as written, even invalid or past a bound),
// and the link, embed and "open full" fields with it; past MaxBytes (no
// fragment) the fields are emptied, so they never share another scenario.
func (p *playground) shareNow() {
	p.pane.flush() // the link never runs ahead of the tables
	frag := p.fragment
	if frag == "" {
		p.link.Set("value", "")
		p.embedBox.Set("value", "")
		return
	}
	url := replaceFragment(frag)
	p.link.Set("value", url)
	loc := js.Global().Get("location")
	src := loc.Get("origin").String() + loc.Get("pathname").String() + "?embed=1"
	if ledgerBuild() {
		src += "&ledger=1"
	}
	p.embed = templates.NewEmbed(src+"#"+frag, p.shareTitle)
	p.showEmbed()
	if full := ByID(p.doc, "pg-open-full"); full.Truthy() {
		full.Set("href", loc.Get("pathname").String()+"#"+frag)
	}
}

// switchToLedger reloads the page with ?ledger=1 (ledger.wasm, which has
// SQLite) when this binary lacks the ledger, carrying canon, the canonical
// scenario that needs it, in the fragment: the address bar still holds the
// previous scenario's link when one is pasted or opened from a file, and
// reloading with that would drop what the reader gave. False when it
// already is that page.
func switchToLedger(canon []byte) bool {
	loc := js.Global().Get("location")
	if ledgerBuild() {
		return false
	}
	hash := loc.Get("hash").String()
	if !linkHolds(hash, canon) {
		if frag, err := scenario.ShareFragment(canon); err == nil {
			hash = "#" + frag
		}
	}
	// set replaces every ledger value (?ledger=0 becomes ?ledger=1, never
	// ?ledger=0&ledger=1, which app.js would read as 0).
	q := js.Global().Get("URLSearchParams").New(loc.Get("search"))
	q.Call("set", "ledger", "1")
	loc.Call("replace", loc.Get("pathname").String()+"?"+q.Call("toString").String()+hash)
	return true
}

// ledgerBuild reports whether the address asks for ledger.wasm: the first
// value of its query's "ledger" is "1", read as app.js reads it
// (URLSearchParams.get), so the two never disagree on which build runs.
func ledgerBuild() bool {
	v := js.Global().Get("URLSearchParams").New(js.Global().Get("location").Get("search")).Call("get", "ledger")
	return v.Type() == js.TypeString && v.String() == "1"
}

// linkHolds reports whether the fragment hash (#s=... or #example=NAME)
// describes the scenario whose canonical form is canon, so a reload keeps
// the link the reader came with (#example=NAME stays readable).
func linkHolds(hash string, canon []byte) bool {
	text, err := linkText(hash)
	if err != nil {
		return false
	}
	c, err := scenario.Canonical([]byte(text))
	return err == nil && bytes.Equal(c, canon)
}

func (p *playground) showEmbed() {
	switch p.embedSel.Get("value").String() {
	case "mdx":
		p.embedBox.Set("value", p.embed.MDX)
	case "myst":
		p.embedBox.Set("value", p.embed.MyST)
	default:
		p.embedBox.Set("value", p.embed.HTML)
	}
}

// slug turns a title into a file name: lower-case letters, digits and
// dashes, "scenario" when nothing is left.
func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "scenario"
	}
	return s
}
