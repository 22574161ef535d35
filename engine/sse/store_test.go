package sse

import (
	"fmt"
	"testing"
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
