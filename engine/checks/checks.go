// Package checks evaluates the rules of DOMAIN.md on a trace.
//
// Every check is a function of the trace's events (what was on the wire,
// when, and what each side did with it) plus the requests[] summary and,
// when present, the scenario's configuration; never of engine internals. That
// is what lets the same checks judge simulated traffic and imported real
// traffic.
//
// A check is listed only when its subject occurs in the trace (no
// cancellation, no no-message-after-cancel). OK is true when the rule holds,
// false with the offending events when it is broken, and null when the
// trace cannot decide (Detail says why).
//
// # Rules
//
// Every rule id [Evaluate] can report, in its order. SCENARIO.md (version 1)
// lists some ids "such as"; the ones marked (mcplab addition) are not in
// that list. A check appears only when its subject occurs in the trace.
//   - no-message-after-cancel: after the server observes a cancellation it
//     sends nothing more for that request (no result, error or progress).
//   - http-cancel-closes-stream: on Streamable HTTP under 2026-07-28 the
//     client cancels by closing the request's stream and POSTs no
//     notifications/cancelled.
//   - http-cancel-posts-notification (mcplab addition): on Streamable HTTP
//     under 2025-11-25 the client cancels by POSTing notifications/cancelled;
//     closing the stream is not a cancellation.
//   - progress-increases: progress values on the wire strictly increase per
//     progress token.
//   - stale-progress-ignored (mcplab addition): a non-increasing progress
//     value does not reset the client's idle clock.
//   - no-progress-after-final: no progress follows a request's final
//     response.
//   - max-timeout-enforced: a request with a maximum timeout stops being
//     waited for by start + maximum, whatever progress arrives (from a
//     server's or a wire's view of real traffic, with MaximumGraceMs).
//   - idle-timeout-enforced (mcplab addition): a request with an idle timeout
//     is not waited for longer than that without valid progress.
//   - late-response-ignored: the client ignores a response for a request it
//     abandoned.
//   - late-message-tolerated: a late response or late progress never costs
//     the client its session (field.go).
//   - late-progress-ignored: progress for a finished or unknown token is
//     ignored (field.go).
//   - progress-resets-idle: valid progress resets the idle clock: no idle
//     timeout fires sooner than the idle limit after it (field.go; from a
//     server's or a wire's view with the idle timeout stated, no
//     cancellation comes sooner than that after the last progress,
//     observer.go).
//   - progress-token-known: the server sends progress only under a token a
//     client request carried (field.go).
//   - progress-on-request-stream: a request's progress travels on its own
//     response stream, never on another (field.go).
//   - server-cancel-only-for-listen: a server-sent notifications/cancelled
//     only tears down a subscriptions/listen stream.
//   - cancellation-never-answered (mcplab addition): the server never
//     answers a cancellation notification, valid or not.
//   - one-response-per-request (mcplab addition): the server sends at most
//     one final response per request (per request stream: a duplicate
//     request sent under an id in flight is answered on its own).
//   - initialize-not-cancelled (mcplab addition): under 2025-11-25 the client
//     never cancels initialize.
//   - initialized-before-requests: after each initialize the client sends
//     no request but ping before notifications/initialized, and the server
//     rejects nothing that follows it as not initialized (lifecycle.go).
//   - session-recovered: after a retired session's 404 the client
//     initializes again and re-issues what was in flight once, with the
//     same ids and arguments (lifecycle.go).
//   - no-last-event-id: under 2026-07-28 a client does not reconnect with
//     Last-Event-ID (the server keeps no event ids to resume from).
//   - reconnect-new-request-and-refetch (mcplab addition): under 2026-07-28,
//     after a listen stream drops, the client opens a new listen request with
//     a new id and refetches the affected state.
//   - buffer-within-capacity: a bounded SSE buffer never holds more than its
//     capacity; an unbounded one fails.
//   - final-never-dropped: the SSE buffer never drops or refuses a final
//     response.
//   - task-ack-not-terminal: the client calls a task stopped only once its
//     worker status is terminal, and a terminal status never changes.
//   - poll-interval-respected: the client polls a task no more often than
//     the pollIntervalMs the server advertised for it (field.go).
//   - one-execution-per-key: a side effect runs at most once per idempotency
//     key, whatever the JSON-RPC ids, races or replicas.
//   - key-reuse-rejected: a key reused with different arguments is rejected,
//     never answered with the other intent's result.
//   - defensive-copy: every replay returns exactly the result first committed
//     for its key, even after a caller mutated what it got back.
//   - no-unsafe-retry (mcplab addition): a mutation without an idempotency
//     key (retry class unsafe) is never retried under a new JSON-RPC id.
//   - sse-headers (mcplab addition): a Streamable HTTP response stream
//     carries Cache-Control: no-cache and X-Accel-Buffering: no.
//   - proxy-forwards-promptly: a proxy holds no event of a stream whose
//     server sent X-Accel-Buffering: no (intermediary.go).
//   - herd-all-reconnect (mcplab addition): in the herd experiment every
//     client reconnects within its attempts (a herd that got back in
//     lockstep waves passes it and fails herd-jittered).
//   - herd-jittered: the delays the sampled clients drew for one attempt
//     are not all equal: the rule a lockstep herd breaks (SCENARIO.md,
//     failure lockstep-backoff); its detail gives the lockstep wave's
//     numbers (herd.go).
//   - disconnect-stops-work: under 2026-07-28, once the server saw a
//     request's stream close it sends nothing more for it and commits no
//     side effect of it (field.go).
//   - resume-keeps-position: a client resumes a stream with the id of the
//     last event it received there as Last-Event-ID, also after a second
//     drop (resume.go).
//   - resume-replays-own-stream: a resumed stream carries only its own
//     stream's events after the Last-Event-ID; no event reaches the client
//     twice (resume.go).
//   - dropped-call-resumed (mcplab addition): under 2025-11-25 a call whose
//     stream dropped is resumed or reported failed, never left pending
//     (resume.go).
//   - request-has-timeout: a call carries an idle or a maximum timeout
//     (DOMAIN.md §2). Listed when a call carries one or the scenario
//     states client.policy.timeouts; a call with neither fails once the
//     policy or any timeout (client default, a call step's, another
//     request's) is stated; a trace stating none is not judged
//     (resume.go).
//   - work-stops-after-cancel: once a cancellation reached the server, no
//     side effect commits and no work follows the handler's first
//     checkpoint after it; the detail gives each request's wastedWorkMs
//     (handlers.go; failure cancel-swallowed). Null for a client or wire
//     log in which the client cancelled.
//   - resources-released: every resource a handler acquired is released
//     when it returns, cancelled or not (handlers.go; failure
//     resource-leaked-on-cancel).
//   - notifications-not-held: the server writes a request's progress as
//     its handler makes it, not when the handler returns (handlers.go;
//     failure notifications-held). Null for an imported log whose every
//     progress notification left with its request's response.
//   - responses-routed-by-request: with two requests in flight under one
//     id, each answer travels on its own request's stream (handlers.go;
//     failure cross-wired-response). Null on stdio, where only the id
//     routes a response.
//   - abandon-tells-server (mcplab addition): a client that stops waiting
//     for a request tells the server (a cancellation, or on HTTP closing
//     the request's stream). On an imported transcript, judged where the
//     client drops a late response, and from a server's or a wire's view
//     with the maximum timeout stated, where a call outlives start +
//     maximum + MaximumGraceMs unheard (observer.go); on a simulation, at every timeout the
//     client acts on, and a silent abandonment (client.policy
//     cancelOnAbandon false) fails (decisions.go).
//   - maximum-bounds-progress: a request whose idle clock progress reset
//     has a maximum timeout (decisions.go).
//   - call-outcome-known: every tools/call ends for its client in a
//     result, an error or its own abandonment; a call whose stream an
//     intermediary closed, not resumed to an end nor retried, is lost
//     (under 2026-07-28 too: a proxy's idle close loses the call, while a
//     network drop ends it as a failure its client knows of; decisions.go).
//   - cancel-not-blocked: on Streamable HTTP a cancellation goes out when
//     the client decides, not when the response stream first speaks
//     (decisions.go).
//   - backoff-grows: a refused client's consecutive reconnect delays grow
//     until the cap; a constant retry loop fails (decisions.go).
//   - refetch-after-reconnect: a client that reopens a listen stream
//     without Last-Event-ID refetches what it covers (decisions.go).
//   - resume-replays-missed: under 2025-11-25 every message the client
//     missed on a stream it resumed reaches it after the resumption
//     (decisions.go).
//
// # Layout and cost
//
// One file per DOMAIN.md section: cancellation.go (§1), timeouts.go (§2),
// progress.go (§3), idempotency.go (§4–5), tasks.go (§6), backpressure.go
// (§7–8), reconnect.go (§9–10); the rules for the failures of the field
// (SCENARIO.md, "Switches for the failures real software shows") are in
// field.go, herd.go, intermediary.go and resume.go; those of the client's
// decisions (SCENARIO.md, "The client decides when it gives up, retries and
// resumes") in decisions.go. poll-interval-respected reads
// taskId and pollIntervalMs of task messages with encoding/json, a second
// reading of those messages only. Evaluate first indexes the trace once
// (view.go): each wire message is read once by jsonrpc.Parse (wire.go; a
// delivery reuses its send's reading), and events are listed per request.
// Every rule is then one pass over the events or over one request's events,
// so Evaluate costs O(events + requests) beyond what it reports
// (BenchmarkEvaluate: t(10n)/t(n) about 10). One report can be larger than
// that: reconnect-new-request-and-refetch lists, for each reconnect, every
// refetch the client sent after it.
package checks

