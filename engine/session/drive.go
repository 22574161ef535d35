package session

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Wire is what the lifecycle needs of the runner: put a message on the
// wire (from an actor, about a request id or none, with HTTP headers, a
// note, and what happens when it arrives), emit an event, schedule ms
// from now, the current virtual time and the latencies (ms).
type Wire interface {
	Send(from trace.Actor, id *scenario.ID, msg json.RawMessage, headers map[string]string, note string, arrive func())
	Emit(e trace.Event)
	After(ms int64, fn func())
	Now() int64
	Latency() (up, down int64)
}

// Handshake runs initialize, its result and notifications/initialized on
// w, then then: the client sends notifications/initialized the moment the
// result arrives, before then runs (SCENARIO.md, "Sessions": at t = 0
// before the steps at 0).
func (l *Lifecycle) Handshake(w Wire, then func()) {
	id := l.Next()
	w.Send(trace.ActorClient, &id, jsonrpc.NewInitialize(id.Raw()), nil, InitializeNote(id.String()), func() {
		headers := l.Open()
		sess := ""
		if l.HTTP {
			sess = l.live
		}
		w.Send(trace.ActorServer, &id, jsonrpc.NewInitializeResult(id.Raw(), l.Capabilities), headers, ResultNote(sess), func() {
			l.Joined(sess)
			w.Send(trace.ActorClient, nil, jsonrpc.NewInitialized(), nil, InitializedNote(), func() {
				l.Initialized(w.Now())
			})
			then()
		})
	})
}

// End is the end-session step: the server retires the live session
// (Retire) and w emits it; ok is false when there was none to retire.
func (l *Lifecycle) End(w Wire) (ok bool) {
	e, ok := l.Retire()
	w.Emit(e)
	return ok
}

// Lost is the server retiring the session with in-flight requests ids
// (JSON texts, in the order the client sent them): the client sees the
// first stream end after the latency, re-opens it and meets 404; then it
// recovers (Recover): with Reinitialize a new handshake and reissue(id)
// for each, else fail(id) for each. With nothing in flight (ids empty) no
// stream ends and nothing happens.
func (l *Lifecycle) Lost(w Wire, ids []string, reissue, fail func(id string)) {
	if len(ids) == 0 {
		return
	}
	if l.forgot == nil {
		l.forgot = map[string]bool{}
	}
	for _, id := range ids {
		l.forgot[id] = true
	}
	up, down := w.Latency()
	old := l.Client
	w.After(down, func() {
		w.Emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeReconnect, HTTPMethod: trace.HTTPGet, Headers: jsonrpc.EraOf(jsonrpc.Revision20251125, "", "").GetHeaders(old, ""),
			Note: "The client sees its response stream end and re-opens it (GET) in session " + old + "."})
		w.After(up, func() {
			w.Emit(NotFound(old, "the stream"))
			w.After(down, func() { l.NotFound(w, ids, reissue, fail) })
		})
	})
}

// NotFound is the client meeting 404 with requests ids in flight. A 404
// met while it already initializes again adds ids to what it re-issues
// when that handshake ends: one new session per recovery, each request
// re-issued once per 404 it met.
func (l *Lifecycle) NotFound(w Wire, ids []string, reissue, fail func(id string)) {
	if l.Recovering {
		l.reissue = append(l.reissue, ids...)
		return
	}
	e, reinit := l.Recover()
	w.Emit(e)
	if !reinit {
		for _, id := range ids {
			fail(id)
		}
		return
	}
	l.reissue = append(l.reissue[:0], ids...)
	l.Handshake(w, func() {
		ids := l.reissue
		l.reissue = nil
		for _, id := range ids {
			delete(l.forgot, id)
			reissue(id)
		}
	})
}

// Refuse is the server meeting request id on the retired session with
// 404 (NotFound), and the client meeting it one downward latency later
// with that request in flight (Lifecycle.NotFound).
func (l *Lifecycle) Refuse(w Wire, id scenario.ID, reissue, fail func(id string)) {
	e := NotFound(l.Client, "request "+id.String())
	e.ID = &id
	w.Emit(e)
	_, down := w.Latency()
	w.After(down, func() { l.NotFound(w, []string{id.Raw()}, reissue, fail) })
}
