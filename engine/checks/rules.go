package checks

import "github.com/mcplab/mcplab/engine/trace"

// Rule describes one rule a check reports: what it holds, where the rule
// comes from and what its undecided verdict means. The rules reference
// (the site's /rules/ pages, `mcplab run -checks`' rule URLs and
// docs/rules.md) is generated from these descriptions, so each rule is
// described once, here, beside its code.
type Rule struct {
	// ID is the rule's stable id, as a trace's checks[] names it.
	ID trace.RuleID
	// Checks says what the rule holds, in a sentence or two.
	Checks string
	// Source is the specification section or DOMAIN.md / SCENARIO.md rule
	// the rule implements.
	Source string
	// Undecided says when the rule reports ok null and what that means
	// for the reader; "" for a rule the trace always decides once its
	// subject occurs.
	Undecided string
}

// Specification sections the rules cite (MCP specification, per revision).
const (
	specCancellation = "MCP specification, Basic › Utilities › Cancellation"
	specProgress     = "MCP specification, Basic › Utilities › Progress"
	specLifecycle    = "MCP specification, Basic › Lifecycle"
	specTransports   = "MCP specification, Basic › Transports › Streamable HTTP"
	specTimeouts     = "MCP specification, Basic › Lifecycle › Timeouts"
	scenarioField    = "SCENARIO.md, Switches for the failures real software shows"
	scenarioDecides  = "SCENARIO.md, The client decides when it gives up, retries and resumes"
	scenarioHandlers = "SCENARIO.md, Handlers: the server decides when work ends"
	clientLogOnly    = "The trace does not show what the client did with the message (a server's or a wire log): only the client's own log, or a simulation, can tell."
)

