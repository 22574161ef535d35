package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/recovery"
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
	case "call", "retry":
		var orig *request
		if st.Do == "retry" {
			orig = w.reqs[st.Of.Raw()]
		}
		if r := w.call(st, orig); r.task != "" {
			r.handle = func() { w.createTask(r) } // a task-augmented call
		}
	case "cancel":
		w.clientCancel(w.reqs[st.ID.Raw()], trace.CauseClient, st.Reason)
	case "disconnect":
		w.disconnectBy(w.reqs[st.ID.Raw()], trace.ActorNetwork)
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

// produce sends st.Count progress values every st.EveryMs ms, each by the
// same rules as a progress step.
func (w *world) produce(st scenario.Step) {
	r := w.reqs[st.ID.Raw()]
	for k, one := range st.Progresses() {
		if k == 0 {
			w.serverSendProgress(r, one)
			continue
		}
		w.q.Schedule(one.At, func() { w.serverSendProgress(r, one) })
	}
}

// rawSend puts a scenario's raw JSON on the wire.
func (w *world) rawSend(st scenario.Step) {
	msg := st.Message
	if st.From == trace.ActorServer {
		w.send(trace.ActorServer, nil, msg, "The server sends a raw message.", func() { w.clientReceive(msg) })
		return
	}
	w.send(trace.ActorClient, nil, msg, "The client sends a raw message.", func() {
		m, ok := jsonrpc.ReadPeer(msg)
		if ok && m.Method == jsonrpc.MethodCancelled {
			w.serverReceiveCancel(msg)
			return
		}
		note := "Not a JSON-RPC message the server acts on; ignored, no response."
		if m.Method != "" && !m.HasRealID() {
			note = fmt.Sprintf("Unknown notification %q (a malformed cancellation at best); ignored silently, no response.", m.Method)
		}
		w.emit(trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Message: msg, Note: note})
	})
}

func (w *world) summary() *trace.Trace {
	tr := &trace.Trace{
		Mcplab:     scenario.Version,
		Scenario:   w.s,
		Events:     w.events,
		Requests:   []trace.Request{},
		Ledger:     w.ledger.Trace(),
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
		sum := coordinator.Summary(&r.cl, &r.srv)
		sum.ID, sum.Method, sum.Name, sum.SentAt, sum.RetryOf, sum.Hints = r.id, r.method, r.name, r.sentAt, r.retryOf, r.hints
		sum.RetryClass = recovery.RetryClass(r.effect, r.args)
		tr.Requests = append(tr.Requests, sum)
	}
	return tr
}

// run schedules every step at its time, in file order, and runs the queue.
func (w *world) run() error {
	for i := range w.s.Steps {
		st := w.s.Steps[i]
		w.lastStepAt = max(w.lastStepAt, st.At)
		w.q.Schedule(st.At, func() { w.step(i, st) })
	}
	return w.q.Run(MaxActions)
}
