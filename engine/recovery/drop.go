package recovery

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/trace"
)

// What happens when the transport under a stream breaks (DOMAIN.md §9;
// SCENARIO.md, "Switches for the failures real software shows"): the
// events that tell it, with their notes, for the runner to emit. Each
// event has no ID; the runner sets the request it is about.

// NothingDrops is a drop of request id on stdio, where a request has no
// stream of its own: the network's ignore event.
func NothingDrops(id string) trace.Event {
	return trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeIgnore, Note: "Request " + id + " has no stream of its own on stdio; nothing drops."}
}

// Breaks is actor (the network) breaking the transport under listen
// stream id as wire message wire: both sides lose it.
func Breaks(id string, actor trace.Actor, wire int) trace.Event {
	return trace.Event{Actor: actor, Type: trace.TypeCloseStream, Wire: wire, Signal: trace.SignalCloseStream,
		Note: "The transport under listen stream " + id + " breaks; both sides lose it."}
}

// UnsafeInFlight is the client's status for unsafe mutation id (RetryClass
// unsafe), in flight when a stream dropped: it will not replay it, since its
// response was lost; it reconciles first (DOMAIN.md §5).
func UnsafeInFlight(id string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus,
		Note: "Unsafe mutation " + id + " was in flight: the client will not replay it because its response was lost; it reconciles first."}
}

// IDTaken is the client's error when the plan's new listen request id is
// already the id of another request: it cannot reconnect under it.
func IDTaken(newID string) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeError, Note: "Request id " + newID + " is already taken; the client cannot reconnect under it."}
}

// Reopens is the client reconnecting, after a delayMs backoff, with new
// listen request newID (the reference plan: no Last-Event-ID, the same
// filter); ReopenNote is the note of its request, replacing oldID. With
// skipRefetch (client.policy.skipRefetch; failure skip-refetch,
// docker/docker-agent#2244) the note says the client keeps its cached
// lists and refetches nothing (Refetched).
func Reopens(newID string, delayMs int64, skipRefetch bool) trace.Event {
	note := "After a " + strconv.FormatInt(delayMs, 10) + " ms backoff the client reconnects with a new listen request " + newID + " (no Last-Event-ID) and restores its filter."
	if skipRefetch {
		note += " Policy skipRefetch: it keeps its cached lists and refetches nothing, so a change it missed while the stream was down stays unknown (docker/docker-agent#2244)."
	}
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeReconnect, Note: note}
}

// Refetched is what a client refetches after it reopened a listen stream:
// the plan's affected ids, or nothing with skipRefetch (Reopens).
func Refetched(affected []string, skipRefetch bool) []string {
	if skipRefetch {
		return nil
	}
	return affected
}

// ReopenNote is the note of new listen request newID, which replaces
// dropped stream oldID with the same filter.
func ReopenNote(newID, oldID string) string {
	return "The client opens listen stream " + newID + ", replacing " + oldID + ", with the same filter."
}
