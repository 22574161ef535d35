package review

import (
	"encoding/json"
	"fmt"

	"github.com/mcplab/mcplab/engine/scenario"
)

// Bounds of the runs a review derives where the scenario leaves a part
// unsaid.
const (
	// unboundedEveryMs is the progress interval of the steady-progress run
	// of a call with neither timeout (with an idle timeout it is half of
	// it, so valid progress keeps the call alive).
	unboundedEveryMs = 100
	// unboundedCount is how many progress values that run sends.
	unboundedCount = 5
)

// unbounded derives what the deadline run would show for a call with no
// maximum timeout: steady progress ("progress-idle": does progress reset
// the idle clock, under a token the call sent, on its own stream?).
func (r *reviewer) unbounded() error {
	o, id := r.rep.Operation, *r.op.ID
	every := int64(unboundedEveryMs)
	if o.IdleTimeoutMs > 1 {
		every = o.IdleTimeoutMs / 2
	}
	sc := r.own()
	sc.Steps = []scenario.Step{r.token(r.call(0, false)),
		{At: max(every, r.arrived()), Do: scenario.VerbProduce, ID: &id, EveryMs: every, Count: unboundedCount, FromValue: ptr(1.0), Total: ptr(float64(unboundedCount))},
		{At: every * (unboundedCount + 1), Do: scenario.VerbComplete, ID: &id}}
	_, err := r.run("progress-idle", fmt.Sprintf("Progress every %d ms; the call has no maximum timeout", every), sc)
	return err
}

// silent derives, for a call with a timeout, a server that stays silent
// past it ("silent-server": does the client give up and tell the
// server?). The server's handlers are left out, so its answer comes when
// the run says, after the client's deadline.
func (r *reviewer) silent() error {
	o, id := r.rep.Operation, *r.op.ID
	limit := o.IdleTimeoutMs
	if limit == 0 || (o.MaxTimeoutMs > 0 && o.MaxTimeoutMs < limit) {
		limit = o.MaxTimeoutMs
	}
	if limit == 0 {
		return nil
	}
	quiet := 2*limit + r.tick()
	sc := r.own()
	sc.Server.Handlers = nil
	sc.Steps = []scenario.Step{r.call(0, false), {At: quiet, Do: scenario.VerbComplete, ID: &id}}
	_, err := r.run("silent-server", fmt.Sprintf("The server is silent for %d ms, past the call's %d ms timeout (no handler)", quiet, limit), sc)
	return err
}

