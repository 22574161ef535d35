package mock

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// Situation is one of probe-client's situations (SCENARIO.md, "Live":
// situation names): the server half a fresh mock plays to the client, and
// what it asks of the client.
type Situation struct {
	// Name is the situation's stable name (-situation, MCPLAB_SITUATION).
	Name string
	// Asks says what the situation asks of the client, in a sentence.
	Asks string
	// Scenario is the server half, a scenario (JSON) with server.handlers.
	Scenario string
	// Quirks are the mock's misbehaviours beyond the scenario's switches.
	Quirks Quirks
	// HTTPOnly marks a situation only Streamable HTTP has (a listen
	// stream, a session); Stateful one only 2025-11-25 has (a session);
	// Listen one that asks about the client's listen stream, so a run where
	// the client opened none is undecided, saying so.
	HTTPOnly, Stateful, Listen bool
	// Staged are the rules that judge the misbehaviour the mock commits on
	// purpose: they judge the mock, not the client, and are left out of
	// the client's verdict.
	Staged []trace.RuleID
	// Subject are the rules that answer the situation's question: the
	// client passes only when one of them passes (and no rule fails), so
	// a run that shows nothing of what was asked is undecided.
	Subject []trace.RuleID
}

// giveUp are the rules about a client giving up on a call: its timeouts,
// and telling the server with its transport's and era's signal.
var giveUp = []trace.RuleID{checks.AbandonTellsServer, checks.MaxTimeoutEnforced, checks.IdleTimeoutEnforced,
	checks.ProgressResetsIdle, checks.MaximumBoundsProgress, checks.HTTPCancelPostsNotification,
	checks.HTTPCancelClosesStream, checks.CancelNotBlocked, checks.CallOutcomeKnown}

// reconnect are the rules about a client whose listen stream ended.
var reconnect = []trace.RuleID{checks.ReconnectRefetches, checks.BackoffGrows, checks.RefetchAfterReconnect, checks.NoLastEventID}

// Situations is probe-client's catalogue, in the order it runs them. The
// client's tool is "slow" except in lost-response-mutation
// ("charge_account", a mutation); each handler's timing is short, so a
// situation takes a few seconds at most.
var Situations = []Situation{
	{Name: "slow-progress", Asks: "a slow tool with progress: does the client reset its idle clock on progress, enforce its maximum, and tell the server when it gives up (the signal of its transport and era)?",
		Scenario: `{"mcplab":1,"steps":[],"server":{"handlers":{"slow":{"workMs":1200,"progressEveryMs":100}}}}`,
		Subject:  giveUp},
	{Name: "late-response", Asks: "the response comes after the client's timeout: does the client drop it and keep its session?",
		Scenario: `{"mcplab":1,"steps":[],"server":{"policy":{"handlerIgnoresCancel":true,"respondAfterCancel":true},"handlers":{"slow":{"workMs":1200}}}}`,
		Staged:   []trace.RuleID{checks.NoMessageAfterCancel, checks.WorkStopsAfterCancel},
		Subject:  []trace.RuleID{checks.LateResponseIgnored, checks.LateMessageTolerated}},
	{Name: "progress-after-final", Asks: "a progress notification after the final response: does the client ignore it and keep its session?",
		// The call ends well inside any client's timeout (100 ms of work),
		// so the final comes first and only the progress after it is late.
		Scenario: `{"mcplab":1,"steps":[],"server":{"handlers":{"slow":{"workMs":100,"progressEveryMs":40}}}}`,
		Quirks:   Quirks{ProgressAfterFinal: true},
		Staged:   []trace.RuleID{checks.NoProgressAfterFinal},
		Subject:  []trace.RuleID{checks.LateProgressIgnored, checks.LateMessageTolerated}},
	{Name: "listen-dropped", Asks: "the listen stream breaks and the server refuses the first reconnect (503): does the client reconnect as a new request, with growing backoff, and refetch?",
		Scenario: `{"mcplab":1,"steps":[],"server":{"handlers":{"slow":{"workMs":300,"progressEveryMs":100}}}}`,
		Quirks:   Quirks{DropListenMs: 300, RefuseReconnects: 1}, HTTPOnly: true, Listen: true, Subject: reconnect},
	{Name: "listen-ended", Asks: "the server ends the listen stream cleanly: does the client carry on without treating it as a failure?",
		Scenario: `{"mcplab":1,"steps":[],"server":{"handlers":{"slow":{"workMs":300,"progressEveryMs":100}}}}`,
		Quirks:   Quirks{EndListenMs: 300}, HTTPOnly: true, Listen: true, Subject: reconnect},
	{Name: "session-retired", Asks: "the server retires the session mid-call (2025-11-25): after the 404 does the client initialize again and re-issue the call once?",
		Scenario: `{"mcplab":1,"steps":[],"server":{"handlers":{"slow":{"workMs":300,"progressEveryMs":100}}}}`,
		Quirks:   Quirks{RetireSession: true}, HTTPOnly: true, Stateful: true,
		Subject: []trace.RuleID{checks.SessionRecovered}},
	{Name: "lost-response-mutation", Asks: "an unsafe mutation whose response never comes: does the client refrain from retrying it with a new id?",
		Scenario: `{"mcplab":1,"steps":[],"server":{"handlers":{"charge_account":{"workMs":200}}}}`,
		Quirks:   Quirks{LoseResponse: true, Annotations: json.RawMessage(`{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false}`)},
		Subject:  []trace.RuleID{checks.NoUnsafeRetry, checks.CallOutcomeKnown, checks.AbandonTellsServer}},
}

// SituationNamed is the situation called name (ok false if none is).
func SituationNamed(name string) (Situation, bool) {
	for _, s := range Situations {
		if s.Name == name {
			return s, true
		}
	}
	return Situation{}, false
}
