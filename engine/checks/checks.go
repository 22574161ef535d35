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
// [Rules] describes every rule id Evaluate can report, in its order: what
// it checks, the specification section or DOMAIN.md / SCENARIO.md rule it
// implements, and what its undecided verdict means. The site's rules
// reference (/rules/<id>/), the rule URLs `mcplab run -checks` prints and
// docs/rules.md are generated from it, so a rule is described there once.
// A check appears only when its subject occurs in the trace.
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
	// NoMessageAfterCancel: after the server observes a cancellation of a
	// request it sends nothing more for that request: no result, no error, no
	// progress (DOMAIN.md §1).
	NoMessageAfterCancel trace.RuleID = "no-message-after-cancel"
	// HTTPCancelClosesStream: on Streamable HTTP under 2026-07-28 the client
	// cancels a request by closing its response stream and POSTs no
	// notifications/cancelled (DOMAIN.md §1, The two protocol eras).
	HTTPCancelClosesStream trace.RuleID = "http-cancel-closes-stream"
	// HTTPCancelPostsNotification: on Streamable HTTP under 2025-11-25 the
	// client cancels by POSTing notifications/cancelled; closing the stream is
	// not a cancellation (DOMAIN.md §1, The two protocol eras).
	HTTPCancelPostsNotification trace.RuleID = "http-cancel-posts-notification"
	// ProgressIncreases: progress values on the wire strictly increase per
	// progress token (DOMAIN.md §3).
	ProgressIncreases trace.RuleID = "progress-increases"
	// StaleProgressIgnored: A non-increasing progress value does not reset the
	// client's idle clock (DOMAIN.md §2–3).
	StaleProgressIgnored trace.RuleID = "stale-progress-ignored"
	// NoProgressAfterFinal: no progress notification follows a request's final
	// response (DOMAIN.md §3).
	NoProgressAfterFinal trace.RuleID = "no-progress-after-final"
	// MaxTimeoutEnforced: A request with a maximum timeout stops being waited
	// for by its start plus the maximum, whatever progress arrives (DOMAIN.md
	// §2).
	MaxTimeoutEnforced trace.RuleID = "max-timeout-enforced"
	// IdleTimeoutEnforced: A request with an idle timeout is not waited for
	// longer than that without valid progress (DOMAIN.md §2).
	IdleTimeoutEnforced trace.RuleID = "idle-timeout-enforced"
	// LateResponseIgnored: the client ignores a response for a request it
	// abandoned (DOMAIN.md §1, The race).
	LateResponseIgnored trace.RuleID = "late-response-ignored"
	// ServerCancelOnlyForListen: A notifications/cancelled sent by the server
	// only tears down a subscriptions/listen stream (DOMAIN.md §9).
	ServerCancelOnlyForListen trace.RuleID = "server-cancel-only-for-listen"
	// CancellationNeverAnswered: the server never answers a cancellation
	// notification, valid or not (DOMAIN.md §1).
	CancellationNeverAnswered trace.RuleID = "cancellation-never-answered"
	// OneResponsePerRequest: the server sends at most one final response per
	// request (per request stream: a duplicate request under an id in flight is
	// answered on its own) (DOMAIN.md §1, The race (one terminal state)).
	OneResponsePerRequest trace.RuleID = "one-response-per-request"
	// InitializeNotCancelled: under 2025-11-25 the client never cancels
	// initialize (MCP specification, Basic › Utilities › Cancellation
	// (2025-11-25)).
	InitializeNotCancelled trace.RuleID = "initialize-not-cancelled"
	// NoLastEventID: under 2026-07-28 a client does not reconnect with Last-
	// Event-ID: the server keeps no event ids to resume from (DOMAIN.md §9).
	NoLastEventID trace.RuleID = "no-last-event-id"
	// ReconnectRefetches: under 2026-07-28, after a listen stream drops, the
	// client opens a new listen request with a new id and refetches the
	// affected state (DOMAIN.md §9).
	ReconnectRefetches trace.RuleID = "reconnect-new-request-and-refetch"
	// BufferWithinCapacity: A bounded SSE buffer never holds more than its
	// capacity; an unbounded one fails (DOMAIN.md §7).
	BufferWithinCapacity trace.RuleID = "buffer-within-capacity"
	// FinalNeverDropped: the SSE buffer never drops or refuses a final response
	// (DOMAIN.md §7).
	FinalNeverDropped trace.RuleID = "final-never-dropped"
	// TaskAckNotTerminal: the client calls a task stopped only once its worker
	// status is terminal, and a terminal status never changes (DOMAIN.md §6).
	TaskAckNotTerminal trace.RuleID = "task-ack-not-terminal"
	// OneExecutionPerKey: A side effect runs at most once per idempotency key,
	// whatever the JSON-RPC ids, races or replicas (DOMAIN.md §4).
	OneExecutionPerKey trace.RuleID = "one-execution-per-key"
	// KeyReuseRejected: A key reused with different arguments is rejected,
	// never answered with the other intent's result (DOMAIN.md §4).
	KeyReuseRejected trace.RuleID = "key-reuse-rejected"
	// DefensiveCopy: every replay returns exactly the result first committed
	// for its key, even after a caller mutated what it got back (DOMAIN.md §4).
	DefensiveCopy trace.RuleID = "defensive-copy"
	// NoUnsafeRetry: A mutation without an idempotency key (retry class unsafe)
	// is never retried under a new JSON-RPC id (DOMAIN.md §5).
	NoUnsafeRetry trace.RuleID = "no-unsafe-retry"
	// SSEHeaders: A Streamable HTTP response stream carries Cache-Control: no-
	// cache and X-Accel-Buffering: no (DOMAIN.md §8).
	SSEHeaders trace.RuleID = "sse-headers"
	// HerdAllReconnect: in the herd experiment every client reconnects within
	// its attempts (a herd that got back in lockstep waves passes this and
	// fails herd-jittered) (DOMAIN.md §10).
	HerdAllReconnect trace.RuleID = "herd-all-reconnect"
	// AbandonTellsServer: A client that stops waiting for a request tells the
	// server: a cancellation, or on HTTP closing the request's stream
	// (SCENARIO.md, The client decides when it gives up, retries and resumes
	// (failure abandon-silently)).
	AbandonTellsServer trace.RuleID = "abandon-tells-server"
	// MessageValid: every message on the wire is valid against its
	// revision's JSON Schema (SCENARIO.md, "The wire of each revision").
	// Package checks/schema judges it, apart from Evaluate, so that what
	// links checks does not link the schemas.
	MessageValid trace.RuleID = "message-valid"
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
		initializedBeforeRequests, sessionRecovered, refusalNotRepeated,
	} {
		if c, ok := f(v); ok {
			out = append(out, c)
		}
	}
	return out
}

func pass(rule trace.RuleID, detail string, seqs ...int) trace.Check {
	t := true
	return trace.Check{Rule: rule, OK: &t, Detail: detail, Events: seqs}
}

func fail(rule trace.RuleID, detail string, seqs ...int) trace.Check {
	f := false
	return trace.Check{Rule: rule, OK: &f, Detail: detail, Events: seqs}
}

func undecided(rule trace.RuleID, detail string) trace.Check {
	return trace.Check{Rule: rule, OK: nil, Detail: detail}
}

// verdict turns the offending (bad) and the proving (good) events into a
// check: omitted when there are neither, failed with failDetail when any
// event is bad, passed with passDetail otherwise.
func verdict(rule trace.RuleID, bad, good []int, failDetail, passDetail string) (trace.Check, bool) {
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
