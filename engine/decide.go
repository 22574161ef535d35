package engine

import (
	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The client's decisions (SCENARIO.md, "The client decides when it gives
// up, retries and resumes"): package coordinator decides (Client.Ending,
// NextRetry, Abandon, AwaitAfterCancel, CancelBlocked); the runner
// schedules what they decide.

// policyRetry is a retry the retry policy makes: its number n (from 1),
// its arguments and its note.
type policyRetry struct {
	n    int
	args []byte
	note string
}

// retryPolicy: call r has just ended for the client; client.policy.retry
// decides whether it is sent again (coordinator.NextRetry) and, if so,
// the retry "<root>-r<n>" goes out delayMs later, a copy of r with the
// same per-call timeouts.
func (w *world) retryPolicy(r *request) {
	p := w.s.Client.Policy.Retry
	if r.root == nil || p == nil {
		return
	}
	root := r.root
	n, ok := coordinator.NextRetry(p, &r.cl, root.retries)
	if !ok {
		return
	}
	root.retries = n
	id := scenario.RetryID(root.id, n)
	keyed := recovery.RetryClass(r.effect, root.args) == trace.RetryConditional
	again := &policyRetry{n: n, args: coordinator.RetryArguments(root.args, n, p.SameKey),
		note: coordinator.PolicyRetryNote(r.id.String(), id.String(), r.cl.Ending(), p.DelayMs, keyed, !p.SameKey)}
	w.q.Schedule(w.q.Now()+p.DelayMs, func() {
		if w.reqs[id.Raw()] != nil {
			w.tell(r, trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: "Retry policy: request id " + id.String() + " is already in use; the client cannot retry request " + r.id.String() + " under it."})
			return
		}
		w.callAs(scenario.Step{ID: &id}, r, again)
	})
}

// abandonSilently: r's deadline cause has just fired; with
// client.policy.cancelOnAbandon false the client gives up without telling
// the server (coordinator.Client.Abandon) and reports true.
func (w *world) abandonSilently(r *request, cause string) bool {
	if scenario.On(w.s.Client.Policy.CancelOnAbandon) {
		return false
	}
	e, ok := r.cl.Abandon(w.q.Now(), r.id.String(), cause)
	if !ok {
		return false
	}
	r.alarm.Stop()
	w.tell(r, e)
	w.retryPolicy(r)
	return true
}

// cancelled: the client has just cancelled r for cause; signalOut sends
// the cancellation. cancelAfterFirstEvent holds it until r's stream first
// speaks (heard); awaitResponseAfterCancel keeps the client waiting; a
// call that timed out may be retried.
func (w *world) cancelled(r *request, cause string, signalOut func()) {
	if coordinator.CancelBlocked(w.s.Client.Policy.CancelAfterFirstEvent, w.http(), r.heard) {
		// The client cannot close or cancel yet, so it still reads the
		// stream: the event it waits for must reach it.
		w.tell(r, coordinator.BlockedEvent(r.id.String(), cause))
		reading := r.cl.Reading
		r.cl.Reading = true
		r.held = func() {
			r.cl.Reading = reading
			signalOut()
		}
	} else {
		signalOut()
	}
	if w.s.Client.Policy.AwaitResponseAfterCancel && !r.cl.Pending() {
		w.tell(r, r.cl.AwaitAfterCancel(r.id.String()))
		return
	}
	w.retryPolicy(r)
}

// heardFrom: r's response stream has delivered an SSE event to the client
// (a message or a priming event; not a keep-alive comment): a held
// cancellation goes out now.
func (w *world) heardFrom(r *request) {
	r.heard = true
	if held := r.held; held != nil {
		r.held = nil
		held()
	}
}

// resumesDroppedCall reports whether the client resumes a dropped
// tools/call stream under 2025-11-25: client.policy.resumeDroppedCalls
// false never does (failure dropped-call-not-resumed,
// zed-industries/zed#56775).
func (w *world) resumesDroppedCall() bool {
	return scenario.On(w.s.Client.Policy.ResumeDroppedCalls)
}
