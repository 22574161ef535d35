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
	for _, r := range w.order {
		e, closeStream, ok := r.cl.TearDown(w.q.Now(), r.id.String())
		if !ok {
			continue
		}
		w.stopTimer(r)
		if r.ls != nil {
			r.ls.Reading = false
		}
		w.tell(r, e)
		if closeStream {
			w.closeStream(trace.ActorClient, r, fmt.Sprintf("The torn-down session closes request %s's response stream.", r.id), func() { w.serverSeesClose(r, trace.CauseDisconnect) })
		}
	}
}
