// Package coordinator implements the life of one MCP request (DOMAIN.md
// §1–3): the server's single terminal state and the cancel/complete race,
// the client's two deadlines (idle and maximum timeout), monotonic progress,
// and the validation of incoming cancellation notifications; and, once a
// run or an import is summarized, each request's outcome from both sides
// and the intervals of its states (Decide), which the views only draw.
//
// Every function is handed the virtual time ("now", in ms); nothing here
// reads a clock. A request is split into its client half (Client: outcome,
// deadlines, cancel, disconnect, response) and its server half (Server:
// arrival, observed cancellation, completion); each move changes the half
// and returns the trace event that tells it, with its note. The runner in
// package engine wires the halves to the network and the event queue.
//
// Design record: the coordinator is a set of small values (Request,
// Deadlines, Progress) rather than one object that owns the network, so each
// rule is tested alone and the same values serve the client side and the
// server side of the simulation.
package coordinator

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
)

// State is a request's state at the server.
type State string

// Request states (SCENARIO.md, requests[].state).
const (
	InProgress State = "in-progress"
	Completed  State = "completed"
	Failed     State = "failed"
	Cancelled  State = "cancelled"
)

// Terminal reports whether s can never change again.
func (s State) Terminal() bool { return s != InProgress }

// Request is the server's record of one request: it stores one terminal
// state. The zero value is a request in progress.
//
// Rule (DOMAIN.md §1, the race): whichever of Cancel and Complete comes
// first wins. Complete after an accepted cancellation returns no response;
// a second Complete returns the same response as the first; Cancel after
// completion is ignored.
type Request struct {
	state    State
	response json.RawMessage
	// CancelledAt and FinishedAt are when the terminal state was reached (ms).
	at int64
}

// State returns the current state.
func (r *Request) State() State {
	if r.state == "" {
		return InProgress
	}
	return r.state
}

// At returns when the request reached its terminal state (ms), 0 while in progress.
func (r *Request) At() int64 { return r.at }

// Response returns the stored final response, nil if none was produced.
func (r *Request) Response() json.RawMessage { return r.response }

// Cancel marks the request cancelled at now and reports whether the
// cancellation was accepted: false if the request had already reached a
// terminal state (the late cancellation is ignored).
func (r *Request) Cancel(now int64) bool {
	if r.State().Terminal() {
		return false
	}
	r.state, r.at = Cancelled, now
	return true
}

// Complete records the handler's final response (a result when failed is
// false, an error otherwise) at now. It returns the response to put on the
// wire and whether this call produced it: after an accepted cancellation it
// returns (nil, false), the response is suppressed; after an earlier
// completion it returns the stored response and false (the same response,
// not sent again).
func (r *Request) Complete(now int64, response json.RawMessage, failed bool) (json.RawMessage, bool) {
	switch r.State() {
	case Cancelled:
		return nil, false
	case Completed, Failed:
		return r.response, false
	}
	r.response = append(json.RawMessage(nil), response...)
	r.state, r.at = Completed, now
	if failed {
		r.state = Failed
	}
	return r.response, true
}

// Cause names which deadline fired.
type Cause string

// Timeout causes (SCENARIO.md, requests[].cause).
const (
	IdleTimeout Cause = "idle-timeout"
	MaxTimeout  Cause = "max-timeout"
)

// Reason returns the cancellation reason the client sends for c
// (DOMAIN.md §2: "idle timeout" or "maximum timeout").
func (c Cause) Reason() string {
	if c == MaxTimeout {
		return "maximum timeout"
	}
	return "idle timeout"
}

// Deadlines are the client's two clocks for one request (DOMAIN.md §2).
// IdleMs and MaxMs are durations in ms, 0 meaning that clock is off;
// StartMs is when the request was sent; LastActivityMs is the last time
// useful activity (valid progress) arrived.
//
// Rules: idle is due when now-LastActivityMs >= IdleMs, maximum when
// now-StartMs >= MaxMs (inclusive); when both are due the cause is the
// maximum. Progress resets the idle clock only; nothing resets the maximum,
// unless ProgressResetsMax (a known-broken policy) moves it with each
// progress.
type Deadlines struct {
	StartMs           int64
	LastActivityMs    int64
	IdleMs            int64
	MaxMs             int64
	ProgressResetsMax bool
	maxBase           int64
}

