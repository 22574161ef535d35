package templates

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// verdict is the headline of a run: the point of its story in domain words
// ("charged twice: 2 executions for one intent"), coloured by whether the
// story went right, not by the state of the last request.
type verdict struct {
	// Key is "good" (every check passes), "bad" (a check fails and nothing
	// in the scenario asked for it), "intended" (a check fails and the
	// scenario asked for it: a known-broken switch is on, it is titled
	// "Broken", or the failing rule is one only its script can break) or
	// "undecided" (an imported transcript where no check fails but one
	// cannot be decided from what the log shows: the story may have gone
	// either way, so the headline says so, in a neutral colour) or "none"
	// (no check applies to the run: nothing is judged, so the headline
	// claims no pass, in the same neutral colour).
	Key string
	// Text is the headline, e.g. "cancellation wins: no response".
	Text string
	// Detail is one sentence under it: the failing check's own words, or
	// what the trace shows when everything passes.
	Detail string
	// Rule is the first failing check's rule, "" when none fails.
	Rule string
	// Edited says, when the scenario's title names an outcome or a charge
	// the run on screen contradicts (an edit moved it), that the title is
	// the original's and what this run shows instead; "" otherwise.
	Edited string
	// Where is the transport and protocol the run used ("stdio, protocol
	// 2026-07-28"), "" for an imported transcript or a run with no message
	// on the wire (a pure herd experiment).
	Where string
	// Skipped says how many scripted steps could not happen and the first
	// one's reason (skippedText), under a headline that names a failure or
	// an undecided check; "" when no step was skipped, and under a
	// passing headline, whose Text is that sentence itself.
	Skipped string
}

// Intended reports a failure the scenario shows on purpose.
func (v verdict) Intended() bool { return v.Key == "intended" }

// Label is the small caption above the headline.
func (v verdict) Label() string {
	switch v.Key {
	case "intended":
		return "The failure this page shows"
	case "bad":
		return "What went wrong"
	case "undecided":
		return "What the log cannot show"
	}
	return "What happened"
}

// scriptedRules are the rules only a scenario's own script can break (the
// simulated server sends what the steps say), so their failure is the
// scenario's point, not a surprise.
var scriptedRules = map[trace.RuleID]bool{
	checks.ProgressIncreases:         true,
	checks.ServerCancelOnlyForListen: true,
	// The simulated server sends progress after its final only when a
	// step says so; the client's reaction is the story.
	checks.NoProgressAfterFinal: true,
	// A retry step with a new JSON-RPC id is the script's own choice.
	checks.NoUnsafeRetry: true,
}

// newVerdict reads the verdict of a trace from its checks and requests.
//
// The failing check it names is the first one whose rule a script cannot
// break on its own (the consequence: a stuck request kept alive), else the
// first failing check (the cause: the stuck server's repeated progress).
func newVerdict(tr *trace.Trace) verdict {
	v := judge(tr)
	if s := tr.Scenario; s != nil && s.Transport != "" && len(tr.Events) > 0 {
		v.Where = transportLabel(s.Transport) + ", protocol " + s.Protocol
	}
	if claim := staleTitleClaim(tr); claim != "" {
		v.Edited = "Edited: the title's “" + claim + "” is the original run's; this run shows " + v.Text + "."
	}
	if len(tr.Skipped) > 0 {
		// Honest time (SCENARIO.md): a run whose script asked for what
		// could not happen never passes unqualified. A passing headline
		// becomes the skipped steps, its story the detail; a failing or
		// undecided one keeps its words and says them under it.
		v.Skipped = skippedText(tr.Skipped)
		if v.Key == "good" || v.Key == "none" {
			if v.Text != everyCheckPasses && v.Text != noCheckApplies {
				v.Detail = strings.ToUpper(v.Text[:1]) + v.Text[1:] + ". " + v.Detail
			}
			v.Text, v.Skipped = v.Skipped, ""
		}
	}
	return v
}

