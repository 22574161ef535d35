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
	// Source is where the rule comes from: sections of the lab's domain
	// notes (DomainNotes + " §N", optionally ", Subsection" or
	// " (failure id)") and of the MCP specification, separated by "; ".
	Source string
	// Undecided says when the rule reports ok null and what that means
	// for the reader; "" for a rule the trace always decides once its
	// subject occurs.
	Undecided string
}

// DomainNotes is the file of the repository that holds the lab's own
// account of its domain, numbered as the code's comments cite it
// (DOMAIN.md §N): a rule's Source cites its sections as DomainNotes +
// " §N". The rules reference links each citation to its section: in
// docs/rules.md to docs/domain.md, on the site's /rules/ pages to the
// site's page of the notes, /docs/domain/ (rulebook/notes.Citations finds
// them).
const DomainNotes = "docs/domain.md"

// Sections of the domain notes and of the MCP specification (per
// revision) that the rules cite.
const (
	notes1       = DomainNotes + " §1"
	notes2       = DomainNotes + " §2"
	notes3       = DomainNotes + " §3"
	notes4       = DomainNotes + " §4"
	notes5       = DomainNotes + " §5"
	notes6       = DomainNotes + " §6"
	notes7       = DomainNotes + " §7"
	notes8       = DomainNotes + " §8"
	notes9       = DomainNotes + " §9"
	notes10      = DomainNotes + " §10"
	notesFailure = DomainNotes + " §11 (failure "
	notesEras    = notes1 + ", The two protocol eras"
	notesRace    = notes1 + ", The race: both orders are valid"
	notesHandler = notes1 + ", The server's side of a cancellation"

	specCancellation = "MCP specification, Basic › Utilities › Cancellation"
	specProgress     = "MCP specification, Basic › Utilities › Progress"
	specLifecycle    = "MCP specification, Basic › Lifecycle"
	specTransports   = "MCP specification, Basic › Transports › Streamable HTTP"
	specTimeouts     = "MCP specification, Basic › Lifecycle › Timeouts"
	clientLogOnly    = "The trace does not show what the client did with the message (a server's or a wire log): only the client's own log, or a simulation, can tell."
)

