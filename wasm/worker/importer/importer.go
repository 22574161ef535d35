// Package importer answers the transcript import page's requests in the
// engine worker (protocol.ImportRequest): only import.wasm links it, and
// with it the transcript reader.
package importer

import (
	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

// Server is the import page's server in the worker. It keeps the last
// import: its transcript, options and trace, so turning the page of the
// same transcript, or asking for its link, costs no import.
type Server struct {
	// Charts are the summary charts an imported trace can have
	// (templates.TranscriptCharts: none).
	Charts templates.Drawing

	text string
	opts [5]string // side, observer, zone, latency, maxTimeout
	tr   *trace.Trace
}

// WindowEvents is how many events of an imported trace the import page
// shows at once (250): a 20,000-line transcript would otherwise put about
// 70 MB of HTML in the page, which takes the browser seconds to parse and
// lay out; 250 events keep one window near 0.6 MB of HTML.
const WindowEvents = 250

// Import answers a protocol.ImportRequest: the transcript imported
// (transcript.Import, options read by transcript.OptionsOf: a bad one is
// a KindInvalid error), and one window of its events rendered, the
// checks judged on the whole trace. The scenario link comes only when the
// trace fits in one window: for a longer one it costs seconds (20,000
// events, 7.5 s natively), so the page asks for it with Link when the
// link is followed.
func (s *Server) Import(o protocol.Object) protocol.Reply {
	req := protocol.ReadImportRequest(o)
	opts := [5]string{req.Side, req.Observer, req.Zone, req.Latency, req.MaxTimeout}
	if s.tr == nil || s.text != req.Text || s.opts != opts {
		s.tr = nil
		o, err := transcript.OptionsOf(opts[0], opts[1], opts[2], opts[3], opts[4])
		if err != nil {
			return protocol.ImportReply{Err: protocol.Fail(err, protocol.Place{})}
		}
		tr, err := transcript.Import([]byte(req.Text), o)
		if err != nil {
			return protocol.ImportReply{Err: protocol.Fail(err, protocol.Place{})}
		}
		s.text, s.opts, s.tr = req.Text, opts, tr
	}
	tr := s.tr
	if req.Link {
		frag, err := transcript.ShareFragment(tr, req.Redact)
		if err != nil {
			return protocol.ImportReply{Err: protocol.Fail(err, protocol.Place{})}
		}
		return protocol.ImportReply{Fragment: frag}
	}
	shown, win := WindowOf(tr, req.Window)
	head, err := worker.RenderHTML(templates.ImportHead(tr))
	if err != nil {
		return protocol.ImportReply{Err: protocol.Internal("rendering the trace", err)}
	}
	out, err := worker.Render(s.Charts, shown)
	if err != nil {
		return protocol.ImportReply{Err: protocol.Internal("rendering the trace", err)}
	}
	reply := protocol.ImportReply{Head: head, HeadSum: worker.HTMLSum(head), Out: out, Window: win}
	if shown == tr {
		if frag, err := transcript.ShareFragment(tr, req.Redact); err == nil {
			reply.Fragment = frag
		}
	}
	return reply
}

// WindowOf is the part of tr the import page shows as window index (of
// WindowEvents events, clamped to the last): tr itself when it has no
// more events than that; else a copy with those events and the requests
// they concern, the checks judged on the whole trace.
func WindowOf(tr *trace.Trace, index int) (*trace.Trace, protocol.Window) {
	n := len(tr.Events)
	count := max(1, (n+WindowEvents-1)/WindowEvents)
	index = min(max(index, 0), count-1)
	lo, hi := index*WindowEvents, min(n, (index+1)*WindowEvents)
	win := protocol.Window{Index: index, Count: count, First: lo + 1, Last: hi, Total: n}
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

// ImportJSON is mcplab.import(text, side): the trace JSON of a transcript
// (transcript.Import; side "client", "server" or "" to infer).
func ImportJSON(text, side string) (string, error) {
	tr, err := transcript.Import([]byte(text), transcript.Options{Side: side})
	if err != nil {
		return "", err
	}
	out, err := engine.Encode(tr)
	return string(out), err
}
