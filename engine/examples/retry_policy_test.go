package examples_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestRetryPolicy proves client.policy.retry (SCENARIO.md, "The client
// decides when it gives up, retries and resumes") on the engine: a call
// that ended for a listed reason is sent again delayMs later as
// "<id>-r<n>" with the token "<token>-r<n>", the same key unless sameKey
// is false, at most max times; a call that got a result is never retried.
func TestRetryPolicy(t *testing.T) {
	flagship := examplestest.Get(t, "flagship-retry-charges-twice").JSON
	keyed := examplestest.Get(t, "flagship-with-idempotency-key").JSON
	edit := func(doc []byte, path, kind, value string) []byte {
		out, err := scenario.Edit(doc, path, kind, value, value == "true")
		if err != nil {
			t.Fatalf("edit %s: %v", path, err)
		}
		return out
	}
	failing := func(on string) string {
		return `{"mcplab":1,"latencyMs":{"up":10,"down":10},"client":{"policy":{"retry":{"on":` + on + `,"delayMs":50}}},"steps":[{"at":0,"do":"call","id":7,"name":"lookup"},{"at":100,"do":"fail","id":7,"code":-32603,"message":"busy"},{"at":300,"do":"complete","id":"7-r1"}]}`
	}
	tests := []struct {
		name       string
		doc        []byte
		ids        []string // every request's id, in order
		sentAt     int64    // the last request's send time, -1 for none
		executions int
		lastArgs   string // a substring of the last request's tools/call message, "" for none
	}{
		{"a retry after a real timeout: the flagship charges twice", flagship, []string{`41`, `"41-r1"`}, 2100, 2, `"progressToken":"pay-41-r1"`},
		{"a call that got a result is never retried: the completion moved before the timeout", edit(flagship, "steps[3].at", scenario.ValueInteger, "1900"), []string{`41`}, -1, 1, ""},
		{"sameKey keeps the key: the retry replays", keyed, []string{`41`, `"41-r1"`}, 2100, 1, `"idempotencyKey":"checkout-7"`},
		{"sameKey false mints a key per attempt: a new intent, charged again", edit(keyed, "client.policy.retry.sameKey", scenario.ValueBool, "false"), []string{`41`, `"41-r1"`}, 2100, 2, `"idempotencyKey":"checkout-7-r1"`},
		{"a JSON-RPC error is retried when on lists error", []byte(failing(`["error"]`)), []string{`7`, `"7-r1"`}, 160, 0, `"id":"7-r1"`},
		{"an error is not retried when on lists only timeout", []byte(failing(`["timeout"]`)), []string{`7`}, -1, 0, ""},
		{"a broken stream is retried when on lists disconnect (2026-07-28: the disconnect ends the call)",
			[]byte(`{"mcplab":1,"transport":"streamable-http","latencyMs":{"up":10,"down":10},"client":{"policy":{"retry":{"on":["disconnect"],"delayMs":20}}},"steps":[{"at":0,"do":"call","id":5,"name":"fetch"},{"at":100,"do":"disconnect","id":5},{"at":300,"do":"complete","id":"5-r1"}]}`),
			[]string{`5`, `"5-r1"`}, 120, 0, `"id":"5-r1"`},
		{"max 2: a retry that times out again is retried as -r2, with the call's own timeouts",
			[]byte(`{"mcplab":1,"client":{"maxTimeoutMs":500,"policy":{"retry":{"on":["timeout"],"max":2,"delayMs":100}}},"steps":[{"at":0,"do":"call","id":"job"}]}`),
			[]string{`"job"`, `"job-r1"`, `"job-r2"`}, 1200, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := examplestest.RunExample(t, examples.Example{Name: tt.name, JSON: tt.doc})
			var ids []string
			for _, r := range tr.Requests {
				ids = append(ids, r.ID.Raw())
			}
			if strings.Join(ids, " ") != strings.Join(tt.ids, " ") {
				t.Fatalf("requests %v, want %v", ids, tt.ids)
			}
			if tr.Ledger.Executions != tt.executions {
				t.Errorf("%d executions, want %d", tr.Ledger.Executions, tt.executions)
			}
			last := tr.Requests[len(tr.Requests)-1]
			if tt.sentAt < 0 {
				if last.RetryOf != nil {
					t.Errorf("request %s retries %s; want no retry", last.ID, last.RetryOf)
				}
				return
			}
			if last.SentAt != tt.sentAt || last.RetryOf == nil {
				t.Errorf("the retry %s was sent at %d retrying %v; want at %d, a retry", last.ID, last.SentAt, last.RetryOf, tt.sentAt)
			}
			if tt.lastArgs != "" && !sentWith(tr, last.ID, tt.lastArgs) {
				t.Errorf("the retry %s's request does not carry %s", last.ID, tt.lastArgs)
			}
		})
	}
}

// sentWith reports whether the client's request id went out with a
// message containing want.
func sentWith(tr *trace.Trace, id scenario.ID, want string) bool {
	for _, e := range tr.Events {
		if e.Type == trace.TypeSend && e.Actor == trace.ActorClient && e.ID != nil && *e.ID == id && bytes.Contains(e.Message, []byte(want)) {
			return true
		}
	}
	return false
}

// TestRetryPolicyNeverRetriesAnAnsweredCall sweeps the flagship's
// completion across its timeout (SCENARIO.md: a call that got a result is
// never retried): wherever it falls, call 41 is either answered and not
// retried, or abandoned at its 2,000 ms maximum and retried once as
// "41-r1".
func TestRetryPolicyNeverRetriesAnAnsweredCall(t *testing.T) {
	flagship := examplestest.Get(t, "flagship-retry-charges-twice").JSON
	for at := int64(1500); at <= 2500; at += 50 {
		doc, err := scenario.Edit(flagship, "steps[3].at", scenario.ValueInteger, strconv.FormatInt(at, 10), false)
		if err != nil {
			t.Fatal(err)
		}
		tr := examplestest.RunExample(t, examples.Example{Name: "flagship completing at " + strconv.FormatInt(at, 10), JSON: doc})
		first := tr.Requests[0]
		answered := first.ClientOutcome == trace.OutcomeResult
		switch {
		case answered && len(tr.Requests) != 1:
			t.Errorf("completion at %d ms: call 41 was answered (%s) yet %d requests were sent", at, first.ClientOutcome, len(tr.Requests))
		case !answered && (len(tr.Requests) != 2 || tr.Requests[1].ID.Raw() != `"41-r1"` || first.Cause == nil || *first.Cause != trace.CauseMaxTimeout):
			t.Errorf("completion at %d ms: call 41 %s, %d requests; want abandoned at its maximum and retried once as \"41-r1\"", at, first.ClientOutcome, len(tr.Requests))
		}
		if answered != (at+10 < 2000) {
			t.Errorf("completion at %d ms: answered %v, want %v (the response arrives 10 ms later, the maximum fires at 2,000 ms)", at, answered, at+10 < 2000)
		}
	}
}
