// Package handler is the server's side of a tools/call (DOMAIN.md §1,
// "The server's side of a cancellation"; SCENARIO.md, "Handlers: the
// server decides when work ends"): the work a call starts when its
// request reaches the server, its progress cadence, the checkpoints at
// which it can notice a cancellation, the work it wastes until it does,
// and the named resources handlers hold (Pool).
//
// Every function is handed the virtual time (ms); nothing here reads a
// clock or schedules. A Work is one call's handler; its moves return the
// trace event that tells them, with its note, and the runner (package
// engine) schedules them on the event queue and wires them to the wire.
package handler

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Work is one call's handler (a scenario.Handler) in progress. The zero
// value of its state is a handler not yet started (waiting for its
// resource, or not yet arrived).
type Work struct {
	H scenario.Handler
	// Begun reports whether the work started (StartAt, ms), Done whether
	// the handler returned: completed, failed, stopped at a checkpoint, or
	// gave up waiting for its resource.
	Begun, Done bool
	StartAt     int64
	// CancelAt is when a cancellation reached the handler's request at
	// the server (nil: none did while it worked).
	CancelAt *int64
	// Holding reports whether the handler holds H.Holds now.
	Holding bool
	// WastedMs is the work done after CancelAt until the handler stopped
	// (requests[].wastedWorkMs).
	WastedMs int64
	// Held are the progress values held back by the server's transport
	// (server.policy.holdNotifications) until the handler returns.
	Held []int

	// id and token are the request's id as notes say it and its progress
	// token's JSON text ("" for none); hooks reach the server (Server);
	// waitSince is when it began waiting for its resource.
	id, token string
	srv       *coordinator.Server
	hooks     Hooks
	waitSince int64
	// forgotten: the server retired the request's session (Server.Forget);
	// the handler stops at its next checkpoint and answers nothing.
	forgotten bool
}

// New is a handler for one call of h, not started.
func New(h scenario.Handler) *Work { return &Work{H: h} }

// Begin starts the work at now (the request's arrival, or when it got its
// resource) and returns the time it ends, now + WorkMs.
func (w *Work) Begin(now int64) (endsAt int64) {
	w.Begun, w.StartAt = true, now
	return now + w.H.WorkMs
}

// Progress returns the handler's progress cadence (SCENARIO.md): n
// updates, update k (1..n) at k × every ms of work, for every k with
// k × every < WorkMs, so an update never coincides with the completion;
// n is 0 when the handler reports no progress.
func Progress(h scenario.Handler) (every int64, n int) {
	if h.ProgressEveryMs <= 0 {
		return 0, 0
	}
	return h.ProgressEveryMs, int((h.WorkMs - 1) / h.ProgressEveryMs)
}

// Observes returns when the handler notices a cancellation that reached
// its request at at (at >= StartAt): at once when it has no checkpoints
// (CheckpointEveryMs 0), else at its first checkpoint at or after at,
// k × CheckpointEveryMs ms of work, and at the end of the work at the
// latest (the end is always a checkpoint, before the side effect
// commits). ignores (server.policy.handlerIgnoresCancel) is a handler
// that never observes it: it works to the end (observed false). Either
// way the work from at to the returned time is wasted.
func (w *Work) Observes(at int64, ignores bool) (when int64, observed bool) {
	if ignores {
		return w.StartAt + w.H.WorkMs, false
	}
	return w.Checkpoint(at), true
}

// Checkpoint returns the handler's first checkpoint at or after at: at
// itself when it has none (it notices at once), the end of the work at
// the latest.
func (w *Work) Checkpoint(at int64) int64 {
	start, end, c := w.StartAt, w.StartAt+w.H.WorkMs, w.H.CheckpointEveryMs
	if c <= 0 || at <= start {
		return min(max(at, start), end)
	}
	k := (at - start + c - 1) / c
	return min(start+k*c, end)
}

// Cancelled records that a cancellation reached the handler's request at
// now, while it worked (a second one changes nothing).
func (w *Work) Cancelled(now int64) {
	if w.CancelAt == nil && w.Begun && !w.Done {
		w.CancelAt = &now
	}
}

