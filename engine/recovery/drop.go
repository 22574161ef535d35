package recovery

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/trace"
)

// What happens when the transport under a stream breaks (DOMAIN.md §9;
// SCENARIO.md, "Switches for the failures real software shows"): the
// events that tell it, with their notes, for the runner to emit. Each
// event has no ID; the runner sets the request it is about.

// NothingDrops is a drop of request id on stdio, where a request has no
// stream of its own: the network's ignore event.
func NothingDrops(id string) trace.Event {
	return trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeIgnore, Note: fmt.Sprintf("Request %s has no stream of its own on stdio; nothing drops.", id)}
}

// Breaks is actor (the network) breaking the transport under listen
// stream id as wire message wire: both sides lose it.
func Breaks(id, actor string, wire int) trace.Event {
	return trace.Event{Actor: actor, Type: trace.TypeCloseStream, Wire: wire, Signal: trace.SignalCloseStream,
		Note: fmt.Sprintf("The transport under listen stream %s breaks; both sides lose it.", id)}
}

// UnsafeInFlight is the client's status for unsafe mutation id (RetryClass
// unsafe), in flight when a stream dropped: it will not replay it, since its
// response was lost; it reconciles first (DOMAIN.md §5).
func UnsafeInFlight(id string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus,
		Note: fmt.Sprintf("Unsafe mutation %s was in flight: the client will not replay it because its response was lost; it reconciles first.", id)}
}

// IDTaken is the client's error when the plan's new listen request id is
// already the id of another request: it cannot reconnect under it.
func IDTaken(newID string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: fmt.Sprintf("Request id %s is already taken; the client cannot reconnect under it.", newID)}
}

// Reopens is the client reconnecting, after a delayMs backoff, with new
// listen request newID (the reference plan: no Last-Event-ID, the same
// filter); ReopenNote is the note of its request, replacing oldID.
func Reopens(newID string, delayMs int64) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeReconnect,
		Note: fmt.Sprintf("After a %d ms backoff the client reconnects with a new listen request %s (no Last-Event-ID) and restores its filter.", delayMs, newID)}
}

// ReopenNote is the note of new listen request newID, which replaces
// dropped stream oldID with the same filter.
func ReopenNote(newID, oldID string) string {
	return fmt.Sprintf("The client opens listen stream %s, replacing %s, with the same filter.", newID, oldID)
}
