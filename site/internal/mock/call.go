package mock

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/mcplab/mcplab/engine/handler"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
)

// call is one tools/call the mock works on: its handler runs in its own
// goroutine, in real time.
type call struct {
	id     string // the request's id, JSON text
	tool   string
	token  string // the progress token's JSON text, "" none
	h      scenario.Handler
	st     stream
	cancel chan struct{} // closed when a cancellation arrives
	forget chan struct{} // closed when the server retires the session
	// done is closed when the call has nothing more to send on its
	// stream: its final went out, it was forgotten, or it stopped without
	// a response (a lost response keeps it open).
	done   chan struct{}
	cOnce  sync.Once
	fOnce  sync.Once
	dOnce  sync.Once
	holdOn bool // the stream stays open after the handler returns (a lost response)
	// mu orders a cancellation's arrival (recorded, then cancel closed)
	// against the handler's sends: nothing the handler sends is recorded
	// after a cancellation it has not yet looked at.
	mu sync.Mutex
}

// arrives is a cancellation of c reaching the server: record (the
// transcript's line) and the cancel signal happen as one step.
func (c *call) arrives(record func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	record()
	c.cancelOnce()
}

func (c *call) cancelOnce() { c.cOnce.Do(func() { close(c.cancel) }) }
func (c *call) forgetOnce() { c.fOnce.Do(func() { close(c.forget) }) }
func (c *call) finish()     { c.dOnce.Do(func() { close(c.done) }) }

// Done is closed when the call has nothing more to send.
func (c *call) Done() <-chan struct{} { return c.done }

// startCall starts msg's handler (a tools/call) answering on st; a tool
// without a handler, a duplicate id in flight or one call past MaxCalls is
// answered with an error at once.
func (s *Server) startCall(msg jsonrpc.Message, st stream) *call {
	h := s.handler(msg.Name)
	fail := func(code int64, text string) *call {
		s.send(st, jsonrpc.NewError(msg.ID, jsonrpc.ErrorObject{Code: code, Message: text}))
		return nil
	}
	if h.WorkMs <= 0 {
		return fail(jsonrpc.CodeInvalidParams, "no tool is called "+msg.Name+" (see tools/list)")
	}
	c := &call{id: msg.ID, tool: msg.Name, token: msg.ProgressToken, h: h, st: st,
		cancel: make(chan struct{}), forget: make(chan struct{}), done: make(chan struct{})}
	s.mu.Lock()
	switch {
	case s.calls[msg.ID] != nil:
		s.mu.Unlock()
		return fail(jsonrpc.CodeInvalidRequest, "request "+msg.ID+" is already in flight")
	case len(s.calls) >= MaxCalls:
		s.mu.Unlock()
		return fail(jsonrpc.CodeInvalidRequest, "the mock works on at most 64 calls at once")
	}
	s.calls[msg.ID] = c
	s.wg.Add(1)
	retire := s.Quirks.RetireSession && s.session != "" && len(s.retired) == 0 // once
	s.mu.Unlock()
	go s.run(c)
	if retire {
		s.retire()
	}
	return c
}

// cancel is a cancellation of request id reaching the server.
func (s *Server) cancel(id string) {
	s.mu.Lock()
	c := s.calls[id]
	s.mu.Unlock()
	if c != nil {
		c.cancelOnce()
	}
}

// run is c's handler: it waits for its resource, then works WorkMs ms,
// sending progress k of n at k × every ms (handler.Progress), observing a
// cancellation at the checkpoint handler.Work.Observes names, and answers
// by the server's switches.
func (s *Server) run(c *call) {
	defer s.wg.Done()
	defer c.finish()
	defer func() {
		s.mu.Lock()
		delete(s.calls, c.id)
		s.mu.Unlock()
	}()
	pol := s.Scenario.Server.Policy
	if c.h.Holds != "" {
		sem := s.sem(c.h.Holds)
		select {
		case sem <- struct{}{}:
		case <-c.cancel:
			s.stopped(c, pol)
			return
		case <-c.forget:
			return
		case <-s.ctx.Done():
			return
		}
		release := true
		defer func() {
			if release {
				<-sem
			}
		}()
		if r := s.work(c, pol); r == endCancelled && pol.ReleaseOnCancel != nil && !*pol.ReleaseOnCancel {
			release = false // no finally: the resource stays held (resource-leaked-on-cancel)
			s.logf("request %s's handler keeps %s after its cancellation (releaseOnCancel false)", c.id, c.h.Holds)
		}
		return
	}
	s.work(c, pol)
}

// How a handler's work ended.
const (
	endCompleted = iota
	endCancelled
	endGone // forgotten, or the mock stopped
	endLost // completed, its response lost (Quirks.LoseResponse)
)