// Rules describes every rule Evaluate can report, in Evaluate's order. A
// check appears in a trace only when its subject occurs (no cancellation,
// no no-message-after-cancel). Package checks/schema describes its own
// rule, message-valid.
var Rules = []Rule{
	{NoMessageAfterCancel, "After the server observes a cancellation of a request it sends nothing more for that request: no result, no error, no progress.",
		"DOMAIN.md §1; " + specCancellation,
		"A log that records one time per HTTP exchange, or that cannot order a cancellation and a response observed within the path's round trip, cannot tell whether the server had read the cancellation before it wrote: the server may have been right."},
	{HTTPCancelClosesStream, "On Streamable HTTP under 2026-07-28 the client cancels a request by closing its response stream and POSTs no notifications/cancelled.",
		"DOMAIN.md §1, The two protocol eras; " + specTransports + " (2026-07-28)",
		"The transcript does not say which protocol revision and transport were in use, so which signal was right cannot be told."},
	{HTTPCancelPostsNotification, "On Streamable HTTP under 2025-11-25 the client cancels by POSTing notifications/cancelled; closing the stream is not a cancellation.",
		"DOMAIN.md §1, The two protocol eras; " + specCancellation + " (2025-11-25)", ""},
	{ProgressIncreases, "Progress values on the wire strictly increase per progress token.",
		"DOMAIN.md §3; " + specProgress, ""},
	{StaleProgressIgnored, "A non-increasing progress value does not reset the client's idle clock.",
		"DOMAIN.md §2–3", "The trace does not show how the client reacted to the stale progress: " + clientLogOnly},
	{NoProgressAfterFinal, "No progress notification follows a request's final response.",
		"DOMAIN.md §3; " + specProgress, ""},
	{MaxTimeoutEnforced, "A request with a maximum timeout stops being waited for by its start plus the maximum, whatever progress arrives. From a server's or a wire's view of real traffic with the maximum stated, the client's cancellation must come by then, within MaximumGraceMs.",
		"DOMAIN.md §2; " + specTimeouts, ""},
	{IdleTimeoutEnforced, "A request with an idle timeout is not waited for longer than that without valid progress.",
		"DOMAIN.md §2; " + specTimeouts, ""},
	{LateResponseIgnored, "The client ignores a response for a request it abandoned.",
		"DOMAIN.md §1, The race; " + specCancellation, "The trace does not show how the client treated the late response: " + clientLogOnly},
	{LateMessageTolerated, "A late response or late progress never costs the client its session: it is ignored, not a protocol error.",
		scenarioField + " (failure late-message-fatal)", "The trace does not show how the client treated the late messages: " + clientLogOnly},
	{LateProgressIgnored, "Progress for a finished or unknown token is ignored.",
		scenarioField + "; " + specProgress, "The trace does not show how the client treated the late progress: " + clientLogOnly},
	{ProgressResetsIdle, "Valid progress resets the idle clock: no idle timeout fires sooner than the idle limit after it. From a server's or a wire's view with the idle timeout stated: no cancellation comes sooner than that after the last progress.",
		scenarioField + " (failure ignore-progress); DOMAIN.md §2", ""},
	{ProgressTokenKnown, "The server sends progress only under a token a client request carried.",
		scenarioField + " (failure invented-progress-token); " + specProgress, ""},
	{ProgressOnRequestStream, "A request's progress travels on its own response stream, never on another request's.",
		scenarioField + " (failure progress-on-wrong-stream); " + specTransports, ""},
	{ServerCancelOnlyForListen, "A notifications/cancelled sent by the server only tears down a subscriptions/listen stream.",
		"DOMAIN.md §9; " + specCancellation, ""},
	{CancellationNeverAnswered, "The server never answers a cancellation notification, valid or not.",
		"DOMAIN.md §1; " + specCancellation + " (a notification has no response)", ""},
	{OneResponsePerRequest, "The server sends at most one final response per request (per request stream: a duplicate request under an id in flight is answered on its own).",
		"DOMAIN.md §1, The race (one terminal state)", ""},
	{InitializeNotCancelled, "Under 2025-11-25 the client never cancels initialize.",
		specCancellation + " (2025-11-25)", ""},
	{NoLastEventID, "Under 2026-07-28 a client does not reconnect with Last-Event-ID: the server keeps no event ids to resume from.",
		"DOMAIN.md §9; " + specTransports + " (2026-07-28)", "The transcript does not say which protocol revision was in use, and Last-Event-ID is right under 2025-11-25."},
	{ReconnectRefetches, "Under 2026-07-28, after a listen stream drops, the client opens a new listen request with a new id and refetches the affected state.",
		"DOMAIN.md §9", ""},
	{BufferWithinCapacity, "A bounded SSE buffer never holds more than its capacity; an unbounded one fails.",
		"DOMAIN.md §7", ""},
	{FinalNeverDropped, "The SSE buffer never drops or refuses a final response.",
		"DOMAIN.md §7", ""},
	{TaskAckNotTerminal, "The client calls a task stopped only once its worker status is terminal, and a terminal status never changes.",
		"DOMAIN.md §6", ""},
	{PollIntervalRespected, "The client polls a task no more often than the pollIntervalMs the server advertised for it.",
		"DOMAIN.md §6; " + scenarioField, ""},
	{OneExecutionPerKey, "A side effect runs at most once per idempotency key, whatever the JSON-RPC ids, races or replicas.",
		"DOMAIN.md §4", ""},
	{KeyReuseRejected, "A key reused with different arguments is rejected, never answered with the other intent's result.",
		"DOMAIN.md §4", ""},
	{DefensiveCopy, "Every replay returns exactly the result first committed for its key, even after a caller mutated what it got back.",
		"DOMAIN.md §4", ""},
	{NoUnsafeRetry, "A mutation without an idempotency key (retry class unsafe) is never retried under a new JSON-RPC id.",
		"DOMAIN.md §5", ""},
	{SSEHeaders, "A Streamable HTTP response stream carries Cache-Control: no-cache and X-Accel-Buffering: no.",
		"DOMAIN.md §8", ""},
	{ProxyForwardsPromptly, "A proxy holds no event of a stream whose server sent X-Accel-Buffering: no.",
		"DOMAIN.md §8; " + scenarioField + " (failure proxy-buffers-sse)", ""},
	{HerdAllReconnect, "In the herd experiment every client reconnects within its attempts (a herd that got back in lockstep waves passes this and fails herd-jittered).",
		"DOMAIN.md §10", ""},
	{HerdJittered, "The delays the sampled clients drew for one attempt are not all equal: the rule a lockstep herd breaks.",
		"DOMAIN.md §10; " + scenarioField + " (failure lockstep-backoff)", "Fewer than two sampled clients drew the same attempt, so the sample cannot show whether the delays are jittered."},
	{DisconnectStopsWork, "Under 2026-07-28, once the server saw a request's stream close it sends nothing more for it and commits no side effect of it.",
		scenarioField + " (failure disconnect-unobserved); DOMAIN.md §1", "The transcript does not say which protocol revision was in use; only under 2026-07-28 is a disconnect a cancellation."},
	{ResumeKeepsPosition, "A client resumes a stream with the id of the last event it received there as Last-Event-ID, also after a second drop.",
		scenarioField + " (failure forget-resume-token); " + specTransports + " (2025-11-25, resumability)", ""},
	{ResumeReplaysOwnStream, "A resumed stream carries only its own stream's events after the Last-Event-ID; no event reaches the client twice.",
		scenarioField + " (failure replay-other-streams); " + specTransports + " (2025-11-25, resumability)", ""},
	{DroppedCallResumed, "Under 2025-11-25 a call whose stream dropped is resumed or reported failed, never left pending.",
		scenarioDecides + " (failure dropped-call-not-resumed)", "The transcript does not say its protocol revision, or the client cancelled calls whose stream had dropped and its log records none of its timeouts: whether it gave up in time cannot be told."},
	{RequestHasTimeout, "A call carries an idle or a maximum timeout. Judged once the scenario states client.policy.timeouts or any timeout; a trace stating none is not judged.",
		"DOMAIN.md §2; " + scenarioField + " (failure no-timeout)", ""},
	{AbandonTellsServer, "A client that stops waiting for a request tells the server: a cancellation, or on HTTP closing the request's stream. From a server's or a wire's view with the maximum timeout stated, a call that outlives its start plus the maximum plus MaximumGraceMs with nothing heard from the client fails it.",
		scenarioDecides + " (failure abandon-silently); " + specCancellation, ""},
	{WorkStopsAfterCancel, "Once a cancellation reached the server, no side effect commits and no work follows the handler's first checkpoint after it.",
		"DOMAIN.md §1, The server's side of a cancellation; " + scenarioHandlers + " (failure cancel-swallowed)", "The client cancelled, but a client's or a wire log cannot show the server's handler: when it noticed the cancellation and whether its side effect ran. Only the server's own log can."},
	{ResourcesReleased, "Every resource a handler acquired is released when it returns, cancelled or not.",
		scenarioHandlers + " (failure resource-leaked-on-cancel)", ""},
	{NotificationsNotHeld, "The server writes a request's progress as its handler makes it, not when the handler returns.",
		scenarioHandlers + " (failure notifications-held)", "Every progress notification reached the wire at the moment of its request's response: a server that holds notifications looks like this, and so does a handler that reported only at its end."},
	{ResponsesRoutedByReq, "With two requests in flight under one id, each answer travels on its own request's stream.",
		scenarioHandlers + " (failure cross-wired-response); " + specTransports, "On stdio one pipe carries every response and only its id routes it, or the trace does not say its transport: which request each answer went to cannot be told."},
	{MaximumBoundsProgress, "A request whose idle clock progress reset has a maximum timeout.",
		scenarioDecides + " (failure no-maximum-under-progress); DOMAIN.md §2", "The transcript does not record the client's timeouts, so whether a maximum bounded the requests cannot be told."},
	{CallOutcomeKnown, "Every tools/call ends for its client in a result, an error or its own abandonment; a call whose stream an intermediary closed, not resumed nor retried, is lost.",
		scenarioDecides + " (failures await-after-cancel, call-lost-to-idle-close)", "The transcript ends with calls the client cancelled and still waited for: a log may stop before the answer, so whether the client learned their outcome cannot be told."},
	{CancelNotBlocked, "On Streamable HTTP a cancellation goes out when the client decides, not when the response stream first speaks.",
		scenarioDecides + " (failure cancel-blocked)", ""},
	{BackoffGrows, "A refused client's consecutive reconnect delays grow until the cap; a constant retry loop fails.",
		scenarioDecides + " (failure constant-retry-loop); DOMAIN.md §10", ""},
	{RefetchAfterReconnect, "A client that reopens a listen stream without Last-Event-ID refetches what it covers.",
		scenarioDecides + " (failure skip-refetch); DOMAIN.md §9", ""},
	{ResumeReplaysMissed, "Under 2025-11-25 every message the client missed on a stream it resumed reaches it after the resumption.",
		scenarioDecides + "; " + specTransports + " (2025-11-25, resumability)", ""},
	{InitializedBeforeRequests, "After each initialize the client sends no request but ping before notifications/initialized, and the server rejects nothing that follows it as not initialized.",
		specLifecycle, "The transcript shows initialize but no notifications/initialized, so when the session was ready cannot be told."},
	{SessionRecovered, "After a retired session's 404 the client initializes again and re-issues what was in flight once, with the same ids and arguments.",
		specTransports + " (2025-11-25, session management)", ""},
	{RefusalNotRepeated, "A request the server refused for headers that disagree with its body (HeaderMismatch, -32020) or for a protocol version it does not speak (UnsupportedProtocolVersion, -32022) is not sent again unchanged: the client corrects it or picks a supported revision.",
		specTransports + " (2026-07-28, request metadata and server validation)", ""},
}

// RuleByID returns the description of rule id, ok false for an id Rules
// does not hold.
func RuleByID(id trace.RuleID) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
