package templates

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
)

// TestVerdict: the headline of a run says the story's point in domain words
// and is coloured by the story, not by the last request.
// The flagship (DOMAIN.md §4: a retry with a new JSON-RPC id runs the
// effect again) is a failure even though both requests completed; C's
// maximum of 2,000 ms is enforced, but ticking "Progress resets the maximum
// timeout" (DOMAIN.md §11) lets the request outlive it, a failure the switch
// asks for; every broken-* scenario's failure is intended. A race's
// headline is its outcome (A's Try-it announces "completion wins").
// A lockstep herd that all got back fails herd-jittered (SCENARIO.md), and
// its detail says so with the wave's numbers.
func TestVerdict(t *testing.T) {
	tests := []struct {
		name  string
		edits [][2]string
		key   string
		text  string
	}{
		{"flagship-retry-charges-twice", nil, "intended", "charged twice: 2 executions for one intent"},
		{"flagship-with-idempotency-key", nil, "good", "charged once: 1 execution for every retry"},
		{"a-cancel-then-complete", nil, "good", "cancellation wins: no response"},
		// A's Try-it (the cancel 100 ms past the completion) flips the
		// outcome; the cancel step then has nothing to cancel, so the
		// headline says the step could not happen (SCENARIO.md, honest
		// time), and the story moves to the detail (TestSkippedHeadline).
		{"a-cancel-then-complete", [][2]string{{"steps[2].at", "420"}}, "good", "1 scripted step could not happen: request 7 is already answered at the client: there is nothing to cancel"},
		{"c-progress-then-maximum", nil, "good", "the maximum timeout cut the request at 2,000 ms"},
		// A good lesson the reader broke: the failure is not the page's
		// ("what went wrong", not "the failure this page shows").
		{"c-progress-then-maximum", [][2]string{{"client.policy.progressResetsMax", "true"}}, "bad", "the request outlived its 2,000 ms maximum"},
		{"herd-no-backoff", nil, "intended", "the herd never fully recovers: 4,000 of 10,000 clients gave up"},
		// every client got back, in lockstep waves; the headline says
		// the waves, not "never recovers".
		{"broken-herd-exponential-lockstep", nil, "intended", "the herd retries in synchronized waves: 10,000 reconnects in one 100 ms burst, against 2,000 a second"},
		// Exponential without jitter is a known-broken switch, like none;
		// switched on a good page, it is the reader's failure, not the page's.
		{"herd-reference-backoff", [][2]string{{"herd.strategy", `"exponential"`}}, "bad", "the herd retries in synchronized waves: 10,000 reconnects in one 100 ms burst, against 2,000 a second"},
		{"herd-reference-backoff", nil, "good", "all 10,000 clients reconnected by 7,518 ms"},
	}
	for _, tt := range tests {
		v := NewView(runEdited(t, tt.name, tt.edits...))
		if v.Verdict.Key != tt.key || v.Verdict.Text != tt.text {
			t.Errorf("%s %v: verdict %s %q, want %s %q", tt.name, tt.edits, v.Verdict.Key, v.Verdict.Text, tt.key, tt.text)
		}
	}
	v := NewView(runEdited(t, "broken-herd-exponential-lockstep")).Verdict
	if v.Rule != "herd-jittered" || !strings.Contains(v.Detail, "10,000 reconnects arrived in the one 100 ms bucket at 200 ms") || !strings.Contains(v.Detail, "All 10,000 clients got back in the end") {
		t.Errorf("broken-herd-exponential-lockstep: rule %s, detail %q; want herd-jittered and the wave's numbers", v.Rule, v.Detail)
	}
	for _, ex := range examples.All() {
		v := NewView(examplestest.RunExample(t, ex))
		if ex.Name[:min(7, len(ex.Name))] == "broken-" && v.Verdict.Key != "intended" {
			t.Errorf("%s: a broken-* scenario's failure is intended; verdict %s %q", ex.Name, v.Verdict.Key, v.Verdict.Text)
		}
		if v.Fail == 0 && v.Verdict.Key != "good" {
			t.Errorf("%s: no check fails but the verdict is %s", ex.Name, v.Verdict.Key)
		}
	}
}

