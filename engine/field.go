package engine

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/trace"
)

// The broken client reactions of SCENARIO.md, "Switches for the failures
// real software shows" (DOMAIN.md §11: late-message-fatal,
// ignore-progress). Each is off by default.

// lateMessageFatal reports whether the client's policy treats this late
// message (a response for an abandoned request when response, else
// progress for a finished or unknown token) as a protocol error.
func (w *world) lateMessageFatal(response bool) bool {
	p := w.s.Client.Policy
	if response {
		return p.LateResponseIsError
	}
	return p.LateProgressIsError
}

// teardown is the client treating what it just received as a protocol
// error (failure late-message-fatal, claude-code#51073,
// typescript-sdk#2580): it tears down the session, and every call still in
// flight on it fails with an error, its stream (Streamable HTTP) closed.
// about is the request the late message concerns, nil if none is known.
func (w *world) teardown(about *request, what string) {
	e := trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Cause: trace.CauseSessionTeardown,
		Note: fmt.Sprintf("Policy: the client treats %s as a protocol error and tears down the session; every call in flight on it fails.", what)}
	if about != nil {
		e.ID = idPtr(about.id)
	}
	w.emit(e)
	now := w.q.Now()
	for _, r := range w.order {
		if r.outcome != trace.OutcomePending {
			continue
		}
		cause := trace.CauseSessionTeardown
		r.outcome, r.endedAt, r.cause = trace.OutcomeError, &now, cause
		w.q.Stop(r.timer)
		r.timer = nil
		if r.ls != nil {
			r.ls.clientActive = false
		}
		w.emit(trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, ID: idPtr(r.id), Cause: trace.CauseSessionTeardown,
			Note: fmt.Sprintf("Request %s fails: the session it was in flight on was torn down. The server was not at fault.", r.id)})
		if r.clientStreamOpen {
			r.clientStreamOpen, r.signal = false, trace.SignalCloseStream
			r := r
			w.closeStream(trace.ActorClient, r, fmt.Sprintf("The torn-down session closes request %s's response stream.", r.id), func() { w.serverSeesClose(r, trace.CauseDisconnect) })
		}
	}
}

// noTokenDiagnosis ends the note of an idle timeout on a request that
// carried no progress token (claude-code#58687): the server had no way to
// reset the clock.
const noTokenDiagnosis = " The request carried no progressToken: the client never asked for progress, so nothing the server could send would reset this clock."
