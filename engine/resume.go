package engine

import (
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/trace"
)

// Resumption under 2025-11-25: package recovery states its rules (the
// Cursor, the reconnect), package sse the event store and its replay.

// prime sends r's priming event on a resumable stream (sse.Prime).
func (w *world) prime(r *request) {
	if !w.resumable() {
		return
	}
	if m, ok := sse.Prime(&w.store, r.id.Raw(), r.id.String(), r.method); ok {
		w.wireOut(r, m)
	}
}

// afterDrop: the network or a proxy closed r's response stream while the
// client waits for it (recovery.ResumeDelay).
func (w *world) afterDrop(r *request) {
	if w.resumable() && r.ls == nil && r.cl.Pending() && w.s.Client.Policy.ResumesDroppedCalls() {
		w.resumeAfter(r, recovery.ResumeDelay(w.s.Client.ID))
	}
}

// resumeAfter schedules the client's resumption of stream r delay ms from
// now (unless r ended meanwhile: timed out, cancelled, torn down) from the
// position it holds when the stream drops, and returns the Last-Event-ID
// it will send ("" for none).
func (w *world) resumeAfter(r *request, delay int64) string {
	pos := r.cursor.Position()
	token := recovery.SentLastEventID(&r.cursor, w.s.Client.Policy.ForgetResumeToken, w.s.Client.Policy.OmitLastEventID)
	w.q.Schedule(w.q.Now()+delay, func() {
		if r.cl.Pending() {
			w.resumeStream(r, token, pos, delay)
		}
	})
	return token
}

// resumeStream is the client's GET for stream r with Last-Event-ID token
// ("" for none; pos is the position it had; jsonrpc.Era.GetHeaders), and
// the server's answer one latency later (sse.ReplayUnder).
func (w *world) resumeStream(r *request, token, pos string, delay int64) {
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeReconnect, ID: idPtr(r.id), HTTPMethod: trace.HTTPGet, Headers: w.era().GetHeaders(w.sess.Client, token), Note: recovery.ReconnectNote(r.id.String(), token, pos, delay, w.s.Client.Policy.OmitLastEventID)})
	w.q.Schedule(w.q.Now()+w.s.LatencyMs.Up, func() {
		missed, e, ok := sse.ReplayUnder(&w.store, token, r.id.Raw(), r.id.String(), w.s.Server.Policy.ReplayAllStreams, w.s.Server.Policy.ReplayNothing)
		w.tell(r, e)
		if !ok {
			return
		}
		recovery.Reattach(&r.cl, &r.srv, r.ls)
		r.keepalive.Restart()
		for _, ev := range missed {
			if owner := w.reqs[ev.Stream]; ev.Data.Final && owner != nil && owner.srv.Sent == nil {
				owner.srv.Sent = ev.Data.Msg // the final response reaches the wire now
			}
			w.wireOut(r, ev.Data)
		}
	})
}
