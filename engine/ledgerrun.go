package engine

import (
	"encoding/json"
	"errors"

	"github.com/mcplab/mcplab/engine/jsonrpc"
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

// replyTypes are the ledger event types of each ledger.ReplyKind, raceTypes
// those of a race's phases.
var (
	replyTypes = [...]string{ledger.Rejected: trace.TypeReject, ledger.Broke: trace.TypeError, ledger.Replayed: trace.TypeReplay, ledger.Executed: trace.TypeEffect}
	raceTypes  = [...]string{ledger.Lock: trace.TypeLock, ledger.Wait: trace.TypeWait, ledger.Check: trace.TypeCheck, ledger.EffectTwice: trace.TypeEffect, ledger.Failed: trace.TypeError}
)

// ledgerAnswer records a ledger reply as its event and builds the response;
// failed says it is an error.
func (w *world) ledgerAnswer(r *request, rep ledger.Reply) (json.RawMessage, bool) {
	w.emit(trace.Event{Actor: trace.ActorLedger, Type: replyTypes[rep.Kind], ID: idPtr(r.id), Key: rep.Key, Fingerprint: rep.Fingerprint, Message: rep.Result, Note: rep.Note})
	if rep.Code != 0 {
		return jsonrpc.NewError(r.id.Raw(), jsonrpc.ErrorObject{Code: int64(rep.Code), Message: rep.Message, Data: rep.Data}), true
	}
	return jsonrpc.NewResult(r.id.Raw(), ledger.ToolResult(rep.Result)), false
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

// ledgerSummary fills trace.ledger from the database itself.
func (w *world) ledgerSummary() trace.Ledger {
	out := trace.Ledger{Records: []trace.LedgerRecord{}, Log: []json.RawMessage{}}
	if w.ledger == nil {
		return out
	}
	n, recs, log := w.ledger.Summary()
	out.Executions, out.Log = n, append(out.Log, log...)
	for _, r := range recs {
		out.Records = append(out.Records, trace.LedgerRecord{Key: r.Key, Fingerprint: r.Fingerprint, Result: r.Result, Replica: r.Replica})
	}
	return out
}
