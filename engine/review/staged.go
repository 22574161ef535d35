package review

import (
	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// A staged run is a derived run with the trigger of one failure put in
// place where the scenario's client switches keep its own runs from the
// rule: the same operation, the same server, the client changed in the one
// switch that hides the trigger. The card that rests on a staged run says
// what it assumed, so it never passes for the scenario's own behaviour.
type staging struct {
	// from is the derived run the staged run copies; id and title name it.
	from, id, title string
	// assumed is the sentence the card adds in front of its why.
	assumed string
	// when reports whether the source run's scenario hides the trigger.
	when func(s *scenario.Scenario) bool
	// stage changes the copy.
	stage func(sc *scenario.Scenario)
}

// stagings are the staged runs a review may derive, each for the cards of
// one rule (stagedFor):
//   - reconnect-without-last-event-id: a 2026-07-28 client that resumes
//     a dropped listen stream with Last-Event-ID never reopens it without
//     one, so refetch-after-reconnect is judged on the same drop with that
//     switch off (DOMAIN.md §9);
//   - race-closed-stream: a 2026-07-28 client that cancels by POSTing
//     notifications/cancelled never closes the stream, so
//     disconnect-stops-work is judged on the cancel-first race with the
//     client closing it, the revision's own signal (DOMAIN.md §1);
//   - deadlines-unbuffered: progress a buffering proxy holds never reaches
//     the client, so progress-resets-idle is judged on the deadline run
//     with the proxy passing events through (DOMAIN.md §2, §8).
var stagings = map[trace.RuleID]staging{
	checks.RefetchAfterReconnect: {from: "reconnect", id: "reconnect-without-last-event-id",
		title:   "A listen stream drops while the call is in flight; the client reopens it without Last-Event-ID",
		assumed: "Staged: client.policy.sendLastEventId is true, so this client never reopens a listen stream without Last-Event-ID (card last-event-id-assumed is that risk); this run turns it off to see what the client refetches once it does.",
		when: func(s *scenario.Scenario) bool {
			return s.Protocol == scenario.Protocol20260728 && s.Client.Policy.SendLastEventID
		},
		stage: func(sc *scenario.Scenario) { sc.Client.Policy.SendLastEventID = false }},
	checks.DisconnectStopsWork: {from: "race-http-2026-cancel-first", id: "race-closed-stream",
		title:   "Cancel-first race on Streamable HTTP, 2026-07-28, the client closing the call's stream",
		assumed: "Staged: client.policy.httpCancel is post-notification, so this client never closes the call's stream to cancel (card http-client-posts-cancel is that risk); this run closes it, as 2026-07-28 asks, to see whether the server stops.",
		when: func(s *scenario.Scenario) bool {
			return s.Transport == scenario.TransportHTTP && s.Client.Policy.HTTPCancel != scenario.HTTPCancelCloseStream
		},
		stage: func(sc *scenario.Scenario) { sc.Client.Policy.HTTPCancel = scenario.HTTPCancelCloseStream }},
	checks.ProgressResetsIdle: {from: "deadlines", id: "deadlines-unbuffered",
		title:   "The deadline run with the proxy passing events through",
		assumed: "Staged: the proxy buffers the call's stream, so no progress reaches this client before its idle timeout (card proxy-buffers-sse is that risk); this run passes events through to see whether progress resets the client's idle clock.",
		when:    func(s *scenario.Scenario) bool { return s.Proxy != nil && s.Proxy.Buffering },
		stage:   func(sc *scenario.Scenario) { sc.Proxy.Buffering = false }},
}

// stagedRules are the keys of stagings in the order the runs are made.
var stagedRules = []trace.RuleID{checks.RefetchAfterReconnect, checks.DisconnectStopsWork, checks.ProgressResetsIdle}

// staged derives each staged run whose source run the review made, does
// not decide the rule and hides the trigger.
func (r *reviewer) staged() error {
	for _, rule := range stagedRules {
		st := stagings[rule]
		from := r.runByID(st.from)
		if from == nil {
			continue
		}
		if _, present := failed(verdicts(from.Trace, rule)); present {
			continue // the run already decides the rule
		}
		sc, err := scenario.Decode(from.Scenario)
		if err != nil {
			return err
		}
		if !st.when(sc) {
			continue
		}
		st.stage(sc)
		if _, err := r.run(st.id, st.title, *sc); err != nil {
			return err
		}
	}
	return nil
}

// stagedFor judges c, a card left not-evaluated by rule, on the staged run
// of rule when the review made one: the card says what the run assumed.
// c is returned unchanged otherwise.
func (r *reviewer) stagedFor(c Card, rule trace.RuleID) Card {
	st, ok := stagings[rule]
	if c.Status != NotEvaluated || !ok || r.runByID(st.id) == nil {
		return c
	}
	d := r.byRule(c.Why, []string{st.id}, rule)
	if d.Status == NotEvaluated {
		return c
	}
	return assumed(st.assumed, d)
}
