package coordinator

import (
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// Decide fills every request of tr with its Outcome, ClientStates and
// ServerStates: what happened to it from both sides, decided once here so
// that every view (the pages, the timeline's cursor, the command) draws
// the same answer. cancelledLate[i] reports that the client decided to
// cancel request i after it had its answer (a cancel step too late to send
// anything); nil for none, as for an imported transcript. A trace written
// by the server alone (Source.Side "server") cannot show whether the
// client got an answer (OutcomeCompletedUnseen).
//
// It reads the requests' summaries and the events; it allocates one index
// of request ids, and runs in time linear in the events.
func Decide(tr *trace.Trace, cancelledLate []bool) {
	serverLog := tr.Source != nil && tr.Source.Side == string(trace.ActorServer)
	byID := make(map[string][]int, len(tr.Requests))
	for i := range tr.Requests {
		r := &tr.Requests[i]
		late := i < len(cancelledLate) && cancelledLate[i]
		r.Outcome = OutcomeOf(*r, late, serverLog)
		r.ClientStates = ClientStates(*r)
		r.ServerStates = []trace.StateChange{}
		raw := r.ID.Raw()
		byID[raw] = append(byID[raw], i)
	}
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.ID == nil || e.Actor != trace.ActorServer {
			continue
		}
		state := serverState(e)
		if state == "" {
			continue
		}
		// Two requests may share an id (a raw duplicate, another session of
		// an imported transcript): the event is the latest one's sent by then.
		ids := byID[e.ID.Raw()]
		k := -1
		for _, j := range ids {
			if tr.Requests[j].SentAt <= e.At {
				k = j
			}
		}
		if k < 0 {
			if len(ids) == 0 {
				continue
			}
			k = ids[0]
		}
		r := &tr.Requests[k]
		if n := len(r.ServerStates); n > 0 && (r.ServerStates[n-1].State == state || trace.Terminal(r.ServerStates[n-1].State)) {
			continue // one terminal state (DOMAIN.md §1)
		}
		r.ServerStates = append(r.ServerStates, trace.StateChange{At: e.At, State: state})
	}
}

// serverState is the request state server event e shows, "" for none: in
// progress from its start, the status a status event names, completed or
// failed when the server puts its final response on the wire.
func serverState(e *trace.Event) string {
	switch e.Type {
	case trace.TypeStart:
		return trace.StateInProgress
	case trace.TypeStatus:
		return e.Status
	case trace.TypeSend:
		if m, err := jsonrpc.Parse(e.Message); err == nil && m.IsFinal() {
			if m.Kind == jsonrpc.Error {
				return trace.StateFailed
			}
			return trace.StateCompleted
		}
	}
	return ""
}

// OutcomeOf decides a request's outcome from its summary r (DOMAIN.md §1,
// the race; SCENARIO.md requests[]): cancellation wins when a signal was
// sent and the server cancelled it; completion wins when the client
// cancelled (or, cancelledLate, decided to after its answer had come) and
// the server completed it, and also when the server cancelled it but
// answered anyway and the client accepted that result (the outcome follows
// what the client did); a completed request the client did not get (an
// error on the client's side, an answer never delivered, one it had let
// go or timed out on) says so, and so does a cancelled one its client still
// waits for; otherwise the server's state. serverLog:
// the trace is the server's own log, which cannot see the client, so a
// completion it shows is OutcomeCompletedUnseen rather than never
// delivered.
func OutcomeOf(r trace.Request, cancelledLate, serverLog bool) trace.Outcome {
	attempted := r.Signal != nil || r.Cause != nil || cancelledLate
	timedOut := r.Cause != nil && (*r.Cause == trace.CauseMaxTimeout || *r.Cause == trace.CauseIdleTimeout)
	completed := r.State == trace.StateCompleted
	switch {
	case r.Signal != nil && r.State == trace.StateCancelled && r.ClientOutcome == trace.OutcomeResult:
		// The server cancelled the request yet answered it anyway, and
		// the client took that result: for the client completion won.
		return trace.OutcomeCompletionWins
	case r.Signal != nil && r.State == trace.StateCancelled:
		return trace.OutcomeCancellationWins
	case r.State == trace.StateCancelled && r.ClientOutcome == trace.OutcomePending:
		return trace.OutcomeCancelledClientWaits
	case completed && r.ClientOutcome == trace.OutcomeError:
		return trace.OutcomeClientError
	case completed && r.ClientOutcome == trace.OutcomePending && serverLog:
		return trace.OutcomeCompletedUnseen
	case completed && r.ClientOutcome == trace.OutcomePending:
		return trace.OutcomeNeverDelivered
	case completed && r.ClientOutcome == trace.OutcomeAbandoned && timedOut:
		return trace.OutcomeTimedOut
	case completed && r.ClientOutcome == trace.OutcomeAbandoned && !attempted:
		return trace.OutcomeCompletedAbandoned
	case completed && attempted:
		return trace.OutcomeCompletionWins
	}
	return trace.Outcome(r.State)
}

// ClientStates are request r's states as its client saw them, from its
// summary: waiting from its send, then, when it ended for the client, how
// (its result or error; timed out when its own deadline gave up,
// disconnected when its stream broke, cancelled when it sent a
// cancellation signal, abandoned when it signalled nothing).
func ClientStates(r trace.Request) []trace.StateChange {
	out := []trace.StateChange{{At: r.SentAt, State: trace.ClientWaiting}}
	if r.EndedAt == nil {
		return out
	}
	end := trace.ClientAbandoned
	cause := ""
	if r.Cause != nil {
		cause = *r.Cause
	}
	switch {
	case r.ClientOutcome == trace.OutcomeResult:
		end = trace.ClientResult
	case r.ClientOutcome == trace.OutcomeError:
		end = trace.ClientError
	case r.ClientOutcome == trace.OutcomePending:
		return out
	case cause == trace.CauseIdleTimeout || cause == trace.CauseMaxTimeout:
		end = trace.ClientTimedOut
	case cause == trace.CauseDisconnect:
		end = trace.ClientDisconnected
	case r.Signal != nil:
		end = trace.ClientCancelled
	}
	return append(out, trace.StateChange{At: *r.EndedAt, State: end})
}

// Restarts names the clocks activity restarts under d (trace.Restarts*):
// the idle clock when there is one, the maximum one too under
// progressResetsMax; "" when it restarts none (DOMAIN.md §2).
func (d Deadlines) Restarts() string {
	idle, maximum := d.IdleMs > 0, d.ProgressResetsMax && d.MaxMs > 0
	switch {
	case idle && maximum:
		return trace.RestartsIdleMax
	case idle:
		return trace.RestartsIdle
	case maximum:
		return trace.RestartsMax
	}
	return ""
}
