package review

import (
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// FailureIDs are the card ids in the order a review lists them: DOMAIN.md
// §11's fourteen, then the ids of the field (SCENARIO.md, "Switches for the
// failures real software shows"), then those of the client's decisions
// (SCENARIO.md, "The client decides when it gives up, retries and
// resumes"), then those of the server's handlers (DOMAIN.md §11;
// SCENARIO.md, "Handlers: the server decides when work ends").
var FailureIDs = []string{
	"http-client-posts-cancel", "respond-after-cancel", "progress-resets-every-deadline", "rpc-id-as-dedup",
	"check-then-act", "ledger-not-shared", "mutable-stored-result", "key-reuse-changed-args",
	"unbounded-progress-queue", "final-dropped", "proxy-buffers-sse", "last-event-id-assumed",
	"herd-reconnect", "task-ack-as-final",
	"late-message-fatal", "ignore-progress", "forget-resume-token", "disconnect-unobserved",
	"replay-other-streams", "lockstep-backoff", "no-timeout", "invented-progress-token",
	"progress-on-wrong-stream", "proxy-idle-close-unhandled",
	"abandon-silently", "await-after-cancel", "cancel-blocked", "resume-without-last-event-id",
	"dropped-call-not-resumed", "skip-refetch", "no-maximum-under-progress", "call-lost-to-idle-close",
	"constant-retry-loop",
	"cancel-swallowed", "resource-leaked-on-cancel", "notifications-held", "cross-wired-response",
}

// failures names each failure (DOMAIN.md §11, "failure").
var failures = map[string]string{
	"http-client-posts-cancel":       "HTTP client POSTs a cancellation notification (2026)",
	"respond-after-cancel":           "server responds after accepted cancellation",
	"progress-resets-every-deadline": "progress resets every deadline",
	"rpc-id-as-dedup":                "new RPC id treated as deduplication",
	"check-then-act":                 "key check and effect are separate steps",
	"ledger-not-shared":              "in-memory ledger across replicas",
	"mutable-stored-result":          "stored mutable result returned directly",
	"key-reuse-changed-args":         "key reused with changed arguments",
	"unbounded-progress-queue":       "unbounded progress queue",
	"final-dropped":                  "final response dropped under pressure",
	"proxy-buffers-sse":              "proxy buffers SSE",
	"last-event-id-assumed":          "Last-Event-ID assumed (2026)",
	"herd-reconnect":                 "every client reconnects at once",
	"task-ack-as-final":              "task ack treated as final cancellation",
	"late-message-fatal":             "a late response or progress is treated as a protocol error",
	"ignore-progress":                "valid progress does not reset the idle clock",
	"forget-resume-token":            "a resumed stream is resumed again without Last-Event-ID (2025)",
	"disconnect-unobserved":          "the server never observes the client closing the stream",
	"replay-other-streams":           "resumption replays other streams' events (2025)",
	"lockstep-backoff":               "backoff without jitter: waves return in lockstep",
	"no-timeout":                     "a request with neither an idle nor a maximum timeout",
	"invented-progress-token":        "progress for a token the client never sent",
	"progress-on-wrong-stream":       "progress on another request's stream",
	"proxy-idle-close-unhandled":     "a proxy closes a quiet stream for idleness",
	"abandon-silently":               "the client gives up on a call without telling the server",
	"await-after-cancel":             "the client keeps waiting for a request it cancelled",
	"cancel-blocked":                 "a cancellation waits for the response stream's first event",
	"resume-without-last-event-id":   "a dropped stream is resumed without Last-Event-ID (2025)",
	"dropped-call-not-resumed":       "a dropped tool call is never resumed (2025)",
	"skip-refetch":                   "after a reconnect the client refetches nothing",
	"no-maximum-under-progress":      "progress resets an idle timeout that no maximum bounds",
	"call-lost-to-idle-close":        "an intermediary closes a call's stream and the call is lost",
	"constant-retry-loop":            "a client retries at a constant rate during an outage",
	"cancel-swallowed":               "the handler catches a cancellation and works on",
	"resource-leaked-on-cancel":      "a cancelled handler keeps the resource it holds",
	"notifications-held":             "the server holds progress until the handler returns",
	"cross-wired-response":           "a response goes out on another request's stream",
}

// cards judges every failure id. A card no run decides (not-applicable,
// or decided by the configuration alone) still links a run: the one that
// shows the operation as configured where the failure would be
// (basisRun), so every card opens what it rests on.
func (r *reviewer) cards() []Card {
	out := make([]Card, 0, len(FailureIDs))
	for _, id := range FailureIDs {
		c := r.card(id)
		if why := r.refusal(); c.Status == NotEvaluated && why != "" {
			c = Card{Status: NotApplicable, Why: why + ": the call never runs, so it cannot meet this failure; the linked run shows the refusal."}
		}
		if ledgerCard[id] && r.ledgerAssumed != "" && c.Status != NotApplicable {
			c = assumed(r.ledgerAssumed, c)
		}
		c.ID, c.Failure = id, failures[id]
		if c.Link == "" {
			if run := r.basisRun(id); run != nil {
				c.Run, c.Link = run.ID, run.Link
			}
		}
		out = append(out, c)
	}
	return out
}

// progressRuns are the derived runs in which the call's progress flows,
// then more.
func progressRuns(more ...string) []string {
	return append([]string{"deadlines", "progress-idle", "progress-through-proxy"}, more...)
}

// runByID returns the derived run id, nil if the review made none.
func (r *reviewer) runByID(id string) *Run {
	for _, run := range r.rep.Runs {
		if run.ID == id {
			return run
		}
	}
	return nil
}

// byRule judges a card by rules on the runs given (the first run that
// evaluates a rule is linked): at-risk when one of them is violated,
// mitigated when they hold, not-evaluated with ne when none evaluates them
// (the failure could happen, but no run of this review shows it).
func (r *reviewer) byRule(ne string, runs []string, rules ...trace.RuleID) Card {
	var first *Run
	for _, id := range runs {
		run := r.runByID(id)
		if run == nil {
			continue
		}
		vs := verdicts(run.Trace, rules...)
		bad, present := failed(vs)
		if bad {
			return Card{Status: AtRisk, Why: detailOf(vs), Run: run.ID, Link: run.Link}
		}
		if present && first == nil {
			first = run
		}
	}
	if first == nil {
		return Card{Status: NotEvaluated, Why: ne}
	}
	return Card{Status: Mitigated, Why: detailOf(verdicts(first.Trace, rules...)), Run: first.ID, Link: first.Link}
}

// detailOf is the detail of the first violated verdict, else of the first.
func detailOf(vs []Verdict) string {
	for _, v := range vs {
		if v.OK != nil && !*v.OK {
			return string(v.Rule) + ": " + v.Detail
		}
	}
	if len(vs) == 0 {
		return ""
	}
	return string(vs[0].Rule) + ": " + vs[0].Detail
}

func (r *reviewer) at(run, why string) Card   { return r.status(AtRisk, run, why) }
func (r *reviewer) safe(run, why string) Card { return r.status(Mitigated, run, why) }
func (r *reviewer) status(status, run, why string) Card {
	c := Card{Status: status, Why: why}
	if x := r.runByID(run); x != nil {
		c.Run, c.Link = x.ID, x.Link
	}
	return c
}

var allRaces = []string{
	"race-stdio-cancel-first", "race-stdio-complete-first", "race-stdio-in-flight",
	"race-http-2026-cancel-first", "race-http-2026-complete-first", "race-http-2026-in-flight",
	"race-http-2025-cancel-first", "race-http-2025-complete-first", "race-http-2025-in-flight",
}

// card judges one failure id. The rule ids of the field's checks
// (late-message-tolerated, progress-resets-idle, ...) are named as
// SCENARIO.md gives them: until the engine evaluates them their cards read
// not-applicable.
func (r *reviewer) card(id string) Card {
	o, s := r.rep.Operation, r.s
	ledgerOff := r.ledgerOff()
	switch id {
	case "http-client-posts-cancel":
		return r.byRule("No HTTP cancellation under 2026-07-28 was evaluated.", []string{"race-http-2026-cancel-first"}, checks.HTTPCancelClosesStream)
	case "respond-after-cancel":
		return r.byRule("No run observed a cancellation.", allRaces, checks.NoMessageAfterCancel)
	case "progress-resets-every-deadline":
		if o.MaxTimeoutMs == 0 {
			return r.at("", "The call has no maximum timeout: while progress flows, nothing ends hung work.")
		}
		return r.byRule("The deadline run made no maximum-timeout check.", []string{"deadlines"}, checks.MaxTimeoutEnforced)
	case "rpc-id-as-dedup":
		if !o.SideEffect {
			return Card{Status: NotApplicable, Why: "The call has no side effect (retry class safe): a retry with a new id repeats only a read."}
		}
		if o.LedgerTool && s.Ledger == nil && o.IdempotencyKey == "" {
			return r.at("retry-new-id", "The call carries no idempotency key, so nothing tells a retry under a new JSON-RPC id from a new call: the server runs the side effect again. The scenario configures no ledger, so the run counts no executions; the configuration alone decides.")
		}
		if o.LedgerTool && s.Ledger == nil {
			return Card{Status: NotEvaluated, Why: "The scenario configures no ledger (add \"ledger\": {}), so the review could not count executions of a retry."}
		}
		if r.rep.RetryClass == trace.RetryUnsafe {
			return r.at("retry-new-id", "The call carries no idempotency key: a retry under a new JSON-RPC id is a new execution. "+r.rep.Retry.NewID.Finding)
		}
		if d := s.Server.Policy.DedupeBy; d == "rpc-id" || d == "none" {
			return r.at("retry-same-key", fmt.Sprintf("server.policy.dedupeBy is %q: the key is not what the server deduplicates by. %s", d, r.rep.Retry.SameKey.Finding))
		}
		if ev := r.rep.Retry.SameKey; ev.Executions != nil && *ev.Executions > 1 {
			return r.at("retry-same-key", ev.Finding)
		}
		return r.safe("retry-same-key", "The call carries an idempotency key the server deduplicates by. "+r.rep.Retry.SameKey.Finding)
	case "check-then-act", "ledger-not-shared", "mutable-stored-result", "key-reuse-changed-args":
		if c, ok := r.noKeyCard(id); ok {
			return c
		}
	}
	switch id {
	case "check-then-act":
		if ledgerOff != nil {
			return *ledgerOff
		}
		return r.byRule("The race run made no execution check.", []string{"ledger-race"}, checks.OneExecutionPerKey)
	case "ledger-not-shared":
		if ledgerOff != nil {
			return *ledgerOff
		}
		if s.Ledger.Replicas <= 1 {
			return r.safe("retry-same-key", "One server replica, one durable ledger: every retry meets the same records.")
		}
		if s.Ledger.Shared {
			return r.byRule("", []string{"retry-same-key"}, checks.OneExecutionPerKey)
		}
		return r.at("retry-same-key", fmt.Sprintf("%d replicas each keep their own ledger (ledger.shared false): %s", s.Ledger.Replicas, r.rep.Retry.SameKey.Finding))
	case "mutable-stored-result":
		if ledgerOff != nil {
			return *ledgerOff
		}
		c := r.byRule("", []string{"ledger-mutation-alias"}, checks.DefensiveCopy)
		if c.Status == NotEvaluated {
			// No replay: the retry ran the effect again (the cards
			// rpc-id-as-dedup and ledger-not-shared say why).
			return r.status(NotApplicable, "ledger-mutation-alias", "The server replays no stored result for the key: the retry ran the side effect again, so no stored result is returned to be mutated. "+r.rep.Idempotency.MutationAlias.Finding)
		}
		return c
	case "key-reuse-changed-args":
		if ledgerOff != nil {
			return *ledgerOff
		}
		return r.byRule("The mismatch run made no key-reuse check.", []string{"ledger-mismatch"}, checks.KeyReuseRejected)
	case "unbounded-progress-queue", "final-dropped":
		fc := r.rep.FlowControl.Buffer
		if fc == nil {
			return missing(r.rep.FlowControl.NotApplicable, r.rep.FlowControl.NotEvaluated, "buffer:")
		}
		rule := checks.BufferWithinCapacity
		if id == "final-dropped" {
			rule = checks.FinalNeverDropped
		}
		return assumed(fc.Assumed, r.byRule("", []string{"buffer-overload"}, rule))
	case "proxy-buffers-sse":
		p := r.rep.FlowControl.Progress
		if p == nil {
			return missing(r.rep.FlowControl.NotApplicable, r.rep.FlowControl.NotEvaluated, "progress:")
		}
		if p.Held == 0 && p.Cause != trace.CauseIdleTimeout {
			return r.safe(p.Run, p.Finding)
		}
		return r.at(p.Run, p.Finding)
	case "last-event-id-assumed":
		if s.Protocol != scenario.Protocol20260728 {
			return Card{Status: NotApplicable, Why: "Under 2025-11-25 resuming with Last-Event-ID is the protocol's own."}
		}
		return r.byRule("The reconnect run made no Last-Event-ID check.", []string{"reconnect"}, checks.NoLastEventID, checks.ReconnectRefetches)
	case "herd-reconnect":
		h := r.rep.Recovery.Herd
		if h == nil {
			return missing(r.rep.Recovery.NotApplicable, r.rep.Recovery.NotEvaluated, "herd:")
		}
		if h.Strategy == "none" {
			return assumed(h.Assumed, r.at(h.Run, "Strategy none: every refused client comes back after the same delay. "+h.Finding))
		}
		// A herd that all got back in lockstep waves still reconnected
		// at once, wave after wave: herd-jittered says so.
		return assumed(h.Assumed, r.byRule("", []string{"herd"}, checks.HerdAllReconnect, checks.HerdJittered))
	case "task-ack-as-final":
		if r.rep.Recovery.Task == nil {
			return missing(r.rep.Recovery.NotApplicable, r.rep.Recovery.NotEvaluated, "task:")
		}
		return r.byRule("", []string{"task-cancel"}, checks.TaskAckNotTerminal)
	case "late-message-fatal":
		return r.byRule("No derived run evaluates late-message-tolerated yet.", allRaces, checks.LateMessageTolerated)
	case "ignore-progress":
		if o.IdleTimeoutMs == 0 {
			return Card{Status: NotApplicable, Why: "The call has no idle timeout: progress has no idle clock to reset."}
		}
		return r.stagedFor(r.byRule("No derived run evaluates progress-resets-idle yet.", progressRuns(), checks.ProgressResetsIdle), checks.ProgressResetsIdle)
	case "forget-resume-token":
		if s.Protocol == scenario.Protocol20260728 {
			return Card{Status: NotApplicable, Why: "Under 2026-07-28 a dropped stream is never resumed: the client reconnects with a new request and refetches."}
		}
		if c, ok := r.noResumption(); ok {
			return c
		}
		return r.byRule("No derived run resumes a stream twice.", []string{"call-stream-drop", "reconnect"}, checks.ResumeKeepsPosition)
	case "disconnect-unobserved":
		return r.stagedFor(r.byRule("No derived run evaluates disconnect-stops-work yet.", allRaces, checks.DisconnectStopsWork), checks.DisconnectStopsWork)
	case "replay-other-streams":
		if s.Protocol == scenario.Protocol20260728 {
			return Card{Status: NotApplicable, Why: "Under 2026-07-28 a dropped stream is never resumed, so no server replays events on resumption."}
		}
		if c, ok := r.noResumption(); ok {
			return c
		}
		if s.Client.Policy.OmitLastEventID {
			return r.status(NotApplicable, "call-stream-drop", "client.policy.omitLastEventId is true: the client resumes with no Last-Event-ID, so the server replays nothing on resumption, neither its own stream's events nor another's (card resume-without-last-event-id is the risk).")
		}
		return r.byRule("No derived run resumes a stream with others open.", []string{"call-stream-drop", "reconnect"}, checks.ResumeReplaysOwnStream)
	case "lockstep-backoff":
		h := r.rep.Recovery.Herd
		if h == nil {
			return missing(r.rep.Recovery.NotApplicable, r.rep.Recovery.NotEvaluated, "herd:")
		}
		if h.Strategy == "none" || h.Strategy == "exponential" {
			return assumed(h.Assumed, r.at(h.Run, fmt.Sprintf("Strategy %s has no jitter: each wave of refused clients returns together (peak %d in one %d ms bucket).", h.Strategy, h.PeakPerBucket, h.BucketMs)))
		}
		return assumed(h.Assumed, r.safe(h.Run, fmt.Sprintf("Strategy %s draws a jitter per client and attempt: the waves spread.", h.Strategy)))
	case "no-timeout":
		if o.IdleTimeoutMs == 0 && o.MaxTimeoutMs == 0 {
			return r.at("race-stdio-cancel-first", "The call has neither an idle nor a maximum timeout: a silent server keeps the client waiting forever.")
		}
		return r.safe("race-stdio-cancel-first", fmt.Sprintf("The call has an idle timeout of %d ms and a maximum timeout of %d ms (0 = none).", o.IdleTimeoutMs, o.MaxTimeoutMs))
	case "invented-progress-token":
		return r.byRule("No derived run evaluates progress-token-known yet.", progressRuns("buffer-overload"), checks.ProgressTokenKnown)
	case "progress-on-wrong-stream":
		return r.byRule("No derived run evaluates progress-on-request-stream yet.", progressRuns("buffer-overload"), checks.ProgressOnRequestStream)
	case "proxy-idle-close-unhandled":
		se := r.rep.FlowControl.SSE
		if se == nil || se.IdleCloseMs == 0 {
			return Card{Status: NotApplicable, Why: "No proxy closes idle streams (proxy.idleCloseMs)."}
		}
		if se.ProxyClosed {
			return r.at(se.Run, se.Finding+" Keep-alive comments more often than the idle close keep it open.")
		}
		return r.safe(se.Run, se.Finding)
	}
	if c, ok := r.decisionCard(id); ok {
		return c
	}
	if c, ok := r.handlerCard(id); ok {
		return c
	}
	return Card{Status: NotApplicable, Why: "unknown failure id"}
}

// decisionCard judges the cards of the client's decisions (SCENARIO.md,
// "The client decides when it gives up, retries and resumes"), ok false
// for another id.
func (r *reviewer) decisionCard(id string) (Card, bool) {
	o, s := r.rep.Operation, r.s
	switch id {
	case "abandon-silently":
		if o.IdleTimeoutMs == 0 && o.MaxTimeoutMs == 0 {
			return Card{Status: NotApplicable, Why: "The call has neither an idle nor a maximum timeout: its client never gives up on it, so it never abandons it in silence (card no-timeout is that risk)."}, true
		}
		return r.byRule("No derived run has the client give up.", []string{"silent-server", "deadlines"}, checks.AbandonTellsServer), true
	case "await-after-cancel":
		return r.byRule("No derived run cancels the call.", allRaces, checks.CallOutcomeKnown), true
	case "cancel-blocked":
		switch {
		case s.Transport != scenario.TransportHTTP:
			return Card{Status: NotApplicable, Why: "On stdio a cancellation is a message of its own: no response stream holds it."}, true
		case s.Client.Policy.CancelAfterFirstEvent:
			return r.at("deadlines", "The client holds a cancellation until the call's response stream has delivered an SSE event (client.policy.cancelAfterFirstEvent): a quiet server is told only when it first writes, or never (modelcontextprotocol/rust-sdk#1193)."), true
		}
		if c := r.byRule("", []string{"deadlines"}, checks.CancelNotBlocked); c.Status != NotEvaluated {
			return c, true
		}
		return r.safe("race-http-2026-cancel-first", "The client sends a cancellation the moment it decides, whether or not the response stream has spoken."), true
	case "resume-without-last-event-id", "dropped-call-not-resumed", "call-lost-to-idle-close":
		switch {
		case s.Protocol == scenario.Protocol20260728:
			return Card{Status: NotApplicable, Why: "Under 2026-07-28 a closed stream ends the call: nothing is resumed, and the client knows the call failed."}, true
		case s.Transport != scenario.TransportHTTP:
			return Card{Status: NotApplicable, Why: "On stdio a call has no response stream of its own to drop: the pipe is the session."}, true
		case !s.Client.Policy.ResumesDroppedCalls() && id != "call-lost-to-idle-close" && id != "dropped-call-not-resumed":
			return r.status(NotApplicable, "call-stream-drop", noResume), true
		case id == "resume-without-last-event-id":
			return r.byRule("The stream-drop run made no resume-keeps-position check.", []string{"call-stream-drop"}, checks.ResumeKeepsPosition), true
		case id == "dropped-call-not-resumed":
			return r.byRule("The stream-drop run made no dropped-call-resumed check.", []string{"call-stream-drop"}, checks.DroppedCallResumed), true
		case s.Proxy == nil || s.Proxy.IdleCloseMs == 0:
			return Card{Status: NotApplicable, Why: "No proxy closes idle streams (proxy.idleCloseMs): no intermediary ends the call's stream."}, true
		}
		return r.byRule("The quiet-stream run made no call-outcome-known check.", []string{"sse-quiet"}, checks.CallOutcomeKnown), true
	case "skip-refetch":
		if s.Protocol == scenario.Protocol20251125 {
			return Card{Status: NotApplicable, Why: "Under 2025-11-25 a dropped listen stream is resumed with Last-Event-ID and its missed events replayed: nothing to refetch."}, true
		}
		return r.stagedFor(r.byRule("The reconnect run made no refetch check.", []string{"reconnect"}, checks.RefetchAfterReconnect), checks.RefetchAfterReconnect), true
	case "no-maximum-under-progress":
		switch {
		case o.IdleTimeoutMs == 0:
			return Card{Status: NotApplicable, Why: "The call has no idle timeout: progress resets no clock."}, true
		case o.MaxTimeoutMs == 0:
			return r.at("race-stdio-cancel-first", fmt.Sprintf("Progress resets the call's %d ms idle timeout and no maximum timeout bounds it: a server that keeps reporting keeps it alive for ever.", o.IdleTimeoutMs)), true
		}
		return r.safe("deadlines", fmt.Sprintf("The call's %d ms maximum timeout bounds it whatever progress resets its %d ms idle timeout.", o.MaxTimeoutMs, o.IdleTimeoutMs)), true
	case "constant-retry-loop":
		h := r.rep.Recovery.Herd
		if h == nil {
			return missing(r.rep.Recovery.NotApplicable, r.rep.Recovery.NotEvaluated, "herd:"), true
		}
		if h.Strategy == "none" {
			return assumed(h.Assumed, r.at(h.Run, "Strategy none: a refused client waits the same delay after every refusal, however long the server stays down.")), true
		}
		if c := r.byRule("", []string{"herd"}, checks.BackoffGrows); c.Status != NotEvaluated {
			return assumed(h.Assumed, c), true
		}
		return assumed(h.Assumed, r.safe("herd", "Strategy "+h.Strategy+" lets a refused client's delays grow until the cap.")), true
	}
	return Card{}, false
}

// handlerCard judges the cards of the server's handlers (DOMAIN.md §11;
// SCENARIO.md, "Handlers: the server decides when work ends") by their
// rules on the race runs, which cancel the call while its handler works,
// and the deadline runs, which let its progress flow; ok false for another
// id. A card is not-applicable when the operation's tool has no handler
// (server.handlers) or the handler has nothing the failure needs: no
// resource it holds, no progress it reports.
func (r *reviewer) handlerCard(id string) (Card, bool) {
	s := r.s
	switch id {
	case "cancel-swallowed", "resource-leaked-on-cancel", "notifications-held":
	case "cross-wired-response":
		switch {
		case s.Transport != scenario.TransportHTTP:
			return Card{Status: NotApplicable, Why: "On stdio one pipe carries every response and only its id routes it: no stream can be the wrong one."}, true
		case s.Server.Policy.RouteByIDOnly:
			return Card{Status: AtRisk, Why: "The server routes responses by id alone (server.policy.routeByIdOnly): a request sent again under an id still in flight takes that id's route, and the first request's answer goes out on the second's stream (modelcontextprotocol/typescript-sdk#2433). No derived run sends two requests under one id; the built-in page broken-route-by-id-only shows it."}, true
		}
		if _, ok := s.Server.HandlerFor(r.op.Name); !ok {
			return Card{Status: NotApplicable, Why: fmt.Sprintf("The server configures no handler for tool %q (server.handlers): the review's runs script each answer by id, so no server routes two requests under one id.", r.op.Name)}, true
		}
		return r.byRule("No derived run puts two requests in flight under one id, so responses-routed-by-request is not evaluated.", append([]string{"duplicate-id"}, allRaces...), checks.ResponsesRoutedByReq), true
	default:
		return Card{}, false
	}
	h, ok := s.Server.HandlerFor(r.op.Name)
	if !ok {
		return Card{Status: NotApplicable, Why: fmt.Sprintf("The server configures no handler for tool %q (server.handlers): the review's runs script its answers, so no handler works to judge.", r.op.Name)}, true
	}
	switch id {
	case "cancel-swallowed":
		return r.byRule("No derived run's cancellation reached the handler while it worked.", allRaces, checks.WorkStopsAfterCancel), true
	case "resource-leaked-on-cancel":
		if h.Holds == "" {
			return Card{Status: NotApplicable, Why: fmt.Sprintf("The handler of tool %q holds no resource (holds): a cancellation leaves nothing behind.", r.op.Name)}, true
		}
		return r.byRule("No derived run's handler acquired its resource.", allRaces, checks.ResourcesReleased), true
	}
	switch {
	case h.ProgressEveryMs == 0:
		return Card{Status: NotApplicable, Why: fmt.Sprintf("The handler of tool %q reports no progress (progressEveryMs): there is nothing to hold.", r.op.Name)}, true
	case r.op.ProgressToken == nil:
		return Card{Status: NotApplicable, Why: "The call carries no progress token: its handler sends no progress, so there is nothing to hold."}, true
	}
	return r.byRule("No derived run's handler reported progress.", progressRuns(allRaces...), checks.NotificationsNotHeld), true
}

// missing is the card of a failure whose part the review did not show:
// not-applicable with the reason in na that starts with prefix, else
// not-evaluated with the one in ne.
func missing(na, ne []string, prefix string) Card {
	for _, x := range na {
		if strings.HasPrefix(x, prefix) {
			return Card{Status: NotApplicable, Why: capital(strings.TrimSpace(strings.TrimPrefix(x, prefix)))}
		}
	}
	for _, x := range ne {
		if strings.HasPrefix(x, prefix) {
			return Card{Status: NotEvaluated, Why: capital(strings.TrimSpace(strings.TrimPrefix(x, prefix)))}
		}
	}
	return Card{Status: NotEvaluated, Why: "The review ran no " + strings.TrimSuffix(prefix, ":") + " run."}
}

// ledgerOff is the card of a ledger failure when the operation's effects do
// not run on the lab's ledger, nil when they do: not-applicable without a
// side effect, else not-evaluated (not a ledger tool, or no ledger
// configured), with the Why of the idempotency part.
func (r *reviewer) ledgerOff() *Card {
	switch i := r.rep.Idempotency; i.Status {
	case NotApplicable, NotEvaluated:
		return &Card{Status: i.Status, Why: i.Why}
	}
	return nil
}

// noResume is why a resumption card is not-applicable for a client that
// never resumes a dropped call.
const noResume = "client.policy.resumeDroppedCalls is false: the client never resumes the call's dropped stream, so it cannot resume it wrongly (card dropped-call-not-resumed is the risk)."

// noResumption is the card of a failure of stream resumption when the
// operation never resumes a stream (ok false when it may): on stdio there
// is no stream to resume, and a client that does not resume dropped calls
// resumes nothing.
func (r *reviewer) noResumption() (Card, bool) {
	switch {
	case r.s.Transport != scenario.TransportHTTP:
		return r.status(NotApplicable, r.ownRace(), "On stdio there is no stream to drop or resume: the pipe is the session."), true
	case !r.s.Client.Policy.ResumesDroppedCalls():
		return r.status(NotApplicable, "call-stream-drop", noResume), true
	}
	return Card{}, false
}