// skippedText says how many scripted steps could not happen and why the
// first could not, in a headline's lower case: "2 scripted steps could
// not happen: request 1 has not reached the server yet: …".
func skippedText(skipped []trace.Skip) string {
	n := len(skipped)
	s := trace.Thousands(int64(n)) + " scripted steps could not happen"
	if n == 1 {
		s = "1 scripted step could not happen"
	}
	why := strings.TrimSuffix(skipped[0].Reason, ".")
	if len(why) > 1 && why[0] >= 'A' && why[0] <= 'Z' && why[1] >= 'a' && why[1] <= 'z' {
		why = strings.ToLower(why[:1]) + why[1:]
	}
	if why == "" {
		return s
	}
	return s + ": " + why
}

// staleTitleClaim is what the scenario's title claims that its run
// contradicts, in the title's words, "" when nothing: an outcome ("cancellation
// wins", "completion wins") no request of the run has, or a charge
// ("charges once", "charges twice") the ledger's executions contradict. An
// edit moves the run and keeps the title, so the page says the title is the
// original's.
func staleTitleClaim(tr *trace.Trace) string {
	if tr.Scenario == nil {
		return ""
	}
	title := strings.ToLower(tr.Scenario.Title)
	has := func(o trace.Outcome) bool {
		for _, r := range tr.Requests {
			if r.Outcome == o {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		words string
		o     trace.Outcome
	}{{"cancellation wins", trace.OutcomeCancellationWins}, {"completion wins", trace.OutcomeCompletionWins}} {
		if strings.Contains(title, c.words) && !has(c.o) {
			return c.words
		}
	}
	n := tr.Ledger.Executions
	for _, w := range []string{"charges once", "charged once"} {
		if strings.Contains(title, w) && n > 1 {
			return w
		}
	}
	for _, w := range []string{"charges twice", "charged twice"} {
		if strings.Contains(title, w) && n < 2 {
			return w
		}
	}
	return ""
}

// judge is newVerdict without Where.
func judge(tr *trace.Trace) verdict {
	var failed []trace.Check
	for _, c := range tr.Checks {
		if c.OK != nil && !*c.OK {
			failed = append(failed, c)
		}
	}
	slices.SortStableFunc(failed, func(a, b trace.Check) int {
		return cmpBool(scriptedRules[a.Rule], scriptedRules[b.Rule])
	})
	for _, c := range failed {
		v := verdict{Key: "bad", Rule: string(c.Rule), Text: failureText(tr, c), Detail: checkDetail(tr, c)}
		if intendedFailure(tr.Scenario, c.Rule) {
			v.Key = "intended"
		}
		return v
	}
	if tr.Scenario == nil {
		// An imported transcript: a check it cannot decide may be the one
		// that fails, so "every check passes" would claim what the log
		// does not show.
		for _, c := range tr.Checks {
			if c.OK == nil {
				return verdict{Key: "undecided", Rule: string(c.Rule), Text: undecidedText(tr), Detail: string(c.Rule) + ": " + checkDetail(tr, c) + " " + successDetail(tr)}
			}
		}
	}
	if len(tr.Checks) == 0 {
		// No rule applied: nothing was judged, so the headline tells the
		// story in a neutral colour and claims no pass.
		text := successText(tr)
		if text == everyCheckPasses {
			text = noCheckApplies
		}
		return verdict{Key: "none", Text: text, Detail: successDetail(tr)}
	}
	return verdict{Key: "good", Text: successText(tr), Detail: successDetail(tr)}
}

// everyCheckPasses is successText's headline when the run has no story of
// its own to tell.
const everyCheckPasses = "every check passes"

// noCheckApplies is the headline of a run no rule judged and that has no
// story of its own to tell.
const noCheckApplies = "no check applies to this run"

// undecidedText is the headline of a transcript whose checks cannot all
// be decided: a one-sided log (a client's or a server's own) lacks the
// other side's view; any other transcript lacks timing or context.
func undecidedText(tr *trace.Trace) string {
	if src := tr.Source; src != nil && src.Side != "" {
		return "cannot be decided from a one-sided log: the " + src.Side + "'s view alone"
	}
	return "cannot be decided from this transcript"
}

// intendedFailure reports whether the scenario asked for a failure of rule.
// A titled scenario asks by its title: "Broken …", or one of
// failureStories, the built-ins whose failure is their story; a good
// lesson a reader broke (a broken switch turned on, a step moved) keeps
// its title and asks for nothing, so its failure is not "the failure this
// page shows". An untitled scenario (the reader's own) asks by what it
// does: a known-broken switch is on, or the rule is one only its script
// breaks. An imported transcript (no scenario) never asks for one.
func intendedFailure(s *scenario.Scenario, rule trace.RuleID) bool {
	if s == nil {
		// An imported transcript: real traffic asks for no failure.
		return false
	}
	if s.Title != "" {
		return strings.HasPrefix(s.Title, "Broken") || slices.Contains(failureStories, s.Title)
	}
	return scriptedRules[rule] || len(brokenSwitches(s)) > 0
}

// failureStories are the titles of the built-ins not titled "Broken" whose
// failing check is their story (TestFailureStoriesAreTheFailingBuiltIns
// keeps the list to exactly those).
var failureStories = []string{
	"The flagship story: a retry with a new id charges twice",
	"Late progress is ignored; the session survives",
	"A buffering proxy delivers progress in one burst",
	"A stuck server repeats its progress: the idle timeout still fires",
}

// brokenSwitches lists the known-broken settings that are on in s, by the
// label their control shows (SCENARIO.md: each switch's broken value).
func brokenSwitches(s *scenario.Scenario) []string {
	var out []string
	add := func(on bool, label string) {
		if on {
			out = append(out, label)
		}
	}
	p := s.Client.Policy
	add(p.ProgressResetsMax, "Progress resets the maximum timeout")
	add(p.AcceptNonIncreasingProgress, "Accept non-increasing progress")
	add(p.SendLastEventID && s.Protocol == scenario.Protocol20260728, "Resume with Last-Event-ID")
	add(p.TreatTaskAckAsFinal, "Treat a tasks/cancel ack as final")
	add(p.ForgetResumeToken && s.Protocol == scenario.Protocol20251125, "Forget the resume position")
	add(p.Timeouts == scenario.TimeoutsNone, "Call timeouts: none")
	add(!p.CancelsOnAbandon(), "Cancel when giving up: off")
	add(p.AwaitResponseAfterCancel, "Keep waiting after a cancel")
	add(p.CancelAfterFirstEvent && s.Transport == scenario.TransportHTTP, "Cancel only after the first event")
	add(p.OmitLastEventID && s.Protocol == scenario.Protocol20251125, "Resume without Last-Event-ID")
	add(!p.ResumesDroppedCalls() && s.Protocol == scenario.Protocol20251125, "Resume dropped calls: off")
	add(p.SkipRefetch, "Skip the refetch")
	add(s.Transport == scenario.TransportHTTP && s.Protocol == scenario.Protocol20260728 &&
		p.HTTPCancel == scenario.HTTPCancelPostNotification, "HTTP cancellation: POST notifications/cancelled")
	sp := s.Server.Policy
	add(sp.RespondAfterCancel, "Respond after cancellation")
	add(sp.HandlerIgnoresCancel, "Handler ignores cancellation")
	add(!scenario.On(sp.ReleaseOnCancel), "Release held resources on cancel off")
	add(sp.HoldNotifications, "Hold notifications until the handler returns")
	add(sp.RouteByIDOnly && s.Transport == scenario.TransportHTTP, "Route responses by id only")
	add(sp.ReplayAllStreams && s.Protocol == scenario.Protocol20251125, "Replay every stream's events")
	add(sp.DedupeBy == "rpc-id" || sp.DedupeBy == "none", "Deduplicate ledger calls by "+sp.DedupeBy)
	add(!scenario.On(sp.AtomicLedger), "Atomic ledger off")
	add(!scenario.On(sp.DefensiveCopy), "Defensive copies off")
	add(!scenario.On(sp.Fingerprint), "Argument fingerprints off")
	add(!scenario.On(s.Server.SSEHeaders), "SSE headers off")
	add(s.Ledger != nil && !s.Ledger.Shared && s.Ledger.Replicas > 1, "Replicas do not share one ledger")
	add(s.Buffer != nil && s.Buffer.Policy == "drop-newest", "Full buffer refuses what comes next")
	add(s.Buffer != nil && s.Buffer.Capacity == 0 && s.Consumer != nil, "Unbounded buffer")
	if h := s.Herd; h != nil {
		// Both come back in lockstep (SCENARIO.md: exponential is a
		// failure of the field, bug-ops/zeph#4574).
		add(h.Strategy == scenario.HerdNone || h.Strategy == scenario.HerdExponential, "Backoff strategy "+h.Strategy)
	}
	return out
}

// citesFinal reports whether a check cites a final response (a result or
// an error) among its events, or cites none; a check that cites only
// progress notifications is about progress, not an answer.
func citesFinal(tr *trace.Trace, c trace.Check) bool {
	if len(c.Events) == 0 {
		return true
	}
	for _, e := range tr.Events {
		if !slices.Contains(c.Events, e.Seq) || len(e.Message) == 0 {
			continue
		}
		if m, err := jsonrpc.Parse(e.Message); err == nil && m.IsFinal() {
			return true
		}
	}
	return false
}

// failureText says a failed check in domain words, with the trace's own
// numbers where the rule has one.
func failureText(tr *trace.Trace, c trace.Check) string {
	switch c.Rule {
	case checks.NoUnsafeRetry, checks.OneExecutionPerKey:
		if n := tr.Ledger.Executions; n > 1 {
			return "charged twice: " + strconv.Itoa(n) + " executions for one intent"
		}
		// The rule fails on the retry itself: here the effect ran once
		// (the first attempt never committed), so nothing was charged
		// twice, but an answer that came would have been.
		return "an unsafe retry: without an idempotency key it runs the effect again (here it ran once)"
	case checks.MaxTimeoutEnforced:
		for _, r := range tr.Requests {
			if r.MaxTimeoutMs > 0 && r.EndedAt != nil && *r.EndedAt-r.SentAt > r.MaxTimeoutMs {
				return "the request outlived its " + trace.Thousands(r.MaxTimeoutMs) + " ms maximum"
			}
		}
		return "the request outlived its maximum timeout"
	case checks.IdleTimeoutEnforced:
		return "the request outlived its idle timeout"
	case checks.FinalNeverDropped:
		return "the final response was lost: the client never learns the outcome"
	case checks.BufferWithinCapacity:
		return "the buffer grows without bound behind a slow client"
	case checks.DefensiveCopy:
		return "a replay returned a corrupted result"
	case checks.KeyReuseRejected:
		return "one key, two intents: the second call got the first one's result"
	case checks.HTTPCancelClosesStream:
		return "cancelled the old way: a POST instead of closing the stream"
	case checks.NoLastEventID, checks.ReconnectRefetches:
		return "resumed a stream the server no longer keeps: stale state stays"
	case checks.SSEHeaders:
		return "no SSE headers: the proxy holds the progress back"
	case checks.NoMessageAfterCancel:
		if !citesFinal(tr, c) {
			return "kept sending progress after cancelling: messages the client must ignore"
		}
		return "answered after cancelling: messages the client must ignore"
	case checks.ProgressIncreases:
		for _, r := range tr.Requests {
			if r.Cause != nil && *r.Cause == trace.CauseIdleTimeout {
				return "a stuck server repeats its progress, and the idle timeout still fires"
			}
		}
		return "a stuck server repeats its progress"
	case checks.StaleProgressIgnored:
		return "stale progress keeps a stuck request alive"
	case checks.TaskAckNotTerminal:
		return "reported stopped while the worker runs on"
	case checks.HerdAllReconnect:
		// It fails only when clients gave up (engine/checks).
		if h := tr.Herd; h != nil {
			return "the herd never fully recovers: " + trace.Thousands(int64(h.Exhausted)) + " of " + trace.Thousands(int64(h.Clients)) + " clients gave up"
		}
		return "the herd never fully recovers"
	case checks.HerdJittered:
		// Lockstep (SCENARIO.md: failure lockstep-backoff), whether or not
		// every client got back in the end: each wave arrives at once.
		if h := tr.Herd; h != nil && h.PeakPerBucket > 0 {
			return "the herd retries in synchronized waves: " + trace.Thousands(int64(h.PeakPerBucket)) + " reconnects in one " + trace.Thousands(h.BucketMs) + " ms burst, against " + trace.Thousands(int64(h.CapacityPerSecond)) + " a second"
		}
	case checks.ServerCancelOnlyForListen:
		return "the server cancelled a tool call"
	case checks.LateResponseIgnored:
		if tornDown(tr) {
			return "the client tore down its session over a late response: calls in flight failed"
		}
	}
	if h, ok := ruleHeadlines[c.Rule]; ok {
		return h
	}
	// A rule this file does not know yet: its own words, never its id.
	if d := strings.TrimSuffix(checkDetail(tr, c), "."); d != "" {
		return d
	}
	return "a check fails"
}

// successText says what a run whose checks all pass shows, from its most
// telling summary: the herd, the ledger, then the first request's outcome.
func successText(tr *trace.Trace) string {
	if h := tr.Herd; h != nil && h.AllReconnectedAtMs != nil {
		return "all " + trace.Thousands(int64(h.Clients)) + " clients reconnected by " + trace.Thousands(*h.AllReconnectedAtMs) + " ms"
	}
	retried := false
	for _, r := range tr.Requests {
		retried = retried || r.RetryOf != nil
	}
	if retried && tr.Ledger.Executions > 0 {
		n := tr.Ledger.Executions
		if n == 1 {
			return "charged once: 1 execution for every retry"
		}
		return strconv.Itoa(n) + " executions, one per intent: no retry ran twice"
	}
	if n := tr.Ledger.Executions; n > 0 && len(tr.Requests) > n {
		for _, r := range tr.Requests {
			if r.State == trace.StateFailed {
				return "a reused key with new arguments is rejected: " + strconv.Itoa(n) + " execution"
			}
		}
		return "charged once: " + strconv.Itoa(n) + " execution for " + strconv.Itoa(len(tr.Requests)) + " calls"
	}
	for _, b := range tr.Buffers {
		if b.FinalsDelivered > 0 && b.Coalesced > 0 {
			return "the final response arrives: " + strconv.Itoa(b.Coalesced) + " progress values coalesced, never the final"
		}
	}
	if len(tr.Tasks) > 0 {
		return "the client believes what the worker did"
	}
	if len(tr.Requests) == 0 {
		return everyCheckPasses
	}
	r := tr.Requests[0]
	switch {
	case r.Cause != nil && *r.Cause == trace.CauseMaxTimeout && r.EndedAt != nil:
		return "the maximum timeout cut the request at " + trace.Thousands(*r.EndedAt-r.SentAt) + " ms"
	case r.Cause != nil && *r.Cause == trace.CauseIdleTimeout:
		return "the idle timeout cut the request after the silence"
	case r.Signal != nil && r.State == trace.StateCancelled:
		if len(r.Response) == 0 || string(r.Response) == "null" {
			return "cancellation wins: no response"
		}
		return "cancellation wins"
	case r.Cause != nil && r.State == trace.StateCompleted:
		return "completion wins: the server answered before it learned of the cancel"
	case r.Outcome == trace.OutcomeCompletionWins:
		// The cancel step came after the answer: nothing was sent, and
		// the story (the race) still has its outcome to announce.
		return "completion wins: the answer came before the client cancelled"
	case r.Cause != nil && *r.Cause == trace.CauseDisconnect:
		return "the stream dropped and the client recovered"
	case r.Cause != nil && *r.Cause == trace.CauseServer:
		return "the server ended the stream gracefully"
	}
	if text := resumedText(tr, r); text != "" {
		return text
	}
	return everyCheckPasses
}

// resumedText is the story of a call that completed although the network
// dropped its response stream and the client resumed it (DOMAIN.md: under
// 2025-11-25 a drop is not a cancellation; the client resumes with
// Last-Event-ID): "2 stream drops, no cancellation: the client resumed
// and the call completed", or, for a listen stream still open, "…: the
// client resumed the stream from its last event"; "" for any other run.
func resumedText(tr *trace.Trace, r trace.Request) string {
	end := "the client resumed and the call completed"
	switch r.State {
	case trace.StateCompleted:
	case trace.StateInProgress:
		end = "the client resumed the stream from its last event"
	default:
		return ""
	}
	drops, resumed := 0, false
	for _, e := range tr.Events {
		if e.ID == nil || e.ID.Raw() != r.ID.Raw() {
			continue
		}
		switch {
		case e.Type == trace.TypeCloseStream && e.Actor == trace.ActorNetwork:
			drops++
		case e.Type == trace.TypeReconnect:
			resumed = true
		}
	}
	if drops == 0 || !resumed {
		return ""
	}
	n := "1 stream drop"
	if drops > 1 {
		n = strconv.Itoa(drops) + " stream drops"
	}
	return n + ", no cancellation: " + end
}

// successDetail says how many checks passed, and how many the trace could
// not decide (a transcript's: "All 8 checks that apply pass" over 5 passes
// and 3 undecided claimed what was not shown).
func successDetail(tr *trace.Trace) string {
	n, undecided := len(tr.Checks), 0
	for _, c := range tr.Checks {
		if c.OK == nil {
			undecided++
		}
	}
	if undecided > 0 {
		verb := " checks pass, "
		if n-undecided == 1 {
			verb = " check passes, "
		}
		return strconv.Itoa(n-undecided) + verb + strconv.Itoa(undecided) + " undecided: the trace does not show enough to judge them (the checks table says why)."
	}
	switch n {
	case 0:
		return "No rule applied to this run, so nothing in it is judged."
	case 1:
		return "The one check that applies passes."
	}
	return "All " + strconv.Itoa(n) + " checks that apply pass."
}

// outcomeCard is one card under the verdict: a request's outcome, or the
// outcome shared by a run of requests of one method (repeated polls,
// retries that ended alike), summarized instead of one card each.
type outcomeCard struct {
	outcome
	// Count is how many requests the card stands for (1 for one request).
	Count int
	// Who names them: "Request 7", "3 × tasks/get", "Requests 4, 5" or,
	// on a task's card, "Task task-42".
	Who string
	// Task is the durable task a task card stands for (taskCards), "" on
	// a request's card.
	Task string
}

// groupOutcomes folds the requests into cards: requests with the same
// method and outcome share the card of the first of them, in order of that
// first; the card keeps the first request's id and detail.
func groupOutcomes(rows []requestRow) []outcomeCard {
	var cards []outcomeCard
	at := map[string]int{}
	ids := map[int][]string{}
	for _, r := range rows {
		k := r.Method + "\x00" + r.Outcome.Key
		if i, ok := at[k]; ok {
			cards[i].Count++
			ids[i] = append(ids[i], r.ID)
			continue
		}
		at[k] = len(cards)
		ids[len(cards)] = []string{r.ID}
		cards = append(cards, outcomeCard{outcome: r.Outcome, Count: 1})
	}
	for i := range cards {
		c := &cards[i]
		switch {
		case c.Count == 1:
			c.Who = "Request " + plainID(c.ID)
		case strings.HasPrefix(ids[i][0], `"`):
			// Named ids (tasks/get-1, tasks/get-3): say the method.
			c.Who = strconv.Itoa(c.Count) + " × " + methodOf(rows, c.ID)
			c.Detail = strconv.Itoa(c.Count) + " " + methodOf(rows, c.ID) + " requests, all " + c.Text + "."
		default:
			for j, id := range ids[i] {
				ids[i][j] = plainID(id)
			}
			c.Who = "Requests " + idList(ids[i])
			c.Detail = trace.Thousands(int64(c.Count)) + " requests, all " + c.Text + ". " + c.Detail
		}
	}
	return cards
}

// toneNeutral is the card colour of an outcome the headline's judgement
// neither praises nor blames (app.css .outcome-neutral, grey).
const toneNeutral = "neutral"

// judgeCards colours the cards by the judgement the headline makes, so no
// card contradicts it: under a headline that passes (good, none) a card
// is green for a result the client got and neutral otherwise, never red
// or orange (a cancellation that won, a timeout that cut a silent call:
// the story going right; green stays the colour of a result the client
// got); under a failing one (bad, intended) a
// card that would be green is red when a failing check implicates its
// request or task (names one of its events, or no event at all: the whole
// run) and neutral when none does, never green. An undecided headline
// leaves the cards as their outcomes colour them.
func judgeCards(tr *trace.Trace, v verdict, cards []outcomeCard) {
	passing := v.Key == "good" || v.Key == "none"
	failing := v.Key == "bad" || v.Key == "intended"
	if !passing && !failing {
		return
	}
	var implicated []trace.Event // events the failing checks name
	whole := false
	if failing {
		for _, c := range tr.Checks {
			if c.OK == nil || *c.OK {
				continue
			}
			whole = whole || len(c.Events) == 0
			for _, seq := range c.Events {
				if seq >= 0 && seq < len(tr.Events) {
					implicated = append(implicated, tr.Events[seq])
				}
			}
		}
	}
	names := func(c outcomeCard) bool {
		if whole {
			return true
		}
		for _, e := range implicated {
			if (c.Task != "" && e.TaskID == c.Task) || (c.Task == "" && e.ID != nil && e.ID.String() == c.ID) {
				return true
			}
		}
		return false
	}
	for i := range cards {
		c := &cards[i]
		green := c.Class() == "outcome-completed" || c.Class() == "outcome-completion-wins"
		switch {
		case passing && !green:
			c.Tone = toneNeutral
		case failing && green && names(*c):
			c.Tone = trace.StateFailed
		case failing && green:
			c.Tone = toneNeutral
		}
	}
}

// idList joins ids ("1, 2, 3") or, past maxListedIDs, names the first
// three and the last with the count ("0, 1, 2, … 1999 (2,000)"), so a
// scenario of thousands of calls keeps its outcome card one line (2,000
// ids pushed the timeline down the page).
func idList(ids []string) string {
	if len(ids) <= maxListedIDs {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:3], ", ") + ", … " + ids[len(ids)-1] + " (" + trace.Thousands(int64(len(ids))) + ")"
}

// maxListedIDs is the most request ids an outcome card lists whole.
const maxListedIDs = 6

// methodOf returns the method of the request with id (as JSON text).
func methodOf(rows []requestRow, id string) string {
	for _, r := range rows {
		if r.ID == id {
			return r.Method
		}
	}
	return ""
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// transportLabel names a transport as the controls do: "stdio" or
// "Streamable HTTP".
func transportLabel(t string) string {
	if t == scenario.TransportHTTP {
		return "Streamable HTTP"
	}
	return t
}
