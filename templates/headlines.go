package templates

import (
	"github.com/mcplab/mcplab/engine/trace"

	"github.com/mcplab/mcplab/engine/checks"
)

// ruleHeadlines is the headline of a failing check whose words need no
// number from the trace, by rule id (engine/checks lists every id; the
// rules whose headline reads the trace are in failureText). A page never
// headlines a bare rule id: a learner reads what went wrong in domain
// words (TestEveryRuleHasAHeadline).
var ruleHeadlines = map[trace.RuleID]string{
	checks.HTTPCancelPostsNotification: "closing the stream is not a cancellation under 2025-11-25: the server works on",
	checks.NoProgressAfterFinal:        "progress after the final response: the server kept reporting on a finished request",
	checks.LateResponseIgnored:         "the client used a response to a request it had abandoned",
	checks.LateMessageTolerated:        "the client tore down its session over a late message: calls in flight failed",
	checks.LateProgressIgnored:         "the client acted on progress for a finished or unknown request",
	checks.ProgressResetsIdle:          "the idle timeout fired although progress had just arrived",
	checks.ProgressTokenKnown:          "the server sent progress under a token no request carried",
	checks.ProgressOnRequestStream:     "progress arrived on another request's stream",
	checks.CancellationNeverAnswered:   "the server answered a cancellation notification",
	checks.OneResponsePerRequest:       "the server answered one request twice",
	checks.InitializeNotCancelled:      "the client cancelled initialize, which is never cancelled",
	checks.InitializedBeforeRequests:   "a call met a session that was not ready: sent before notifications/initialized, or rejected after it",
	checks.SessionRecovered:            "the session expired and the client gave up: the work in flight was lost",
	checks.RefusalNotRepeated:          "the client sent a refused request again unchanged: the same headers meet the same 400",
	checks.MessageValid:                "a message on the wire is not valid for its protocol revision",
	checks.PollIntervalRespected:       "the client polls the task faster than the server asked",
	checks.ProxyForwardsPromptly:       "the proxy holds the stream back: progress arrives late, in a burst",
	checks.HerdJittered:                "the herd retries in lockstep: every client drew the same delay",
	checks.DisconnectStopsWork:         "the server kept working after the client closed the stream",
	checks.ResumeKeepsPosition:         "the client resumed from the wrong position: events lost or repeated",
	checks.ResumeReplaysOwnStream:      "a resumed stream replays events that are not its own",
	checks.DroppedCallResumed:          "a dropped call left pending: never resumed, never reported failed",
	checks.RequestHasTimeout:           "a call without a timeout: the client may wait forever",
	checks.AbandonTellsServer:          "the client stopped waiting without telling the server: it works on for nobody",
	checks.WorkStopsAfterCancel:        "the handler swallowed the cancellation: its work and side effect ran on for nobody",
	checks.ResourcesReleased:           "a cancelled handler kept its lock: the next call waits for nothing",
	checks.NotificationsNotHeld:        "the server held the progress back until the handler returned",
	checks.ResponsesRoutedByReq:        "cross-wired: a request's answer went to another request with the same id",
	checks.MaximumBoundsProgress:       "progress keeps resetting the idle clock and no maximum bounds the call: it can run for ever",
	checks.CallOutcomeKnown:            "a call never ended for its client: no result, no error, no abandonment of its own",
	checks.CancelNotBlocked:            "the cancellation waited for the response stream to speak: the server worked on meanwhile",
	checks.BackoffGrows:                "the client retries at a constant rate: its backoff never grows while the server is down",
	checks.RefetchAfterReconnect:       "the client reconnected but refetched nothing: its lists are stale",
	checks.ResumeReplaysMissed:         "the client resumed the stream but what it missed never arrived",
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
