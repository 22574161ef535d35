package templates

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcplab/mcplab/engine/trace"
)

// Rule ("no input can freeze a page"): the event table shows
// at most maxCellJSON bytes of a message, cut between whole characters,
// and says how many bytes it left out; a message within the bound is shown
// byte for byte.
func TestEventCellShowsBoundedJSON(t *testing.T) {
	short := `{"jsonrpc":"2.0","id":7,"method":"tools/call"}`
	if got := newEventRow(trace.Event{Message: json.RawMessage(short)}).Message; got != short {
		t.Errorf("a %d-byte message is shown as %q, want it unchanged", len(short), got)
	}
	// "é" is two bytes: a cut at an odd offset would split one.
	long := `{"text":"` + strings.Repeat("é", 40_000) + `"}`
	got := newEventRow(trace.Event{Message: json.RawMessage(long)}).Message
	shown, note, ok := strings.Cut(got, "… (")
	if !ok {
		t.Fatalf("a %d-byte message is shown whole (%d bytes), want it cut with a note", len(long), len(got))
	}
	if len(shown) > maxCellJSON || len(shown) < maxCellJSON-utf8.UTFMax || !strings.HasPrefix(long, shown) || !utf8.ValidString(shown) {
		t.Errorf("the cell shows %d bytes (valid UTF-8: %v), want the message's first whole characters up to %d bytes", len(shown), utf8.ValidString(shown), maxCellJSON)
	}
	want := long[len(shown):]
	if !strings.HasPrefix(note, itoa(len(want))+" more bytes") {
		t.Errorf("the note says %q, want %d more bytes", note, len(want))
	}
}
