package engine

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// race: n independent connections start the same call behind a barrier
// (DOMAIN.md §4). The engine drives their transaction phases in a fixed
// interleaving and SQLite's locks decide who waits.
func (w *world) race(st scenario.Step) {
	call := *st.Call
	reqs := make([]*request, st.Connections)
	for i := range reqs {
		c := call
		id := scenario.RaceID(*call.ID, i)
		c.ID = &id
		r := &request{id: id, method: c.Method, name: c.Name, args: c.Arguments, effect: c.SideEffect, outcome: trace.OutcomePending, raced: true}
		if r.effect == nil && ledger.IsTool(r.name) {
			t := true
			r.effect = &t
		}
		r.sentAt = w.q.Now()
		r.clientStreamOpen = w.http()
		w.reqs[id.Raw()] = r
		w.order = append(w.order, r)
		reqs[i] = r
		rr := r
		w.send(trace.ActorClient, idPtr(id), requestMessage(r), fmt.Sprintf("Race: connection %d of %d sends the same call as request %s.", i+1, st.Connections, id), nil, func() {
			w.serverReceiveRequest(rr)
		})
	}
	// Every request arrives at the same time; the barrier releases the
	// handlers once all have arrived.
	w.q.Schedule(w.q.Now()+w.s.LatencyMs.Up, func() { w.runRace(reqs) })
}

// raceTypes are the ledger event types of a race's phases.
var raceTypes = [...]string{ledger.Lock: trace.TypeLock, ledger.Wait: trace.TypeWait, ledger.Check: trace.TypeCheck, ledger.EffectTwice: trace.TypeEffect, ledger.Failed: trace.TypeError}

func (w *world) runRace(reqs []*request) {
	conns := make([]ledger.Conn, len(reqs))
	for i := range conns {
		c, err := w.ledger.Connect()
		if err != nil {
			w.emit(trace.Event{Actor: trace.ActorLedger, Type: trace.TypeError, Note: fmt.Sprintf("Connection %d could not open: %v.", i+1, err)})
			return
		}
		defer c.Close()
		conns[i] = c
	}
	ins := make([]ledger.Intent, len(reqs))
	for i, r := range reqs {
		in, err := ledger.Prepare(r.name, r.args, mustJSON(r.id))
		if err != nil {
			w.finishRaced(r, w.ledgerAnswer(r, ledger.Invalid(err)))
			return
		}
		ins[i] = ledger.DedupeBy(in, w.s.Server.Policy.DedupeBy, r.id.Raw())
	}
	replies := make([]json.RawMessage, len(reqs))
	steps, complete := ledger.Race(conns, ins, w.q.Now(), scenario.On(w.s.Server.Policy.AtomicLedger), scenario.On(w.s.Server.Policy.Fingerprint))
	for _, st := range steps {
		i, r := st.Conn, reqs[st.Conn]
		ev := trace.Event{Actor: trace.ActorLedger, Type: raceTypes[st.Phase], ID: idPtr(r.id), Note: st.Note(ins[i])}
		switch st.Phase {
		case ledger.Decided:
			replies[i] = w.ledgerAnswer(r, w.ledger.Reply(r.id.Raw(), r.args, 0, ins[i], st.Outcome, st.Err))
			continue
		case ledger.EffectTwice:
			ev.Key, ev.Fingerprint = ledger.BusinessKey(r.args), ins[i].Fingerprint
			replies[i] = jsonrpc.NewResult(r.id.Raw(), ledger.ToolResult(ledger.ResultFor(ins[i], int64(st.Execution))))
		}
		w.emit(ev)
	}
	if !complete {
		return
	}
	for i, r := range reqs {
		w.finishRaced(r, replies[i])
	}
}

// finishRaced completes a raced request with its reply.
func (w *world) finishRaced(r *request, resp json.RawMessage) {
	failed := isError(resp)
	out, _ := r.srv.Complete(w.q.Now(), resp, failed)
	r.response = out
	w.serverToClient(r, out, fmt.Sprintf("The server answers raced request %s.", r.id), func() { w.clientResponse(r, failed) })
}
