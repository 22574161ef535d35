package handler

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/trace"
)

// Hooks are how a handler reaches the rest of the server (the runner
// wires them to one request): Tell emits an event about the request;
// Progress sends progress value v of total on the request's stream, by
// the rules of a progress step (coordinator.Server.SendsProgress);
// Complete is the handler returning with result, or failing with e when
// it is set, by the rules of a complete or fail step (the race, the
// ledger's side effect).
type Hooks struct {
	Tell     func(e trace.Event)
	Progress func(v, total float64)
	Complete func(result json.RawMessage, e *jsonrpc.ErrorObject)
}

// The error a framework under server.policy.respondAfterCancel writes for
// a handler stopped by its cancellation (the Go SDK's "context canceled",
// as JSON-RPC's internal error).
const (
	CancelledCode    = -32603
	CancelledMessage = "context canceled"
)

// Server runs the server's handlers on the event queue under its
// switches (server.policy: handlerIgnoresCancel, releaseOnCancel,
// holdNotifications) with its resources (server.resources).
type Server struct {
	q    *sim.Queue
	cfg  scenario.Server
	p    scenario.ServerPolicy
	pool *Pool[*Work]
}

// NewServer is the handlers of server s, scheduled on q.
func NewServer(q *sim.Queue, s scenario.Server) *Server {
	return &Server{q: q, cfg: s, p: s.Policy, pool: NewPool[*Work](s.Resources)}
}

// Start is request id of a call of tool (call: a tools/call that is no
// task; token: its progress token, nil for none; srv: its server half,
// told when the handler stops) reaching the server now. It returns nil
// when tool has no handler (server.handlers, its own or "*"); else the
// handler's work starts at once, or when it gets the resource it holds
// (waiting is not work).
func (s *Server) Start(tool string, call bool, id string, token *scenario.ID, srv *coordinator.Server, hooks Hooks) *Work {
	h, ok := s.cfg.HandlerFor(tool)
	if !ok || !call {
		return nil
	}
	w := New(h)
	w.id, w.srv, w.hooks = id, srv, hooks
	if token != nil {
		w.token = token.Raw()
	}
	if h.Holds == "" {
		s.begin(w)
		return w
	}
	now := s.q.Now()
	if !s.pool.Acquire(h.Holds, w) {
		w.waitSince = now
		hooks.Tell(WaitEvent(id, h.Holds, s.pool.Capacity(h.Holds)))
		return w
	}
	w.Holding = true
	hooks.Tell(AcquireEvent(id, h.Holds, now, now))
	s.begin(w)
	return w
}

// begin starts w's work now: its progress cadence (only with a progress
// token) and its end.
func (s *Server) begin(w *Work) {
	end := w.Begin(s.q.Now())
	every, n := Progress(w.H)
	for k := 1; k <= n && w.token != ""; k++ {
		s.q.Schedule(w.StartAt+int64(k)*every, func() { s.progress(w, k, n) })
	}
	s.q.Schedule(end, func() { s.end(w) })
}

// progress: w reports progress k of n, unless it has returned; under
// holdNotifications the transport holds it until w returns.
func (s *Server) progress(w *Work, k, n int) {
	switch {
	case w.Done || w.forgotten:
	case s.p.HoldNotifications:
		e := w.Hold(k, w.id)
		total := float64(n)
		e.Message = jsonrpc.NewProgress(w.token, float64(k), &total, nil)
		w.hooks.Tell(e)
	default:
		w.hooks.Progress(float64(k), float64(n))
	}
}

// end: w reaches the end of its work, always a checkpoint: a
// cancellation that arrived during the work stops it here, before the
// side effect, unless the handler ignores cancellations; else it returns,
// its held notifications first.
func (s *Server) end(w *Work) {
	if w.Done {
		return
	}
	if w.forgotten {
		s.drop(w)
		return
	}
	if w.CancelAt != nil && !s.p.HandlerIgnoresCancel {
		s.stop(w)
		return
	}
	_, n := Progress(w.H)
	for _, k := range w.Flush() {
		w.hooks.Progress(float64(k), float64(n))
	}
	release := w.Finish(s.q.Now())
	var fail *jsonrpc.ErrorObject
	if e := w.H.Error; e != nil {
		fail = &jsonrpc.ErrorObject{Code: e.Code, Message: e.Message}
	}
	if st := w.srv.State(); st != coordinator.Completed && st != coordinator.Failed {
		// Not when a scripted complete or fail step (exact timing), or a
		// race's barrier, already answered the request for it.
		w.hooks.Complete(w.H.Result, fail)
	}
	if release {
		s.release(w)
	}
}

