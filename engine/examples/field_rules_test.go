package examples_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/trace"
)

// absent is the verdict of a rule the trace does not list.
const absent = "absent"

// ruleVerdict runs the scenario ex through the engine and returns rule's
// ok as "true", "false", "null", or absent.
func ruleVerdict(t *testing.T, ex examples.Example, rule trace.RuleID) string {
	t.Helper()
	return verdictIn(examplestest.RunExample(t, ex), rule)
}

func verdictIn(tr *trace.Trace, rule trace.RuleID) string {
	for _, c := range tr.Checks {
		if c.Rule != rule {
			continue
		}
		switch {
		case c.OK == nil:
			return "null"
		case *c.OK:
			return "true"
		}
		return "false"
	}
	return absent
}

// TestFieldRulesOnTheEngine proves, for every rule of the failures real
// software shows (SCENARIO.md, "Switches for the failures real software
// shows"; DOMAIN.md §11), that the engine's correct default passes it, its
// broken- twin (the switch, or for poll-interval-respected hand-placed
// tasks/get steps) fails it, and a legitimate case the rule must not flag
// (the race, a late message the client ignored, another component's bug)
// is not flagged. The pairs are the built-in scenarios of the site's
// "Failure modes" group; the legitimate cases are scenarios of their own.
func TestFieldRulesOnTheEngine(t *testing.T) {
	tests := []struct {
		rule            trace.RuleID
		correct, broken string
		legit           string // a built-in scenario's name, or a scenario's JSON
		legitWant       string // "true", or absent when the rule has no subject there
		why             string
	}{
		{"late-message-tolerated", "late-response-tolerated", "broken-late-response-fatal",
			"race-cancel-in-flight", "true", "the race: the response crosses the cancellation and the client drops it"},
		{"late-progress-ignored", "late-progress-ignored", "broken-late-progress-fatal",
			"broken-respond-after-cancel", "true", "the server's bug (progress after the cancellation) is not the client's: it ignores the late progress"},
		{"progress-resets-idle", "progress-resets-idle", "broken-ignore-progress",
			"stale-progress-ignored", "true", "a stale (non-increasing) value is not valid progress: the idle timeout after it is right"},
		{"progress-token-known", "progress-token-echoed", "broken-invented-progress-token",
			"late-progress-ignored", "true", "progress after the final response still carries the request's own token"},
		{"progress-on-request-stream", "progress-on-request-stream", "broken-progress-on-listen-stream",
			"resume-keeps-position", "true", "under 2025-11-25 a call's progress replayed on its resumed GET is still on the call's own stream"},
		{"request-has-timeout", "request-has-timeout", "broken-no-timeout",
			`{"mcplab":1,"client":{"maxTimeoutMs":2000,"policy":{"timeouts":"required"}},"steps":[{"at":0,"do":"call","id":1,"name":"slow"}]}`, "true",
			"a maximum alone is a timeout: the call cannot wait for ever"},
		{"disconnect-stops-work", "disconnect-stops-work", "broken-ignore-disconnect",
			`{"mcplab":1,"transport":"streamable-http","steps":[{"at":0,"do":"call","id":7,"name":"crunch"},{"at":300,"do":"cancel","id":7},{"at":305,"do":"complete","id":7}]}`, "true",
			"the race: the response went out before the server saw the stream close"},
		{"resume-keeps-position", "resume-keeps-position", "broken-forget-resume-token",
			"reconnect-2025-last-event-id", "true", "a listen stream resumed from its last event"},
		{"resume-replays-own-stream", "resume-replays-own-stream", "broken-replay-all-streams",
			"resume-keeps-position", "true", "events lost in the drop are replayed once: not a duplicate"},
		{"proxy-forwards-promptly", "proxy-honours-no-buffering", "broken-proxy-ignores-no-buffering",
			"proxy-buffering-burst", absent, "a proxy holding a stream whose server did not ask for no buffering is sse-headers' subject, not this rule's"},
		{"herd-jittered", "herd-reference-backoff", "broken-herd-exponential-lockstep",
			`{"mcplab":1,"herd":{"clients":200,"strategy":"full-jitter","baseMs":250,"capMs":8000,"serverCapacityPerSecond":100,"maxAttempts":10,"bucketMs":100},"steps":[]}`, "true",
			"another jittered strategy: delays differ even where two clients' windows are equal"},
		{"poll-interval-respected", "task-cancel-ack-not-final", "broken-poll-second-loop",
			`{"mcplab":1,"server":{"pollIntervalMs":300},"steps":[{"at":0,"do":"call","id":1,"name":"render","task":"task-a"},{"at":100,"do":"call","id":2,"name":"render","task":"task-b"},{"at":900,"do":"finish-task","taskId":"task-a"},{"at":900,"do":"finish-task","taskId":"task-b"}]}`, "true",
			"two tasks, one loop each: their polls interleave 100 ms apart, each task's 300 ms apart"},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule), func(t *testing.T) {
			if got := ruleVerdict(t, examplestest.Get(t, tt.correct), tt.rule); got != "true" {
				t.Errorf("%s: the correct default %s gives ok=%s, want true", tt.rule, tt.correct, got)
			}
			if got := ruleVerdict(t, examplestest.Get(t, tt.broken), tt.rule); got != "false" {
				t.Errorf("%s: the broken twin %s gives ok=%s, want false", tt.rule, tt.broken, got)
			}
			legit := examples.Example{Name: "the legitimate case", JSON: []byte(tt.legit)}
			if tt.legit[0] != '{' {
				legit = examplestest.Get(t, tt.legit)
			}
			if got := ruleVerdict(t, legit, tt.rule); got != tt.legitWant {
				t.Errorf("%s: legitimate case (%s) gives ok=%s, want %s", tt.rule, tt.why, got, tt.legitWant)
			}
		})
	}
}
