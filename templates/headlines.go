package templates

import "github.com/mcplab/mcplab/engine/trace"

// ruleHeadlines is the headline of a failing check whose words need no
// number from the trace, by rule id (engine/checks lists every id; the
// rules whose headline reads the trace are in failureText). A page never
// headlines a bare rule id: a learner reads what went wrong in domain
// words (TestEveryRuleHasAHeadline).
var ruleHeadlines = map[string]string{
	"http-cancel-posts-notification": "closing the stream is not a cancellation under 2025-11-25: the server works on",
	"no-progress-after-final":        "progress after the final response: the server kept reporting on a finished request",
	"late-response-ignored":          "the client used a response to a request it had abandoned",
	"late-message-tolerated":         "the client tore down its session over a late message: calls in flight failed",
	"late-progress-ignored":          "the client acted on progress for a finished or unknown request",
	"progress-resets-idle":           "the idle timeout fired although progress had just arrived",
	"progress-token-known":           "the server sent progress under a token no request carried",
	"progress-on-request-stream":     "progress arrived on another request's stream",
	"cancellation-never-answered":    "the server answered a cancellation notification",
	"one-response-per-request":       "the server answered one request twice",
	"initialize-not-cancelled":       "the client cancelled initialize, which is never cancelled",
	"initialized-before-requests":    "a call met a session that was not ready: sent before notifications/initialized, or rejected after it",
	"session-recovered":              "the session expired and the client gave up: the work in flight was lost",
	"refusal-not-repeated":           "the client sent a refused request again unchanged: the same headers meet the same 400",
	"message-valid":                  "a message on the wire is not valid for its protocol revision",
	"poll-interval-respected":        "the client polls the task faster than the server asked",
	"proxy-forwards-promptly":        "the proxy holds the stream back: progress arrives late, in a burst",
	"herd-jittered":                  "the herd retries in lockstep: every client drew the same delay",
	"disconnect-stops-work":          "the server kept working after the client closed the stream",
	"resume-keeps-position":          "the client resumed from the wrong position: events lost or repeated",
	"resume-replays-own-stream":      "a resumed stream replays events that are not its own",
	"dropped-call-resumed":           "a dropped call left pending: never resumed, never reported failed",
	"request-has-timeout":            "a call without a timeout: the client may wait forever",
	"abandon-tells-server":           "the client stopped waiting without telling the server: it works on for nobody",
	"work-stops-after-cancel":        "the handler swallowed the cancellation: its work and side effect ran on for nobody",
	"resources-released":             "a cancelled handler kept its lock: the next call waits for nothing",
	"notifications-not-held":         "the server held the progress back until the handler returned",
	"responses-routed-by-request":    "cross-wired: a request's answer went to another request with the same id",
	"maximum-bounds-progress":        "progress keeps resetting the idle clock and no maximum bounds the call: it can run for ever",
	"call-outcome-known":             "a call never ended for its client: no result, no error, no abandonment of its own",
	"cancel-not-blocked":             "the cancellation waited for the response stream to speak: the server worked on meanwhile",
	"backoff-grows":                  "the client retries at a constant rate: its backoff never grows while the server is down",
	"refetch-after-reconnect":        "the client reconnected but refetched nothing: its lists are stale",
	"resume-replays-missed":          "the client resumed the stream but what it missed never arrived",
}

// tornDown reports whether the client tore a session down under a call
// (a request ended by session-teardown): the consequence a late message
// had, which the headline names before its cause.
func tornDown(tr *trace.Trace) bool {
	for _, r := range tr.Requests {
		if r.Cause != nil && *r.Cause == trace.CauseSessionTeardown {
			return true
		}
	}
	return false
}
