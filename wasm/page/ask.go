//go:build js && wasm

package page

import (
	"fmt"
	"syscall/js"

	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// What every page controller shares: the way to the engine worker.

// Answer is the worker's reply to one request, as ask hands it over.
type Answer struct {
	js.Value
	// Err is the reply's error (protocol.ReadError: the request's own,
	// or, from app.js's bridge, the worker stopped past its budget or
	// failed), nil when it holds none.
	Err *protocol.Error
	// More is true for the first of a request's two replies (a scenario
	// page's picture); the second follows (its tables).
	More bool
}

// Object is the reply as a protocol.Object, for the protocol's readers.
func (a Answer) Object() protocol.Object { return bridge.Object{Value: a.Value} }

// Str is the reply's string field name, "" when it has none.
func (a Answer) Str(name string) string {
	if v := a.Get(name); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// Stopped is the budget in ms a run was stopped past, 0 when it was not.
func (a Answer) Stopped() float64 {
	if a.Err != nil && a.Err.Kind == protocol.KindWorkerStopped {
		return a.Err.BudgetMs
	}
	return 0
}

// WorkerFailed reports whether the worker itself failed (it did not start
// or stopped: no fault of the request), not past a budget.
func (a Answer) WorkerFailed() bool {
	return a.Err != nil && a.Err.Kind == protocol.KindWorkerStopped && a.Err.BudgetMs == 0
}

// workerText is what a page says when the worker failed (WorkerFailed):
// the simulator, not the scenario, could not run.
func workerText(msg string) string {
	return "The simulator could not run here (" + msg + "). The output shows the last run that finished; reload the page to try again."
}

// Ask sends req to the engine worker through app.js's mcplabEngine (one
// request at a time; while one runs, a newer request replaces the waiting
// one, whose done is never called) and calls done with the answer (twice
// when the first says More), under
// recover (a panic goes to fail). Without the bridge it answers at once
// with an error.
func Ask(req map[string]any, fail func(error), done func(Answer)) {
	engine := js.Global().Get("mcplabEngine")
	if engine.Type() != js.TypeObject {
		msg := "app.js's engine bridge (mcplabEngine) is missing"
		done(Answer{Value: js.ValueOf(map[string]any{"error": msg}), Err: &protocol.Error{Kind: protocol.KindWorkerStopped, Message: msg}})
		return
	}
	if answerFn.IsUndefined() {
		answerFn = js.FuncOf(onAnswer)
	}
	asked++
	asks[asked] = func(v js.Value) {
		defer bridge.Recover(fail)
		done(Answer{Value: v, Err: protocol.ReadError(bridge.Object{Value: v}), More: v.Get("more").Truthy()})
	}
	engine.Call("request", req, answerFn.Call("bind", js.Null(), asked))
}

var (
	answerFn js.Func                          // onAnswer, made once
	asked    int                              // the id of the newest request
	asks     = map[int]func(reply js.Value){} // the requests not yet answered, by id
)

// onAnswer(id, reply) hands a reply to its request. Requests are answered
// in order, so the ones before id never will be (a newer one replaced them
// while they waited) and are forgotten; so is id, unless the reply says
// more follows.
func onAnswer(_ js.Value, args []js.Value) any {
	id := args[0].Int()
	done := asks[id]
	last := id
	if args[1].Get("more").Truthy() {
		last--
	}
	for k := range asks {
		if k <= last {
			delete(asks, k)
		}
	}
	if done != nil {
		done(args[1])
	}
	return nil
}

// StoppedText says that a run past its budget was stopped, for the box
// beside the output (#lab-error).
func StoppedText(budgetMs float64) string {
	return fmt.Sprintf("This run was stopped: it took longer than %.0f s, the limit for one run in this page. The output shows the last run that finished; change the scenario to try again.", budgetMs/1000)
}

// markReady sets <html data-ready="1"> (the page has run and shown its
// first Answer) once the page's own SQLite has loaded, where it loads one
// (ledger.wasm: app.js's mcplabSQLiteLoading, for the synchronous
// mcplab.run, which tests and scripts call once the page is ready); the
// page does not wait for it to start, so its controls and its first
// request to the worker need not either. If that SQLite failed, app.js
// already said so and marked the page "error": markReady leaves it.
func markReady(doc js.Value, fail func(error)) {
	set := func() { doc.Get("documentElement").Get("dataset").Set("ready", "1") }
	loading := js.Global().Get("mcplabSQLiteLoading")
	if loading.Type() != js.TypeObject {
		set()
		return
	}
	then(loading, fail, func(js.Value) { set() }, func(string) {})
}
