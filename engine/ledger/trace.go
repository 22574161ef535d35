package ledger

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// replyTypes are the ledger event types of each ReplyKind, raceTypes those
// of a race's phases.
var (
	replyTypes = [...]trace.EventType{Rejected: trace.TypeReject, Broke: trace.TypeError, Replayed: trace.TypeReplay, Executed: trace.TypeEffect}
	raceTypes  = [...]trace.EventType{Lock: trace.TypeLock, Wait: trace.TypeWait, Check: trace.TypeCheck, EffectTwice: trace.TypeEffect, Failed: trace.TypeError}
)

// Event is the ledger's event for r (without ID: the runner sets it): its
// type by kind, key, fingerprint, the result the caller gets and the note.
func (r Reply) Event() trace.Event {
	return trace.Event{Actor: trace.ActorLedger, Type: replyTypes[r.Kind], Key: r.Key, Fingerprint: r.Fingerprint, Message: r.Result, Note: r.Note}
}

// Response is the JSON-RPC response carrying r to the request whose id
// text is rpcID: the tool result (ToolResult), or the error; failed
// reports the error.
func (r Reply) Response(rpcID string) (msg json.RawMessage, failed bool) {
	if r.Code != 0 {
		return jsonrpc.NewError(rpcID, jsonrpc.ErrorObject{Code: int64(r.Code), Message: r.Message, Data: r.Data}), true
	}
	return jsonrpc.NewResult(rpcID, ToolResult(r.Result)), false
}

// Event is the ledger's event for a race step (without ID: the runner
// sets it): a Decided step's is its Reply's Event; the others are lock,
// wait, check, the effect that ran twice (with the key and fingerprint)
// or a failure.
func (e RaceEvent) Event() trace.Event {
	if e.Phase == Decided {
		return e.Reply.Event()
	}
	return trace.Event{Actor: trace.ActorLedger, Type: raceTypes[e.Phase], Key: e.Reply.Key, Fingerprint: e.Reply.Fingerprint, Note: e.Note}
}

// Trace is the ledger's trace summary, read from the databases themselves
// (Summary); a nil Server (a scenario without a ledger) has none.
func (s *Server) Trace() trace.Ledger {
	out := trace.Ledger{Records: []trace.LedgerRecord{}, Log: []json.RawMessage{}}
	if s == nil {
		return out
	}
	n, recs, log := s.Summary()
	out.Executions, out.Log = n, append(out.Log, log...)
	for _, r := range recs {
		out.Records = append(out.Records, trace.LedgerRecord{Key: r.Key, Fingerprint: r.Fingerprint, Result: r.Result, Replica: r.Replica})
	}
	return out
}

// ReopenEvent reopens every connection (Reopen; DOMAIN.md §4: committed
// records survive) and is the ledger's event saying what is still there,
// or an error event when a connection could not open again.
func (s *Server) ReopenEvent() trace.Event {
	note, err := s.Reopen()
	if err != nil {
		return trace.Event{Actor: trace.ActorLedger, Type: trace.TypeError, Note: err.Error()}
	}
	return trace.Event{Actor: trace.ActorLedger, Type: trace.TypeReopen, Note: note}
}

// MutateEvent is the caller editing the result request rpcID (id, as notes
// say it) got back (Mutate), and the client's event: the mutation with
// the edited object, or an ignore when it got no ledger result.
func (s *Server) MutateEvent(rpcID, id string, set json.RawMessage) trace.Event {
	mutated, note, ok := s.Mutate(rpcID, set)
	if !ok {
		return trace.Event{Actor: trace.ActorClient, Type: trace.TypeIgnore, Note: "Request " + id + " got no ledger result to mutate."}
	}
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeMutate, Message: mutated, Note: note}
}
