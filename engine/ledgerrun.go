package engine

import (
	"encoding/json"
	"errors"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The server's ledger tools (DOMAIN.md §4), run against the ledger.Store the
// caller supplies in Options; ledger.Server holds the replicas, decides each
// reply and runs races.

// ErrNoLedger is returned by Run for a scenario with a ledger when no
// Options.OpenLedger was given.
var ErrNoLedger = errors.New("this scenario uses the SQLite ledger, which this build does not include")

// openLedger opens the scenario's stores through opts.
func (w *world) openLedger() (err error) {
	l := w.s.Ledger
	if l == nil {
		return nil
	}
	if w.opts.OpenLedger == nil {
		return ErrNoLedger
	}
	p := w.s.Server.Policy
	w.ledgerPolicy = ledger.Policy{DedupeBy: p.DedupeBy, Atomic: scenario.On(p.AtomicLedger), Fingerprint: scenario.On(p.Fingerprint)}
	w.ledger, err = ledger.OpenServer(w.opts.OpenLedger, l.Replicas, l.Shared, !scenario.On(p.DefensiveCopy))
	return err
}

func (w *world) closeLedger() {
	if w.ledger != nil {
		w.ledger.Close()
	}
}

// ledgerCall runs the handler of a ledger tool for r at completion and
// returns the response to send (DOMAIN.md §4).
func (w *world) ledgerCall(r *request) (json.RawMessage, bool) {
	return w.ledgerAnswer(r, w.ledger.Call(w.q.Now(), w.ledgerPolicy, ledger.Call{Tool: r.name, Args: r.args, RPCID: r.id.Raw()}))
}

// ledgerAnswer records a ledger reply as its event and builds the response;
// failed says it is an error.
func (w *world) ledgerAnswer(r *request, rep ledger.Reply) (json.RawMessage, bool) {
	w.tell(r, rep.Event())
	return rep.Response(r.id.Raw())
}

// reopenLedger closes every connection and opens them again (DOMAIN.md §4:
// committed records survive).
func (w *world) reopenLedger() {
	note, err := w.ledger.Reopen()
	if err != nil {
		w.emit(trace.Event{Actor: trace.ActorLedger, Type: trace.TypeError, Note: err.Error()})
		return
	}
	w.emit(trace.Event{Actor: trace.ActorLedger, Type: trace.TypeReopen, Note: note})
}

// mutateResult: the caller edits the object it got back for request of.
func (w *world) mutateResult(st scenario.Step) {
	mutated, note, ok := w.ledger.Mutate(st.Of.Raw(), st.Set)
	if !ok {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: st.Of, Note: "Request " + st.Of.String() + " got no ledger result to mutate."})
		return
	}
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeMutate, ID: st.Of, Message: mutated, Note: note})
}