// streamRuns derives the runs of the call's own response stream on
// Streamable HTTP: under 2025-11-25 the stream drops while the call works
// and again once resumed ("call-stream-drop": is it resumed with the last
// event id each time, replaying only its own events, or reported failed?), and when the tool has a handler a second request arrives under
// the call's id while it works ("duplicate-id": does each answer travel on
// its own request's stream?).
func (r *reviewer) streamRuns() error {
	if r.s.Transport != scenario.TransportHTTP {
		return nil
	}
	id, t := *r.op.ID, r.tick()
	if r.s.Protocol == scenario.Protocol20251125 {
		sc := r.own()
		sc.Steps = []scenario.Step{r.token(r.call(0, false)),
			{At: t, Do: scenario.VerbProgress, ID: &id, Progress: ptr(1.0), Total: ptr(2.0)},
			{At: 2 * t, Do: scenario.VerbDrop, ID: &id},
			{At: 3 * t, Do: scenario.VerbDrop, ID: &id},
			{At: 5 * t, Do: scenario.VerbProgress, ID: &id, Progress: ptr(2.0), Total: ptr(2.0)},
			{At: 8 * t, Do: scenario.VerbComplete, ID: &id}}
		if _, err := r.run("call-stream-drop", "The call's response stream drops while it works, and again once resumed", sc); err != nil {
			return err
		}
	}
	if _, ok := r.s.Server.HandlerFor(r.op.Name); !ok || r.s.Server.Policy.RouteByIDOnly {
		return nil
	}
	changed, _ := changeArgs(r.op.Arguments)
	params, _ := json.Marshal(map[string]json.RawMessage{"name": quoteRaw(r.op.Name), "arguments": changed})
	msg, _ := json.Marshal(map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`), "id": json.RawMessage(id.Raw()),
		"method": quoteRaw(r.rep.Operation.Method), "params": params})
	sc := r.own()
	sc.Steps = []scenario.Step{r.call(0, false), {At: t, Do: scenario.VerbSend, Message: msg}}
	_, err := r.run("duplicate-id", fmt.Sprintf("A second request under id %s arrives while the first works", id.Raw()), sc)
	return err
}

func quoteRaw(s string) json.RawMessage { return json.RawMessage(quote(s)) }

// assumed prefixes a card's why with what its run assumed (a default the
// scenario does not state), so the card says what it rests on.
func assumed(what string, c Card) Card {
	if what != "" {
		c.Why = what + " " + c.Why
	}
	return c
}

// noKeyCard judges a card that rests on the operation's idempotency key
// when the operation has a side effect and no key: the review adds a key
// only to show the boundary one would draw, and no card rests on it. The
// failures a key check can have are at-risk (nothing deduplicates the
// call at all) or not-applicable (there is no stored result, no key to
// reuse); ok false when the call carries a key or has no side effect.
func (r *reviewer) noKeyCard(id string) (Card, bool) {
	o := r.rep.Operation
	if o.IdempotencyKey != "" || !o.SideEffect {
		return Card{}, false
	}
	const none = "The call carries no idempotency key"
	retried := r.rep.Retry.NewID.Finding
	switch id {
	case "check-then-act":
		if run := r.runByID("ledger-race-no-key"); run != nil {
			return r.at(run.ID, fmt.Sprintf("%s, so nothing is checked before the effect: two connections that send it at once both run it (%d execution(s)).", none, run.Trace.Ledger.Executions)), true
		}
		return r.at("retry-new-id", none+", so nothing is checked before the effect: every copy that arrives runs it. "+retried), true
	case "ledger-not-shared":
		return r.at("retry-new-id", none+": no ledger, shared across replicas or not, can tell a retry from a new call. "+retried), true
	case "mutable-stored-result":
		return r.status(NotApplicable, "retry-new-id", none+", so the server stores no result to replay and none can be mutated; the risk is the re-execution card rpc-id-as-dedup shows."), true
	}
	return r.status(NotApplicable, "retry-new-id", none+", so there is none to reuse with changed arguments; the idempotency runs add one only to show the boundary a key would draw."), true
}

// basisRun is the run a card without a deciding run links: the run of the
// part it belongs to, else the cancellation race on the operation's own
// transport and protocol in which the call is sent as configured.
func (r *reviewer) basisRun(id string) *Run {
	var tries []string
	switch id {
	case "unbounded-progress-queue", "final-dropped":
		tries = []string{"buffer-overload"}
	case "proxy-buffers-sse", "proxy-idle-close-unhandled", "call-lost-to-idle-close":
		tries = []string{"progress-through-proxy", "sse-quiet"}
	case "herd-reconnect", "lockstep-backoff", "constant-retry-loop":
		tries = []string{"herd"}
	case "last-event-id-assumed", "forget-resume-token", "replay-other-streams", "skip-refetch":
		tries = []string{"reconnect"}
	case "resume-without-last-event-id", "dropped-call-not-resumed":
		tries = []string{"call-stream-drop", "reconnect"}
	case "progress-resets-every-deadline", "no-maximum-under-progress", "ignore-progress", "notifications-held", "invented-progress-token", "progress-on-wrong-stream", "abandon-silently", "no-timeout":
		tries = progressRuns("silent-server")
	case "cross-wired-response":
		tries = []string{"duplicate-id"}
	case "rpc-id-as-dedup", "check-then-act", "ledger-not-shared", "mutable-stored-result", "key-reuse-changed-args":
		tries = []string{"retry-new-id"}
	}
	for _, t := range append(tries, r.ownRace()) {
		if run := r.runByID(t); run != nil {
			return run
		}
	}
	return nil
}

// ownRace is the cancel-first race on the operation's own transport and
// protocol.
func (r *reviewer) ownRace() string {
	switch {
	case r.s.Transport != scenario.TransportHTTP:
		return "race-stdio-cancel-first"
	case r.s.Protocol == scenario.Protocol20251125:
		return "race-http-2025-cancel-first"
	}
	return "race-http-2026-cancel-first"
}

// refusal says why the server refuses the operation before its handler
// runs, "" when it serves it: under 2026-07-28 a tools/call whose headers
// disagree with its body is refused with HeaderMismatch (-32020), and one
// that names a revision the server does not implement with
// UnsupportedProtocolVersion (-32022) (2026-07-28 Streamable HTTP,
// "Server Validation"); and under 2025-11-25 a server that applies
// notifications/initialized late rejects a call that arrives with it.
// A failure of a call at work (a cancellation,
// progress, a resumption) cannot happen to a call that never runs.
func (r *reviewer) refusal() string {
	s, o := r.s, r.rep.Operation
	if s.Server.Policy.AsyncInitialized && s.Protocol == scenario.Protocol20251125 && r.op.At == 0 {
		return "server.policy.asyncInitialized is true and the call is sent as the session opens: it reaches the server with notifications/initialized, which the server has not applied yet, and is rejected (\"Server not initialized\") before its handler runs"
	}
	if s.Protocol != scenario.Protocol20260728 || o.Method != "tools/call" {
		return ""
	}
	p := s.Client.Policy
	if p.HeaderMismatch != "" && s.Transport == scenario.TransportHTTP {
		return fmt.Sprintf("client.policy.headerMismatch is %q: the server refuses the call with HTTP 400 and HeaderMismatch (-32020) before its handler runs", p.HeaderMismatch)
	}
	if p.ClaimProtocolVersion != "" && p.ClaimProtocolVersion != s.Protocol {
		return fmt.Sprintf("client.policy.claimProtocolVersion is %q, a revision the server does not implement: it refuses the call with UnsupportedProtocolVersion (-32022) before its handler runs", p.ClaimProtocolVersion)
	}
	return ""
}

// ledgerCard are the cards a run on the ledger decides.
var ledgerCard = map[string]bool{"rpc-id-as-dedup": true, "check-then-act": true, "ledger-not-shared": true, "mutable-stored-result": true, "key-reuse-changed-args": true}

// assumeLedger lets the review run a keyed call of a ledger tool with a
// side effect on the lab's default ledger ("ledger": {}: one replica, one
// durable SQLite database, deduplicated by key) when the scenario
// configures none, so the key's cards are decided on the lab's correct
// ledger rather than left open; each says so, since the user's ledger may
// differ. A call without a key needs no ledger to be judged: nothing
// deduplicates it (noKeyCard).
func (r *reviewer) assumeLedger() {
	o := r.rep.Operation
	if r.s.Ledger != nil || !o.LedgerTool || !o.SideEffect || o.IdempotencyKey == "" {
		return
	}
	s := *r.s
	s.Ledger = &scenario.Ledger{Replicas: 1, Shared: true}
	r.s = &s
	r.ledgerAssumed = "Assumed: the scenario configures no ledger, so these runs use the lab's default (\"ledger\": {}: one replica, one durable SQLite database that deduplicates by the key), a correct ledger; set ledger to your server's to judge it instead."
}
