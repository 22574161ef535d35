package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// step runs steps[i] at its time.
func (w *world) step(i int, st scenario.Step) {
	// Decode guarantees every id a step names was sent by an earlier step at
	// or before its time; this guard keeps a future gap from panicking.
	for _, id := range []*scenario.ID{st.ID, st.Of, st.Listen} {
		if id != nil && st.Do != "call" && st.Do != "listen" && !(st.Do == "retry" && id == st.ID) && w.reqs[id.Raw()] == nil {
			w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: fmt.Sprintf("steps[%d]: request %s has not been sent; step skipped.", i, id)})
			return
		}
	}
	if w.ledger == nil && (st.Do == "race" || st.Do == "reopen-ledger" || st.Do == "mutate-result") {
		// Decode refuses these verbs without a ledger; a gap there must not
		// become a nil dereference here.
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: fmt.Sprintf("steps[%d]: %s needs the scenario's ledger, and it has none; step skipped.", i, st.Do)})
		return
	}
	switch st.Do {
	case "call":
		w.call(st, nil)
	case "retry":
		w.call(st, w.reqs[st.Of.Raw()])
	case "cancel":
		w.clientCancel(w.reqs[st.ID.Raw()], trace.CauseClient, st.Reason)
	case "disconnect":
		w.disconnect(w.reqs[st.ID.Raw()])
	case "send":
		w.rawSend(st)
	case "progress":
		w.serverSendProgress(w.reqs[st.ID.Raw()], st)
	case "produce":
		w.produce(st)
	case "complete":
		w.serverComplete(w.reqs[st.ID.Raw()], st.Result, nil)
	case "listen":
		w.listen(st)
	case "notify":
		w.notify(st)
	case "end-listen":
		w.endListen(w.reqs[st.ID.Raw()], st.Reason)
	case "drop":
		w.drop(w.reqs[st.ID.Raw()], st.Affected)
	case "task-get", "task-cancel", "checkpoint", "finish-task":
		w.taskStep(st)
	case "race":
		w.race(st)
	case "reopen-ledger":
		w.reopenLedger()
	case "mutate-result":
		w.mutateResult(st)
	case "fail":
		var m string
		_ = json.Unmarshal(st.Message, &m)
		w.serverComplete(w.reqs[st.ID.Raw()], nil, &jsonrpc.ErrorObject{Code: *st.Code, Message: m})
	default:
		// Decode admits only the verbs of scenario.Verbs; a verb it admits
		// but the runner lacks is a programming error made visible.
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: fmt.Sprintf("steps[%d]: verb %q is not simulated", i, st.Do)})
	}
}

// ---- client ---------------------------------------------------------------

// call sends a new request (retry: a copy of orig under a new id).
func (w *world) call(st scenario.Step, orig *request) {
	c := w.s.Client
	r := &request{id: *st.ID, method: st.Method, name: st.Name, args: st.Arguments, token: st.ProgressToken, effect: st.SideEffect, task: st.Task, hints: st.Annotations, outcome: trace.OutcomePending}
	idle, max := c.IdleTimeoutMs, c.MaxTimeoutMs
	note := fmt.Sprintf("The client sends request %s (%s).", r.id, describe(r.method, r.name))
	if r.effect == nil && w.s.Ledger != nil && isLedgerTool(r.name) {
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
		if r.task != "" {
			w.createTask(r)
		}
	})
	w.armTimer(r)
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

// rawSend puts a scenario's raw JSON on the wire.
func (w *world) rawSend(st scenario.Step) {
	msg := st.Message
	if st.From == trace.ActorServer {
		w.send(trace.ActorServer, nil, msg, "The server sends a raw message.", nil, func() { w.clientReceive(msg) })
		return
	}
	w.send(trace.ActorClient, nil, msg, "The client sends a raw message.", nil, func() {
		m, ok := readRaw(msg)
		if ok && m.Method == jsonrpc.MethodCancelled {
			w.serverReceiveCancel(msg)
			return
		}
		note := "Not a JSON-RPC message the server acts on; ignored, no response."
		if m.Method != "" && !hasID(m) {
			note = fmt.Sprintf("Unknown notification %q (a malformed cancellation at best); ignored silently, no response.", m.Method)
		}
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Message: msg, Note: note})
	})
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

// ---- server ---------------------------------------------------------------

func (w *world) serverReceiveRequest(r *request) {
	r.arrived = true
	e := trace.Event{Actor: trace.ActorServer, Type: trace.TypeStart, ID: idPtr(r.id), Note: fmt.Sprintf("The server starts handling request %s.", r.id)}
	if w.http() {
		r.serverStreamOpen = true
		e.Headers = w.responseHeaders()
		e.Note = fmt.Sprintf("The server starts request %s and opens its SSE response stream.", r.id)
		if !w.sseHeaders() {
			e.Note += " Without X-Accel-Buffering: no, a proxy may buffer it."
		}
	}
	w.emit(e)
	if w.http() {
		w.openStream(r)
	}
	if w.http() && w.s.Server.KeepaliveEveryMs > 0 {
		w.scheduleKeepalive(r)
	}
	return
}

