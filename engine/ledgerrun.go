package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The server's ledger tools (DOMAIN.md §4), run against the ledger.Store the
// caller supplies in Options. Replica k of a scenario with ledger.replicas
// > 1 takes every k-th ledger call; without ledger.shared each replica has
// its own database.

// Ledger errors reach the client as JSON-RPC errors. A key reused with other
// arguments is -32602 (invalid params) with data.httpStatus 422, the status
// the IETF Idempotency-Key draft gives a changed payload for the same key
// (409 is for a key still in flight, which the BEGIN IMMEDIATE lock rules
// out here: the second caller waits and replays).
const (
	codeInvalidParams = -32602
	statusKeyConflict = 422
)

// ErrNoLedger is returned by Run for a scenario with a ledger when no
// Options.OpenLedger was given.
var ErrNoLedger = errors.New("this scenario uses the SQLite ledger, which this build does not include")

// openLedger opens the scenario's stores through opts.
func (w *world) openLedger() error {
	l := w.s.Ledger
	if l == nil {
		return nil
	}
	if w.opts.OpenLedger == nil {
		return ErrNoLedger
	}
	n := 1
	if !l.Shared {
		n = l.Replicas
	}
	w.ledger = &ledgerState{cache: map[string]json.RawMessage{}, results: map[string]json.RawMessage{}, keyOf: map[string]string{}, replicas: l.Replicas}
	for i := 0; i < n; i++ {
		st, err := w.opts.OpenLedger()
		if err != nil {
			w.closeLedger()
			return fmt.Errorf("opening the ledger: %w", err)
		}
		w.ledger.stores = append(w.ledger.stores, st)
	}
	return w.connectAll()
}

func (w *world) connectAll() error {
	w.ledger.conns = nil
	for i := 0; i < w.ledger.replicas; i++ {
		c, err := w.ledger.stores[i%len(w.ledger.stores)].Connect()
		if err != nil {
			return fmt.Errorf("connecting to the ledger: %w", err)
		}
		w.ledger.conns = append(w.ledger.conns, c)
	}
	return nil
}

func (w *world) closeLedger() {
	if w.ledger == nil {
		return
	}
	for _, c := range w.ledger.conns {
		c.Close()
	}
	for _, s := range w.ledger.stores {
		s.Close()
	}
}

// ledgerCall runs the handler of a ledger tool for r at completion and
// returns the response to send (DOMAIN.md §4).
func (w *world) ledgerCall(r *request) json.RawMessage {
	in, err := ledger.Prepare(r.name, r.args, mustJSON(r.id))
	if err != nil {
		w.emit(trace.Event{Actor: trace.ActorLedger, Type: trace.TypeReject, ID: idPtr(r.id), Note: fmt.Sprintf("Rejected before any effect: %v.", strings.TrimPrefix(err.Error(), "ledger: "))})
		return jsonrpc.NewError(r.id.Raw(), jsonrpc.ErrorObject{Code: codeInvalidParams, Message: strings.TrimPrefix(err.Error(), "ledger: ")})
	}
	in = w.dedupeKey(in, r)
	k := w.ledger.next % w.ledger.replicas
	w.ledger.next++
	c := w.ledger.conns[k]
	var out ledger.Outcome
	if scenario.On(w.s.Server.Policy.AtomicLedger) {
		out, err = ledger.Apply(c, w.q.Now(), in, scenario.On(w.s.Server.Policy.Fingerprint))
	} else {
		out, err = ledger.CheckThenAct(c, w.q.Now(), in, scenario.On(w.s.Server.Policy.Fingerprint))
	}
	return w.ledgerReply(r, k, in, out, err)
}

// dedupeKey sets the key the server deduplicates by, per server.policy.dedupeBy.
func (w *world) dedupeKey(in ledger.Intent, r *request) ledger.Intent {
	switch w.s.Server.Policy.DedupeBy {
	case "rpc-id":
		in.Key = "rpc:" + r.id.Raw()
	case "none":
		in.Key = ""
	}
	return in
}

