package protocol

import (
	"errors"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/trace"
)

// Kind says what went wrong with a request, which decides what a page
// shows: the located error of an invalid scenario, the bound a valid one
// went past, the reload into the SQLite build, the worker's own failure,
// or a bug.
type Kind string

// The kinds of Error.
const (
	// KindInvalid: the input does not decode or check (a scenario
	// error located by its path, a transcript's located error, a bad
	// option). The page marks the input.
	KindInvalid Kind = "invalid"
	// KindBound: the scenario is valid, but its run went past one of the
	// engine's bounds (*trace.BoundError, which names it with its
	// number). Nothing in the input is marked.
	KindBound Kind = "bound"
	// KindNoLedger: the scenario has a ledger and this binary has no
	// SQLite (engine.ErrNoLedger); the page reloads into ledger.wasm.
	KindNoLedger Kind = "no ledger"
	// KindWorkerStopped: the worker did not answer: it was stopped past
	// the run's budget (Error.BudgetMs says which), or failed or did not
	// start (BudgetMs is 0). No fault of the input.
	KindWorkerStopped Kind = "worker stopped"
	// KindInternal: a bug (a panic, a render that failed, a reply that
	// could not be written, a request no server knows).
	KindInternal Kind = "internal"
)

// Error is a request's failure as the page receives it.
type Error struct {
	Kind    Kind
	Message string // the engine's own words ("steps[3].at: must be >= 0")
	// Place is where in the input the error is (zero when unknown).
	Place Place
	// BudgetMs is the budget, in ms, a run was stopped past
	// (KindWorkerStopped; 0 when the worker failed instead).
	BudgetMs float64
}

// Error implements error: the message.
func (e *Error) Error() string { return e.Message }

// Place locates an error in the text the reader typed
// (templates.EditorError's place).
type Place struct {
	Path      string // the scenario path the error names ("" for the whole document)
	Line, Col int    // 1-based; 0 when unknown
	// Start and End delimit the place as UTF-16 offsets into the text
	// (a textarea's setSelectionRange); End == Start when unknown.
	Start, End int
}

// KindOf classifies an error a run or a decode returned: KindBound for a
// *trace.BoundError, KindNoLedger for engine.ErrNoLedger, else
// KindInvalid (the input's fault).
func KindOf(err error) Kind {
	var be *trace.BoundError
	switch {
	case errors.As(err, &be):
		return KindBound
	case errors.Is(err, ledger.ErrNoLedger):
		return KindNoLedger
	}
	return KindInvalid
}

// Fail is the Error of err as KindOf classifies it, at place.
func Fail(err error, place Place) *Error {
	return &Error{Kind: KindOf(err), Message: err.Error(), Place: place}
}

// Internal is a KindInternal Error saying what failed: "rendering the
// trace: ...".
func Internal(what string, err error) *Error {
	return &Error{Kind: KindInternal, Message: what + ": " + err.Error()}
}

// The fields of an error on the wire: a reply with one is
//
//	{error: message, kind: Kind, place?: {path, line, col, start, end}}
//
// and app.js's bridge (site/static/app.js, mcplabEngine) answers for a
// worker that did not: {stopped: true, budgetMs} past the budget, {error,
// worker: true} when the worker failed. ReadError reads all three.
const (
	keyError    = "error"
	keyKind     = "kind"
	keyPlace    = "place"
	keyStopped  = "stopped"
	keyBudgetMs = "budgetMs"
	keyWorker   = "worker"
)

// ReadError reads a reply's error, or nil when it holds none. A string
// error without a kind (worker.js's own "internal error: ...") is
// KindInternal.
func ReadError(o Object) *Error {
	if o.Truthy(keyStopped) {
		ms, _ := o.Num(keyBudgetMs)
		return &Error{Kind: KindWorkerStopped, Message: "stopped past its budget", BudgetMs: ms}
	}
	msg, ok := o.Str(keyError)
	if !ok {
		return nil
	}
	e := &Error{Kind: Kind(str(o, keyKind)), Message: msg}
	switch {
	case o.Truthy(keyWorker):
		e.Kind = KindWorkerStopped
	case e.Kind == "":
		e.Kind = KindInternal
	}
	if p, ok := o.Obj(keyPlace); ok {
		e.Place = Place{Path: str(p, "path"), Line: num(p, "line"), Col: num(p, "col"), Start: num(p, "start"), End: num(p, "end")}
	}
	return e
}

// error writes e's fields into the object w writes (none for nil).
func (w *writer) error(e *Error) {
	if e == nil {
		return
	}
	w.str(keyError, e.Message)
	w.str(keyKind, string(e.Kind))
	if e.Place != (Place{}) {
		w.key(keyPlace)
		w.begin()
		w.str("path", e.Place.Path)
		w.int("line", e.Place.Line)
		w.int("col", e.Place.Col)
		w.int("start", e.Place.Start)
		w.int("end", e.Place.End)
		w.end()
	}
}