// Rules describes every rule Evaluate can report, in Evaluate's order. A
// check appears in a trace only when its subject occurs (no cancellation,
// no no-message-after-cancel). Package checks/schema describes its own
// rule, message-valid.
var Rules = []Rule{
	{NoMessageAfterCancel, "After the server observes a cancellation of a request it sends nothing more for that request: no result, no error, no progress.",
		notes1 + "; " + specCancellation,
		"A log that records one time per HTTP exchange, or that cannot order a cancellation and a response observed within the path's round trip, cannot tell whether the server had read the cancellation before it wrote: the server may have been right."},
	{HTTPCancelClosesStream, "On Streamable HTTP under 2026-07-28 the client cancels a request by closing its response stream and POSTs no notifications/cancelled. A cancellation a scenario sends raw (the send step) tests the server and is not the client's signal.",
		notesEras + "; " + specTransports + " (2026-07-28)",
		"The transcript does not say which protocol revision and transport were in use, so which signal was right cannot be told."},
	{HTTPCancelPostsNotification, "On Streamable HTTP under 2025-11-25 the client cancels by POSTing notifications/cancelled; closing the stream is not a cancellation. The close of a call that already failed with its torn-down session ends the session, not a cancellation attempt, and is not judged.",
		notesEras + "; " + specCancellation + " (2025-11-25)", ""},
	{ProgressIncreases, "Progress values on the wire strictly increase per progress token.",
		notes3 + "; " + specProgress, ""},
	{StaleProgressIgnored, "A non-increasing progress value does not reset the client's idle clock.",
		notes2 + "–3", "The trace does not show how the client reacted to the stale progress: " + clientLogOnly},
	{NoProgressAfterFinal, "No progress notification follows a request's final response.",
		notes3 + "; " + specProgress, ""},
	{MaxTimeoutEnforced, "A request with a maximum timeout stops being waited for by its start plus the maximum, whatever progress arrives. From a server's or a wire's view of real traffic with the maximum stated, the client's cancellation must come by then, within MaximumGraceMs.",
		notes2 + "; " + specTimeouts, ""},
	{IdleTimeoutEnforced, "A request with an idle timeout is not waited for longer than that without valid progress.",
		notes2 + "; " + specTimeouts, ""},
	{LateResponseIgnored, "The client ignores a response for a request it abandoned. A cancellation a scenario sends raw (the send step) does not abandon the request: the client's view of the call never saw it.",
		notesRace + "; " + specCancellation, "The trace does not show how the client treated the late response: " + clientLogOnly},
	{LateMessageTolerated, "A late response or late progress never costs the client its session: it is ignored, not a protocol error.",
		notesFailure + "late-message-fatal)", "The trace does not show how the client treated the late messages: " + clientLogOnly},
	{LateProgressIgnored, "Progress for a finished or unknown token is ignored.",
		notes3 + "; " + specProgress, "The trace does not show how the client treated the late progress: " + clientLogOnly},
	{ProgressResetsIdle, "Valid progress resets the idle clock: no idle timeout fires sooner than the idle limit after it. From a server's or a wire's view with the idle timeout stated: no cancellation comes sooner than that after the last progress.",
		notes2 + "; " + notesFailure + "ignore-progress)", ""},
	{ProgressTokenKnown, "The server sends progress only under a token a client request carried.",
		notesFailure + "invented-progress-token); " + specProgress, ""},
	{ProgressOnRequestStream, "A request's progress travels on its own response stream, never on another request's.",
		notesFailure + "progress-on-wrong-stream); " + specTransports, ""},
	{ServerCancelOnlyForListen, "A notifications/cancelled sent by the server only tears down a subscriptions/listen stream.",
		notes9 + "; " + specCancellation, ""},
	{CancellationNeverAnswered, "The server never answers a cancellation notification, valid or not.",
		notes1 + "; " + specCancellation + " (a notification has no response)", ""},
	{OneResponsePerRequest, "The server sends at most one final response per request (per request stream: a duplicate request under an id in flight is answered on its own).",
		notesRace + " (one terminal state)", ""},
	{InitializeNotCancelled, "Under 2025-11-25 the client never cancels initialize.",
		specCancellation + " (2025-11-25)", ""},
	{NoLastEventID, "Under 2026-07-28 a client does not reconnect with Last-Event-ID: the server keeps no event ids to resume from.",
		notes9 + "; " + specTransports + " (2026-07-28)", "The transcript does not say which protocol revision was in use, and Last-Event-ID is right under 2025-11-25."},
	{ReconnectRefetches, "Under 2026-07-28, after a listen stream drops, the client opens a new listen request with a new id and refetches the affected state.",
		notes9, ""},
	{BufferWithinCapacity, "A bounded SSE buffer never holds more than its capacity; an unbounded one fails.",
		notes7, ""},
	{FinalNeverDropped, "The SSE buffer never drops or refuses a final response.",
		notes7, ""},
	{TaskAckNotTerminal, "The client calls a task stopped only once its worker status is terminal, and a terminal status never changes.",
		notes6, ""},
	{PollIntervalRespected, "The client polls a task no more often than the pollIntervalMs the server advertised for it.",
		notes6, ""},
	{OneExecutionPerKey, "A side effect runs at most once per idempotency key, whatever the JSON-RPC ids, races or replicas.",
		notes4, ""},
	{KeyReuseRejected, "A key reused with different arguments is rejected, never answered with the other intent's result.",
		notes4, ""},
	{DefensiveCopy, "Every replay returns exactly the result first committed for its key, even after a caller mutated what it got back.",
		notes4, ""},
	{NoUnsafeRetry, "A mutation without an idempotency key (retry class unsafe) is never retried under a new JSON-RPC id.",
		notes5, ""},
	{SSEHeaders, "A Streamable HTTP response stream carries Cache-Control: no-cache and X-Accel-Buffering: no.",
		notes8, ""},
	{ProxyForwardsPromptly, "A proxy holds no event of a stream whose server sent X-Accel-Buffering: no.",
		notes8 + "; " + notesFailure + "proxy-buffers-sse)", ""},
	{HerdAllReconnect, "In the herd experiment every client reconnects within its attempts (a herd that got back in lockstep waves passes this and fails herd-jittered).",
		notes10, ""},
	{HerdJittered, "The delays the sampled clients drew for one attempt are not all equal: the rule a lockstep herd breaks.",
		notes10 + "; " + notesFailure + "lockstep-backoff)", "Fewer than two sampled clients drew the same attempt, so the sample cannot show whether the delays are jittered."},
	{DisconnectStopsWork, "Under 2026-07-28, once the server saw a request's stream close it sends nothing more for it and commits no side effect of it.",
		notes1 + "; " + notesFailure + "disconnect-unobserved)", "The transcript does not say which protocol revision was in use; only under 2026-07-28 is a disconnect a cancellation."},
	{ResumeKeepsPosition, "A client resumes a stream with the id of the last event it received there as Last-Event-ID, also after a second drop.",
		notesFailure + "forget-resume-token); " + specTransports + " (2025-11-25, resumability)", ""},
	{ResumeReplaysOwnStream, "A resumed stream carries only its own stream's events after the Last-Event-ID; no event reaches the client twice.",
		notesFailure + "replay-other-streams); " + specTransports + " (2025-11-25, resumability)", ""},
	{DroppedCallResumed, "Under 2025-11-25 a call whose stream dropped is resumed or reported failed, never left pending.",
		notes9 + "; " + notesFailure + "dropped-call-not-resumed)", "The transcript does not say its protocol revision, or the client cancelled calls whose stream had dropped and its log records none of its timeouts: whether it gave up in time cannot be told."},
	{RequestHasTimeout, "A call carries an idle or a maximum timeout. Judged once the scenario states client.policy.timeouts or any timeout; a trace stating none is not judged.",
		notes2 + "; " + notesFailure + "no-timeout)", ""},
	{AbandonTellsServer, "A client that stops waiting for a request tells the server: a cancellation, or on HTTP closing the request's stream. From a server's or a wire's view with the maximum timeout stated, a call that outlives its start plus the maximum plus MaximumGraceMs with nothing heard from the client fails it.",
		notesFailure + "abandon-silently); " + specCancellation, ""},
	{WorkStopsAfterCancel, "Once a cancellation reached the server, no side effect commits and no work follows the handler's first checkpoint after it.",
		notesHandler + "; " + notesFailure + "cancel-swallowed)", "An imported transcript records the wire, not the server's handler: when it reached a checkpoint after the cancellation and whether its side effect ran are not in it, whoever recorded it (a client's, a wire's or the server's own log). Only a simulation records the handler's work."},
	{ResourcesReleased, "Every resource a handler acquired is released when it returns, cancelled or not.",
		notesHandler + "; " + notesFailure + "resource-leaked-on-cancel)", ""},
	{NotificationsNotHeld, "The server writes a request's progress as its handler makes it, not when the handler returns.",
		notes3 + "; " + notesFailure + "notifications-held)", "Every progress notification reached the wire at the moment of its request's response: a server that holds notifications looks like this, and so does a handler that reported only at its end."},
	{ResponsesRoutedByReq, "With two requests in flight under one id, each answer travels on its own request's stream.",
		notesFailure + "cross-wired-response); " + specTransports, "On stdio one pipe carries every response and only its id routes it, or the trace does not say its transport: which request each answer went to cannot be told."},
	{MaximumBoundsProgress, "A request whose idle clock progress reset has a maximum timeout.",
		notes2 + "; " + notesFailure + "no-maximum-under-progress)", "The transcript does not record the client's timeouts, so whether a maximum bounded the requests cannot be told."},
	{CallOutcomeKnown, "Every tools/call ends for its client in a result, an error or its own abandonment; a call whose stream an intermediary closed, not resumed nor retried, is lost.",
		DomainNotes + " §11 (failures await-after-cancel, call-lost-to-idle-close)", "The transcript ends with calls the client cancelled and still waited for: a log may stop before the answer, so whether the client learned their outcome cannot be told."},
	{CancelNotBlocked, "On Streamable HTTP a cancellation goes out when the client decides, not when the response stream first speaks.",
		notes1 + "; " + notesFailure + "cancel-blocked)", ""},
	{BackoffGrows, "A refused client's consecutive reconnect delays grow until the cap; a constant retry loop fails.",
		notes10 + "; " + notesFailure + "constant-retry-loop)", ""},
	{RefetchAfterReconnect, "A client that reopens a listen stream without Last-Event-ID refetches what it covers.",
		notes9 + "; " + notesFailure + "skip-refetch)", ""},
	{ResumeReplaysMissed, "Under 2025-11-25 every message the client missed on a stream it resumed reaches it after the resumption.",
		notes9 + "; " + specTransports + " (2025-11-25, resumability)", ""},
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