// Cancelled is the server observing now the cancellation of w's request
// (DOMAIN.md §1): a handler waiting for its resource leaves the queue; a
// working one notices at its next checkpoint (at once without
// checkpoints), or under handlerIgnoresCancel passes that checkpoint and
// works on (failure cancel-swallowed). Nothing happens without a handler
// (w nil), for a request its server half does not hold cancelled (a late
// cancellation), or for a second cancellation.
func (s *Server) Cancelled(w *Work) {
	switch {
	case w == nil || w.Done || w.forgotten || w.CancelAt != nil || w.srv.State() != coordinator.Cancelled:
		return
	case !w.Begun:
		s.pool.Leave(w.H.Holds, w)
		w.hooks.Tell(w.Abandon(w.id))
		return
	}
	now := s.q.Now()
	w.Cancelled(now)
	act := func() {
		switch {
		case w.Done || w.forgotten:
		case s.p.HandlerIgnoresCancel:
			w.hooks.Tell(w.Swallows(w.id))
		default:
			s.stop(w)
		}
	}
	if at := w.Checkpoint(now); at > now {
		s.q.Schedule(at, act)
		return
	}
	act()
}

// Fate says what w's handler does about a cancellation the server
// observes now (DOMAIN.md §1; Cancelled carries it out), as the tail of
// the server's status note: it stops now (no checkpoints, or one now),
// at its next checkpoint at N ms, leaves its resource's queue without
// starting, or works on to the end under handlerIgnoresCancel; and what
// it sends then (respondAfterCancel: its error; alone when w is nil or
// has returned: no handler acts).
func (s *Server) Fate(w *Work) string {
	now := s.q.Now()
	send := "nothing more is sent for it."
	if s.p.RespondAfterCancel {
		send = "policy respondAfterCancel: the server still answers it."
	}
	switch {
	case w == nil || w.Done:
		return send
	case !w.Begun:
		return "its handler, still waiting for " + w.H.Holds + ", leaves the queue and never starts; " + send
	case s.p.HandlerIgnoresCancel:
		return "its handler ignores the cancellation (policy handlerIgnoresCancel) and works on to the end at " + strconv.FormatInt(w.StartAt+w.H.WorkMs, 10) + " ms."
	}
	if at := w.Checkpoint(now); at > now {
		return "its handler works on until its next checkpoint at " + strconv.FormatInt(at, 10) + " ms, then stops; " + send
	}
	return "its handler stops now; " + send
}

// Forget is the server retiring a session with the requests of works in
// flight (SCENARIO.md, "Sessions (2025-11-25)": the server forgets its
// in-flight work): each handler ends as on a transport close, at its next
// checkpoint (at once without checkpoints), with no response and no side
// effect, and gives its resource back, so a request the client re-issues
// in the new session is a new life whose own handler answers it. Handlers
// waiting for a resource leave its queue first, so none of them takes a
// resource the others give back. A handler that already returned (its
// side effect committed, and stays) and a nil one (no handler) are left
// as they are.
func (s *Server) Forget(works ...*Work) {
	for _, w := range works {
		if w != nil && !w.Done && !w.forgotten && !w.Begun {
			w.forgotten = true
			s.pool.Leave(w.H.Holds, w)
			w.hooks.Tell(w.Unqueues(w.id))
		}
	}
	for _, w := range works {
		if w == nil || w.Done || w.forgotten {
			continue
		}
		w.forgotten = true
		if now := s.q.Now(); w.Checkpoint(now) > now {
			s.q.Schedule(w.Checkpoint(now), func() { s.drop(w) })
			continue
		}
		s.drop(w)
	}
}

// drop: a forgotten w stops at its checkpoint now and gives its resource
// back; its request's server half is the new session's, so it is not told.
func (s *Server) drop(w *Work) {
	if w.Done {
		return
	}
	e, release := w.Forgets(w.id)
	w.hooks.Tell(e)
	if release {
		s.release(w)
	}
}

// stop: w observes the cancellation at a checkpoint now and returns; it
// releases its resource unless releaseOnCancel is false.
func (s *Server) stop(w *Work) {
	e, release := w.Stop(s.q.Now(), w.id, scenario.On(s.p.ReleaseOnCancel))
	w.srv.Stopped, w.srv.WastedMs = true, w.WastedMs
	w.Flush() // a cancelled request's held notifications are never written
	w.hooks.Tell(e)
	if s.p.RespondAfterCancel {
		// The framework answers the request it cancelled anyway, with
		// the handler's error (DOMAIN.md §1: the Go SDK v1.8.0 and mcp-go
		// v1.6.0 write "context canceled"); no side effect runs.
		w.hooks.Complete(nil, &jsonrpc.ErrorObject{Code: CancelledCode, Message: CancelledMessage})
	}
	if release {
		s.release(w)
	}
}

// release gives w's resource back; the first handler waiting for it
// whose request is not answered yet starts its work now.
func (s *Server) release(w *Work) {
	name := w.H.Holds
	w.hooks.Tell(ReleaseEvent(w.id, name))
	next, ok := s.pool.Release(name)
	for ok && (next.srv.State() == coordinator.Completed || next.srv.State() == coordinator.Failed) {
		// A scripted complete or fail step answered its request while it
		// waited: it never takes the resource, which goes to the next.
		next.hooks.Tell(next.Answered(next.id))
		next, ok = s.pool.Release(name)
	}
	if !ok {
		return
	}
	next.Holding = true
	next.hooks.Tell(AcquireEvent(next.id, name, s.q.Now(), next.waitSince))
	s.begin(next)
}