func (w *world) scheduleKeepalive(r *request) {
	r.keepalive = w.q.ScheduleBackground(w.q.Now()+w.s.Server.KeepaliveEveryMs, func() {
		if !r.serverStreamOpen || r.srv.State().Terminal() {
			return
		}
		w.out(r, outMsg{comment: keepaliveComment, note: "SSE comment \":\\r\\n\" keeps the connection open for proxies; it is not progress."})
		w.scheduleKeepalive(r)
	})
}

// serverSeesClose: the server observes r's HTTP stream close (DOMAIN.md §1).
func (w *world) serverSeesClose(r *request, cause string) {
	r.serverStreamOpen = false
	if w.is2025() {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: "Under 2025-11-25 a disconnect is not a cancellation: the handler keeps running."})
		return
	}
	w.serverCancel(r, cause, "stream close")
}

// serverCancel applies an observed cancellation to r.
func (w *world) serverCancel(r *request, cause, via string) {
	if !r.arrived {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Cancellation (%s) for request %s, which the server has not received; ignored.", via, r.id)})
		return
	}
	if !r.srv.Cancel(w.q.Now()) {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Late cancellation (%s): request %s already %s; the server ignores it and sends nothing.", via, r.id, r.srv.State())})
		return
	}
	w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeStatus, ID: idPtr(r.id), Status: trace.StateCancelled, Cause: cause,
		Note: fmt.Sprintf("The server observes the cancellation (%s): request %s is cancelled; the handler stops and nothing more is sent for it.", via, r.id)})
	if !w.s.Server.Policy.RespondAfterCancel {
		w.discardStream(r)
	}
}

// serverReceiveCancel validates a client's notifications/cancelled (DOMAIN.md §1).
func (w *world) serverReceiveCancel(msg json.RawMessage) {
	c, err := jsonrpc.ParseCancellation(msg)
	if err != nil {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Message: msg, Note: fmt.Sprintf("Ignored silently (%v); no response.", err)})
		return
	}
	r := w.reqs[c.RequestID]
	if r == nil || !r.arrived {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Message: msg, Note: fmt.Sprintf("Cancellation for unknown request %s; ignored silently, no response.", c.RequestID)})
		return
	}
	if w.http() && !w.is2025() {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Message: msg, Note: "Under 2026-07-28 Streamable HTTP a cancellation is the stream closing; a POSTed notifications/cancelled does not cancel. Client and server now disagree on the request's life."})
		return
	}
	if w.is2025() && r.method == "initialize" {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Message: msg, Note: "Under 2025-11-25 initialize is never cancelled; ignored."})
		return
	}
	via := "notifications/cancelled"
	if c.Reason == nil && c.ReasonPresent {
		via += ", whose non-string reason is treated as absent"
	}
	w.serverCancel(r, r.causeOr(trace.CauseClient), via)
	return
}

func (r *request) causeOr(def string) string {
	if r.cause != "" {
		return r.cause
	}
	return def
}

// serverSendProgress sends progress for r if the rules allow (DOMAIN.md §3).
func (w *world) serverSendProgress(r *request, st scenario.Step) {
	v := *st.Progress
	switch {
	case !r.arrived:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeError, ID: idPtr(r.id), Note: fmt.Sprintf("Progress step for request %s before it reached the server; skipped.", r.id)})
		return
	case r.token == nil:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s has no progress token: progress %s is not sent.", r.id, fmtNum(v))})
		return
	case r.srv.State() == coordinator.Completed || r.srv.State() == coordinator.Failed || r.response != nil:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s has finished: progress stops after the final response.", r.id)})
		return
	case r.srv.State() == coordinator.Cancelled && !w.s.Server.Policy.RespondAfterCancel:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s was cancelled: progress %s is suppressed.", r.id, fmtNum(v))})
		return
	}
	note := fmt.Sprintf("The server reports progress %s for request %s.", fmtNum(v), r.id)
	if inc, last, _ := w.serverProgress.Accept(r.id.Raw(), v); !inc {
		note = fmt.Sprintf("The server sends progress %s after %s: progress must strictly increase (a protocol violation).", fmtNum(v), fmtNum(last))
	}
	if r.srv.State() == coordinator.Cancelled {
		note = fmt.Sprintf("Policy respondAfterCancel: the server sends progress %s for request %s after accepting its cancellation.", fmtNum(v), r.id)
	}
	msg := progressMessage(*r.token, st)
	w.out(r, outMsg{msg: msg, note: note, arrive: func() { w.clientProgressArrives(r, v) }, progress: true, token: r.token.Raw()})
}

