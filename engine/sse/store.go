package sse

import (
	"strconv"
)

// EventStore is a 2025-11-25 server's event store for resumable Streamable
// HTTP streams (DOMAIN.md §9; 2025-11-25 Streamable HTTP, "Resumability
// and Redelivery"): every SSE event the server writes on any stream of the
// session gets an event id, and a client that lost a stream reconnects
// with GET and Last-Event-ID to have the events after it replayed.
//
// Event ids are the decimal numbers 1, 2, 3, ... in the order the server
// wrote the events, across all streams of the session: globally unique,
// as the revision requires, and each the cursor of one stream. Stream is
// the caller's name for the stream an event belongs to (the JSON-RPC id
// text of the request whose response stream it is).
//
// The store keeps every event for the life of the run (a run is bounded by
// engine.MaxEvents, 100000 events), so it never evicts: the lab models a
// store large enough for the outage it shows.
//
// [EventStore.After] with allStreams false is the correct replay: only the
// events of the stream the Last-Event-ID belongs to, after it. allStreams
// true is the known-broken store of modelcontextprotocol/servers#4087 (the "everything" server's
// InMemoryEventStore): it replays every later event of every stream, so
// the resumed stream carries other streams' events, most of them already
// delivered there (failure replay-other-streams).
type EventStore[T any] struct {
	entries []StoredEvent[T]
}

// StoredEvent is one event of the store: its id ("1", "2", ...), the
// stream it was written on and the caller's data.
type StoredEvent[T any] struct {
	ID     string
	Stream string
	Data   T
}

// Append stores data as the next event of stream and returns its id.
func (s *EventStore[T]) Append(stream string, data T) string {
	id := strconv.Itoa(len(s.entries) + 1)
	s.entries = append(s.entries, StoredEvent[T]{ID: id, Stream: stream, Data: data})
	return id
}

// StreamOf returns the stream event id lastID was written on; ok is false
// for an id the store never issued (then nothing can be resumed from it).
func (s *EventStore[T]) StreamOf(lastID string) (stream string, ok bool) {
	i, ok := s.index(lastID)
	if !ok {
		return "", false
	}
	return s.entries[i].Stream, true
}

// After returns the events to replay for a GET with Last-Event-ID lastID,
// in the order they were written: those of lastID's stream written after
// it, or with allStreams (broken, modelcontextprotocol/servers#4087) every event written after
// it, whatever its stream. An id the store never issued replays nothing.
// Cost: O(events in the store).
func (s *EventStore[T]) After(lastID string, allStreams bool) []StoredEvent[T] {
	i, ok := s.index(lastID)
	if !ok {
		return nil
	}
	stream := s.entries[i].Stream
	var out []StoredEvent[T]
	for _, e := range s.entries[i+1:] {
		if allStreams || e.Stream == stream {
			out = append(out, e)
		}
	}
	return out
}

// Resume answers a GET with Last-Event-ID lastID ("" for none) that
// resumes stream, which the notes call name: ok and the events to replay
// (After), or, when lastID is "" or names no event of stream, not ok and
// why the server replays nothing (without an id it opens a new standalone
// stream, modelcontextprotocol/typescript-sdk#2499). Cost: O(events in the store).
func (s *EventStore[T]) Resume(lastID, stream, name string, allStreams bool) (missed []StoredEvent[T], why string, ok bool) {
	if got, known := s.StreamOf(lastID); known && got == stream {
		return s.After(lastID, allStreams), "", true
	}
	if lastID == "" {
		return nil, "A GET without Last-Event-ID opens a new standalone stream: the server cannot tell it resumes request " + name + ", replays nothing and never attaches the request's remaining events to it.", false
	}
	return nil, "Last-Event-ID " + lastID + " names no event of stream " + name + ": the server replays nothing.", false
}

// Len returns the number of events stored.
func (s *EventStore[T]) Len() int { return len(s.entries) }

func (s *EventStore[T]) index(id string) (int, bool) {
	n, err := strconv.Atoi(id)
	if err != nil || n < 1 || n > len(s.entries) || strconv.Itoa(n) != id {
		return 0, false
	}
	return n - 1, true
}