// NewDeadlines starts both clocks at start.
func NewDeadlines(start, idleMs, maxMs int64, progressResetsMax bool) Deadlines {
	return Deadlines{StartMs: start, LastActivityMs: start, IdleMs: idleMs, MaxMs: maxMs, ProgressResetsMax: progressResetsMax, maxBase: start}
}

// Activity records valid progress at now: the idle clock restarts (and the
// maximum too under ProgressResetsMax).
func (d *Deadlines) Activity(now int64) {
	d.LastActivityMs = now
	if d.ProgressResetsMax {
		d.maxBase = now
	}
}

// Due reports whether a deadline is due at now and which; the maximum wins
// when both are.
func (d Deadlines) Due(now int64) (Cause, bool) {
	if d.MaxMs > 0 && now-d.maxBase >= d.MaxMs {
		return MaxTimeout, true
	}
	if d.IdleMs > 0 && now-d.LastActivityMs >= d.IdleMs {
		return IdleTimeout, true
	}
	return "", false
}

// Next returns the earliest time a deadline becomes due, and false when
// neither clock is on (a progress token never means "wait forever", but a
// request with no timeouts configured does wait).
func (d Deadlines) Next() (int64, bool) {
	var next int64
	ok := false
	if d.MaxMs > 0 {
		next, ok = d.maxBase+d.MaxMs, true
	}
	if d.IdleMs > 0 {
		if idle := d.LastActivityMs + d.IdleMs; !ok || idle < next {
			next, ok = idle, true
		}
	}
	return next, ok
}

// Progress tracks the last progress value per request for one side
// (DOMAIN.md §3): values must strictly increase.
type Progress struct{ last map[string]float64 }

// Accept records value for the request keyed key and reports whether it
// strictly increases over the previous one. A non-increasing value is not
// recorded.
func (p *Progress) Accept(key string, value float64) (increases bool, last float64, seen bool) {
	if p.last == nil {
		p.last = map[string]float64{}
	}
	last, seen = p.last[key]
	if seen && value <= last {
		return false, last, true
	}
	p.last[key] = value
	return true, last, seen
}

// Cancellation is a parsed notifications/cancelled.
//
// Deprecated: use jsonrpc.Cancellation; the wire is read in package jsonrpc.
type Cancellation = jsonrpc.Cancellation

// ErrMalformedCancel is the category of ParseCancellation's errors.
//
// Deprecated: use jsonrpc.ErrMalformedCancel.
var ErrMalformedCancel = jsonrpc.ErrMalformedCancel

// ParseCancellation validates msg as a notifications/cancelled
// (DOMAIN.md §1).
//
// Deprecated: use jsonrpc.ParseCancellation (or jsonrpc.Parse and
// Message.Cancellation).
func ParseCancellation(msg json.RawMessage) (Cancellation, error) {
	return jsonrpc.ParseCancellation(msg)
}

// IDText returns the canonical JSON text of a JSON-RPC id or progress token.
//
// Deprecated: use jsonrpc.IDText.
func IDText(raw json.RawMessage) (string, bool) { return jsonrpc.IDText(raw) }

// TimeoutNote says which of d's deadlines fired at now, and why (DOMAIN.md
// §2): the maximum counts from the start (or, under ProgressResetsMax,
// from the last progress), the idle clock from the last valid progress.
func (d Deadlines) TimeoutNote(cause Cause, now int64) string {
	switch {
	case cause == MaxTimeout && d.ProgressResetsMax:
		return "Maximum timeout: " + strconv.FormatInt(now-d.LastActivityMs, 10) + " ms since the last progress (policy progressResetsMax moved the deadline; limit " + strconv.FormatInt(d.MaxMs, 10) + " ms)."
	case cause == MaxTimeout:
		return "Maximum timeout: " + strconv.FormatInt(now-d.StartMs, 10) + " ms since the request started at " + strconv.FormatInt(d.StartMs, 10) + " (limit " + strconv.FormatInt(d.MaxMs, 10) + " ms); progress never resets it."
	}
	return "Idle timeout: no valid progress for " + strconv.FormatInt(now-d.LastActivityMs, 10) + " ms (since " + strconv.FormatInt(d.LastActivityMs, 10) + "; limit " + strconv.FormatInt(d.IdleMs, 10) + " ms)."
}
