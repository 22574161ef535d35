package recovery

import "testing"

// TestCursorKeepsPosition proves the resume position rule (2025-11-25:
// the client resumes from the last event it received) across two drops,
// and the broken client of modelcontextprotocol/typescript-sdk#2499, which forgets the position
// when the resumed connection dropped before any new event.
func TestCursorKeepsPosition(t *testing.T) {
	cases := []struct {
		name     string
		forget   bool
		received []string // ids received on the resumed connection
		first    string   // the Last-Event-ID of the first reconnect
		second   string   // the Last-Event-ID of the second
	}{
		{"correct: no new event, same position", false, nil, "2", "2"},
		{"correct: a new event moves the position", false, []string{"5"}, "2", "5"},
		{"modelcontextprotocol/typescript-sdk#2499: no new event, no Last-Event-ID", true, nil, "2", ""},
		{"modelcontextprotocol/typescript-sdk#2499 needs the empty connection: a new event still counts", true, []string{"5"}, "2", "5"},
	}
	for _, c := range cases {
		var cur Cursor
		cur.Received("1")
		cur.Received("2")
		if got := cur.Reconnect(c.forget); got != c.first {
			t.Errorf("%s: first reconnect %q, want %q", c.name, got, c.first)
		}
		for _, id := range c.received {
			cur.Received(id)
		}
		if got := cur.Reconnect(c.forget); got != c.second {
			t.Errorf("%s: second reconnect %q, want %q", c.name, got, c.second)
		}
	}
	var empty Cursor
	if got := empty.Reconnect(false); got != "" {
		t.Errorf("a stream that received nothing resumes with %q, want none", got)
	}
}
