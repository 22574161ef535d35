package engine

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// race sends a race step's n calls and, once all have arrived, tells the
// schedule and the answers of ledger.Server.RaceCalls as events.
func (w *world) race(st scenario.Step) {
	call := *st.Call
	reqs := make([]*request, st.Connections)
	calls := make([]ledger.Call, st.Connections)
	for i := range reqs {
		id := scenario.RaceID(*call.ID, i)
		r := &request{id: id, method: call.Method, name: call.Name, args: call.Arguments, effect: call.SideEffect}
		r.effect = ledger.Effect(r.effect, r.name, true) // a race runs only with the ledger
		reqs[i], calls[i] = w.register(r), ledger.Call{Tool: r.name, Args: r.args, RPCID: id.Raw()}
		w.send(trace.ActorClient, idPtr(id), w.requestMessage(r), "Race: connection "+strconv.Itoa(i+1)+" of "+strconv.Itoa(st.Connections)+" sends the same call as request "+id.Raw()+".", func() {
			w.serverReceiveRequest(r)
		})
	}
	// Every request arrives at the same time; the barrier releases the
	// handlers once all have arrived.
	w.q.Schedule(w.q.Now()+w.s.LatencyMs.Up, func() {
		events, answers, err := w.ledger.RaceCalls(w.q.Now(), calls)
		if err != nil {
			w.emit(trace.Event{Actor: trace.ActorLedger, Type: trace.TypeError, Note: err.Error()})
			return
		}
		for _, ev := range events {
			w.tell(reqs[ev.Conn], ev.Event())
		}
		for _, a := range answers {
			w.answer(reqs[a.Conn], a.Response, a.Failed, "The server answers raced request "+reqs[a.Conn].id.Raw()+".", nil)
		}
	})
}
