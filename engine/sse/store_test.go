package sse

import (
	"fmt"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestEventStoreReplay proves the 2025-11-25 replay rule (DOMAIN.md §9:
// a resumed stream replays only that stream's events after Last-Event-ID)
// and the broken store of modelcontextprotocol/servers#4087, which replays every stream's
// events after it.
func TestEventStoreReplay(t *testing.T) {
	var s EventStore[string]
	for _, e := range []struct{ stream, data string }{{"1", "a1"}, {"2", "b1"}, {"1", "a2"}, {"2", "b2"}, {"1", "a3"}} {
		s.Append(e.stream, e.data)
	}
	ids := func(evs []StoredEvent[string]) string {
		out := ""
		for _, e := range evs {
			out += fmt.Sprintf("%s:%s/%s ", e.ID, e.Stream, e.Data)
		}
		return out
	}
	cases := []struct {
		name, last string
		all        bool
		want       string
	}{
		{"own stream after event 1", "1", false, "3:1/a2 5:1/a3 "},
		{"own stream after event 2 (stream 2)", "2", false, "4:2/b2 "},
		{"modelcontextprotocol/servers#4087: every stream after event 1", "1", true, "2:2/b1 3:1/a2 4:2/b2 5:1/a3 "},
		{"the last event: nothing to replay", "5", false, ""},
		{"an id never issued replays nothing", "6", false, ""},
		{"a non-canonical id replays nothing", "01", false, ""},
		{"no id replays nothing", "", true, ""},
	}
	for _, c := range cases {
		if got := ids(s.After(c.last, c.all)); got != c.want {
			t.Errorf("%s: After(%q, %v) = %q, want %q", c.name, c.last, c.all, got, c.want)
		}
	}
	if st, ok := s.StreamOf("4"); !ok || st != "2" {
		t.Errorf("StreamOf(4) = %q, %v; want stream 2", st, ok)
	}
	if _, ok := s.StreamOf("0"); ok {
		t.Error("StreamOf(0) found a stream; ids start at 1")
	}
}

// TestKeepStoresEveryEventAndHoldsBackOnAClosedStream proves the
// 2025-11-25 event store's write (DOMAIN.md §9): every message gets the
// session's next event id and is stored; a keep-alive comment is not; on a
// stream the server saw close, the message goes only into the store, and
// a final response held back is reported lost (requests[].response is
// only what reached the wire).
func TestKeepStoresEveryEventAndHoldsBackOnAClosedStream(t *testing.T) {
	var store EventStore[Msg]
	plain := Msg{Msg: []byte(`{"p":0}`), Progress: true}
	if kept, lost := Keep(false, &store, &plain, `"a"`, `"a"`, true); kept != nil || lost != nil || plain.EventID != "" || store.Len() != 0 {
		t.Errorf("stream that does not resume: kept %v, lost %v, event id %q, %d stored; want nothing stored, kept back or numbered", kept, lost, plain.EventID, store.Len())
	}
	open := Msg{Msg: []byte(`{"p":1}`), Progress: true}
	if kept, lost := Keep(true, &store, &open, `"a"`, `"a"`, false); kept != nil || lost != nil || open.EventID != "1" {
		t.Errorf("open stream: kept %v, lost %v, event id %q; want nothing kept back and id 1", kept, lost, open.EventID)
	}
	comment := Keepalive()
	if kept, _ := Keep(true, &store, &comment, `"a"`, `"a"`, true); kept != nil || comment.EventID != "" || store.Len() != 1 {
		t.Errorf("keep-alive: kept %v, event id %q, %d stored; want it neither stored nor kept back", kept, comment.EventID, store.Len())
	}
	final := Msg{Msg: []byte(`{"result":{}}`), Final: true}
	kept, lost := Keep(true, &store, &final, `"a"`, `"a"`, true)
	if len(kept) != 1 || kept[0].EventID != "2" || len(lost) != 1 || string(lost[0]) != `{"result":{}}` {
		t.Errorf("closed stream: kept %v, lost %q; want one enqueue of event 2 and the final held back", kept, lost)
	}
	if got := store.After("1", false); len(got) != 1 || got[0].Data.EventID != "" || !got[0].Data.Final {
		t.Errorf("store after 1: %+v; want the final response, replayable", got)
	}
}

// TestReplay proves the server's answer to a resuming GET (DOMAIN.md §9):
// the events of that stream after Last-Event-ID, each sent again under its
// own event id, with a status event; without a Last-Event-ID nothing is
// replayed and the server says why (typescript-sdk#2499).
func TestReplay(t *testing.T) {
	var store EventStore[Msg]
	for _, w := range []struct{ stream, msg string }{{`"a"`, "a1"}, {`"b"`, "b1"}, {`"a"`, "a2"}, {`"a"`, "a3"}} {
		m := Msg{Msg: []byte(w.msg)}
		Keep(true, &store, &m, w.stream, w.stream, false)
	}
	missed, e, ok := Replay(&store, "1", `"a"`, `"a"`, false)
	if !ok || len(missed) != 2 || string(missed[0].Data.Msg) != "a2" || missed[0].Data.EventID != "3" || missed[1].Data.EventID != "4" || e.Type != trace.TypeStatus {
		t.Errorf("replay after 1: ok %v, %+v, event %+v; want a2 (event 3) and a3 (event 4) with a status", ok, missed, e)
	}
	if missed, e, ok := Replay(&store, "", `"a"`, `"a"`, false); ok || missed != nil || e.Type != trace.TypeIgnore {
		t.Errorf("replay without Last-Event-ID: ok %v, %+v, event %+v; want nothing and an ignore", ok, missed, e)
	}
	if got := store.After("1", false); got[0].Data.EventID != "" {
		t.Errorf("the store's own events changed under a replay: %+v", got[0])
	}
}

// TestPrime proves which streams are primed under 2025-11-25: a tools/call
// stream gets an event id with empty data before any message; a listen
// stream (its acknowledgement comes first) and the quick reads do not, and
// take no event id.
func TestPrime(t *testing.T) {
	var store EventStore[Msg]
	m, ok := Prime(&store, `"c"`, `"c"`, "tools/call")
	if !ok || !m.Priming || m.EventID != "1" || m.Msg != nil {
		t.Errorf("tools/call: %+v, ok %v; want a priming event with id 1 and no data", m, ok)
	}
	for _, method := range []string{"subscriptions/listen", "tasks/get", "resources/read"} {
		if _, ok := Prime(&store, `"x"`, `"x"`, method); ok {
			t.Errorf("%s stream primed", method)
		}
	}
	if store.Len() != 1 {
		t.Errorf("%d events stored; want only the tools/call priming event", store.Len())
	}
}
