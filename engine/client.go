package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// call sends a new request (retry: a copy of orig under a new id) and
// returns it; the caller may set its handle before it reaches the server.
func (w *world) call(st scenario.Step, orig *request) *request {
	c := w.s.Client
	r := &request{id: *st.ID, method: st.Method, name: st.Name, args: st.Arguments, token: st.ProgressToken, effect: st.SideEffect, task: st.Task, hints: st.Annotations, outcome: trace.OutcomePending}
	idle, max := c.IdleTimeoutMs, c.MaxTimeoutMs
	note := fmt.Sprintf("The client sends request %s (%s).", r.id, describe(r.method, r.name))
	if r.effect == nil && w.s.Ledger != nil && ledger.IsTool(r.name) {
		t := true // ledger tools have side effects unless the call says otherwise
		r.effect = &t
	}
	if orig != nil {
		r.method, r.name, r.args, r.effect, r.hints = orig.method, orig.name, orig.args, orig.effect, orig.hints
		r.retryOf = idPtr(orig.id)
		if orig.token != nil {
			t := scenario.NewStringID(trimQuotes(orig.token.Raw()) + "-" + trimQuotes(r.id.Raw()))
			r.token = &t
		}
		idle, max = orig.deadlines.IdleMs, orig.deadlines.MaxMs
		note = fmt.Sprintf("The client retries request %s as a new request %s: a new JSON-RPC id is not deduplication.", orig.id, r.id)
	}
	if st.IdleTimeoutMs != nil {
		idle = *st.IdleTimeoutMs
	}
	if st.MaxTimeoutMs != nil {
		max = *st.MaxTimeoutMs
	}

	if r.token != nil {
		if other, ok := w.byToken[r.token.Raw()]; ok && other.outcome == trace.OutcomePending {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, ID: idPtr(r.id), Note: fmt.Sprintf("Progress token %s is already used by active request %s; tokens must be unique among active requests.", r.token, other.id)})
		}
		w.byToken[r.token.Raw()] = r
	}
	now := w.q.Now()
	r.sentAt = now
	r.deadlines = coordinator.NewDeadlines(now, idle, max, c.Policy.ProgressResetsMax)
	r.clientStreamOpen = w.http()
	w.reqs[r.id.Raw()] = r
	w.order = append(w.order, r)
	w.send(trace.ActorClient, idPtr(r.id), requestMessage(r), note, nil, func() {
		w.serverReceiveRequest(r)
		if r.handle != nil {
			r.handle()
		}
	})
	w.armTimer(r)
	return r
}

func describe(method, name string) string {
	if method == "tools/call" && name != "" {
		return "tools/call " + name
	}
	return method
}

func trimQuotes(s string) string {
	var v string
	if json.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	return s
}

// armTimer (re)schedules the client's next deadline for r.
func (w *world) armTimer(r *request) {
	w.q.Stop(r.timer)
	r.timer = nil
	if r.outcome != trace.OutcomePending {
		return
	}
	at, ok := r.deadlines.Next()
	if !ok {
		return
	}
	r.timer = w.q.Schedule(at, func() {
		r.timer = nil
		cause, due := r.deadlines.Due(w.q.Now())
		if !due || r.outcome != trace.OutcomePending {
			return
		}
		d := r.deadlines
		var note string
		if cause == coordinator.MaxTimeout {
			note = fmt.Sprintf("Maximum timeout: %d ms since the request started at %d (limit %d ms); progress never resets it.", w.q.Now()-d.StartMs, d.StartMs, d.MaxMs)
			if d.ProgressResetsMax {
				note = fmt.Sprintf("Maximum timeout: %d ms since the last progress (policy progressResetsMax moved the deadline; limit %d ms).", w.q.Now()-d.LastActivityMs, d.MaxMs)
			}
		} else {
			note = fmt.Sprintf("Idle timeout: no valid progress for %d ms (since %d; limit %d ms).", w.q.Now()-d.LastActivityMs, d.LastActivityMs, d.IdleMs)
			if r.token == nil {
				note += noTokenDiagnosis
			}
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeTimeout, ID: idPtr(r.id), Cause: string(cause), Note: note})
		reason := cause.Reason()
		w.clientCancel(r, string(cause), &reason)
	})
}