// TestOutcomeCardAgreesWithClient: a card is green (the result colour of
// "completed" or "completion wins") only when every request it stands for
// gave the client its result (a card must agree with what the
// client actually got; abandoned, error and timed out are not successes).
// Before, the flagship's request 41 (timed out, abandoned) and the fatal
// late response's requests 1 and 2 (abandoned, error) were green.
func TestOutcomeCardAgreesWithClient(t *testing.T) {
	green := map[string]bool{"outcome-completed": true, "outcome-completion-wins": true}
	for _, ex := range examples.All() {
		v := NewView(examplestest.RunExample(t, ex))
		for _, c := range v.Cards {
			for _, r := range v.Requests {
				if r.Outcome.Key != c.Key || !green[c.Class()] || r.ClientOutcome == "" {
					continue
				}
				if r.ClientOutcome != trace.OutcomeResult {
					t.Errorf("%s: card %q %q is green, but request %s's client outcome is %s", ex.Name, c.Who, c.Text, r.ID, r.ClientOutcome)
				}
			}
		}
	}
	want := map[string]string{
		"flagship-retry-charges-twice": "Request 41 timed out: completed on the server, abandoned by the client (outcome-failed)",
		"broken-late-response-fatal":   "Request 1 completion wins: completed on the server, abandoned by the client (outcome-cancelled)",
	}
	for name, w := range want {
		c := NewView(runEdited(t, name)).Cards[0]
		if got := c.Who + " " + c.Text + " (" + c.Class() + ")"; got != w {
			t.Errorf("%s: first card %q, want %q", name, got, w)
		}
	}
}

// TestOutcomeCardsSummarizeRepeats: the task page's two tasks/get polls
// (320 and 640 ms, every pollIntervalMs once the second loop after the
// cancel acknowledgement is gone) that both completed are one card, not two
// ; the first card is still the first request's; the
// task's own card comes after the requests'.
func TestOutcomeCardsSummarizeRepeats(t *testing.T) {
	v := NewView(runEdited(t, "task-cancel-ack-not-final"))
	if len(v.Requests) != 4 {
		t.Fatalf("%d requests, want 4", len(v.Requests))
	}
	if len(v.Cards) != 4 {
		t.Fatalf("%d cards, want 4 (tools/call, tasks/get ×2, tasks/cancel, task-42): %+v", len(v.Cards), v.Cards)
	}
	if v.Cards[0].ID != "1" || v.Cards[1].Count != 2 || v.Cards[1].Who != "2 × tasks/get" || v.Cards[3].Task != "task-42" {
		t.Errorf("cards %+v", v.Cards)
	}
}

// TestTaskCardsAndCardIDs: a durable task has a card for its own end
// (DOMAIN.md: tasks/cancel only records an intent; the worker ends the
// task at a checkpoint): "Task task-42" with the worker's last status
// (cancelled at 600 ms on the task page, where the cancel was acknowledged
// at 420 ms; completed at 500 ms when the worker finishes first), coloured
// by it, saying the client asked to cancel and what the client last saw.
// And every card for one request names it in its detail exactly as its
// title does ("Request tasks/cancel-2" in both, not once quoted).
func TestTaskCardsAndCardIDs(t *testing.T) {
	for _, c := range []struct {
		name, key, class, detail string
	}{
		// Under a passing headline the cancelled task's card is neutral,
		// not the cancellation's orange (judgeCards); under the broken
		// page's failing one it keeps it.
		{"task-cancel-ack-not-final", "task-cancelled", "outcome-neutral", "Task task-42 ended cancelled at the worker at 600 ms, after the client asked to cancel it; the client last saw it cancelled"},
		{"task-finishes-before-cancel", "task-completed", "outcome-completed", "Task task-42 ended completed at the worker at 500 ms, after the client asked to cancel it; the client last saw it completed"},
		{"broken-task-ack-as-final", "task-cancelled", "outcome-cancelled", "the client last saw it stopped"},
		// 2025-11-25: tasks/cancel cancels at once (no recorded intent);
		// the card says the client asked, as the 2026 cards do.
		{"task-2025-cancel", "task-cancelled", "outcome-neutral", "Task task-42 ended cancelled at the worker at 410 ms, after the client asked to cancel it; the client last saw it cancelled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := runEdited(t, c.name)
			v := NewView(tr)
			last := v.Cards[len(v.Cards)-1]
			if last.Task != "task-42" || last.Who != "Task task-42" || last.Key != c.key || last.Class() != c.class || !strings.Contains(last.Detail, c.detail) {
				t.Errorf("the task's card is %+v (class %s), want key %s, class %s, detail with %q", last, last.Class(), c.key, c.class, c.detail)
			}
			if want := "task-" + tr.Tasks[0].Status; last.Key != want {
				t.Errorf("the card says %s, the trace's task ended %s", last.Key, tr.Tasks[0].Status)
			}
			html := renderString(t, Output(tr))
			if !strings.Contains(html, `data-outcome="`+c.key+`" data-id="" data-task="task-42"`) {
				t.Errorf("the page has no card with data-task=task-42 and data-outcome=%s", c.key)
			}
		})
	}
	for _, ex := range examples.All() {
		tr := examplestest.RunExample(t, ex)
		v := NewView(tr)
		for _, c := range v.Cards {
			if c.Count == 1 && c.Task == "" && !strings.HasPrefix(c.Detail, c.Who+" ") {
				t.Errorf("%s: the card titled %q says %q: the request is not named alike", ex.Name, c.Who, c.Detail)
			}
		}
		if n := len(tr.Tasks); n > 0 && (len(v.Cards) == 0 || v.Cards[len(v.Cards)-1].Task == "") {
			t.Errorf("%s: %d task(s) and no task card", ex.Name, n)
		}
	}
}

