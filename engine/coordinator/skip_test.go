package coordinator

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestUnhappening pins SCENARIO.md's steps that cannot happen ("honest
// time"), each skipped with its reason, and the ones that can: the race's
// completion after a cancellation, a cancel before the answer arrives, a
// retry after an error or an abandonment.
func TestUnhappening(t *testing.T) {
	id, of := scenario.NewIntID(7), scenario.NewIntID(6)
	arrived := func(st State) *Server { s := &Server{Arrived: true}; s.state = st; return s }
	client := func(outcome string) *Client { return &Client{Outcome: outcome} }
	tests := []struct {
		name  string
		do    scenario.Verb
		c     *Client
		s     *Server
		orig  *Client
		wants string // "" when the step can happen
	}{
		{"complete before the request arrives", "complete", client(trace.OutcomePending), &Server{}, nil, "has not reached the server yet"},
		{"progress before the request arrives", "progress", client(trace.OutcomePending), &Server{}, nil, "has not reached the server yet"},
		{"a second completion", "complete", client(trace.OutcomeResult), arrived(Completed), nil, "has already completed at the server"},
		{"fail after a failure", "fail", client(trace.OutcomeError), arrived(Failed), nil, "has already failed at the server, so the server cannot fail it again."},
		{"fail after a completion: never failed, so not again", "fail", client(trace.OutcomeResult), arrived(Completed), nil, "has already completed at the server, so the server cannot fail it."},
		{"progress after the handler stopped", "produce", client(trace.OutcomeAbandoned), &Server{Arrived: true, Stopped: true}, nil, "has already returned after its cancellation"},
		{"the race: a completion after the cancellation", "complete", client(trace.OutcomeAbandoned), arrived(Cancelled), nil, ""},
		{"cancel of an answered request", "cancel", client(trace.OutcomeResult), arrived(Completed), nil, "is already answered at the client"},
		{"cancel of an abandoned request", "cancel", client(trace.OutcomeAbandoned), arrived(Cancelled), nil, "is already abandoned at the client"},
		{"cancel before the answer arrives", "cancel", client(trace.OutcomePending), arrived(Completed), nil, ""},
		{"retry of a call that got its result", "retry", nil, nil, client(trace.OutcomeResult), "already has its result at the client"},
		{"retry after an error", "retry", nil, nil, client(trace.OutcomeError), ""},
		{"retry after an abandonment", "retry", nil, nil, client(trace.OutcomeAbandoned), ""},
		{"disconnect of a stream already closed", "disconnect", &Client{Outcome: trace.OutcomeAbandoned}, arrived(Cancelled), nil, "stream is already closed"},
		{"disconnect of an open stream", "disconnect", &Client{Outcome: trace.OutcomePending, Reading: true}, arrived(InProgress), nil, ""},
	}
	for _, tt := range tests {
		st := scenario.Step{Do: tt.do, ID: &id, Of: &of}
		got := Unhappening(st, id.String(), tt.c, tt.s, tt.orig)
		if tt.wants == "" && got != "" || tt.wants != "" && !strings.Contains(got, tt.wants) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.wants)
		}
	}
}

// TestStepSkipNotSentYet: a step naming a request not sent by the step's
// time (its own retry was skipped, or the retry policy sends it later) is
// skipped too, as the client's or the server's move, and its reason says
// the request is not sent yet at that time, never that it is never sent.
func TestStepSkipNotSentYet(t *testing.T) {
	id := scenario.NewIntID(8)
	none := func(scenario.ID) (*Client, *Server) { return nil, nil }
	for do, actor := range map[scenario.Verb]trace.Actor{scenario.VerbCancel: trace.ActorClient, scenario.VerbComplete: trace.ActorServer} {
		e, skip, ok := StepSkip(4, scenario.Step{At: 150, Do: do, ID: &id}, none, false, true, "")
		if !ok || e.Actor != actor || e.ID == nil || e.ID.Raw() != "8" || skip.Step != 4 || skip.Reason != "request 8 has not been sent yet at 150 ms, so nothing can act on it then." {
			t.Errorf("%s of a request never sent: %v %+v %+v", do, ok, e, skip)
		}
	}
}

// TestStepSkipEndSession: an end-session step without a live Streamable
// HTTP session (stdio, 2026-07-28, a session already retired) is the
// server's skip with its entry of skipped[], never an ignore; with one it
// happens.
func TestStepSkipEndSession(t *testing.T) {
	none := func(scenario.ID) (*Client, *Server) { return nil, nil }
	for _, live := range []bool{false, true} {
		e, skip, ok := StepSkip(3, scenario.Step{At: 150, Do: scenario.VerbEndSession}, none, false, live, "")
		if ok == live || ok && (e.Type != trace.TypeSkip || e.Actor != trace.ActorServer || skip.Step != 3 || !strings.Contains(skip.Reason, "no live Streamable HTTP session")) {
			t.Errorf("live %v: skipped %v, %+v %+v", live, ok, e, skip)
		}
	}
}
