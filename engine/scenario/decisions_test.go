package scenario

import (
	"errors"
	"reflect"
	"testing"
)

// TestDecodeClientDecisions: client.policy.retry, the client's switches
// and herd.outageMs (SCENARIO.md, "The client decides when it gives up,
// retries and resumes") decode strictly: defaults filled in, the correct
// value of each switch stored as absent, and every bad value a located
// error.
func TestDecodeClientDecisions(t *testing.T) {
	call := `{"at":0,"do":"call","id":41,"name":"x"}`
	wrap := func(policy, steps string) string {
		return `{"mcplab":1,"client":{"policy":` + policy + `},"steps":[` + call + steps + `]}`
	}
	bad := []struct {
		name, in, path string
		want           error
	}{
		{"retry not an object", wrap(`{"retry":true}`, ""), "client.policy.retry", ErrType},
		{"retry.on not an array", wrap(`{"retry":{"on":"timeout"}}`, ""), "client.policy.retry.on", ErrType},
		{"retry.on an unknown ending", wrap(`{"retry":{"on":["timeout","crash"]}}`, ""), "client.policy.retry.on[1]", ErrValue},
		{"retry.on empty: nothing to retry on", wrap(`{"retry":{"on":[]}}`, ""), "client.policy.retry.on", ErrValue},
		{"a call takes the policy's retry id", wrap(`{"retry":{}}`, `,{"at":100,"do":"call","id":"41-r1","name":"x"}`), "steps[1].id", ErrValue},
		{"a scripted retry takes the policy's retry id", wrap(`{"retry":{"max":2}}`, `,{"at":100,"do":"retry","id":"41-r2","of":41}`), "steps[1].id", ErrValue},
		{"retry.on twice the same", wrap(`{"retry":{"on":["error","error"]}}`, ""), "client.policy.retry.on[1]", ErrValue},
		{"retry.max 0", wrap(`{"retry":{"max":0}}`, ""), "client.policy.retry.max", ErrValue},
		{"retry.max past MaxRetries", wrap(`{"retry":{"max":11}}`, ""), "client.policy.retry.max", ErrLimit},
		{"retry.delayMs negative", wrap(`{"retry":{"delayMs":-1}}`, ""), "client.policy.retry.delayMs", ErrValue},
		{"retry.sameKey a string", wrap(`{"retry":{"sameKey":"yes"}}`, ""), "client.policy.retry.sameKey", ErrType},
		{"retry with an unknown member", wrap(`{"retry":{"backoff":2}}`, ""), "client.policy.retry.backoff", ErrUnknown},
		{"cancelOnAbandon a number", wrap(`{"cancelOnAbandon":0}`, ""), "client.policy.cancelOnAbandon", ErrType},
		{"a retry id past max", wrap(`{"retry":{"max":1}}`, `,{"at":300,"do":"complete","id":"41-r2"}`), "steps[1].id", ErrUnknownID},
		{"a retry id without a policy", wrap(`{}`, `,{"at":300,"do":"complete","id":"41-r1"}`), "steps[1].id", ErrUnknownID},
		{"a retry id named before its call", wrap(`{"retry":{}}`, `,{"at":300,"do":"complete","id":"9-r1"}`), "steps[1].id", ErrUnknownID},
		{"herd.outageMs negative", `{"mcplab":1,"herd":{"clients":1,"outageMs":-5},"steps":[]}`, "herd.outageMs", ErrValue},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.in))
			var e *Error
			if !errors.As(err, &e) || e.Path != tt.path || !errors.Is(err, tt.want) {
				t.Fatalf("Decode: %v; want %v at %s", err, tt.want, tt.path)
			}
		})
	}

	// The refusals that a policy's retry id or an empty list would
	// otherwise make silent say what they protect.
	says := map[string]string{
		wrap(`{"retry":{"on":[]}}`, ""): `client.policy.retry.on: must list at least one of "timeout", "error", "disconnect"`,
		wrap(`{"retry":{"on":["timeout"],"max":2}}`, `,{"at":100,"do":"call","id":"41-r2","name":"x"}`): `steps[1].id: "41-r2" is the id client.policy.retry gives request 41's second retry`,
		`{"mcplab":1,"server":{"resources":{"":1}},"steps":[]}`:                                         `server.resources: a resource name must not be empty`,
		`{"mcplab":1,"server":{"handlers":{"":{"workMs":1}}},"steps":[]}`:                               `server.handlers: a handler name must not be empty`,
	}
	for in, want := range says {
		if _, err := Decode([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("Decode(%s): %v, want %s", in, err, want)
		}
	}

	good := []struct {
		name, in string
		want     ClientPolicy
	}{
		{"retry defaults: every ending, once, 100 ms, the same key", wrap(`{"retry":{}}`, `,{"at":300,"do":"complete","id":"41-r1"}`),
			ClientPolicy{Retry: &RetryPolicy{On: []string{RetryOnTimeout, RetryOnError, RetryOnDisconnect}, Max: 1, DelayMs: 100, SameKey: true}}},
		{"retry as SCENARIO.md writes it; a step names the second retry", wrap(`{"retry":{"on":["timeout"],"max":2,"delayMs":0,"sameKey":false}}`, `,{"at":0,"do":"complete","id":"41-r2"}`),
			ClientPolicy{Retry: &RetryPolicy{On: []string{RetryOnTimeout}, Max: 2, DelayMs: 0, SameKey: false}}},
		{"the correct value of every switch is stored as absent", wrap(`{"cancelOnAbandon":true,"resumeDroppedCalls":true,"awaitResponseAfterCancel":false,"cancelAfterFirstEvent":false,"omitLastEventId":false,"skipRefetch":false}`, ""),
			ClientPolicy{}},
		{"every broken switch", wrap(`{"cancelOnAbandon":false,"resumeDroppedCalls":false,"awaitResponseAfterCancel":true,"cancelAfterFirstEvent":true,"omitLastEventId":true,"skipRefetch":true}`, ""),
			ClientPolicy{CancelOnAbandon: new(bool), ResumeDroppedCalls: new(bool), AwaitResponseAfterCancel: true, CancelAfterFirstEvent: true, OmitLastEventID: true, SkipRefetch: true}},
	}
	for _, tt := range good {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Decode([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			got := s.Client.Policy
			got.HTTPCancel = ""
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("policy %+v, want %+v", got, tt.want)
			}
		})
	}
	if s, err := Decode([]byte(`{"mcplab":1,"herd":{"clients":1,"outageMs":4000},"steps":[]}`)); err != nil || s.Herd.OutageMs != 4000 {
		t.Errorf("herd.outageMs 4000: %v, %+v", err, s)
	}
}

// TestRetryID: the n-th retry of a call is the string "<id>-r<n>", the id
// unquoted, whether it was a number or a string (SCENARIO.md).
func TestRetryID(t *testing.T) {
	for _, tt := range []struct {
		orig ID
		n    int
		want string
	}{
		{NewIntID(41), 1, `"41-r1"`},
		{NewStringID("41"), 2, `"41-r2"`},
		{NewStringID("pay-41"), 1, `"pay-41-r1"`},
		{NewIntID(-3), 10, `"-3-r10"`},
	} {
		if got := RetryID(tt.orig, tt.n).Raw(); got != tt.want {
			t.Errorf("RetryID(%s, %d) = %s, want %s", tt.orig, tt.n, got, tt.want)
		}
	}
}
