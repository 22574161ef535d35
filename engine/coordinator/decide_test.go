package coordinator_test

import (
	"encoding/json"
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// ended is a client half that ended with outcome and cause.
func ended(outcome, cause string) coordinator.Client {
	c := coordinator.NewClient(coordinator.Deadlines{}, true)
	c.End(100, outcome, cause)
	return c
}

// TestPlanRetry: the retry policy decides once per ending (SCENARIO.md,
// client.policy.retry): only for an ending it lists, never for a result,
// the client's own cancel or a torn-down session, at most max times.
func TestPlanRetry(t *testing.T) {
	all := &scenario.RetryPolicy{On: []string{scenario.RetryOnTimeout, scenario.RetryOnError, scenario.RetryOnDisconnect}, Max: 2, DelayMs: 100, SameKey: true}
	onlyTimeout := &scenario.RetryPolicy{On: []string{scenario.RetryOnTimeout}, Max: 1, DelayMs: 100, SameKey: true}
	tests := []struct {
		name   string
		p      *scenario.RetryPolicy
		c      coordinator.Client
		done   int
		wantN  int // 0: no retry
		ending string
	}{
		{"a call that got a result is never retried", all, ended(trace.OutcomeResult, ""), 0, 0, ""},
		{"its maximum timeout: retried", all, ended(trace.OutcomeAbandoned, trace.CauseMaxTimeout), 0, 1, scenario.RetryOnTimeout},
		{"its idle timeout: retried", onlyTimeout, ended(trace.OutcomeAbandoned, trace.CauseIdleTimeout), 0, 1, scenario.RetryOnTimeout},
		{"a JSON-RPC error: retried when listed", all, ended(trace.OutcomeError, ""), 0, 1, scenario.RetryOnError},
		{"a JSON-RPC error: not when only timeout is listed", onlyTimeout, ended(trace.OutcomeError, ""), 0, 0, scenario.RetryOnError},
		{"its stream broke: retried", all, ended(trace.OutcomeAbandoned, trace.CauseDisconnect), 1, 2, scenario.RetryOnDisconnect},
		{"the client's own cancel is no ending to retry", all, ended(trace.OutcomeAbandoned, trace.CauseClient), 0, 0, ""},
		{"a torn-down session: the server was not at fault", all, ended(trace.OutcomeError, trace.CauseSessionTeardown), 0, 0, ""},
		{"max reached", all, ended(trace.OutcomeAbandoned, trace.CauseMaxTimeout), 2, 0, scenario.RetryOnTimeout},
		{"no policy", nil, ended(trace.OutcomeAbandoned, trace.CauseMaxTimeout), 0, 0, scenario.RetryOnTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Ending(); got != tt.ending {
				t.Errorf("Ending() = %q, want %q", got, tt.ending)
			}
			done := tt.done
			r, ok := tt.c.PlanRetry(tt.p, &done, scenario.NewIntID(41), "41", json.RawMessage(`{}`), nil, nil)
			if ok != (tt.wantN > 0) || r.N != tt.wantN || (ok && done != tt.wantN) {
				t.Fatalf("PlanRetry = %+v, %v (done %d); want retry %d", r, ok, done, tt.wantN)
			}
			if !ok {
				return
			}
			if want := scenario.RetryID(scenario.NewIntID(41), tt.wantN); r.ID != want || r.DelayMs != 100 {
				t.Errorf("retry %s after %d ms, want %s after 100 ms", r.ID, r.DelayMs, want)
			}
			if _, again := tt.c.PlanRetry(tt.p, &done, scenario.NewIntID(41), "41", nil, nil, nil); again {
				t.Error("a second decision on the same ending retried again (a late response is no new ending)")
			}
		})
	}
}

