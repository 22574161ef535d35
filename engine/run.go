package engine

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// step runs steps[i] at its time, or tells why it cannot happen: a skip
// event and an entry of skipped[] (coordinator.StepSkip).
func (w *world) step(i int, st scenario.Step) {
	if e, skip, ok := coordinator.StepSkip(i, st, w.halves, w.ledger != nil, w.sess.HTTP && w.sess.Client != "" && !w.sess.Retired()); ok {
		w.emit(e)
		w.skipped = append(w.skipped, skip)
		return
	}
	var r *request
	if st.ID != nil {
		r = w.reqs[st.ID.Raw()]
	}
	if !w.do(st, r) {
		// Decode admits only the verbs of scenario.Verbs; a verb it admits
		// but the runner lacks is a programming error made visible.
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: fmt.Sprintf("steps[%d]: verb %q is not simulated", i, st.Do)})
	}
}

// halves returns request id's client and server halves (nil: never sent).
func (w *world) halves(id scenario.ID) (*coordinator.Client, *coordinator.Server) {
	if r := w.reqs[id.Raw()]; r != nil {
		return &r.cl, &r.srv
	}
	return nil, nil
}

// do runs the runner's move for a step verb (scenario.Verbs) and reports
// false for a verb it lacks; r is the request the step's id names, nil when
// it has none or sends it. A switch rather than a package-level table, so
// that a binary that links this package but never runs a scenario
// (import.wasm, through review's types) does not keep the runner: a table's
// initializer would.
func (w *world) do(st scenario.Step, r *request) bool {
	switch st.Do {
	case "call":
		w.call(st, nil, nil)
	case "retry":
		w.call(st, w.reqs[st.Of.Raw()], nil)
	case "cancel":
		w.clientCancel(r, trace.CauseClient, st.Reason)
	case "disconnect":
		w.disconnectBy(r, trace.ActorNetwork)
	case "send":
		coordinator.RawSend(w, st, w.halves, w.http() && w.s.Server.Policy.RouteByIDOnly, w.clientReceive, w.serverReceiveCancel)
	case "progress":
		w.serverSendProgress(r, st)
	case "produce":
		w.produce(r, st)
	case "complete":
		w.serverComplete(r, st.Result, nil)
	case "fail":
		code, message := st.Failure()
		w.serverComplete(r, nil, &jsonrpc.ErrorObject{Code: code, Message: message})
	case "listen":
		w.listen(st)
	case "notify":
		w.notify(st)
	case "end-listen":
		w.endListen(r, st.Reason)
	case "drop":
		w.dropBy(r, st.Affected, trace.ActorNetwork)
	case "task-get", "task-cancel", "checkpoint", "finish-task":
		w.tasks.Step(w, w.taskRequest, st, w.is2025(), w.s.Client.Policy.TreatTaskAckAsFinal)
	case "race":
		w.race(st)
	case "end-session":
		w.endSession()
	case "reopen-ledger":
		w.emit(w.ledger.ReopenEvent())
	case "mutate-result":
		w.tell(w.reqs[st.Of.Raw()], w.ledger.MutateEvent(st.Of.Raw(), st.Of.String(), st.Set))
	default:
		return false
	}
	return true
}

// produce sends st.Count progress values every st.EveryMs ms, each by the
// same rules as a progress step.
func (w *world) produce(r *request, st scenario.Step) {
	w.serverSendProgress(r, st.Produced(0)) // count >= 1 (scenario.Decode)
	for k := 1; k < st.Count; k++ {
		w.q.Schedule(st.ProducedAt(k), func() { w.serverSendProgress(r, st.Produced(k)) })
	}
}

func (w *world) summary() *trace.Trace {
	tr := &trace.Trace{
		Mcplab:     scenario.Version,
		Scenario:   w.s,
		Requests:   make([]trace.Request, 0, len(w.order)),
		Ledger:     w.ledger.Trace(),
		Tasks:      w.tasks.Summary(),
		Buffers:    []trace.Buffer{},
		Reconnects: w.reconnects,
	}
	tr.Events, tr.EndMs = w.log.Written()
	tr.Skipped = w.skipped
	late := make([]bool, len(w.order))
	for i, r := range w.order {
		sum := coordinator.Summary(&r.cl, &r.srv)
		sum.ID, sum.Method, sum.Name, sum.SentAt, sum.RetryOf, sum.Hints = r.id, r.method, r.name, r.sentAt, r.retryOf, r.hints
		sum.RetryClass = recovery.RetryClass(r.effect, r.args)
		tr.Requests = append(tr.Requests, sum)
		late[i] = r.cl.CancelledLate
		if b, ok := r.st.Summary(r.id, w.s.Buffer); ok { // false without a buffered stream
			tr.Buffers = append(tr.Buffers, b)
		}
	}
	// The runner decides each request's outcome and the intervals of its
	// states; the views only draw them.
	coordinator.Decide(tr, late)
	return tr
}

// run schedules every step at its time, in file order, once the lifecycle
// has reached t = 0, and runs the queue.
func (w *world) run() error {
	w.lifecycle(func() {
		for i := range w.s.Steps {
			at := w.s.Steps[i].At
			w.lastStepAt = max(w.lastStepAt, at)
			w.q.Schedule(at, func() { w.step(i, w.s.Steps[i]) })
		}
	})
	return w.q.Run(MaxActions)
}
