package engine

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/trace"
)

// Resumption under 2025-11-25 (DOMAIN.md §9; SCENARIO.md, "Switches for
// the failures real software shows"): the server writes every SSE event of
// every stream into its event store (sse.EventStore) under an event id; a
// request's response stream opens with a priming event that carries only
// an id; the client keeps its position per stream (recovery.Cursor) and,
// when the network or a proxy drops a stream it still waits on, reconnects
// with GET and Last-Event-ID after the reference backoff; the server
// replays the events after it and re-attaches the stream, so the call
// completes instead of staying pending. client.policy.forgetResumeToken
// and server.policy.replayAllStreams break the two halves.

// prime sends r's priming event: an SSE event with an id and empty data,
// so the client can resume the stream before any message arrives
// (2025-11-25 Streamable HTTP: the server SHOULD send it first). Only a
// tools/call stream is primed, the one that stays open while work runs: a
// listen stream's acknowledgement is its first event, and the quick reads
// (tasks/get, refetches) are answered at once.
func (w *world) prime(r *request) {
	if !w.resumable() || r.method != "tools/call" {
		return
	}
	m := w.storeEvent(r, sse.Msg{Priming: true})
	m.Note = fmt.Sprintf("The server primes request %s's stream with an SSE event that carries only its id (%s) and empty data, so the client can resume the stream with Last-Event-ID.", r.id, m.EventID)
	w.wireOut(r, m)
}

// afterDrop: the network or a proxy closed r's response stream while the
// client waits for it. Under 2025-11-25 the client resumes it after the
// reference backoff, from the position it holds when the stream drops.
func (w *world) afterDrop(r *request) {
	if !w.resumable() || r.ls != nil || !r.cl.Pending() {
		return
	}
	pos := r.cursor.Position()
	token := r.cursor.Reconnect(w.s.Client.Policy.ForgetResumeToken)
	delay := recovery.ResumeDelay(w.s.Client.ID)
	w.q.Schedule(w.q.Now()+delay, func() {
		if !r.cl.Pending() {
			return // it timed out, was cancelled or torn down meanwhile
		}
		w.resumeStream(r, token, pos, delay)
	})
}

// resumeStream is the client's GET for stream r with Last-Event-ID token
// ("" for none; pos is the position it had), and the server's answer one
// latency later: the events after token replayed and the stream
// re-attached, or, without a token, a new standalone stream that resumes
// nothing (typescript-sdk#2499).
func (w *world) resumeStream(r *request, token, pos string, delay int64) {
	e := trace.Event{Actor: trace.ActorClient, Type: trace.TypeReconnect, ID: idPtr(r.id), Note: recovery.ResumeNote(r.id.String(), token, pos, delay)}
	if token != "" {
		e.Headers = map[string]string{"Last-Event-ID": token}
	}
	w.emit(e)
	w.q.Schedule(w.q.Now()+w.s.LatencyMs.Up, func() {
		stream, known := w.store.StreamOf(token)
		if token == "" || !known || stream != r.id.Raw() {
			note := fmt.Sprintf("A GET without Last-Event-ID opens a new standalone stream: the server cannot tell it resumes request %s, replays nothing and never attaches the request's remaining events to it.", r.id)
			if token != "" {
				note = fmt.Sprintf("Last-Event-ID %s names no event of stream %s: the server replays nothing.", token, r.id)
			}
			w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: note})
			return
		}
		all := w.s.Server.Policy.ReplayAllStreams
		missed := w.store.After(token, all)
		r.cl.Reading, r.srv.Writing = true, true
		if r.ls != nil {
			r.ls.Serving, r.ls.Reading = true, true
		}
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, ID: idPtr(r.id), Note: recovery.ReplayNote(r.id.String(), token, len(missed), all)})
		for _, ev := range missed {
			m := ev.Data
			m.EventID = ev.ID
			m.Note = fmt.Sprintf("Replayed after Last-Event-ID %s: event %s of stream %s.", token, ev.ID, jsonrpc.Unquote(ev.Stream))
			if owner := w.reqs[ev.Stream]; m.Final && owner != nil && owner.srv.Sent == nil {
				owner.srv.Sent = m.Msg // the final response reaches the wire now
			}
			w.wireOut(r, m)
		}
	})
}