// clientCancel abandons r with the transport's cancellation signal
// (DOMAIN.md §1).
func (w *world) clientCancel(r *request, cause string, reason *string) {
	if r.outcome != trace.OutcomePending {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s is already %s at the client; there is nothing to cancel.", r.id, outcomeWord(r.outcome))})
		return
	}
	if w.is2025() && r.method == "initialize" && cause == trace.CauseClient {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: "Under 2025-11-25 initialize must never be cancelled: the client sends no cancellation and keeps waiting."})
		return
	}
	now := w.q.Now()
	r.outcome, r.endedAt, r.cause, r.reason = trace.OutcomeAbandoned, &now, cause, reason
	w.q.Stop(r.timer)
	r.timer = nil
	if w.is2025() && r.method == "initialize" {
		// A deadline still bounds the wait, but 2025-11-25 forbids
		// cancelling initialize: the client gives up without a signal.
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: "Under 2025-11-25 initialize must never be cancelled: the client stops waiting but sends no cancellation."})
		return
	}
	if w.http() && w.s.Client.Policy.HTTPCancel == scenario.HTTPCancelCloseStream {
		r.signal = trace.SignalCloseStream
		r.clientStreamOpen = false
		note := fmt.Sprintf("The client cancels request %s by closing its SSE response stream; no notification is sent.", r.id)
		if w.is2025() {
			note = fmt.Sprintf("The client closes request %s's stream; under 2025-11-25 a disconnect is not a cancellation.", r.id)
		}
		w.closeStream(trace.ActorClient, r, note, func() { w.serverSeesClose(r, cause) })
		return
	}
	r.signal = trace.SignalNotification
	note := fmt.Sprintf("The client cancels request %s with notifications/cancelled (fire-and-forget: no response will come).", r.id)
	if w.http() {
		note = fmt.Sprintf("The client POSTs notifications/cancelled for request %s.", r.id)
		if !w.is2025() {
			note += " Under 2026-07-28 the signal is closing the stream; the server will not take this as a cancellation."
		}
	}
	msg := jsonrpc.NewCancel(r.id.Raw(), reason)
	w.send(trace.ActorClient, idPtr(r.id), msg, note, nil, func() { w.serverReceiveCancel(msg) })
}

func outcomeWord(o string) string {
	switch o {
	case trace.OutcomeResult:
		return "answered"
	case trace.OutcomeError:
		return "answered with an error"
	case trace.OutcomeAbandoned:
		return "abandoned"
	}
	return o
}

// disconnect: the network closes r's HTTP stream; not an intent of either side.
func (w *world) disconnect(r *request) { w.disconnectBy(r, trace.ActorNetwork) }

// disconnectBy closes r's HTTP stream on behalf of actor (the network, or an
// idle-closing proxy): both ends lose it.
func (w *world) disconnectBy(r *request, actor string) {
	if !r.clientStreamOpen {
		w.emit(trace.Event{Actor: actor, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s's stream is already closed.", r.id)})
		return
	}
	r.clientStreamOpen = false
	who := "The network drops"
	if actor == trace.ActorProxy {
		who = "The proxy closes"
	}
	note := fmt.Sprintf("%s request %s's response stream. Under 2026-07-28 that is a cancellation.", who, r.id)
	if w.is2025() {
		note = fmt.Sprintf("%s request %s's response stream. Under 2025-11-25 that is not a cancellation: the client may resume with Last-Event-ID.", who, r.id)
	} else if r.outcome == trace.OutcomePending {
		now := w.q.Now()
		r.outcome, r.endedAt, r.cause, r.signal = trace.OutcomeAbandoned, &now, trace.CauseDisconnect, trace.SignalCloseStream
		w.q.Stop(r.timer)
		r.timer = nil
	}
	w.closeStream(actor, r, note, func() { w.serverSeesClose(r, trace.CauseDisconnect) })
}

// readRaw reads a scenario's raw message as the simulated peers do: a
// JSON-RPC object whose id, when present and not null, is a string or an
// integer.
func readRaw(msg json.RawMessage) (jsonrpc.Message, bool) {
	m, err := jsonrpc.Parse(msg)
	return m, err == nil && (!hasID(m) || m.ID != "")
}

// hasID reports whether m has an id that is not null.
func hasID(m jsonrpc.Message) bool { return m.HasID && string(m.RawID) != "null" }

// clientReceive handles a message from the server (a raw send).
func (w *world) clientReceive(msg json.RawMessage) {
	m, ok := readRaw(msg)
	if !ok {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: "Not a JSON-RPC message; the client ignores it."})
		return
	}
	switch m.Method {
	case jsonrpc.MethodCancelled:
		if c, err := m.Cancellation(); err == nil {
			if r := w.reqs[c.RequestID]; r != nil && r.ls != nil {
				w.clientListenEnded(r)
				return
			}
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Message: msg, Note: "A server-sent notifications/cancelled is reserved for tearing down a subscriptions/listen stream; this one targets no listen stream, so the client ignores it."})
	case jsonrpc.MethodProgress:
		r := w.byToken[m.ProgressToken]
		if m.Progress == nil || m.ProgressToken == "" || r == nil {
			if m.Progress != nil && m.ProgressToken != "" && w.lateMessageFatal(false) {
				w.teardown(nil, "progress for unknown token "+m.ProgressToken)
				return
			}
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Message: msg, Note: "Progress for no known token; the client ignores it."})
			return
		}
		w.clientProgressArrives(r, *m.Progress)
	default:
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Message: msg, Note: "The client does not act on this message."})
	}
	return
}