// A task card says "after the client asked to cancel it" only when a
// tasks/cancel reached the server by the time the task ended, under both
// revisions: a worker that finishes the task at 300 ms, before the
// client's first tasks/cancel arrives (410 ms), ended it on its own, and
// the card says nothing of a cancel (2026-07-28 records the late intent
// all the same; 2025-11-25 refuses it).
func TestTaskCardCancelOnlyBeforeTheEnd(t *testing.T) {
	for _, name := range []string{"task-2025-cancel", "task-finishes-before-cancel"} {
		t.Run(name, func(t *testing.T) {
			first := -1
			for i, st := range examplestest.Decode(t, name).Steps {
				if st.Do == scenario.VerbTaskCancel {
					first = i
					break
				}
			}
			if first < 0 {
				t.Fatal("no task-cancel step")
			}
			tr := runEdited(t, name, [2]string{"steps", insertStep(t, name, first, `{"at":300,"do":"finish-task","taskId":"task-42"}`)})
			cards := taskCards(tr)
			if len(cards) != 1 {
				t.Fatalf("%d task cards, want 1", len(cards))
			}
			want := "Task task-42 ended completed at the worker at 300 ms; the client"
			if d := cards[0].Detail; !strings.HasPrefix(d, want) || strings.Contains(d, "asked to cancel") {
				t.Errorf("card %q, want it to begin %q and say nothing of a cancel", d, want)
			}
		})
	}
}

