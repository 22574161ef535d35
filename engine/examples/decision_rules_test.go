package examples_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestDecisionRulesOnTheEngine proves, for every rule of the client's
// decisions (SCENARIO.md, "The client decides when it gives up, retries
// and resumes"; "Rules these add"), that the correct default passes it,
// the broken switch fails it, and a legitimate case is not flagged: the
// ordinary race, a late message the client ignored, a retry after a real
// timeout, a switch that had nothing to break.
func TestDecisionRulesOnTheEngine(t *testing.T) {
	tests := []struct {
		rule            trace.RuleID
		correct, broken string
		legit           string // a built-in scenario's name, or a scenario's JSON
		legitWant       string // "true", or absent when the rule has no subject there
		why             string
	}{
		{"abandon-tells-server", "give-up-tells-server", "broken-abandon-silently",
			"late-response-tolerated", absent, "a late response the client ignored after a cancel it sent: nothing to abandon silently"},
		{"abandon-tells-server", "give-up-tells-server", "broken-abandon-silently",
			"flagship-with-idempotency-key", "true", "a retry after a real timeout: the timed-out call was cancelled first"},
		{"call-outcome-known", "cancel-ends-the-wait", "broken-await-after-cancel",
			"race-cancel-in-flight", "true", "the ordinary race: the response crosses the cancellation and the call ended at the cancel"},
		{"call-outcome-known", "dropped-call-resumed", "broken-dropped-call-not-resumed",
			"resume-keeps-position", "true", "a call dropped twice and resumed twice ends in its result"},
		{"call-outcome-known",
			`{"mcplab":1,"transport":"streamable-http","latencyMs":{"up":10,"down":10},"proxy":{"idleCloseMs":300},"server":{"keepaliveEveryMs":100},"client":{"idleTimeoutMs":1000,"maxTimeoutMs":2000},"steps":[{"at":0,"do":"call","id":1,"name":"x"},{"at":600,"do":"complete","id":1}]}`,
			`{"mcplab":1,"transport":"streamable-http","latencyMs":{"up":10,"down":10},"proxy":{"idleCloseMs":300},"client":{"idleTimeoutMs":1000,"maxTimeoutMs":2000},"steps":[{"at":0,"do":"call","id":1,"name":"x"},{"at":600,"do":"complete","id":1}]}`,
			`{"mcplab":1,"transport":"streamable-http","latencyMs":{"up":10,"down":10},"client":{"idleTimeoutMs":1000,"maxTimeoutMs":2000},"steps":[{"at":0,"do":"call","id":1,"name":"x"},{"at":200,"do":"disconnect","id":1},{"at":600,"do":"complete","id":1}]}`, "true",
			"call-lost-to-idle-close (cloudflare/agents#898) under 2026-07-28: keep-alives hold the proxy's idle close off and the call ends in its result; without them the proxy closes the quiet call stream and the call is lost; a network drop is not lost: the client knows the call failed"},
		{"cancel-not-blocked", "cancel-before-first-event", "broken-cancel-after-first-event",
			`{"mcplab":1,"transport":"streamable-http","latencyMs":{"up":10,"down":10},"client":{"idleTimeoutMs":300,"maxTimeoutMs":1000,"policy":{"cancelAfterFirstEvent":true}},"steps":[{"at":0,"do":"call","id":1,"name":"x","progressToken":"p"},{"at":100,"do":"progress","id":1,"progress":1}]}`, "true",
			"the switch is on but the stream had spoken (progress at 110 ms): the close goes out at the idle timeout"},
		{"resume-replays-missed", "resume-with-last-event-id", "broken-resume-without-last-event-id",
			"broken-replay-all-streams", "true", "a server that replays other streams' events too still replays the missed ones: that is resume-replays-own-stream's failure"},
		{"refetch-after-reconnect", "refetch-after-reconnect", "broken-skip-refetch",
			"reconnect-2025-last-event-id", absent, "a stream resumed with Last-Event-ID has its missed events replayed: no refetch is due"},
		{"backoff-grows", "retry-loop-backs-off", "broken-constant-retry-loop",
			`{"mcplab":1,"herd":{"clients":1,"strategy":"exponential","baseMs":250,"capMs":1000,"serverCapacityPerSecond":10,"maxAttempts":10,"bucketMs":100,"outageMs":5000},"steps":[]}`, "true",
			"exponential backoff without jitter grows until its cap, then stays there: a lockstep fleet is herd-jittered's failure, not this rule's"},
		{"maximum-bounds-progress", "c-progress-then-maximum",
			`{"mcplab":1,"client":{"idleTimeoutMs":500},"steps":[{"at":0,"do":"call","id":1,"name":"x","progressToken":"p"},{"at":400,"do":"progress","id":1,"progress":1},{"at":800,"do":"progress","id":1,"progress":2},{"at":1000,"do":"complete","id":1}]}`,
			`{"mcplab":1,"client":{"maxTimeoutMs":2000},"steps":[{"at":0,"do":"call","id":1,"name":"x","progressToken":"p"},{"at":400,"do":"progress","id":1,"progress":1},{"at":1000,"do":"complete","id":1}]}`, absent,
			"progress for a call with no idle timeout resets no clock: nothing for a maximum to bound"},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.broken, func(t *testing.T) {
			if got := ruleVerdict(t, scenarioOf(t, tt.correct), tt.rule); got != "true" {
				t.Errorf("%s: the correct default %s gives ok=%s, want true", tt.rule, tt.correct, got)
			}
			if got := ruleVerdict(t, scenarioOf(t, tt.broken), tt.rule); got != "false" {
				t.Errorf("%s: the broken switch %s gives ok=%s, want false", tt.rule, tt.broken, got)
			}
			if got := ruleVerdict(t, scenarioOf(t, tt.legit), tt.rule); got != tt.legitWant {
				t.Errorf("%s: legitimate case (%s) gives ok=%s, want %s", tt.rule, tt.why, got, tt.legitWant)
			}
		})
	}
}

// scenarioOf is the built-in scenario called s, or s itself when it is a
// scenario's JSON.
func scenarioOf(t *testing.T, s string) examples.Example {
	if s[0] == '{' {
		return examples.Example{Name: "an inline scenario", JSON: []byte(s)}
	}
	return examplestest.Get(t, s)
}