// TestRetryArgumentsAndToken: sameKey keeps the arguments byte for byte;
// without it the key becomes "<key>-r<n>"; arguments without a key stay
// as they are; the token becomes "<token>-r<n>".
func TestRetryArgumentsAndToken(t *testing.T) {
	keyed := json.RawMessage(`{"cents": 1200, "idempotencyKey": "checkout-7"}`)
	for _, tt := range []struct {
		args    json.RawMessage
		n       int
		sameKey bool
		want    string
	}{
		{keyed, 1, true, `{"cents": 1200, "idempotencyKey": "checkout-7"}`},
		{keyed, 2, false, `{"cents":1200,"idempotencyKey":"checkout-7-r2"}`},
		{json.RawMessage(`{"cents":5}`), 1, false, `{"cents":5}`},
	} {
		if got := string(coordinator.RetryArguments(tt.args, tt.n, tt.sameKey)); got != tt.want {
			t.Errorf("RetryArguments(%s, %d, %v) = %s, want %s", tt.args, tt.n, tt.sameKey, got, tt.want)
		}
	}
	tok := scenario.NewStringID("pay-41")
	if got := coordinator.RetryProgressToken(&tok, 1); got == nil || got.Raw() != `"pay-41-r1"` {
		t.Errorf("RetryProgressToken = %v, want \"pay-41-r1\"", got)
	}
	if got := coordinator.RetryProgressToken(nil, 1); got != nil {
		t.Errorf("a call without a token: %v, want none", got)
	}
}

// TestClientSwitches: the broken clients of the field as the client half
// decides them: a silent abandonment ends the call with no signal; a
// client that waits after its cancel is pending again; a cancellation held
// for the stream's first event leaves the stream read and goes out once,
// at the first event that reaches the client, not at a comment.
func TestClientSwitches(t *testing.T) {
	c := coordinator.NewClient(coordinator.Deadlines{}, true)
	e := c.Abandon(500, "7", trace.CauseIdleTimeout)
	if e.Type != trace.TypeAbandon || c.Outcome != trace.OutcomeAbandoned || c.Signal != "" || !c.Reading {
		t.Errorf("Abandon: %s, outcome %s, signal %q, reading %v; want abandon, abandoned, no signal, the stream still open", e.Type, c.Outcome, c.Signal, c.Reading)
	}

	c = coordinator.NewClient(coordinator.Deadlines{}, false)
	reason := "stop"
	c.Cancel(300, "9", "tools/call", trace.CauseClient, &reason, coordinator.Transport{})
	if e := c.AwaitAfterCancel("9"); e.Type != trace.TypeAwait || !c.Pending() || c.Signal != trace.SignalNotification {
		t.Errorf("AwaitAfterCancel: %s, pending %v, signal %q; want await, pending, the cancellation still sent", e.Type, c.Pending(), c.Signal)
	}

	tp := coordinator.Transport{HTTP: true, CloseStream: true}
	for _, tt := range []struct {
		name         string
		on, heard    bool
		wantHold     bool
		firstArrive  bool
		wantFirst    int // releases at the first delivery
		wantReleased int // releases after a second, an event
	}{
		{"correct: the close goes out at once", false, false, false, true, 0, 0},
		{"broken, the stream silent: held until an event arrives", true, false, true, true, 1, 1},
		{"broken, but a keep-alive comment is no event", true, false, true, false, 0, 1},
		{"broken, but the stream had spoken: nothing to wait for", true, true, false, true, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := coordinator.NewClient(coordinator.Deadlines{}, true)
			if tt.heard {
				c.Hears(true)()
			}
			c.Cancel(500, "4", "tools/call", trace.CauseIdleTimeout, nil, tp)
			released := 0
			e, hold := c.HoldCancel(tt.on, true, "4", func() { released++ })
			if hold != tt.wantHold || hold && (e.Type != trace.TypeBlocked || !c.Reading) {
				t.Fatalf("HoldCancel = %s, %v, reading %v; want hold %v", e.Type, hold, c.Reading, tt.wantHold)
			}
			c.Hears(tt.firstArrive)()
			if released != tt.wantFirst {
				t.Errorf("released %d times at the first delivery, want %d", released, tt.wantFirst)
			}
			c.Hears(true)()
			if released != tt.wantReleased {
				t.Errorf("released %d times, want %d", released, tt.wantReleased)
			}
			if tt.wantReleased == 1 && c.Reading {
				t.Error("after the held close went out the client still reads the stream")
			}
		})
	}
}
