package worker

import (
	"bytes"

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
	out, err := Render(s.Charts, res.Trace)
	if err != nil {
		return protocol.PlaygroundReply{Err: protocol.Internal("rendering the trace", err), Fragment: ShareOf(text)}
	}
	reply := protocol.PlaygroundReply{Out: out, Title: res.Scenario.Title}
	reply.Fragment = shareAsWritten(text, res.Canonical)
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
// not, carrying the text as written, so the link reopens on the same
// lines (an error where the author left it, the author's layout and
// member order): shareAsWritten when it is JSON, else the text
// (scenario.ShareText), which the link opens with its error; "" past
// scenario.MaxBytes (1 MiB), which no link opens.
func ShareOf(text []byte) string {
	if len(text) > scenario.MaxBytes {
		return ""
	}
	if canon, err := scenario.Canonical(text); err == nil {
		return shareAsWritten(text, canon)
	}
	return scenario.ShareText(text)
}

// EditorText is the editor's text for a shared scenario, the bytes a
// share link carries (scenario.Link.Scenario): the text as written
// (ShareOf keeps the author's lines), or, for a canonical link (compact
// JSON: every link of valid JSON was one before links kept the text, and
// shareAsWritten gives one for the layout below), that JSON indented for
// editing (templates.IndentScenario), so old links open as they did.
func EditorText(shared []byte) string {
	if c, err := scenario.Canonical(shared); err == nil && bytes.Equal(c, shared) {
		return templates.IndentScenario(shared)
	}
	return string(shared)
}

// shareAsWritten is the share fragment of JSON text whose canonical form
// is canon: the canonical link (scenario.ShareFragment's) when the text is
// laid out as that link opens (templates.IndentScenario), so one scenario
// kept in that layout has one link and an old link reopens on its own
// link; else the text as written, which the playground opens unchanged
// (page.linkText).
func shareAsWritten(text, canon []byte) string {
	if templates.IndentScenario(canon) == string(text) {
		return scenario.ShareText(canon)
	}
	return scenario.ShareText(text)
}
