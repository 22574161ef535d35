package worker

import (
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// Playground answers a protocol.PlaygroundRequest: it runs the text's
// canonical form through the one entry (what the link carries, so this
// tab shows exactly the trace the link replays anywhere) and renders it.
// A scenario error is located in the text as typed; every reply carries
// the text's share fragment, run or not (the page shares what its editor
// holds, not the last run).
func (s *Server) Playground(o protocol.Object) protocol.Reply {
	req := protocol.ReadPlaygroundRequest(o)
	text := []byte(req.Text)
	res, err := entry.Run(text, entry.Document{Options: s.Options, Canonical: true})
	if err != nil {
		reply := protocol.PlaygroundReply{Err: Located(text, err)}
		if reply.Err.Kind == protocol.KindNoLedger {
			// The text decoded, so it has a canonical form: the link the
			// page reloads with, into ledger.wasm.
			canon, _ := scenario.Canonical(text)
			reply.Canon = string(canon)
			return reply
		}
		reply.Fragment = ShareOf(text)
		return reply
	}
	out, err := Render(res.Trace)
	if err != nil {
		return protocol.PlaygroundReply{Err: protocol.Internal("rendering the trace", err), Fragment: ShareOf(text)}
	}
	reply := protocol.PlaygroundReply{Out: out, Title: res.Scenario.Title}
	if frag, err := scenario.ShareFragment(res.Canonical); err == nil {
		reply.Fragment = frag
	}
	if req.Controls {
		if panel, err := RenderHTML(templates.ControlPanel(templates.NewControls(res.Trace.Scenario, res.Trace.EndMs))); err == nil {
			reply.Controls = panel
		}
	}
	return reply
}

// Located is err as a protocol.Error located in text
// (templates.LocateError: a scenario error's path, line and column).
func Located(text []byte, err error) *protocol.Error {
	e := templates.LocateError(text, err)
	return protocol.Fail(err, protocol.Place{Path: e.Path, Line: e.Line, Col: e.Col, Start: e.Start, End: e.End})
}

// ShareOf is the share fragment ("s=...") of the editor's text, run or
// not: its canonical link when it is JSON, else the text as typed
// (scenario.ShareText), which the link opens with its error; "" past
// scenario.MaxBytes (1 MiB), which no link opens.
func ShareOf(text []byte) string {
	if len(text) > scenario.MaxBytes {
		return ""
	}
	if f, err := scenario.ShareFragment(text); err == nil {
		return f
	}
	return scenario.ShareText(text)
}
