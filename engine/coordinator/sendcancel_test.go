package coordinator_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/trace"
)

// TestSendCancel: the client's cancellation signal goes at once, unless
// policy cancelAfterFirstEvent holds it on Streamable HTTP until the
// stream speaks (failure cancel-blocked); under awaitResponseAfterCancel a
// client the cancellation ended waits on, pending again (failure
// await-after-cancel).
func TestSendCancel(t *testing.T) {
	for _, tc := range []struct {
		rule              string
		hold, http, await bool
		wantSent          bool
		wantTypes         []trace.EventType
		wantPending       bool
	}{
		{rule: "the signal goes at once by default", http: true, wantSent: true},
		{rule: "cancelAfterFirstEvent holds it on HTTP before any event", hold: true, http: true, wantTypes: []trace.EventType{trace.TypeBlocked}},
		{rule: "stdio has no stream to wait for", hold: true, wantSent: true},
		{rule: "awaitResponseAfterCancel keeps the ended client waiting", http: true, await: true, wantSent: true, wantTypes: []trace.EventType{trace.TypeAwait}, wantPending: true},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			c := ended(trace.OutcomeAbandoned, trace.CauseClient)
			sent := false
			told := c.SendCancel(tc.hold, tc.http, tc.await, `"1"`, func() { sent = true })
			var types []trace.EventType
			for _, e := range told {
				types = append(types, e.Type)
			}
			if sent != tc.wantSent || len(types) != len(tc.wantTypes) || (len(types) > 0 && types[0] != tc.wantTypes[0]) || c.Pending() != tc.wantPending {
				t.Errorf("sent %v, told %v, pending %v; want sent %v, told %v, pending %v", sent, types, c.Pending(), tc.wantSent, tc.wantTypes, tc.wantPending)
			}
		})
	}
}

// TestCancelCause: the server records the cause the client cancelled for
// (a deadline's, or the server's own for a listen stream it ended), and an
// explicit cancel when the client gave none.
func TestCancelCause(t *testing.T) {
	for _, tc := range []struct{ rule, cause, want string }{
		{"an explicit cancel is the client's", "", trace.CauseClient},
		{"a deadline's cause stays", trace.CauseIdleTimeout, trace.CauseIdleTimeout},
		{"a listen stream the server ended", trace.CauseServer, trace.CauseServer},
	} {
		c := ended(trace.OutcomeAbandoned, tc.cause)
		c.Cause = tc.cause
		if got := c.CancelCause(); got != tc.want {
			t.Errorf("%s: CancelCause() = %q, want %q", tc.rule, got, tc.want)
		}
	}
}
