package engine

import (
	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/handler"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/session"
	"github.com/mcplab/mcplab/engine/trace"
)

// The 2025-11-25 lifecycle's runner glue: package session decides it, through
// the world as its session.Wire (SCENARIO.md, "Sessions (2025-11-25)").

// arrive is call r reaching the server (unless its session refuses it).
func (w *world) arrive(r *request) {
	if w.sessionRefuses(r) {
		return
	}
	w.serverReceiveRequest(r)
	if r.task != "" {
		w.createTask(r) // a task-augmented call
	}
}

// lifecycle runs the 2025-11-25 handshake before t = 0, then start.
func (w *world) lifecycle(start func()) {
	if !w.is2025() {
		start()
		return
	}
	w.q.Begin(session.Start(w.s))
	w.sess.Handshake(w, start)
}

// endSession retires the session: the server forgets every call in
// flight, whose stream ends; the client meets 404 (session.Lost).
func (w *world) endSession() {
	ok, ids, works := w.sess.End(w), []string(nil), []*handler.Work(nil)
	for _, r := range w.order {
		if ok && r.ls == nil && r.srv.Arrived && !r.srv.State().Terminal() && r.cl.Pending() && !w.sess.Forgot(r.id.Raw()) {
			w.tell(r, session.Forgotten(r.id.String()))
			w.discardStream(r)
			ids, works = append(ids, r.id.Raw()), append(works, r.work)
		}
	}
	w.handlers.Forget(works...)
	w.sess.Lost(w, ids, w.reissue, w.lostCall)
}

// reissue sends call id again, once, to a fresh server half (same id,
// arguments and key); lostCall ends it for its client with the 404.
func (w *world) reissue(id string) {
	r := w.reqs[id]
	r.srv = coordinator.Server{}
	w.send(trace.ActorClient, idPtr(r.id), w.requestMessage(r), session.ReissueNote(r.id.String()), func() { w.arrive(r) })
}
func (w *world) lostCall(id string) {
	w.tell(w.reqs[id], w.reqs[id].cl.Lost(w.q.Now(), w.reqs[id].id.String(), &w.reqs[id].alarm))
}

// sessionRefuses answers r on arrival when its session cannot serve it.
func (w *world) sessionRefuses(r *request) bool {
	resp, refused := w.era().Refusal(w.era().Post(w.requestMessage(r), true, w.http(), w.sess.Client, nil))
	switch {
	case w.sess.Retired() && !w.sess.Recovering:
		w.sess.Refuse(w, r.id, w.reissue, w.lostCall)
	case w.sess.Rejects(w.q.Now()):
		w.serverReceiveRequest(r)
		w.answer(r, jsonrpc.NewError(r.id.Raw(), jsonrpc.ErrorObject{Code: jsonrpc.CodeInvalidRequest, Message: session.ErrNotInitialized}), true, session.RejectNote(r.id.String()), nil)
	case refused: // 2026-07-28: headers that disagree with the body, a revision it does not speak
		about, msg := r.srv.Refuse(w.q.Now(), idPtr(r.id), resp, w.http())
		w.sendAbout(trace.ActorServer, about, msg, jsonrpc.RefusalNote(r.id.String(), resp, w.http()), func() { w.client.response(r, true) })
	default:
		return false
	}
	return true
}
