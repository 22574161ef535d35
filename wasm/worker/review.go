package worker

import (
	"errors"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// reviewing is the review in progress in this worker: its Stepper and the
// token the page names it by (a newer start replaces it). A review is
// some twenty-five derived runs, so the worker runs it one part at a
// time (review.Parts), answering after each; a worker stopped past its
// budget loses it, and the page says so.
type reviewing struct {
	token int
	st    *review.Stepper
	title string
}

// Review answers a protocol.ReviewRequest by its action: ReviewStart
// (protocol.ReviewStarted), ReviewCalls (protocol.ReviewCallList) or
// ReviewStep (protocol.ReviewProgress).
func (s *Server) Review(o protocol.Object) protocol.Reply {
	req := protocol.ReadReviewRequest(o)
	switch req.Action {
	case protocol.ReviewStart:
		return s.reviewStart(req)
	case protocol.ReviewStep:
		return s.reviewStep(req)
	case protocol.ReviewCalls:
		text := []byte(req.Text)
		sc, err := scenario.Decode(text)
		if err != nil {
			return protocol.ReviewCallList{Err: Located(text, err)}
		}
		return protocol.ReviewCallList{Ops: callIDs(sc)}
	}
	return protocol.Failure{Err: &protocol.Error{Kind: protocol.KindInternal, Message: "the review page asked for no known action"}}
}

// reviewStart starts a review of the text's canonical form (what the
// link carries, so the link reproduces exactly this review anywhere).
func (s *Server) reviewStart(req protocol.ReviewRequest) protocol.Reply {
	text := []byte(req.Text)
	res, err := entry.Decode(text, entry.Document{Canonical: true})
	if err != nil {
		return protocol.ReviewStarted{Err: Located(text, err)}
	}
	sc := res.Scenario
	base := req.LinkBase
	if sc.Ledger != nil {
		base += "?ledger=1"
	}
	o := review.Options{Op: req.Op, Engine: s.Options, LinkBase: base}
	st, err := review.Start(sc, o)
	if errors.Is(err, review.ErrNoCall) && req.Op != "" && req.OpMayBeStale {
		// The picker listed the calls of the text before an edit, which
		// has no such call now: review its first call instead.
		o.Op = ""
		st, err = review.Start(sc, o)
	}
	if err != nil {
		reply := protocol.ReviewStarted{Err: Located(text, err)}
		if errors.Is(err, review.ErrNoCall) {
			reply.Ops = callIDs(sc) // the calls it has, for the picker
		}
		return reply
	}
	s.reviewing.token++
	s.reviewing.st, s.reviewing.title = st, sc.Title
	reply := protocol.ReviewStarted{Token: s.reviewing.token, Parts: append([]string(nil), review.Parts...), Ops: callIDs(sc), Op: st.Operation().ID.Raw(), Title: sc.Title}
	if frag, err := scenario.ShareFragment(res.Canonical); err == nil {
		reply.Fragment = frag
	}
	return reply
}

// errReviewGone is a step of a review this worker no longer holds.
const errReviewGone = "this review is no longer in the simulator (it was replaced or the worker restarted); press Review again"

// reviewStep runs the next part of the review the request names.
func (s *Server) reviewStep(req protocol.ReviewRequest) protocol.Reply {
	st := s.reviewing.st
	if st == nil || req.Token != s.reviewing.token {
		return protocol.ReviewProgress{Err: &protocol.Error{Kind: protocol.KindInvalid, Message: errReviewGone}}
	}
	if err := st.Next(); err != nil {
		s.reviewing.st = nil
		return protocol.ReviewProgress{Err: protocol.Fail(err, protocol.Place{})}
	}
	reply := protocol.ReviewProgress{Step: st.Step(), Runs: st.Runs(), Done: st.Done()}
	if !st.Done() {
		return reply
	}
	s.reviewing.st = nil
	rep := st.Report()
	md := review.Markdown(rep)
	html, err := RenderHTML(templates.ReviewBody(templates.NewReviewView(req.Root, "", s.reviewing.title, "", rep, md, nil)))
	if err != nil {
		return protocol.ReviewProgress{Err: protocol.Internal("rendering the review", err)}
	}
	reply.HTML, reply.Markdown = html, md
	return reply
}

// callIDs lists sc's calls (review.Calls), raw ids, for the page's picker.
func callIDs(sc *scenario.Scenario) []string {
	ops := []string{}
	for _, id := range review.Calls(sc) {
		ops = append(ops, id.Raw())
	}
	return ops
}
