package engine

import (
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
	v, ok := verbs[st.Do]
	if !ok {
		// Decode admits only the verbs of scenario.Verbs; a verb it admits
		// but the runner lacks is a programming error made visible.
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: fmt.Sprintf("steps[%d]: verb %q is not simulated", i, st.Do)})
		return
	}
	var r *request
	if st.ID != nil {
		r = w.reqs[st.ID.Raw()]
	}
	v(w, st, r)
}

// verbs is the runner's move for each step verb (scenario.Verbs); r is the
// request the step's id names, nil when it has none or sends it.
var verbs = map[string]func(w *world, st scenario.Step, r *request){
	"call":          func(w *world, st scenario.Step, _ *request) { w.call(st, nil) },
	"retry":         func(w *world, st scenario.Step, _ *request) { w.call(st, w.reqs[st.Of.Raw()]) },
	"cancel":        func(w *world, st scenario.Step, r *request) { w.clientCancel(r, trace.CauseClient, st.Reason) },
	"disconnect":    func(w *world, _ scenario.Step, r *request) { w.disconnectBy(r, trace.ActorNetwork) },
	"send":          func(w *world, st scenario.Step, _ *request) { w.rawSend(st) },
	"progress":      func(w *world, st scenario.Step, r *request) { w.serverSendProgress(r, st) },
	"produce":       func(w *world, st scenario.Step, r *request) { w.produce(r, st) },
	"complete":      func(w *world, st scenario.Step, r *request) { w.serverComplete(r, st.Result, nil) },
	"fail":          func(w *world, st scenario.Step, r *request) { w.serverComplete(r, nil, failure(st)) },
	"listen":        func(w *world, st scenario.Step, _ *request) { w.listen(st) },
	"notify":        func(w *world, st scenario.Step, _ *request) { w.notify(st) },
	"end-listen":    func(w *world, st scenario.Step, r *request) { w.endListen(r, st.Reason) },
	"drop":          func(w *world, st scenario.Step, r *request) { w.dropBy(r, st.Affected, trace.ActorNetwork) },
	"task-get":      func(w *world, st scenario.Step, _ *request) { w.taskStep(st) },
	"task-cancel":   func(w *world, st scenario.Step, _ *request) { w.taskStep(st) },
	"checkpoint":    func(w *world, st scenario.Step, _ *request) { w.taskStep(st) },
	"finish-task":   func(w *world, st scenario.Step, _ *request) { w.taskStep(st) },
	"race":          func(w *world, st scenario.Step, _ *request) { w.race(st) },
	"reopen-ledger": func(w *world, _ scenario.Step, _ *request) { w.emit(w.ledger.ReopenEvent()) },
	"mutate-result": func(w *world, st scenario.Step, _ *request) {
		w.tell(w.reqs[st.Of.Raw()], w.ledger.MutateEvent(st.Of.Raw(), st.Of.String(), st.Set))
	},
}

// failure is a fail step's JSON-RPC error: its code and message.
func failure(st scenario.Step) *jsonrpc.ErrorObject {
	e := &jsonrpc.ErrorObject{Code: *st.Code}
	if t := st.Text(); t != nil {
		e.Message = *t
	}
	return e
}

// produce sends st.Count progress values every st.EveryMs ms, each by the
// same rules as a progress step.
func (w *world) produce(r *request, st scenario.Step) {
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
		w.emit(coordinator.ServerIgnores(msg, m))
	})
}

func (w *world) summary() *trace.Trace {
	tr := &trace.Trace{
		Mcplab:     scenario.Version,
		Scenario:   w.s,
		Events:     w.events,
		Requests:   []trace.Request{},
		Ledger:     w.ledger.Trace(),
		Tasks:      w.tasks.Summary(),
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
