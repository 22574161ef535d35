package protocol

import "github.com/mcplab/mcplab/engine/jsonrpc"

// Output is a rendered run (templates.Output) block by block
// (templates.OutputParts), as the page's pane draws it:
//
//	{attrs: [[name, value], ...], shell: "<div ...></div>", parts: [Part]}
//
// The page reads it apart from the rest of a reply (wasm/page's
// readOutput), keeping each HTML a JavaScript string, so a megabyte of
// SVG is never copied into the page's Go; it compares Sum digests
// instead.
type Output struct {
	Attrs [][2]string // div#output's attributes (templates.View.OutputData)
	Shell string      // div#output, empty
	Parts []Part
}

// Part is one block of an Output, or of a LabFill.
//
//	{key, later, pending?, html?, sum?, views: [View]}
//
// HTML holds a ViewSlot where each view goes. A block left for the second
// step is Pending, without HTML.
type Part struct {
	Key     string
	Later   bool // drawn after the next frame (the tables)
	Pending bool // its HTML comes in the second step (LabFill)
	HTML    string
	Sum     string // HTMLSum of HTML ("" with no HTML)
	Views   []View
}

// View is one picture of a block (of which the page shows at most one):
//
//	{id, html?, sum?, pending?}
type View struct {
	ID      string
	HTML    string
	Sum     string
	Pending bool
}

// ViewSlot stands in a block's HTML for each of its views, in order:
// site/static/app.js's mcplabMorph.whole splits a block on this same text.
const ViewSlot = "<!--mcplab-view-->"

// The fields of an Output the page reads (wasm/page's readOutput).
const (
	KeyAttrs   = "attrs"
	KeyShell   = "shell"
	KeyParts   = "parts"
	KeyKey     = "key"
	KeyLater   = "later"
	KeyPending = "pending"
	KeyHTML    = "html"
	KeySum     = "sum"
	KeyViews   = "views"
	KeyID      = "id"
)

func (w *writer) output(k string, o *Output) {
	if o == nil {
		return
	}
	w.key(k)
	w.begin()
	w.key(KeyAttrs)
	w.beginList()
	for _, a := range o.Attrs {
		w.item()
		w.beginList()
		for _, s := range a {
			w.item()
			w.b = jsonrpc.AppendString(w.b, s)
		}
		w.endList()
	}
	w.endList()
	w.str(KeyShell, o.Shell)
	w.parts(KeyParts, o.Parts)
	w.end()
}

func (w *writer) parts(k string, parts []Part) {
	w.key(k)
	w.beginList()
	for _, p := range parts {
		w.item()
		w.begin()
		w.str(KeyKey, p.Key)
		w.bool(KeyLater, p.Later)
		w.boolOpt(KeyPending, p.Pending)
		if p.Sum != "" {
			w.str(KeyHTML, p.HTML)
			w.str(KeySum, p.Sum)
		}
		w.key(KeyViews)
		w.beginList()
		for _, v := range p.Views {
			w.item()
			w.begin()
			w.str(KeyID, v.ID)
			if v.Sum != "" {
				w.str(KeyHTML, v.HTML)
				w.str(KeySum, v.Sum)
			}
			w.boolOpt(KeyPending, v.Pending)
			w.end()
		}
		w.endList()
		w.end()
	}
	w.endList()
}