// Stop is the handler observing the cancellation at a checkpoint at now:
// it returns (Done), its work since the cancellation arrived is wasted,
// and release says whether it gives its resource back (releaseOnCancel,
// the try/finally; false keeps it: failure resource-leaked-on-cancel).
// e is the checkpoint event; id is the request's id as notes say it.
func (w *Work) Stop(now int64, id string, releaseOnCancel bool) (e trace.Event, release bool) {
	w.Done = true
	if w.CancelAt != nil {
		w.WastedMs = now - *w.CancelAt
	}
	note := "The handler of request " + id + " reaches a checkpoint and observes the cancellation: it stops (the cancellation propagates; no result, no side effect)"
	switch {
	case w.CancelAt != nil && *w.CancelAt == now:
		note += ", the moment it arrives."
	case w.CancelAt != nil:
		note += "; " + ms(w.WastedMs) + " of work since the cancellation arrived at " + strconv.FormatInt(*w.CancelAt, 10) + " were wasted."
	default:
		note += "."
	}
	release = w.Holding && releaseOnCancel
	if w.Holding && !releaseOnCancel {
		note += " Policy releaseOnCancel false: it keeps " + w.H.Holds + " (no finally), and the next call that needs it waits."
	}
	if release {
		w.Holding = false
	}
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeCheckpoint, Note: note}, release
}

// Forgets is the handler of a request whose session the server retired
// stopping at its checkpoint, as it would on a transport close: it
// returns (Done) with no result, no side effect and no response (the
// server forgot the request), its held notifications are dropped, and it
// gives its resource back (release). e is the checkpoint event.
func (w *Work) Forgets(id string) (e trace.Event, release bool) {
	w.Done = true
	w.Flush()
	note := "The handler of request " + id + " of the retired session reaches a checkpoint and stops, as on a transport close: no result, no side effect, no response"
	release, w.Holding = w.Holding, false
	if release {
		note += "; it releases " + w.H.Holds + " on the way out"
	}
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeCheckpoint, Note: note + "."}, release
}

// Unqueues is a handler that never started leaving its wait for a
// resource, because the server retired its request's session: no work,
// nothing wasted. e is the event.
func (w *Work) Unqueues(id string) trace.Event {
	w.Done = true
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Resource: w.H.Holds,
		Note: "Request " + id + " is forgotten with its session while its handler waits for " + w.H.Holds + ": it leaves the queue, and its work never starts."}
}

// Swallows is the handler under handlerIgnoresCancel passing its first
// checkpoint after the cancellation: it catches the cancellation
// and works on (failure cancel-swallowed). e is the checkpoint event.
func (w *Work) Swallows(id string) trace.Event {
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeCheckpoint,
		Note: "Policy handlerIgnoresCancel: the handler of request " + id + " reaches a checkpoint, catches the cancellation and works on; its work and side effects run to the end (hahwul/gori#1103)."}
}

// Finish is the handler reaching the end of its work at now: it returns
// (Done); work after a cancellation it ignored is wasted. release says
// whether it gives a resource back.
func (w *Work) Finish(now int64) (release bool) {
	w.Done = true
	if w.CancelAt != nil {
		w.WastedMs = now - *w.CancelAt
	}
	release, w.Holding = w.Holding, false
	return release
}

// Abandon is a handler that never started giving up its wait for a
// resource, because its request was cancelled: no work, nothing
// wasted. e is the event.
func (w *Work) Abandon(id string) trace.Event {
	w.Done = true
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Resource: w.H.Holds,
		Note: "Request " + id + " is cancelled while its handler waits for " + w.H.Holds + ": it leaves the queue, and its work never starts."}
}

// Answered is the handler of request id leaving its resource's queue
// because a scripted complete or fail step already answered the request
// while it waited: its work never starts (Done).
func (w *Work) Answered(id string) trace.Event {
	w.Done = true
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeIgnore, Resource: w.H.Holds,
		Note: "Request " + id + " was already answered while its handler waited for " + w.H.Holds + ": it leaves the queue, and its work never starts."}
}

// Hold is the server's transport holding progress value k of request id
// (server.policy.holdNotifications, failure notifications-held,
// mastra-ai/mastra#14782): it writes it only when the handler returns.
func (w *Work) Hold(k int, id string) trace.Event {
	w.Held = append(w.Held, k)
	return trace.Event{Actor: trace.ActorServer, Type: trace.TypeHold,
		Note: "Policy holdNotifications: the handler reports progress " + strconv.Itoa(k) + " for request " + id + ", but the server's transport holds it until the handler returns (mastra-ai/mastra#14782)."}
}

// Flush returns the progress values held back, in order, and forgets them.
func (w *Work) Flush() []int {
	held := w.Held
	w.Held = nil
	return held
}

func ms(n int64) string { return strconv.FormatInt(n, 10) + " ms" }
