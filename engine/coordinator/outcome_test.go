package coordinator

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

func strp(s string) *string { return &s }
func msp(n int64) *int64    { return &n }

// TestOutcomeOf: the engine decides a request's outcome from both sides of
// its summary (DOMAIN.md §1, the race: both orders are valid), once, for
// every view.
func TestOutcomeOf(t *testing.T) {
	resp := json.RawMessage(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	tests := []struct {
		name            string
		r               trace.Request
		late, serverLog bool
		want            trace.Outcome
	}{
		{"a signal and a cancelled server: cancellation wins", trace.Request{State: "cancelled", Cause: strp("client"), Signal: strp(trace.SignalNotification), ClientOutcome: trace.OutcomeAbandoned}, false, false, trace.OutcomeCancellationWins},
		{"cancelled by the server yet answered, and the client took the result: completion wins for the client", trace.Request{State: "cancelled", Cause: strp("client"), Signal: strp(trace.SignalNotification), Response: resp, ClientOutcome: trace.OutcomeResult}, false, false, trace.OutcomeCompletionWins},
		{"cancelled, answered with an error the client took: cancellation wins", trace.Request{State: "cancelled", Cause: strp("client"), Signal: strp(trace.SignalNotification), ClientOutcome: trace.OutcomeError}, false, false, trace.OutcomeCancellationWins},
		{"a listen stream the server ended, its end accepted: the state (no client signal)", trace.Request{State: "cancelled", Cause: strp("server"), ClientOutcome: trace.OutcomeResult}, false, false, trace.OutcomeCancelled},
		{"a closed stream is a signal too (2026-07-28 HTTP)", trace.Request{State: "cancelled", Cause: strp("client"), Signal: strp(trace.SignalCloseStream)}, false, false, trace.OutcomeCancellationWins},
		{"the maximum timeout's cancellation wins (scenario C)", trace.Request{State: "cancelled", Cause: strp(trace.CauseMaxTimeout), Signal: strp(trace.SignalNotification)}, false, false, trace.OutcomeCancellationWins},
		{"the server completed over a sent signal: completion wins", trace.Request{State: "completed", Cause: strp("client"), Signal: strp(trace.SignalNotification), Response: resp, ClientOutcome: trace.OutcomeAbandoned}, false, false, trace.OutcomeCompletionWins},
		{"the cancel came after the answer: completion wins", trace.Request{State: "completed", Response: resp, ClientOutcome: trace.OutcomeResult}, true, false, trace.OutcomeCompletionWins},
		{"completed and no cancel: completed", trace.Request{State: "completed", Response: resp, ClientOutcome: trace.OutcomeResult}, false, false, trace.OutcomeCompleted},
		{"completed after the client's timeout gave up", trace.Request{State: "completed", Cause: strp(trace.CauseMaxTimeout), Signal: strp(trace.SignalCloseStream), Response: resp, ClientOutcome: trace.OutcomeAbandoned}, false, false, trace.OutcomeTimedOut},
		{"completed, an error on the client (late-message-fatal)", trace.Request{State: "completed", Cause: strp(trace.CauseSessionTeardown), Response: resp, ClientOutcome: trace.OutcomeError}, false, false, trace.OutcomeClientError},
		{"completed, the answer never reached the client", trace.Request{State: "completed", Response: resp, ClientOutcome: trace.OutcomePending}, false, false, trace.OutcomeNeverDelivered},
		{"a server's own log cannot see the client", trace.Request{State: "completed", Response: resp, ClientOutcome: trace.OutcomePending}, false, true, trace.OutcomeCompletedUnseen},
		{"completed, let go without a cancel", trace.Request{State: "completed", Response: resp, ClientOutcome: trace.OutcomeAbandoned}, false, false, trace.OutcomeCompletedAbandoned},
		{"cancelled by a raw cancellation, the client still waits", trace.Request{State: "cancelled", ClientOutcome: trace.OutcomePending}, false, false, trace.OutcomeCancelledClientWaits},
		{"cancelled without a signal: the state", trace.Request{State: "cancelled", Cause: strp("disconnect")}, false, false, trace.OutcomeCancelled},
		{"failed: the state", trace.Request{State: "failed", ClientOutcome: trace.OutcomeError}, false, false, trace.OutcomeFailed},
		{"in progress: the state", trace.Request{State: "in-progress", ClientOutcome: trace.OutcomePending}, false, false, trace.OutcomeInProgress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OutcomeOf(tt.r, tt.late, tt.serverLog); got != tt.want {
				t.Errorf("OutcomeOf = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestClientStates: the client's states run from its send (waiting) to
// how the request ended for it, at the moment it did.
func TestClientStates(t *testing.T) {
	w := trace.StateChange{At: 5, State: trace.ClientWaiting}
	tests := []struct {
		name string
		r    trace.Request
		want []trace.StateChange
	}{
		{"still waiting", trace.Request{SentAt: 5, ClientOutcome: trace.OutcomePending}, []trace.StateChange{w}},
		{"answered", trace.Request{SentAt: 5, ClientOutcome: trace.OutcomeResult, EndedAt: msp(310)}, []trace.StateChange{w, {At: 310, State: trace.ClientResult}}},
		{"answered with an error", trace.Request{SentAt: 5, ClientOutcome: trace.OutcomeError, EndedAt: msp(40)}, []trace.StateChange{w, {At: 40, State: trace.ClientError}}},
		{"its own deadline gave up, then cancelled: timed out", trace.Request{SentAt: 5, ClientOutcome: trace.OutcomeAbandoned, Cause: strp(trace.CauseIdleTimeout), Signal: strp(trace.SignalNotification), EndedAt: msp(505)}, []trace.StateChange{w, {At: 505, State: trace.ClientTimedOut}}},
		{"the client cancelled with a signal", trace.Request{SentAt: 5, ClientOutcome: trace.OutcomeAbandoned, Cause: strp(trace.CauseClient), Signal: strp(trace.SignalCloseStream), EndedAt: msp(300)}, []trace.StateChange{w, {At: 300, State: trace.ClientCancelled}}},
		{"its stream broke", trace.Request{SentAt: 5, ClientOutcome: trace.OutcomeAbandoned, Cause: strp(trace.CauseDisconnect), Signal: strp(trace.SignalCloseStream), EndedAt: msp(90)}, []trace.StateChange{w, {At: 90, State: trace.ClientDisconnected}}},
		{"let go, nothing signalled (2025 initialize)", trace.Request{SentAt: 5, ClientOutcome: trace.OutcomeAbandoned, Cause: strp(trace.CauseClient), EndedAt: msp(100)}, []trace.StateChange{w, {At: 100, State: trace.ClientAbandoned}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ClientStates(tt.r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ClientStates = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestDecideServerStates: the server's states are its start (in progress)
// and the status it ended in, read from the events; a request id two
// requests share (a raw duplicate, a second session) gives each event to
// the latest of them sent by then; a client's own log, with no server
// event, has no server states.
func TestDecideServerStates(t *testing.T) {
	id := scenario.NewIntID(7)
	other := scenario.NewIntID(8)
	ev := func(at int64, typ trace.EventType, status string, id scenario.ID) trace.Event {
		return trace.Event{At: at, Actor: trace.ActorServer, Type: typ, Status: status, ID: &id}
	}
	tr := &trace.Trace{
		Requests: []trace.Request{
			{ID: id, SentAt: 0, State: "completed", ClientOutcome: trace.OutcomeResult, EndedAt: msp(320)},
			{ID: other, SentAt: 0, State: "in-progress", ClientOutcome: trace.OutcomePending},
			{ID: id, SentAt: 500, State: "cancelled", ClientOutcome: trace.OutcomeAbandoned, Cause: strp("client"), Signal: strp(trace.SignalNotification), EndedAt: msp(600)},
		},
		Events: []trace.Event{
			ev(10, trace.TypeStart, "", id),
			{At: 20, Actor: trace.ActorClient, Type: trace.TypeActivity, ID: &id},
			ev(310, trace.TypeStatus, trace.StateCompleted, id),
			ev(510, trace.TypeStart, "", id),
			ev(610, trace.TypeStatus, trace.StateCancelled, id),
			ev(620, trace.TypeStatus, trace.StateCancelled, id),
		},
	}
	Decide(tr, []bool{true})
	want := [][]trace.StateChange{
		{{At: 10, State: trace.StateInProgress}, {At: 310, State: trace.StateCompleted}},
		{},
		{{At: 510, State: trace.StateInProgress}, {At: 610, State: trace.StateCancelled}},
	}
	for i, r := range tr.Requests {
		if !reflect.DeepEqual(r.ServerStates, want[i]) {
			t.Errorf("request %d: serverStates %v, want %v", i, r.ServerStates, want[i])
		}
	}
	if o := tr.Requests[0].Outcome; o != trace.OutcomeCompletionWins {
		t.Errorf("request 0, cancelled late: outcome %q, want completion-wins", o)
	}
	if o := tr.Requests[2].Outcome; o != trace.OutcomeCancellationWins {
		t.Errorf("request 2: outcome %q, want cancellation-wins", o)
	}
}

// TestRestarts: activity restarts the idle clock when there is one, the
// maximum too only under progressResetsMax (DOMAIN.md §2); a request with
// neither clock restarts nothing.
func TestRestarts(t *testing.T) {
	for _, tt := range []struct {
		name string
		d    Deadlines
		want string
	}{
		{"no clocks", Deadlines{}, ""},
		{"a maximum alone never moves", Deadlines{MaxMs: 2000}, ""},
		{"idle", Deadlines{IdleMs: 500, MaxMs: 2000}, trace.RestartsIdle},
		{"idle and, broken, the maximum", Deadlines{IdleMs: 500, MaxMs: 2000, ProgressResetsMax: true}, trace.RestartsIdleMax},
		{"the maximum alone, broken", Deadlines{MaxMs: 2000, ProgressResetsMax: true}, trace.RestartsMax},
	} {
		if got := tt.d.Restarts(); got != tt.want {
			t.Errorf("%s: Restarts = %q, want %q", tt.name, got, tt.want)
		}
	}
}
