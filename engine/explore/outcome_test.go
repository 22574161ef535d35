package explore

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// A class key says what happened (SCENARIO.md, Explore: each request's
// state, the cause of its cancellation, the client's outcome): a request
// the server completed after the client let it go reads as completed at
// the server after the client gave it up, never "completed (cause
// client)", which reads as if the client's cancellation completed it; one
// the server cancelled on the client's cancel says "cancelled" once.
func TestClassKeySaysWhoGaveTheRequestUp(t *testing.T) {
	id := func(raw string) scenario.ID {
		var v scenario.ID
		if err := v.UnmarshalJSON([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name, state, cause, outcome, want string
	}{
		{"the client cancelled and the server completed anyway", trace.StateCompleted, trace.CauseClient, trace.OutcomeAbandoned,
			"7 completed at the server after the client cancelled (client), client abandoned, response sent; fails: none"},
		{"the client's maximum timeout fired and the server completed anyway", trace.StateCompleted, trace.CauseMaxTimeout, trace.OutcomeAbandoned,
			"7 completed at the server after the client timed out (max-timeout), client abandoned, response sent; fails: none"},
		{"the client cancelled and the server cancelled", trace.StateCancelled, trace.CauseClient, trace.OutcomeAbandoned,
			"7 cancelled at the server, as the client asked (client), client abandoned, response sent; fails: none"},
		{"the stream dropped (a 2026-07-28 cancellation)", trace.StateCancelled, trace.CauseDisconnect, trace.OutcomeAbandoned,
			"7 cancelled at the server after the stream dropped (disconnect), client abandoned, response sent; fails: none"},
		{"no cancellation: no cause said", trace.StateCompleted, "", trace.OutcomeResult,
			"7 completed, client result, response sent; fails: none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := trace.Request{ID: id("7"), State: tc.state, ClientOutcome: tc.outcome, Response: []byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)}
			if tc.cause != "" {
				r.Cause = &tc.cause
			}
			key, _, _ := classify(&trace.Trace{Requests: []trace.Request{r}})
			if key != tc.want {
				t.Errorf("key %q, want %q", key, tc.want)
			}
			if strings.Count(key, "cancel") > 1 {
				t.Errorf("key %q says \"cancel\" more than once", key)
			}
			if strings.Contains(key, "(cause ") {
				t.Errorf("key %q says \"(cause ...)\" after the server's state", key)
			}
		})
	}
}