// insertStep returns the steps array of the built-in name with step
// inserted at index i, as JSON.
func insertStep(t *testing.T, name string, i int, step string) string {
	t.Helper()
	var doc struct {
		Steps []json.RawMessage `json:"steps"`
	}
	if err := json.Unmarshal(examplestest.Get(t, name).JSON, &doc); err != nil {
		t.Fatal(err)
	}
	steps := slices.Insert(doc.Steps, i, json.RawMessage(step))
	b, err := json.Marshal(steps)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestVerdictOfImportNeverIntended: a failure in an imported transcript
// (no scenario, real traffic) is never "intended", even for a rule only a
// simulated script can break (only a scenario asks for
// its failure).
func TestVerdictOfImportNeverIntended(t *testing.T) {
	tr := runEdited(t, "stale-progress-ignored")
	tr.Scenario = nil
	if v := newVerdict(tr); v.Key != "bad" || v.Rule != "progress-increases" {
		t.Errorf("imported stale progress: verdict %s (%s), want bad (progress-increases)", v.Key, v.Rule)
	}
}

// TestVerdictDetailCountsUndecided: a passing headline over undecided
// checks (a transcript's usual case) says how many passed and how many are
// undecided, never "All N checks that apply pass" over all of them.
func TestVerdictDetailCountsUndecided(t *testing.T) {
	tr := runEdited(t, "a-cancel-then-complete")
	if len(tr.Checks) < 2 {
		t.Fatalf("scenario A has %d checks", len(tr.Checks))
	}
	tr.Checks[0].OK = nil
	v := newVerdict(tr)
	want := strconv.Itoa(len(tr.Checks)-1) + " checks pass, 1 undecided"
	if v.Key != "good" || !strings.HasPrefix(v.Detail, want) {
		t.Errorf("detail %q, want it to start %q", v.Detail, want)
	}
	if d := newVerdict(runEdited(t, "a-cancel-then-complete")).Detail; !strings.HasPrefix(d, "All ") {
		t.Errorf("all decided: detail %q, want \"All N checks that apply pass.\"", d)
	}
}

// TestVerdictOfOneSidedLogUndecided: a client's own log of a cancellation
// race (engine/transcript/testdata/claude-desktop-race.log) cannot show
// whether the server wrote its response before reading the cancellation
// (no-message-after-cancel is undecided, ok null); its headline says it
// cannot be decided from a one-sided log, with the undecided rule, under
// the neutral key "undecided", never a definite "every check passes"
// . A simulated run with an undecided check keeps its
// definite headline: the simulator saw both sides.
func TestVerdictOfOneSidedLogUndecided(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "engine", "transcript", "testdata", "claude-desktop-race.log"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transcript.Import(data, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	undecided := ""
	for _, c := range tr.Checks {
		if c.OK != nil && !*c.OK {
			t.Fatalf("check %s fails on the client's log; the test wants one that passes or is undecided", c.Rule)
		}
		if c.OK == nil && undecided == "" {
			undecided = string(c.Rule)
		}
	}
	if tr.Source == nil || tr.Source.Side != "client" || undecided == "" {
		t.Fatalf("the log is read as side %+v with undecided check %q; the test wants a client's log with one", tr.Source, undecided)
	}
	v := newVerdict(tr)
	if v.Key != "undecided" || v.Rule != undecided || !strings.HasPrefix(v.Text, "cannot be decided from a one-sided log") || !strings.Contains(v.Detail, undecided) {
		t.Errorf("verdict %+v, want key undecided, rule %s, a headline saying it cannot be decided from a one-sided log", v, undecided)
	}
	var b strings.Builder
	if err := outputHeadline(View{Verdict: v}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `class="verdict verdict-undecided"`) {
		t.Errorf("the headline renders %.300q, want the neutral class verdict-undecided", b.String())
	}

	sim := runEdited(t, "a-cancel-then-complete")
	sim.Checks[0].OK = nil
	if v := newVerdict(sim); v.Key != "good" {
		t.Errorf("a simulated run with an undecided check: verdict %s, want good (the simulator saw both sides)", v.Key)
	}
}

// TestEveryRuleHasAHeadline: a failing check is headlined in domain words,
// never as its bare rule id ("late-response-ignored fails" on the fatal
// late response's page). Every rule id engine/checks describes
// (checks.Rules) gets a headline without its id, and no built-in's
// verdict names a rule id.
func TestEveryRuleHasAHeadline(t *testing.T) {
	rules := []trace.RuleID{checks.MessageValid} // described by checks/schema
	for _, r := range checks.Rules {
		rules = append(rules, r.ID)
	}
	if len(rules) < 35 {
		t.Fatalf("read %d rule ids from checks.Rules, want its whole list (35 or more): %v", len(rules), rules)
	}
	for _, rule := range rules {
		h := failureText(&trace.Trace{}, trace.Check{Rule: rule, Detail: "Something the check saw."})
		if h == "" || strings.Contains(h, string(rule)) || h == "Something the check saw" {
			t.Errorf("rule %s: headline %q, want domain words of its own", rule, h)
		}
	}
	for _, ex := range examples.All() {
		v := NewView(examplestest.RunExample(t, ex))
		for _, rule := range rules {
			if strings.Contains(v.Verdict.Text, string(rule)) {
				t.Errorf("%s: headline %q names the rule id %s", ex.Name, v.Verdict.Text, rule)
			}
		}
	}
	want := map[string]string{
		"broken-late-response-fatal": "the client tore down its session over a late response: calls in flight failed",
		"broken-late-progress-fatal": "the client tore down its session over a late message: calls in flight failed",
	}
	for name, w := range want {
		if got := NewView(runEdited(t, name)).Verdict.Text; got != w {
			t.Errorf("%s: headline %q, want %q", name, got, w)
		}
	}
}

// Rule (DOMAIN.md §4): no-unsafe-retry fails on the unsafe retry
// itself, but the headline says "charged twice" only when the effect ran
// more than once: the flagship with its first attempt cancelled before it
// committed ran it once, and its headline must not say otherwise.
func TestUnsafeRetryHeadlineCountsExecutions(t *testing.T) {
	ok := false
	c := trace.Check{Rule: "no-unsafe-retry", OK: &ok}
	for _, tc := range []struct {
		executions int
		twice      bool
	}{{2, true}, {1, false}, {0, false}} {
		tr := &trace.Trace{Ledger: trace.Ledger{Executions: tc.executions}}
		got := failureText(tr, c)
		if strings.Contains(got, "twice") != tc.twice {
			t.Errorf("with %d executions the headline says %q; it should say \"twice\": %v", tc.executions, got, tc.twice)
		}
	}
}

// TestVerdictWhenNoCheckApplies (a call that is never answered showed
// the green "every check passes" beside "Checks: 0 pass, 0 fail, 0
// undecided"): a run no check applies to claims no pass; its headline
// says no check applies, under the neutral key "none" (the undecided
// colour), and its detail that nothing was judged.
func TestVerdictWhenNoCheckApplies(t *testing.T) {
	tr := examplestest.RunExample(t, examples.Example{Name: "one-call", JSON: []byte(`{"mcplab":1,"protocol":"2026-07-28","transport":"stdio","steps":[{"at":0,"do":"call","id":1,"name":"x"}]}`)})
	if len(tr.Checks) != 0 {
		t.Fatalf("the run has %d checks; the test wants one no check applies to", len(tr.Checks))
	}
	v := newVerdict(tr)
	if v.Key != "none" || v.Text != "no check applies to this run" || !strings.Contains(v.Detail, "nothing in it is judged") {
		t.Errorf("verdict %+v, want key none, \"no check applies to this run\", a detail saying nothing is judged", v)
	}
	var b strings.Builder
	if err := outputHeadline(View{Verdict: v}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `class="verdict verdict-none"`) || strings.Contains(b.String(), "every check passes") {
		t.Errorf("the headline renders %.300q, want the neutral class verdict-none and no claim that checks pass", b.String())
	}
}

// TestServerLogCannotSayTheClientNeverGotIt (the import page's Go SDK
// example, the server's own log, headlined request 1 "completed on the
// server, never reached the client"): a one-sided server log cannot see
// the client, so a request it shows completed, with no receipt seen, is
// "completed on the server; this log cannot show whether the client got
// it", in the neutral colour, never "never reached the client".
func TestServerLogCannotSayTheClientNeverGotIt(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "site", "internal", "build", "transcripts", "go-sdk-v1.8.0-cancel-server.log"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transcript.Import(data, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source == nil || tr.Source.Side != string(trace.ActorServer) {
		t.Fatalf("the example is read as %+v; the test wants the server's own log", tr.Source)
	}
	v := NewView(tr)
	unseen := 0
	for _, o := range v.Outcomes {
		if o.Key == "never-delivered" || strings.Contains(o.Text, "never reached the client") {
			t.Errorf("request %s: outcome %q (%s), which a server's own log cannot show", o.ID, o.Text, o.Key)
		}
		if o.Key == "completed-unseen" {
			unseen++
			if o.Class() != "outcome-completed-unseen" || !strings.Contains(o.Detail, "not in this log") {
				t.Errorf("request %s: class %s, detail %q; want the neutral class and a detail saying the client is not in this log", o.ID, o.Class(), o.Detail)
			}
		}
	}
	if unseen == 0 {
		t.Errorf("no request reads completed-unseen; outcomes %+v", v.Outcomes)
	}
}

// TestSkippedHeadline: a run whose script asked for steps that could not
// happen says so in its headline (SCENARIO.md, honest time): how many, in
// the singular or the plural with thousands separated, and the first
// one's reason in a headline's lower case without its full stop. A
// passing headline becomes that sentence and keeps its story in the
// detail; a failing one keeps its failure and says the skipped steps
// under it; a run with no skipped step says nothing of the kind.
func TestSkippedHeadline(t *testing.T) {
	const (
		notReached = "Request 1 has not reached the server yet: the server cannot complete it."
		neverSent  = "request 3-r1 was never sent (its own retry could not happen), so nothing can act on it."
		noLedger   = "steps[4]: reset-ledger needs the scenario's ledger, and it has none; step skipped."
	)
	pass, fail := true, false
	skips := func(n int, first string) []trace.Skip {
		out := make([]trace.Skip, n)
		for i := range out {
			out[i] = trace.Skip{Step: i, Reason: "Request 9 is already completed at the client: there is nothing to cancel."}
		}
		if n > 0 {
			out[0].Reason = first
		}
		return out
	}
	completionWins := []trace.Request{{ID: scenario.NewIntID(7), Outcome: trace.OutcomeCompletionWins}}
	tests := []struct {
		name     string
		skipped  []trace.Skip
		ok       *bool // the one check's result; nil: no check applies
		requests []trace.Request
		key      string
		text     string
		skipLine string
		detail   string
	}{
		{"one step, singular, its reason lower-cased", skips(1, notReached), &pass, nil,
			"good", "1 scripted step could not happen: request 1 has not reached the server yet: the server cannot complete it", "",
			"The one check that applies passes."},
		{"two steps, plural, the first one's reason", skips(2, notReached), &pass, nil,
			"good", "2 scripted steps could not happen: request 1 has not reached the server yet: the server cannot complete it", "",
			"The one check that applies passes."},
		{"thousands separated", skips(1234, neverSent), &pass, nil,
			"good", "1,234 scripted steps could not happen: request 3-r1 was never sent (its own retry could not happen), so nothing can act on it", "",
			"The one check that applies passes."},
		{"a located reason keeps its path", skips(1, noLedger), &pass, nil,
			"good", "1 scripted step could not happen: steps[4]: reset-ledger needs the scenario's ledger, and it has none; step skipped", "",
			"The one check that applies passes."},
		{"the story moves to the detail", skips(1, notReached), &pass, completionWins,
			"good", "1 scripted step could not happen: request 1 has not reached the server yet: the server cannot complete it", "",
			"Completion wins: the answer came before the client cancelled. The one check that applies passes."},
		{"no check applies", skips(3, notReached), nil, nil,
			"none", "3 scripted steps could not happen: request 1 has not reached the server yet: the server cannot complete it", "",
			"No rule applied to this run, so nothing in it is judged."},
		{"a failure keeps its headline", skips(2, neverSent), &fail, nil,
			"bad", ruleHeadlines["request-has-timeout"], "2 scripted steps could not happen: request 3-r1 was never sent (its own retry could not happen), so nothing can act on it",
			"the call has no timeout"},
		{"no skipped step", nil, &pass, completionWins,
			"good", "completion wins: the answer came before the client cancelled", "",
			"The one check that applies passes."},
	}
	for _, tt := range tests {
		tr := &trace.Trace{Scenario: &scenario.Scenario{}, Requests: tt.requests, Skipped: tt.skipped}
		if tt.ok != nil {
			tr.Checks = []trace.Check{{Rule: "request-has-timeout", OK: tt.ok, Detail: "the call has no timeout"}}
		}
		v := newVerdict(tr)
		if v.Key != tt.key || v.Text != tt.text || v.Skipped != tt.skipLine || v.Detail != tt.detail {
			t.Errorf("%s:\n got %s %q, skipped %q, detail %q\nwant %s %q, skipped %q, detail %q", tt.name, v.Key, v.Text, v.Skipped, v.Detail, tt.key, tt.text, tt.skipLine, tt.detail)
		}
	}
}

// Rule (DOMAIN.md §1, no-message-after-cancel): the headline names what
// followed the cancellation: an answer when a cited event is a result or
// an error, progress when only progress notifications followed (an
// import of a server that kept reporting progress but never answered was
// headlined "answered after cancelling" over a card saying it sent no
// response).
func TestNoMessageAfterCancelHeadlineNamesWhatFollowed(t *testing.T) {
	progress := json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":2}}`)
	result := json.RawMessage(`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`)
	no := false
	for _, tc := range []struct {
		name   string
		events []trace.Event
		cited  []int
		want   string
	}{
		{"only progress", []trace.Event{{Seq: 4, Message: progress}, {Seq: 5, Message: progress}}, []int{4, 5}, "kept sending progress after cancelling"},
		{"a result", []trace.Event{{Seq: 4, Message: progress}, {Seq: 5, Message: result}}, []int{4, 5}, "answered after cancelling"},
		{"nothing cited", nil, nil, "answered after cancelling"},
	} {
		tr := &trace.Trace{Events: tc.events}
		got := failureText(tr, trace.Check{Rule: "no-message-after-cancel", OK: &no, Events: tc.cited})
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want it to start %q", tc.name, got, tc.want)
		}
	}
}
