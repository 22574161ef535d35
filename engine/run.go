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
	var r *request
	if st.ID != nil {
		r = w.reqs[st.ID.Raw()]
	}
	if e, skip, ok := coordinator.StepSkip(i, st, w.halves, w.ledger != nil, w.sess.HTTP && w.sess.Client != "" && !w.sess.Retired(), r.listen().PipeUnhappening(st)); ok {
		w.emit(e)
		w.skipped = append(w.skipped, skip)
		return
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

// moves is the runner's move for each step verb (scenario.Verbs), given
// the step and r, the request the step's id names (nil when it has none or
// sends it). TestEveryVerbHasAMove keeps it equal to scenario.Verbs.
var moves = []struct {
	verb scenario.Verb
	move func(w *world, st scenario.Step, r *request)
}{
	{scenario.VerbCall, func(w *world, st scenario.Step, _ *request) { w.call(st, nil, nil) }},
	{scenario.VerbRetry, func(w *world, st scenario.Step, _ *request) { w.call(st, w.reqs[st.Of.Raw()], nil) }},
	{scenario.VerbCancel, func(w *world, st scenario.Step, r *request) { w.clientCancel(r, trace.CauseClient, st.Reason) }},
	{scenario.VerbDisconnect, func(w *world, _ scenario.Step, r *request) { w.disconnectBy(r, trace.ActorNetwork) }},
	{scenario.VerbSend, func(w *world, st scenario.Step, _ *request) {
		coordinator.RawSend(w, st, w.halves, w.http() && w.s.Server.Policy.RouteByIDOnly, w.clientReceive, w.serverReceiveCancel)
	}},
	{scenario.VerbProgress, func(w *world, st scenario.Step, r *request) { w.serverSendProgress(r, st) }},
	{scenario.VerbProduce, func(w *world, st scenario.Step, r *request) { w.produce(r, st) }},
	{scenario.VerbComplete, func(w *world, st scenario.Step, r *request) { w.serverComplete(r, st.Result, nil) }},
	{scenario.VerbFail, func(w *world, st scenario.Step, r *request) {
		code, message := st.Failure()
		w.serverComplete(r, nil, &jsonrpc.ErrorObject{Code: code, Message: message})
	}},
	{scenario.VerbListen, func(w *world, st scenario.Step, _ *request) { w.listen(st) }},
	{scenario.VerbNotify, func(w *world, st scenario.Step, _ *request) { w.notify(st) }},
	{scenario.VerbEndListen, func(w *world, st scenario.Step, r *request) { w.endListen(r, st.Reason) }},
	{scenario.VerbDrop, func(w *world, st scenario.Step, r *request) { w.dropBy(r, st.Affected, trace.ActorNetwork) }},
	{scenario.VerbTaskGet, taskMove}, {scenario.VerbTaskCancel, taskMove}, {scenario.VerbCheckpoint, taskMove}, {scenario.VerbFinishTask, taskMove},
	{scenario.VerbRace, func(w *world, st scenario.Step, _ *request) { w.race(st) }},
	{scenario.VerbEndSession, func(w *world, _ scenario.Step, _ *request) { w.endSession() }},
	{scenario.VerbReopenLedger, func(w *world, _ scenario.Step, _ *request) { w.emit(w.ledger.ReopenEvent()) }},
	{scenario.VerbMutateResult, func(w *world, st scenario.Step, _ *request) {
		w.tell(w.reqs[st.Of.Raw()], w.ledger.MutateEvent(st.Of.Raw(), st.Of.String(), st.Set))
	}},
}

// taskMove is the move of the durable-task verbs, which package tasks runs.
func taskMove(w *world, st scenario.Step, _ *request) {
	w.tasks.Step(w, w.taskRequest, st, w.is2025(), w.s.Client.Policy.TreatTaskAckAsFinal)
}

// do runs the move of st's verb (moves) and reports false for a verb the
// runner lacks.
func (w *world) do(st scenario.Step, r *request) bool {
	for _, m := range moves {
		if m.verb == st.Do {
			m.move(w, st, r)
			return true
		}
	}
	return false
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
