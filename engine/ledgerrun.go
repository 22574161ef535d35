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
// caller supplies in Options; ledger.Server holds the replicas and decides
// each reply.

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
	w.ledger, err = ledger.OpenServer(w.opts.OpenLedger, l.Replicas, l.Shared, !scenario.On(w.s.Server.Policy.DefensiveCopy))
	return err
}

func (w *world) closeLedger() {
	if w.ledger != nil {
		w.ledger.Close()
	}
}

// ledgerCall runs the handler of a ledger tool for r at completion and
// returns the response to send (DOMAIN.md §4).
func (w *world) ledgerCall(r *request) json.RawMessage {
	in, err := ledger.Prepare(r.name, r.args, mustJSON(r.id))
	if err != nil {
		return w.ledgerAnswer(r, ledger.Invalid(err))
	}
	in = ledger.DedupeBy(in, w.s.Server.Policy.DedupeBy, r.id.Raw())
	c, k := w.ledger.Next()
	var out ledger.Outcome
	if p := w.s.Server.Policy; scenario.On(p.AtomicLedger) {
		out, err = ledger.Apply(c, w.q.Now(), in, scenario.On(p.Fingerprint))
	} else {
		out, err = ledger.CheckThenAct(c, w.q.Now(), in, scenario.On(p.Fingerprint))
	}
	return w.ledgerAnswer(r, w.ledger.Reply(r.id.Raw(), r.args, k, in, out, err))
}

// replyTypes are the ledger event types of each ledger.ReplyKind.
var replyTypes = [...]string{ledger.Rejected: trace.TypeReject, ledger.Broke: trace.TypeError, ledger.Replayed: trace.TypeReplay, ledger.Executed: trace.TypeEffect}

// ledgerAnswer records a ledger reply as its event and builds the response.
func (w *world) ledgerAnswer(r *request, rep ledger.Reply) json.RawMessage {
	w.emit(trace.Event{Actor: trace.ActorLedger, Type: replyTypes[rep.Kind], ID: idPtr(r.id), Key: rep.Key, Fingerprint: rep.Fingerprint, Message: rep.Result, Note: rep.Note})
	if rep.Code != 0 {
		return jsonrpc.NewError(r.id.Raw(), jsonrpc.ErrorObject{Code: int64(rep.Code), Message: rep.Message, Data: rep.Data})
	}
	return jsonrpc.NewResult(r.id.Raw(), ledger.ToolResult(rep.Result))
}

// isError reports whether a response the server built is an error.
func isError(resp json.RawMessage) bool {
	m, _ := jsonrpc.Parse(resp)
	return m.Error != nil
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