// ledgerReply records the outcome as ledger events and builds the response.
func (w *world) ledgerReply(r *request, replica int, in ledger.Intent, out ledger.Outcome, err error) json.RawMessage {
	where := ""
	if w.ledger.replicas > 1 {
		where = fmt.Sprintf(" on replica %d", replica+1)
	}
	ev := trace.Event{Actor: trace.ActorLedger, ID: idPtr(r.id), Key: businessKey(in, r), Fingerprint: in.Fingerprint}
	switch {
	case errors.Is(err, ledger.ErrKeyConflict):
		ev.Type = trace.TypeReject
		ev.Note = fmt.Sprintf("Key %q was committed with other arguments: rejected, no new execution (one key must never alias two intents)%s.", in.Key, where)
		w.emit(ev)
		return jsonrpc.NewError(r.id.Raw(), jsonrpc.ErrorObject{Code: codeInvalidParams,
			Message: fmt.Sprintf("idempotency key %q was already used with different arguments", in.Key),
			Data:    mustJSON(map[string]any{"idempotencyKey": in.Key, "httpStatus": statusKeyConflict})})
	case err != nil:
		ev.Type = trace.TypeError
		ev.Note = fmt.Sprintf("The ledger failed%s: %v.", where, err)
		w.emit(ev)
		return jsonrpc.NewError(r.id.Raw(), jsonrpc.ErrorObject{Code: -32603, Message: err.Error()})
	}
	result := out.Result
	if !scenario.On(w.s.Server.Policy.DefensiveCopy) && in.Key != "" {
		// Broken: every caller gets the one shared object for the key.
		if shared, ok := w.ledger.cache[in.Key]; ok {
			result = shared
		} else {
			w.ledger.cache[in.Key] = result
		}
	}
	if out.Replayed {
		ev.Type = trace.TypeReplay
		ev.Note = fmt.Sprintf("Key %q is committed: the stored result is returned (original rpcId), no new execution%s.", in.Key, where)
	} else {
		ev.Type = trace.TypeEffect
		ev.Note = fmt.Sprintf("Execution %d runs the side effect (%s)%s", out.Execution, ledger.ReceiptFor(in.Tool, int64(out.Execution)), where)
		if in.Key != "" {
			ev.Note += fmt.Sprintf(" and commits the result under key %q in the same transaction.", in.Key)
		} else {
			ev.Note += ": no key, so nothing can deduplicate a retry."
		}
	}
	ev.Message = result
	w.emit(ev)
	w.ledger.results[r.id.Raw()] = result
	w.ledger.keyOf[r.id.Raw()] = in.Key
	return jsonrpc.NewResult(r.id.Raw(), ledger.ToolResult(result))
}

// businessKey is the idempotencyKey the caller sent, "" if none.
func businessKey(in ledger.Intent, r *request) string {
	var a struct {
		Key string `json:"idempotencyKey"`
	}
	_ = json.Unmarshal(r.args, &a)
	return a.Key
}

// isError reports whether a response the server built is an error.
func isError(resp json.RawMessage) bool {
	m, _ := jsonrpc.Parse(resp)
	return m.Error != nil
}

// reopenLedger closes every connection and opens them again (DOMAIN.md §4:
// committed records survive).
func (w *world) reopenLedger() {
	for _, c := range w.ledger.conns {
		c.Close()
	}
	if err := w.connectAll(); err != nil {
		w.emit(trace.Event{Actor: trace.ActorLedger, Type: trace.TypeError, Note: err.Error()})
		return
	}
	recs, _ := w.ledger.conns[0].Records()
	n, _ := w.ledger.conns[0].Executions()
	w.emit(trace.Event{Actor: trace.ActorLedger, Type: trace.TypeReopen, Note: fmt.Sprintf("Every ledger connection is closed and opened again: %d committed record(s) and %d execution(s) are still there.", len(recs), n)})
}

// mutateResult: the caller edits the object it got back for request of.
func (w *world) mutateResult(st scenario.Step) {
	key := st.Of.Raw()
	got, ok := w.ledger.results[key]
	if !ok {
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: st.Of, Note: fmt.Sprintf("Request %s got no ledger result to mutate.", st.Of)})
		return
	}
	var obj, set map[string]json.RawMessage
	if json.Unmarshal(got, &obj) != nil || obj == nil {
		obj = map[string]json.RawMessage{} // a result that is not an object is replaced whole
	}
	_ = json.Unmarshal(st.Set, &set)
	for _, k := range sortedKeys(set) {
		obj[k] = set[k]
	}
	mutated := mustJSON(obj)
	note := "The caller edits the result object it got back. The ledger returned a defensive copy decoded from the stored JSON, so the stored result is unchanged."
	if dk := w.ledger.keyOf[key]; !scenario.On(w.s.Server.Policy.DefensiveCopy) && dk != "" {
		w.ledger.cache[dk] = mutated // the one shared object
		note = "The caller edits the result object it got back, and policy defensiveCopy false handed it the server's own stored object: every later replay returns the corrupted value."
	}
	w.ledger.results[key] = mutated
	w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeMutate, ID: st.Of, Message: mutated, Note: note})
}

// ledgerSummary fills trace.ledger from the database itself.
func (w *world) ledgerSummary() trace.Ledger {
	out := trace.Ledger{Records: []trace.LedgerRecord{}, Log: []json.RawMessage{}}
	if w.ledger == nil {
		return out
	}
	for i, st := range w.ledger.stores {
		// Connection i uses store i (round robin over replicas, and there
		// are at least as many connections as stores): read through it
		// rather than open SQLite once more.
		var c ledger.Conn
		if i < len(w.ledger.conns) && w.ledger.conns[i] != nil {
			c = w.ledger.conns[i]
		} else if fresh, err := st.Connect(); err == nil {
			c = fresh
			defer fresh.Close()
		} else {
			continue
		}
		n, _ := c.Executions()
		out.Executions += n
		recs, _ := c.Records()
		for _, r := range recs {
			out.Records = append(out.Records, trace.LedgerRecord{Key: r.Key, Fingerprint: r.Fingerprint, Result: r.Result, Replica: i + 1})
		}
		log, _ := c.Log()
		out.Log = append(out.Log, log...)
	}
	return out
}