// serverToClient sends msg on r's stream (HTTP, through the SSE buffer and
// proxy when the scenario has them) or stdout (stdio).
func (w *world) serverToClient(r *request, msg json.RawMessage, note string, arrive func()) {
	m, _ := jsonrpc.Parse(msg)
	// A listen stream may carry notifications/progress (a notify step).
	w.out(r, outMsg{msg: msg, note: note, arrive: arrive, final: m.IsFinal(), progress: m.Method == jsonrpc.MethodProgress, token: m.ProgressToken})
}

// serverComplete runs the handler's completion for r: a result, or an error
// when e is set. The coordinator decides who won the race.
func (w *world) serverComplete(r *request, result json.RawMessage, e *jsonrpc.ErrorObject) {
	if !r.arrived {
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeError, ID: idPtr(r.id), Note: fmt.Sprintf("Completion step for request %s before it reached the server; skipped.", r.id)})
		return
	}
	if result == nil {
		result = json.RawMessage(`{"content":[]}`)
	}
	wireMsg := jsonrpc.NewResult(r.id.Raw(), result)
	if e != nil {
		wireMsg = jsonrpc.NewError(r.id.Raw(), *e)
	}
	prev := r.srv.State()
	if w.ledger != nil && isLedgerTool(r.name) && r.method == "tools/call" && (prev == coordinator.InProgress || prev == coordinator.Cancelled && w.s.Server.Policy.RespondAfterCancel) {
		// The side effect commits here, through the ledger; its decision is
		// the response (the step's own result is not used).
		wireMsg = w.ledgerCall(r)
		if isError(wireMsg) {
			e = &jsonrpc.ErrorObject{Code: codeInvalidParams}
		}
	}
	resp, fresh := r.srv.Complete(w.q.Now(), wireMsg, e != nil)
	switch {
	case prev == coordinator.Cancelled && !w.s.Server.Policy.RespondAfterCancel:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeSuppress, ID: idPtr(r.id), Message: wireMsg,
			Note: fmt.Sprintf("The handler reaches completion, but request %s was cancelled first: the response is suppressed.", r.id)})
		return
	case prev == coordinator.Cancelled && r.response != nil:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s already has its one final response; a second completion sends nothing.", r.id)})
		return
	case prev == coordinator.Cancelled:
		resp = wireMsg
	case !fresh:
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, ID: idPtr(r.id), Note: fmt.Sprintf("Request %s already completed; a second completion returns the same stored response and sends nothing.", r.id)})
		return
	}
	r.response = resp
	note := fmt.Sprintf("The server commits request %s's result and sends the response.", r.id)
	if e != nil {
		note = fmt.Sprintf("The server fails request %s with error %d.", r.id, e.Code)
	}
	if w.ledger != nil && isLedgerTool(r.name) {
		note = fmt.Sprintf("The server sends request %s's ledger outcome.", r.id)
	}
	if prev == coordinator.Cancelled {
		note = fmt.Sprintf("Policy respondAfterCancel: the server sends a response for request %s after accepting its cancellation.", r.id)
	}
	w.q.Stop(r.keepalive)
	w.serverToClient(r, resp, note, func() { w.clientResponse(r, e != nil) })
}

// ---- summary --------------------------------------------------------------

func (w *world) trace() *trace.Trace {
	tr := &trace.Trace{
		Mcplab:     scenario.Version,
		Scenario:   w.s,
		Events:     w.events,
		Requests:   []trace.Request{},
		Ledger:     w.ledgerSummary(),
		Tasks:      w.traceTasks(),
		Buffers:    w.buffers(),
		Reconnects: w.reconnects,
	}
	if tr.Events == nil {
		tr.Events = []trace.Event{}
	}
	if n := len(w.events); n > 0 {
		tr.EndMs = w.events[n-1].At
	}
	for _, r := range w.order {
		sum := trace.Request{
			ID: r.id, Method: r.method, Name: r.name, State: string(r.srv.State()),
			Reason: r.reason, Response: r.response, ClientOutcome: r.outcome,
			RetryClass: retryClass(r), SentAt: r.sentAt, EndedAt: r.endedAt, RetryOf: r.retryOf, Hints: r.hints,
			IdleTimeoutMs: r.deadlines.IdleMs, MaxTimeoutMs: r.deadlines.MaxMs,
		}
		if r.cause != "" {
			c := r.cause
			sum.Cause = &c
		}
		if r.signal != "" {
			s := r.signal
			sum.Signal = &s
		}
		tr.Requests = append(tr.Requests, sum)
	}
	return tr
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

// produce sends st.Count progress values every st.EveryMs ms, each by the
// same rules as a progress step.
func (w *world) produce(st scenario.Step) {
	r := w.reqs[st.ID.Raw()]
	from := 0.0
	if st.FromValue != nil {
		from = *st.FromValue
	}
	for k := 0; k < st.Count; k++ {
		v := from + float64(k)
		one := scenario.Step{At: st.At + int64(k)*st.EveryMs, Do: "progress", ID: st.ID, Progress: &v, Total: st.Total}
		if k == 0 {
			w.serverSendProgress(r, one)
			continue
		}
		w.q.Schedule(one.At, func() { w.serverSendProgress(r, one) })
	}
}
