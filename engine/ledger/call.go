package ledger

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcplab/mcplab/engine/scenario"
)

// ErrNoLedger is returned by Open for a scenario with a ledger when the
// build links no store (engine.Options.OpenLedger nil).
var ErrNoLedger = errors.New("this scenario uses the SQLite ledger, which this build does not include")

// Policy is a server's ledger switches (SCENARIO.md, server.policy):
// DedupeBy ("rpc-id", "none", or anything else for the business key; see
// DedupeBy), Atomic (BEGIN IMMEDIATE around check and effect, the
// reference; false is check-then-act) and Fingerprint (a reused key with
// other arguments is rejected).
type Policy struct {
	DedupeBy    string
	Atomic      bool
	Fingerprint bool
}

// Open opens a scenario's ledger l through open (OpenServer: one store
// when shared, else one per replica) under the server's policy p:
// defensiveCopy false shares result objects, and Policy takes dedupeBy,
// atomicLedger and fingerprint (each on unless set false). A scenario
// without a ledger (l nil) opens none: nil and no error; one with a ledger
// fails with ErrNoLedger when the build links no store (open nil).
func Open(open func() (Store, error), l *scenario.Ledger, p scenario.ServerPolicy) (*Server, error) {
	if l == nil {
		return nil, nil
	}
	if open == nil {
		return nil, ErrNoLedger
	}
	s, err := OpenServer(open, l.Replicas, l.Shared, !scenario.On(p.DefensiveCopy))
	if err == nil {
		s.Policy = Policy{DedupeBy: p.DedupeBy, Atomic: scenario.On(p.AtomicLedger), Fingerprint: scenario.On(p.Fingerprint)}
	}
	return s, err
}

// Call is one call of a ledger tool: Tool with Args, from the request
// whose JSON-RPC id text is RPCID.
type Call struct {
	Tool  string
	Args  json.RawMessage
	RPCID string
}

// Call runs c's handler at now on the replica whose turn it is (DOMAIN.md
// §4), under s.Policy p: Prepare (a refusal is Invalid), the key per
// p.DedupeBy, then Apply or, without p.Atomic, CheckThenAct; the decision
// comes back as the Reply.
func (s *Server) Call(now int64, c Call) Reply {
	p := s.Policy
	in, err := Prepare(c.Tool, c.Args, json.RawMessage(c.RPCID))
	if err != nil {
		return Invalid(err)
	}
	in = DedupeBy(in, p.DedupeBy, c.RPCID)
	conn, k := s.Next()
	var out Outcome
	if p.Atomic {
		out, err = Apply(conn, now, in, p.Fingerprint)
	} else {
		out, err = CheckThenAct(conn, now, in, p.Fingerprint)
	}
	return s.Reply(c.RPCID, c.Args, k, in, out, err)
}

// RaceEvent is one step of RaceCalls as the trace tells it: the RaceStep,
// its Note (RaceStep.Note) and, for Decided and EffectTwice, the Reply the
// call gets (for EffectTwice a Kind Executed reply whose Result is the
// second execution's, with the key and fingerprint the event shows).
type RaceEvent struct {
	RaceStep
	Note  string
	Reply Reply
}

// Answer is what RaceCalls sends call Conn back: the JSON-RPC Response
// (its decided Reply's, or, when the effect ran twice, the tool result of
// the second execution) and whether it is an error (Failed).
type Answer struct {
	Conn     int
	Response json.RawMessage
	Failed   bool
}

// RaceCalls runs calls[i] on its own new connection i, all started behind
// one barrier at now under s.Policy (DOMAIN.md §4; Race), and returns the race's events
// in order and the answers the client gets now, in call order: every
// call's when the race completed; only the refused one's when Prepare
// refused a call (the race then does not start, and the others get no
// answer); none when a round ended on a database error. err is a
// connection that could not open (nothing ran). The connections are
// closed before it returns. The n connections start the same call behind
// the barrier; RaceCalls drives their transaction phases in a fixed
// interleaving, and SQLite's locks decide who waits.
func (s *Server) RaceCalls(now int64, calls []Call) (events []RaceEvent, answers []Answer, err error) {
	events, answered, err := s.race(now, calls)
	replies := make([]Answer, len(calls))
	for _, ev := range events {
		a := &replies[ev.Conn]
		switch ev.Phase {
		case Decided:
			a.Response, a.Failed = ev.Reply.Response(calls[ev.Conn].RPCID)
		case EffectTwice:
			a.Response, _ = ev.Reply.Response(calls[ev.Conn].RPCID)
		}
	}
	for _, i := range answered {
		replies[i].Conn = i
		answers = append(answers, replies[i])
	}
	return events, answers, err
}

// race is RaceCalls' events and the indexes of the calls answered.
func (s *Server) race(now int64, calls []Call) (events []RaceEvent, answered []int, err error) {
	p := s.Policy
	conns := make([]Conn, len(calls))
	for i := range conns {
		c, err := s.Connect()
		if err != nil {
			return nil, nil, fmt.Errorf("Connection %d could not open: %v.", i+1, err)
		}
		defer c.Close()
		conns[i] = c
	}
	ins := make([]Intent, len(calls))
	for i, c := range calls {
		in, err := Prepare(c.Tool, c.Args, json.RawMessage(c.RPCID))
		if err != nil {
			return []RaceEvent{{RaceStep: RaceStep{Phase: Decided, Conn: i}, Reply: Invalid(err)}}, []int{i}, nil
		}
		ins[i] = DedupeBy(in, p.DedupeBy, c.RPCID)
	}
	steps, complete := Race(conns, ins, now, p.Atomic, p.Fingerprint)
	for _, st := range steps {
		i := st.Conn
		ev := RaceEvent{RaceStep: st, Note: st.Note(ins[i])}
		switch st.Phase {
		case Decided:
			ev.Reply = s.Reply(calls[i].RPCID, calls[i].Args, 0, ins[i], st.Outcome, st.Err)
		case EffectTwice:
			ev.Reply = Reply{Kind: Executed, Key: BusinessKey(calls[i].Args), Fingerprint: ins[i].Fingerprint, Result: ResultFor(ins[i], int64(st.Execution))}
		}
		events = append(events, ev)
	}
	if complete {
		for i := range calls {
			answered = append(answered, i)
		}
	}
	return events, answered, nil
}
