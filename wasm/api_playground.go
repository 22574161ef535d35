//go:build js && wasm && !transcript && (playground || ledger)

package main

import (
	"errors"
	"syscall/js"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// The playground's requests to the worker (playground.go asks them). Not
// in import.wasm (-tags transcript), which has no playground.

func init() { servers["playground"] = servePlayground }

// servePlayground answers the playground: req.text is the editor's text,
// req.controls asks for the control panel too. It runs the text's
// canonical form through the one entry (what the link carries, keys sorted
// inside arguments and results too, so this tab shows exactly the trace
// the link replays anywhere) and renders it. A scenario error is located
// in the text as typed. The reply is one of
//
//	{out: outputReply, title, canon, fragment, controls?: panel HTML}
//	{editorError: {message, path, line, col, start, end}, fragment}   (templates.EditorError; shareOf)
//	{noLedger: true, canon}   the scenario needs ledger.wasm (engine.ErrNoLedger)
func servePlayground(req js.Value) map[string]any {
	text := []byte(req.Get("text").String())
	res, err := entry.Run(text, entry.Document{Options: options, Canonical: true})
	if errors.Is(err, engine.ErrNoLedger) {
		// The text decoded, so it has a canonical form: the link the page
		// reloads with, into ledger.wasm.
		canon, _ := scenario.Canonical(text)
		return map[string]any{"noLedger": true, "canon": string(canon), "editorError": editorError(templates.EditorError{Message: err.Error()})}
	}
	if err != nil {
		// A run's error (a bound, an internal error) has no place: its
		// message alone. The reply still carries the text's link: the
		// page shares what its editor holds, not the last run.
		r := editorReply(templates.LocateError(text, err))
		r["fragment"] = shareOf(text)
		return r
	}
	s, canon, tr := res.Scenario, res.Canonical, res.Trace
	out, err := outputReply(tr)
	if err != nil {
		return editorReply(templates.EditorError{Message: "rendering the trace: " + err.Error()})
	}
	r := map[string]any{"out": out, "title": s.Title, "canon": string(canon)}
	if frag, err := scenario.ShareFragment(canon); err == nil {
		r["fragment"] = frag
	}
	if req.Get("controls").Truthy() {
		if panel, err := renderHTML(templates.ControlPanel(templates.NewControls(tr.Scenario, tr.EndMs))); err == nil {
			r["controls"] = panel
		}
	}
	return r
}

// shareOf is the share fragment ("s=...") of the editor's text, run or
// not: its canonical link when it is JSON, else the text as typed
// (scenario.ShareText), which the link opens with its error; "" past
// scenario.MaxBytes (1 MiB), which no link opens.
func shareOf(text []byte) string {
	if len(text) > scenario.MaxBytes {
		return ""
	}
	if f, err := scenario.ShareFragment(text); err == nil {
		return f
	}
	return scenario.ShareText(text)
}

func editorReply(e templates.EditorError) map[string]any {
	return map[string]any{"editorError": editorError(e)}
}

func editorError(e templates.EditorError) map[string]any {
	return map[string]any{"message": e.Message, "path": e.Path, "line": e.Line, "col": e.Col, "start": e.Start, "end": e.End}
}

// readEditorError reads editorError's object back on the page.
func readEditorError(v js.Value) templates.EditorError {
	return templates.EditorError{
		Message: v.Get("message").String(), Path: v.Get("path").String(),
		Line: v.Get("line").Int(), Col: v.Get("col").Int(), Start: v.Get("start").Int(), End: v.Get("end").Int(),
	}
}
