//go:build js && wasm && ledger && !transcript

package main

import (
	"errors"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// The review page's requests to the worker (review.go asks them). Only in
// ledger.wasm: a review's idempotency runs need the real SQLite ledger, and
// the other binaries stay as they are.
//
// A review is some twenty-five derived runs, so the worker runs it one part
// at a time (review.Stepper, review.Parts), answering after each: the page
// shows the progress and asks for the next part, and never waits on one
// long request. The review being made lives here, in the worker, between
// requests; a worker stopped past its budget loses it, and the page says so.

func init() { servers["review"] = serveReview }

// reviewing is the review in progress in this worker: its Stepper and the
// token the page names it by (a newer start replaces it).
var reviewing struct {
	token int
	st    *review.Stepper
	title string
}

// serveReview answers the review page. req.action is
//
//	"start": req.text is the scenario, req.op the call ("" = the first;
//	  with req.opMayBeStale, the first also when the text has no call
//	  req.op, which the picker listed before an edit), req.linkBase the absolute playground URL the run links open (with
//	  ?ledger=1 added when the scenario has a ledger). The reply is
//	  {token, parts: [names], ops: [raw ids], op, fragment, title} or
//	  {editorError} (templates.EditorError: a located scenario error, or
//	  no call to review, then with {ops}: the calls it has);
//	"calls": req.text is the scenario being edited; the reply is {ops}
//	  (its calls, raw ids) or {editorError}, for the picker and the
//	  located error while the user types;
//	"step": req.token names the review; runs its next part. The reply is
//	  {step, runs, done} and, once done, {html: templates.ReviewBody,
//	  markdown}; or {error} (a derived run's error, or a review this
//	  worker no longer holds).
func serveReview(req js.Value) map[string]any {
	switch req.Get("action").String() {
	case "start":
		return reviewStart(req)
	case "step":
		return reviewStep(req)
	case "calls":
		return reviewCalls(req)
	}
	return map[string]any{"error": "the review page asked for no known action"}
}

func reviewStart(req js.Value) map[string]any {
	text := []byte(req.Get("text").String())
	// Review the canonical form: what the link carries, so the link
	// reproduces exactly this review anywhere. The review runs its own
	// variants, so the entry decodes only.
	res, err := entry.Decode(text, entry.Document{Canonical: true})
	if err != nil {
		return editorReply(templates.LocateError(text, err))
	}
	s, canon := res.Scenario, res.Canonical
	base := req.Get("linkBase").String()
	if s.Ledger != nil {
		base += "?ledger=1"
	}
	op := req.Get("op").String()
	o := review.Options{Op: op, Engine: options, LinkBase: base}
	st, err := review.Start(s, o)
	if errors.Is(err, review.ErrNoCall) && op != "" && req.Get("opMayBeStale").Truthy() {
		// The picker listed the calls of the text before an edit, which
		// has no such call now: review its first call instead.
		o.Op = ""
		st, err = review.Start(s, o)
	}
	if err != nil {
		r := editorReply(templates.LocateError(text, err))
		if errors.Is(err, review.ErrNoCall) {
			r["ops"] = callIDs(s) // the calls it has, for the picker
		}
		return r
	}
	reviewing.token++
	reviewing.st, reviewing.title = st, s.Title
	ops := callIDs(s)
	parts := make([]any, len(review.Parts))
	for i, p := range review.Parts {
		parts[i] = p
	}
	r := map[string]any{"token": reviewing.token, "parts": parts, "ops": ops, "op": st.Operation().ID.Raw(), "title": s.Title}
	if frag, err := scenario.ShareFragment(canon); err == nil {
		r["fragment"] = frag
	}
	return r
}

func reviewStep(req js.Value) map[string]any {
	st := reviewing.st
	if st == nil || req.Get("token").Int() != reviewing.token {
		return map[string]any{"error": "this review is no longer in the simulator (it was replaced or the worker restarted); press Review again"}
	}
	if err := st.Next(); err != nil {
		reviewing.st = nil
		return map[string]any{"error": err.Error()}
	}
	r := map[string]any{"step": st.Step(), "runs": st.Runs(), "done": st.Done()}
	if !st.Done() {
		return r
	}
	reviewing.st = nil
	rep := st.Report()
	md := review.Markdown(rep)
	html, err := renderHTML(templates.ReviewBody(templates.NewReviewView(req.Get("root").String(), "", reviewing.title, "", rep, md, nil)))
	if err != nil {
		return map[string]any{"error": errors.Join(errors.New("rendering the review"), err).Error()}
	}
	r["html"], r["markdown"] = html, md
	return r
}

func reviewCalls(req js.Value) map[string]any {
	text := []byte(req.Get("text").String())
	s, err := scenario.Decode(text)
	if err != nil {
		return editorReply(templates.LocateError(text, err))
	}
	return map[string]any{"ops": callIDs(s)}
}

// callIDs lists s's calls (review.Calls), raw ids, for the page's picker.
func callIDs(s *scenario.Scenario) []any {
	ops := []any{}
	for _, id := range review.Calls(s) {
		ops = append(ops, id.Raw())
	}
	return ops
}
