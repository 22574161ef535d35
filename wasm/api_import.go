//go:build js && wasm && transcript

package main

import (
	"strings"
	"syscall/js"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/templates"
)

// The transcript importer's API: mcplab.import on the page, and the import
// page's requests to the worker (import.go asks them). Only in import.wasm
// (-tags transcript).

func init() {
	importAPI = jsImport
	servers["import"] = serveImport
}

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

// serveImport answers the import page: req.text is the transcript, req.side
// "client", "server" or "" to infer, req.observer, req.zone, req.latency
// and req.maxTimeout the other options as the page's fields hold them
// (transcript.OptionsOf; a bad one is the reply's error), req.redact whether the scenario link
// leaves payloads out, req.window which page of windowEvents events to
// show (0 first). The reply is
//
//	{head: templates.ImportHead HTML, headSum: its digest (htmlSum),
//	 out: outputReply of the window,
//	 window: {index, count, first, last, total},
//	 fragment?: the playground link's fragment (transcript.ShareFragment)}
//
// or {error: "message"} (transcript.Import's located error). The fragment
// comes only when the trace fits in one window: for a longer one it costs
// seconds (for 20,000 events, 7.5 s natively), so the page asks for it
// when the link is followed, with req.link true; the reply is then
// {fragment}. The last import is kept, so turning the page of the same
// transcript, or asking for its link, costs no import.
func serveImport(req js.Value) map[string]any {
	text := req.Get("text").String()
	field := func(k string) string {
		if v := req.Get(k); v.Type() == js.TypeString {
			return v.String()
		}
		return ""
	}
	// The import's options, the fields of the CLI's flags (templates'
	// importFields; transcript.OptionsOf reads both).
	side := strings.Join([]string{field("side"), field("observer"), field("zone"), field("latency"), field("maxTimeout")}, "\x00")
	if lastImport.tr == nil || lastImport.text != text || lastImport.side != side {
		lastImport.tr = nil
		opts, err := transcript.OptionsOf(field("side"), field("observer"), field("zone"), field("latency"), field("maxTimeout"))
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		tr, err := transcript.Import([]byte(text), opts)
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		lastImport.text, lastImport.side, lastImport.tr = text, side, tr
	}
	tr := lastImport.tr
	if req.Get("link").Truthy() {
		frag, err := transcript.ShareFragment(tr, req.Get("redact").Truthy())
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		return map[string]any{"fragment": frag}
	}
	index := 0
	if w := req.Get("window"); w.Type() == js.TypeNumber {
		index = w.Int()
	}
	shown, win := windowOf(tr, index)
	head, err := renderHTML(templates.ImportHead(tr))
	if err != nil {
		return map[string]any{"error": "rendering the trace: " + err.Error()}
	}
	out, err := outputReply(shown)
	if err != nil {
		return map[string]any{"error": "rendering the trace: " + err.Error()}
	}
	r := map[string]any{"head": head, "headSum": htmlSum(head), "out": out, "window": win}
	if shown != tr {
		return r
	}
	if frag, err := transcript.ShareFragment(tr, req.Get("redact").Truthy()); err == nil {
		r["fragment"] = frag
	}
	return r
}

// lastImport is the worker's last import: its transcript, options (side
// holds them all) and trace.
var lastImport struct {
	text, side string
	tr         *trace.Trace
}

// windowEvents is how many events of an imported trace the import page
// shows at once (250): a 20,000-line transcript would otherwise put about
// 70 MB of HTML in the page, every row and every timeline mark of it,
// which takes seconds for the browser to parse and lay out. 250 events
// keep one window's timeline and tables near 0.6 MB of HTML, the part drawn at once (the headline and the timeline on screen) near 0.3 MB.
const windowEvents = 250

// windowOf is the part of tr the import page shows as window index (of
// windowEvents events, clamped to the last): tr itself when it has no
// more events than that; else a copy with those events and the requests
// they concern, the checks judged on the whole trace. The second result
// describes the window for the pager: {index, count, first, last, total},
// first and last the 1-based positions of its first and last events.
func windowOf(tr *trace.Trace, index int) (*trace.Trace, map[string]any) {
	n := len(tr.Events)
	count := max(1, (n+windowEvents-1)/windowEvents)
	index = min(max(index, 0), count-1)
	lo, hi := index*windowEvents, min(n, (index+1)*windowEvents)
	win := map[string]any{"index": index, "count": count, "first": lo + 1, "last": hi, "total": n}
	if count == 1 {
		return tr, win
	}
	cp := *tr
	cp.Events = tr.Events[lo:hi]
	ids := map[string]bool{}
	for _, e := range cp.Events {
		if e.ID != nil {
			ids[e.ID.Raw()] = true
		}
	}
	cp.Requests = nil
	for _, r := range tr.Requests {
		if ids[r.ID.Raw()] {
			cp.Requests = append(cp.Requests, r)
		}
	}
	if len(cp.Events) > 0 {
		cp.EndMs = cp.Events[len(cp.Events)-1].At
	}
	return &cp, win
}
