package coordinator

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestLostIsTheFailureNotAResponse pins a call a retired session's 404
// ends for a client that does not initialize again
// (reinitializeOnNotFound false): an error with status 404 whose note says
// no response came, and nothing for a call the client already ended.
func TestLostIsTheFailureNotAResponse(t *testing.T) {
	tests := []struct {
		name     string
		ended    bool
		typ      trace.EventType
		outcome  string
		status   string
		notePart string
	}{
		{"a pending call fails with the 404, no response came", false, trace.TypeError, trace.OutcomeError, "404", "no response came"},
		{"a call the client already ended is not failed again", true, trace.TypeIgnore, trace.OutcomeResult, "", "ignored"},
	}
	for _, tt := range tests {
		c := Client{Outcome: trace.OutcomePending}
		if tt.ended {
			c.End(50, trace.OutcomeResult, "")
		}
		var a Alarm
		e := c.Lost(130, "7", &a)
		if e.Type != tt.typ || c.Outcome != tt.outcome || e.Status != tt.status || !strings.Contains(e.Note, tt.notePart) {
			t.Errorf("%s: %s %s %q (%q); want %s %s %q with %q", tt.name, e.Type, c.Outcome, e.Status, e.Note, tt.typ, tt.outcome, tt.status, tt.notePart)
		}
	}
}