import (
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// Rule ids (stable; SCENARIO.md, checks[]).
const (
	NoMessageAfterCancel        = "no-message-after-cancel"
	HTTPCancelClosesStream      = "http-cancel-closes-stream"
	HTTPCancelPostsNotification = "http-cancel-posts-notification"
	ProgressIncreases           = "progress-increases"
	StaleProgressIgnored        = "stale-progress-ignored"
	NoProgressAfterFinal        = "no-progress-after-final"
	MaxTimeoutEnforced          = "max-timeout-enforced"
	IdleTimeoutEnforced         = "idle-timeout-enforced"
	LateResponseIgnored         = "late-response-ignored"
	ServerCancelOnlyForListen   = "server-cancel-only-for-listen"
	CancellationNeverAnswered   = "cancellation-never-answered"
	OneResponsePerRequest       = "one-response-per-request"
	InitializeNotCancelled      = "initialize-not-cancelled"
	NoLastEventID               = "no-last-event-id"
	ReconnectRefetches          = "reconnect-new-request-and-refetch"
	BufferWithinCapacity        = "buffer-within-capacity"
	FinalNeverDropped           = "final-never-dropped"
	TaskAckNotTerminal          = "task-ack-not-terminal"
	OneExecutionPerKey          = "one-execution-per-key"
	KeyReuseRejected            = "key-reuse-rejected"
	DefensiveCopy               = "defensive-copy"
	NoUnsafeRetry               = "no-unsafe-retry"
	SSEHeaders                  = "sse-headers"
	HerdAllReconnect            = "herd-all-reconnect"
	AbandonTellsServer          = "abandon-tells-server"
)

// Evaluate returns the applicable checks for tr, in a fixed order.
func Evaluate(tr *trace.Trace) []trace.Check {
	v := newView(tr)
	out := []trace.Check{}
	for _, f := range []func(*view) (trace.Check, bool){
		noMessageAfterCancel, httpCancelSignal, progressIncreases, staleProgressIgnored,
		noProgressAfterFinal, maxTimeoutEnforced, idleTimeoutEnforced, lateResponseIgnored,
		lateMessageTolerated, lateProgressIgnored, progressResetsIdle, progressTokenKnown,
		progressOnRequestStream,
		serverCancelOnlyForListen, cancellationNeverAnswered, oneResponsePerRequest,
		initializeNotCancelled, noLastEventID, reconnectRefetches,
		bufferWithinCapacity, finalNeverDropped, taskAckNotTerminal,
		pollIntervalRespected,
		oneExecutionPerKey, keyReuseRejected, defensiveCopy, noUnsafeRetry,
		sseHeaders, proxyForwardsPromptly, herdAllReconnect, herdJittered, disconnectStopsWork,
		resumeKeepsPosition, resumeReplaysOwnStream, droppedCallResumed, requestHasTimeout,
		abandonTellsServer, workStopsAfterCancel, resourcesReleased, notificationsNotHeld,
		responsesRoutedByRequest,
		maximumBoundsProgress, callOutcomeKnown, cancelNotBlocked, backoffGrows,
		refetchAfterReconnect, resumeReplaysMissed,
		initializedBeforeRequests, sessionRecovered,
	} {
		if c, ok := f(v); ok {
			out = append(out, c)
		}
	}
	return out
}

func pass(rule, detail string, seqs ...int) trace.Check {
	t := true
	return trace.Check{Rule: rule, OK: &t, Detail: detail, Events: seqs}
}

func fail(rule, detail string, seqs ...int) trace.Check {
	f := false
	return trace.Check{Rule: rule, OK: &f, Detail: detail, Events: seqs}
}

func undecided(rule, detail string) trace.Check {
	return trace.Check{Rule: rule, OK: nil, Detail: detail}
}

// verdict turns the offending (bad) and the proving (good) events into a
// check: omitted when there are neither, failed with failDetail when any
// event is bad, passed with passDetail otherwise.
func verdict(rule string, bad, good []int, failDetail, passDetail string) (trace.Check, bool) {
	if len(bad)+len(good) == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(rule, failDetail, bad...), true
	}
	return pass(rule, passDetail, good...), true
}

// seqList cites events as "#7, #18, #28" in the order given, each once
// (a rule that pairs events, such as poll-interval-respected's each poll
// with the one before, names the middle ones twice in its Events).
func seqList(seqs []int) string {
	s := make([]string, 0, len(seqs))
	seen := make(map[int]bool, len(seqs))
	for _, n := range seqs {
		if !seen[n] {
			seen[n] = true
			s = append(s, "#"+strconv.Itoa(n))
		}
	}
	return strings.Join(s, ", ")
}

func idOf(e trace.Event) string {
	if e.ID == nil {
		return ""
	}
	return e.ID.Raw()
}