// work runs the handler's work in real time; see run.
func (s *Server) work(c *call, pol scenario.ServerPolicy) int {
	w := handler.New(c.h)
	w.Begin(0)
	begin := time.Now()
	every, n := handler.Progress(c.h)
	if c.token == "" {
		n = 0
	}
	k := 1
	stopAt := int64(-1) // when the handler observes the cancellation (ms of work)
	cancelled := false
	var held []int
	cancelCh := c.cancel
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		next := c.h.WorkMs
		if k <= n && int64(k)*every < next {
			next = int64(k) * every
		}
		// A cancellation observed now stops the handler before any step
		// that is due but not yet taken (a late timer's progress).
		if stopAt >= 0 && (stopAt <= next || stopAt <= time.Since(begin).Milliseconds()) {
			next = stopAt
		}
		timer.Reset(time.Until(begin.Add(time.Duration(next) * time.Millisecond)))
		select {
		case <-cancelCh:
			cancelCh = nil
			cancelled = true
			at := time.Since(begin).Milliseconds()
			w.Cancelled(at)
			if when, observed := w.Observes(at, pol.HandlerIgnoresCancel); observed {
				stopAt = when
			}
			timer.Stop() // no stale tick after Stop (Go 1.23 timers)
			continue
		case <-c.forget:
			return endGone
		case <-s.ctx.Done():
			return endGone
		case <-timer.C:
		}
		c.mu.Lock() // held through the send: a cancellation arriving now waits for it
		if cancelCh != nil && isClosed(cancelCh) {
			c.mu.Unlock()
			continue // it arrived as the timer fired: the handler looks at it first
		}
		r := s.step(c, next, stopAt, k, n, cancelled, pol, &held)
		c.mu.Unlock()
		switch r {
		case -1:
			k++
			continue
		case endLost: // the stream stays open, unanswered, until the client or the mock ends it
			select {
			case <-c.forget:
			case <-s.ctx.Done():
			}
			return endCompleted
		}
		return r
	}
}

// isClosed reports whether ch is closed, without waiting.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// step is the handler reaching time next of its work (under c.mu): its
// stop at the checkpoint that observes the cancellation, progress k of n
// (-1: the work goes on), or its end (endLost: its response is lost).
func (s *Server) step(c *call, next, stopAt int64, k, n int, cancelled bool, pol scenario.ServerPolicy, held *[]int) int {
	switch {
	case next == stopAt:
		s.stopped(c, pol)
		return endCancelled
	case next < c.h.WorkMs:
		if pol.HoldNotifications {
			*held = append(*held, k)
		} else {
			s.progress(c, k, n)
		}
		return -1
	}
	for _, v := range *held {
		s.progress(c, v, n)
	}
	if cancelled && !pol.RespondAfterCancel {
		return endCancelled // the handler ignored the cancellation; its result stays off the wire
	}
	if s.Quirks.LoseResponse {
		s.logf("request %s completed; its response is lost (never sent)", c.id)
		c.holdOn = true
		return endLost
	}
	s.answer(c, n)
	return endCompleted
}

// progress sends progress k of n on c's stream.
func (s *Server) progress(c *call, k, n int) {
	total := float64(n)
	s.send(c.st, jsonrpc.NewProgress(c.token, float64(k), &total, nil))
}

// stopped is a handler stopped by its cancellation: nothing is sent unless
// respondAfterCancel, which writes handler.CancelledCode.
func (s *Server) stopped(c *call, pol scenario.ServerPolicy) {
	if pol.RespondAfterCancel {
		s.send(c.st, jsonrpc.NewError(c.id, jsonrpc.ErrorObject{Code: handler.CancelledCode, Message: handler.CancelledMessage}))
	}
}

// answer sends the handler's completion: its result (default an empty
// content) or its error; then, under ProgressAfterFinal, one progress
// more.
func (s *Server) answer(c *call, n int) {
	switch {
	case c.h.Error != nil:
		s.send(c.st, jsonrpc.NewError(c.id, jsonrpc.ErrorObject{Code: c.h.Error.Code, Message: c.h.Error.Message}))
	default:
		res := c.h.Result
		if len(res) == 0 {
			res = json.RawMessage(`{"content":[]}`)
		}
		s.send(c.st, s.wire().Result(jsonrpc.MethodToolsCall, c.id, jsonrpc.NewResult(c.id, res)))
	}
	if s.Quirks.ProgressAfterFinal && c.token != "" {
		total := float64(n + 1)
		s.send(c.st, jsonrpc.NewProgress(c.token, float64(n+1), &total, nil))
	}
}
