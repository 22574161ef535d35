//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
)

// What every page controller shares: the way to the engine worker.

// answer is the worker's reply to one request, as ask hands it over.
type answer struct {
	js.Value
	// Stopped is true when the run took longer than BudgetMs and app.js
	// stopped it (terminating the worker); Err is set when the worker
	// failed or the request did (a bad scenario: the reply's own error).
	Stopped  bool
	BudgetMs float64
	// More is true for the first of a request's two replies (serveLab's
	// picture); the second follows (its tables).
	More bool
}

// Err is the reply's error message, "" when there is none.
func (a answer) Err() string {
	if e := a.Get("error"); e.Type() == js.TypeString {
		return e.String()
	}
	return ""
}

// WorkerFailed reports whether the error is the worker's own (it did not
// start or stopped: app.js's {error, worker: true}), not the request's.
func (a answer) WorkerFailed() bool { return a.Get("worker").Truthy() }

// workerText is what a page says when the worker failed (WorkerFailed):
// the simulator, not the scenario, could not run.
func workerText(msg string) string {
	return "The simulator could not run here (" + msg + "). The output shows the last run that finished; reload the page to try again."
}

// Str is the reply's string field name, "" when it has none.
func (a answer) Str(name string) string {
	if v := a.Get(name); v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// ask sends req to the engine worker through app.js's mcplabEngine (one
// request at a time; while one runs, a newer request replaces the waiting
// one, whose done is never called) and calls done with the answer (twice
// when the first says More), under
// recover (a panic goes to fail). Without the bridge it answers at once
// with an error.
func ask(req map[string]any, fail func(error), done func(answer)) {
	engine := js.Global().Get("mcplabEngine")
	if engine.Type() != js.TypeObject {
		done(answer{Value: js.ValueOf(map[string]any{"error": "app.js's engine bridge (mcplabEngine) is missing"})})
		return
	}
	if answerFn.IsUndefined() {
		answerFn = js.FuncOf(onAnswer)
	}
	asked++
	asks[asked] = func(v js.Value) {
		defer recoverInto(fail)
		r := answer{Value: v, More: v.Get("more").Truthy()}
		if v.Get("stopped").Truthy() {
			r.Stopped, r.BudgetMs = true, v.Get("budgetMs").Float()
		}
		done(r)
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

// stoppedText says that a run past its budget was stopped, for the box
// beside the output (#lab-error).
func stoppedText(budgetMs float64) string {
	return fmt.Sprintf("This run was stopped: it took longer than %.0f s, the limit for one run in this page. The output shows the last run that finished; change the scenario to try again.", budgetMs/1000)
}

// markReady sets <html data-ready="1"> (the page has run and shown its
// first answer) once the page's own SQLite has loaded, where it loads one
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