// clientProgressArrives applies progress value v for r at the client
// (DOMAIN.md §3): only a strictly increasing value is activity.
func (w *world) clientProgressArrives(r *request, v float64) {
	if r.outcome != trace.OutcomePending {
		if w.lateMessageFatal(false) {
			w.teardown(r, fmt.Sprintf("progress %s for request %s, which it has %s,", fmtNum(v), r.id, outcomeWord(r.outcome)))
			return
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Progress %s for request %s, which the client has %s; ignored.", fmtNum(v), r.id, outcomeWord(r.outcome))})
		return
	}
	inc, last, _ := w.clientProgress.Accept(r.id.Raw(), v)
	if !inc {
		if !w.s.Client.Policy.AcceptNonIncreasingProgress {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Progress %s does not increase (last %s): a protocol violation; the idle clock is not reset.", fmtNum(v), fmtNum(last))})
			return
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeActivity, ID: idPtr(r.id), Note: fmt.Sprintf("Policy acceptNonIncreasingProgress: stale progress %s (last %s) resets the idle clock; a stuck server keeps the request alive.", fmtNum(v), fmtNum(last))})
	} else if w.s.Client.Policy.IgnoreProgress {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Policy ignoreProgress: valid progress %s does not reset request %s's idle clock; the idle timeout runs on from the last reset (mcp_dart#106).", fmtNum(v), r.id)})
		return
	} else {
		note := fmt.Sprintf("Progress %s resets request %s's idle clock", fmtNum(v), r.id)
		if r.deadlines.ProgressResetsMax {
			note += " and, by policy progressResetsMax, its maximum deadline too."
		} else {
			note += "; the maximum deadline stays."
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeActivity, ID: idPtr(r.id), Note: note})
	}
	r.deadlines.Activity(w.q.Now())
	w.armTimer(r)
}

// clientResponse handles the final response for r at the client.
func (w *world) clientResponse(r *request, failed bool) {
	switch r.outcome {
	case trace.OutcomeAbandoned:
		if w.lateMessageFatal(true) {
			w.teardown(r, fmt.Sprintf("the late response for abandoned request %s", r.id))
			return
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("A late response for abandoned request %s: the client ignores it.", r.id)})
		return
	case trace.OutcomePending:
		now := w.q.Now()
		r.outcome, r.endedAt = trace.OutcomeResult, &now
		r.clientStreamOpen = false // the final response ends the HTTP stream
		if failed {
			r.outcome = trace.OutcomeError
		}
		w.q.Stop(r.timer)
		r.timer = nil
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeAccept, ID: idPtr(r.id), Note: fmt.Sprintf("The client receives request %s's response and stops waiting.", r.id)})
		return
	}
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("A second response for request %s; ignored.", r.id)})
	return
}

// retryClass classifies r by DOMAIN.md §5: no side effect is safe; a side
// effect with an idempotency key is conditional; without one, unsafe.
func retryClass(r *request) string {
	if r.effect == nil || !*r.effect {
		return trace.RetrySafe
	}
	var args struct {
		Key json.RawMessage `json:"idempotencyKey"`
	}
	if json.Unmarshal(r.args, &args) == nil && len(args.Key) > 0 && string(args.Key) != "null" {
		return trace.RetryConditional
	}
	return trace.RetryUnsafe
}

func (w *world) clientListenEnded(r *request) {
	now := w.q.Now()
	r.ls.clientActive = false
	r.outcome, r.endedAt = trace.OutcomeResult, &now
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeAccept, ID: idPtr(r.id), Note: fmt.Sprintf("The server ended listen stream %s; the client does not reconnect.", r.id)})
}
