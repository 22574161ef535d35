package review_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"
)

// ledgerCards are the failure cards only a run on the ledger can judge.
var ledgerCards = []string{"check-then-act", "ledger-not-shared", "mutable-stored-result", "key-reuse-changed-args"}

// TestEveryCardRestsOnARun: every failure card links a derived run of the
// review (review.Card), and a keyed charge whose scenario configures no
// ledger is judged on the lab's default ledger, each ledger card saying
// so. A card never rests on the key the review adds to
// a call that has none: the four cards of a key check are at-risk (nothing
// deduplicates the call) or not-applicable (no stored result, no key to
// reuse). Where the scenario leaves out the buffer or the herd, the cards
// rest on a run of the format's default, and say so (DOMAIN.md §4, §7,
// §10; review.NotEvaluated's rule):
//   - a keyed charge without "ledger": the ledger cards mitigated on the
//     assumed default ledger, saying so;
//   - the same charge with "ledger": {}: mitigated;
//   - the flagship without a key: check-then-act and ledger-not-shared
//     at-risk, mutable-stored-result and key-reuse-changed-args
//     not-applicable, none on a run with the added key;
//   - a read (no side effect): not-applicable; the herd cards on the
//     default herd, mitigated; the task card not-applicable;
//   - an e-mail sent without a key: at-risk as well;
//   - Streamable HTTP without a buffer, 2025: the buffer cards on the
//     default buffer; the resumption cards on the call-stream-drop run.
func TestEveryCardRestsOnARun(t *testing.T) {
	keyed := map[string]bool{"ledger-race": true, "ledger-mismatch": true, "ledger-mutation-alias": true, "ledger-reopen": true, "retry-same-key": true}
	for _, tc := range []struct {
		name, data, idem string
		cards            map[string]string
		says             map[string]string // card id: words its why has
	}{
		{"charge without a ledger", doc(timeouts, keyedCall), review.Evaluated,
			map[string]string{"check-then-act": review.Mitigated, "ledger-not-shared": review.Mitigated, "mutable-stored-result": review.Mitigated, "key-reuse-changed-args": review.Mitigated, "rpc-id-as-dedup": review.Mitigated},
			map[string]string{"check-then-act": "Assumed: the scenario configures no ledger", "rpc-id-as-dedup": "the lab's default (\"ledger\": {}"}},
		{"charge on the ledger", doc(`"ledger":{},`+timeouts, keyedCall), review.Evaluated,
			map[string]string{"check-then-act": review.Mitigated, "key-reuse-changed-args": review.Mitigated}, nil},
		{"the flagship without a key", doc(`"ledger":{},`+timeouts, keylessPay), review.Evaluated,
			map[string]string{"check-then-act": review.AtRisk, "ledger-not-shared": review.AtRisk, "mutable-stored-result": review.NotApplicable, "key-reuse-changed-args": review.NotApplicable, "rpc-id-as-dedup": review.AtRisk},
			map[string]string{"check-then-act": "no idempotency key", "ledger-not-shared": "no idempotency key", "mutable-stored-result": "no idempotency key", "key-reuse-changed-args": "no idempotency key"}},
		{"a read", doc(timeouts, httpCall), review.NotApplicable,
			map[string]string{"check-then-act": review.NotApplicable, "rpc-id-as-dedup": review.NotApplicable,
				"herd-reconnect": review.Mitigated, "lockstep-backoff": review.Mitigated, "constant-retry-loop": review.Mitigated, "task-ack-as-final": review.NotApplicable,
				"unbounded-progress-queue": review.NotApplicable, "final-dropped": review.NotApplicable,
				"forget-resume-token": review.NotApplicable, "replay-other-streams": review.NotApplicable},
			map[string]string{"herd-reconnect": "format's default: 10000 clients, strategy reference", "lockstep-backoff": "format's default"}},
		{"an e-mail sent", doc(timeouts, `{"at":0,"do":"call","id":3,"name":"send_email","sideEffect":true}`), review.NotEvaluated,
			map[string]string{"check-then-act": review.AtRisk, "mutable-stored-result": review.NotApplicable}, nil},
		{"HTTP without a buffer, 2025", doc(`"transport":"streamable-http","protocol":"2025-11-25"`, httpCall), review.NotApplicable,
			map[string]string{"unbounded-progress-queue": review.Mitigated, "final-dropped": review.Mitigated,
				"forget-resume-token": review.Mitigated, "replay-other-streams": review.Mitigated,
				"resume-without-last-event-id": review.Mitigated, "dropped-call-not-resumed": review.Mitigated},
			map[string]string{"unbounded-progress-queue": "format's default: capacity 3, policy evict-progress", "final-dropped": "format's default"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustReview(t, tc.data)
			if i := rep.Idempotency; i.Status != tc.idem || i.Applicable != (tc.idem == review.Evaluated) || i.Why == "" {
				t.Errorf("idempotency: status %s, applicable %t (%s); want %s", i.Status, i.Applicable, i.Why, tc.idem)
			}
			runs := map[string]string{}
			for _, run := range rep.Runs {
				runs[run.ID] = run.Link
			}
			for _, c := range rep.FailureCards {
				if c.Link == "" || runs[c.Run] != c.Link {
					t.Errorf("card %s (%s) links %q, run %q: not a derived run of the review", c.ID, c.Status, c.Link, c.Run)
				}
				if rep.Operation.IdempotencyKey == "" && keyed[c.Run] && c.Status != review.NotApplicable {
					t.Errorf("card %s is %s on run %s, which carries the key the review added", c.ID, c.Status, c.Run)
				}
			}
			for id, want := range tc.cards {
				c := cardOf(t, rep, id)
				if c.Status != want || c.Why == "" {
					t.Errorf("card %s: %s (%s), want %s with a why", id, c.Status, c.Why, want)
				}
			}
			for id, words := range tc.says {
				if c := cardOf(t, rep, id); !strings.Contains(c.Why, words) {
					t.Errorf("card %s says %q, not %q", id, c.Why, words)
				}
			}
			md := review.Markdown(rep)
			for _, c := range rep.FailureCards {
				if !strings.Contains(md, "| **"+c.Status+"** |") {
					t.Errorf("the Markdown has no card row with status %s", c.Status)
				}
			}
			if !strings.Contains(md, "**"+tc.idem+".** "+rep.Idempotency.Why) {
				t.Errorf("the Markdown does not give the boundary's status %s", tc.idem)
			}
		})
	}
}

// TestFlagshipInventsNoEvidence: the flagship (a charge without a key)
// has no not-evaluated card, and only its retry under a new id and the
// key-check cards are at risk for want of a key: no card is mitigated by
// the key the review added.
func TestFlagshipInventsNoEvidence(t *testing.T) {
	rep := mustReview(t, string(examplestest.Get(t, "flagship-retry-charges-twice").JSON))
	for _, c := range rep.FailureCards {
		if c.Status == review.NotEvaluated {
			t.Errorf("card %s is not-evaluated: %s", c.ID, c.Why)
		}
		if strings.Contains(c.Why, "review-41") {
			t.Errorf("card %s rests on the added key: %s", c.ID, c.Why)
		}
	}
	for id, want := range map[string]string{"rpc-id-as-dedup": review.AtRisk, "check-then-act": review.AtRisk, "ledger-not-shared": review.AtRisk,
		"mutable-stored-result": review.NotApplicable, "key-reuse-changed-args": review.NotApplicable} {
		if c := cardOf(t, rep, id); c.Status != want {
			t.Errorf("card %s: %s (%s), want %s", id, c.Status, c.Why, want)
		}
	}
}

func hasPrefix(xs []string, p string) bool {
	for _, x := range xs {
		if strings.HasPrefix(x, p) {
			return true
		}
	}
	return false
}

var mdLink = regexp.MustCompile(`\]\(([^)]*)\)`)

// TestMarkdownLinksOnlyWhenAbsolute: a relative link is dead in a pull
// request, so the Markdown links a run only when Options.LinkBase makes
// its link absolute (the CLI's -link-base); otherwise it names the run by
// its id, as plain text, and says how to get links (review.Markdown).
func TestMarkdownLinksOnlyWhenAbsolute(t *testing.T) {
	ex := examplestest.Get(t, "flagship-with-idempotency-key")
	for _, base := range []string{"", "../playground/?ledger=1", "/playground/"} {
		o := opts
		o.LinkBase = base
		rep, err := review.Review(ex.JSON, o)
		if err != nil {
			t.Fatal(err)
		}
		md := review.Markdown(rep)
		if m := mdLink.FindString(md); m != "" {
			t.Errorf("link base %q: the Markdown has the link %s", base, m)
		}
		for _, want := range []string{"`ledger-race`", "`race-stdio-cancel-first`", "-link-base https://"} {
			if !strings.Contains(md, want) {
				t.Errorf("link base %q: the Markdown lacks %s", base, want)
			}
		}
	}
	o := opts
	o.LinkBase = "https://lab.example/playground/?ledger=1"
	rep, err := review.Review(ex.JSON, o)
	if err != nil {
		t.Fatal(err)
	}
	md := review.Markdown(rep)
	links := mdLink.FindAllStringSubmatch(md, -1)
	// Each run in the list of derived runs, plus the cards, races and evidence that name one.
	if len(links) < len(rep.Runs) {
		t.Fatalf("%d links for %d runs", len(links), len(rep.Runs))
	}
	for _, l := range links {
		if !strings.HasPrefix(l[1], o.LinkBase+"#s=") {
			t.Errorf("link %s does not start with the link base", l[1])
		}
	}
	for _, run := range rep.Runs {
		if !strings.Contains(md, "["+run.ID+"]("+run.Link+")") {
			t.Errorf("run %s is not linked in the list of derived runs", run.ID)
		}
	}
	if strings.Contains(md, "-link-base https://") {
		t.Errorf("a linked review still says how to get links")
	}
}

// TestRaceOnlyScenarioIsReviewable: a scenario whose only call is inside a
// race step (the ledger race lessons) is reviewed: the race's call is the
// operation, by default and by -op; Calls lists it (review.findOp).
func TestRaceOnlyScenarioIsReviewable(t *testing.T) {
	for _, name := range []string{"ledger-keyed-race", "broken-ledger-check-then-act"} {
		ex := examplestest.Get(t, name)
		s := examplestest.DecodeExample(t, ex)
		calls := review.Calls(s)
		if len(calls) != 1 || s.Steps[0].Do != scenario.VerbRace || calls[0].Raw() != s.Steps[0].Call.ID.Raw() {
			t.Fatalf("%s: calls %v, want the race's call %v", name, calls, s.Steps[0].Call.ID)
		}
		for _, op := range []string{"", calls[0].Raw()} {
			o := opts
			o.Op = op
			rep, err := review.Review(ex.JSON, o)
			if err != nil {
				t.Fatalf("%s -op %q: %v", name, op, err)
			}
			if rep.Operation.ID.Raw() != calls[0].Raw() || rep.Operation.Name != "charge_account" || len(rep.Races) != 9 || rep.Idempotency.Status != review.Evaluated {
				t.Errorf("%s -op %q: operation %s %s, %d races, idempotency %s", name, op, rep.Operation.ID, rep.Operation.Name, len(rep.Races), rep.Idempotency.Status)
			}
		}
	}
	// The check-then-act lesson's switch shows on its own card.
	ex := examplestest.Get(t, "broken-ledger-check-then-act")
	if c := cardOf(t, mustReview(t, string(ex.JSON)), "check-then-act"); c.Status != review.AtRisk {
		t.Errorf("check-then-act on its broken lesson: %s (%s), want at-risk", c.Status, c.Why)
	}
}

// TestStepperMatchesReview: a review run part by part (review.Stepper, the
// browser's progress) makes the same report as review.Of, one part per
// review.Parts entry, the derived runs growing at each step.
func TestStepperMatchesReview(t *testing.T) {
	ex := examplestest.Get(t, "practice-reserve-inventory")
	st, err := review.Start(examplestest.DecodeExample(t, ex), opts)
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for i := range review.Parts {
		if st.Done() || st.Step() != i || st.Report() != nil {
			t.Fatalf("before part %d: done %t, step %d", i, st.Done(), st.Step())
		}
		if err := st.Next(); err != nil {
			t.Fatal(err)
		}
		if st.Runs() <= runs {
			t.Errorf("part %s made no derived run", review.Parts[i])
		}
		runs = st.Runs()
	}
	if !st.Done() {
		t.Fatal("not done after every part")
	}
	got, _ := review.Encode(st.Report())
	rep, _ := review.Review(ex.JSON, opts)
	want, _ := review.Encode(rep)
	if !bytes.Equal(got, want) {
		t.Error("the stepped review differs from review.Review's")
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(got, &v) != nil || len(v["failureCards"]) == 0 {
		t.Error("the stepped review has no failure cards")
	}
}

// TestReviewLink: a review link carries the share link and the call
// (#s=...&op=ID): SplitLink reads back what LinkFragment wrote, for an
// integer id, a quoted string id and none, and leaves a plain share link
// alone.
func TestReviewLink(t *testing.T) {
	for _, op := range []string{"", "4", `"job-1"`, "a&b c"} {
		frag := review.LinkFragment("s=AbC_-", op)
		share, got := review.SplitLink("https://lab.example/review/#" + frag)
		if share != "https://lab.example/review/#s=AbC_-" || got != op {
			t.Errorf("op %q: fragment %q splits into %q, %q", op, frag, share, got)
		}
	}
	if share, op := review.SplitLink("#example=ledger-keyed-race&op=50"); share != "#example=ledger-keyed-race" || op != "50" {
		t.Errorf("example link: %q, %q", share, op)
	}
	if share, op := review.SplitLink("scenario.json"); share != "scenario.json" || op != "" {
		t.Errorf("a file name: %q, %q", share, op)
	}
}

// policyFlag is a switch printed as Go prints a bool ("Last-Event-ID:
// false"), which a reader must decode.
var policyFlag = regexp.MustCompile(`\w: (true|false)\b`)

// TestMarkdownNamesPoliciesInWords: the Markdown of every golden review
// says each switch in words ("without Last-Event-ID", "does not replay
// the unsafe mutation"), never as true or false.
func TestMarkdownNamesPoliciesInWords(t *testing.T) {
	for _, name := range goldenExamples {
		rep := mustReview(t, string(examplestest.Get(t, name).JSON))
		md := review.Markdown(rep)
		if m := policyFlag.FindString(md); m != "" {
			t.Errorf("%s: the Markdown says %q", name, m)
		}
		if rep.Recovery.Reconnect != nil && rep.Operation.Protocol == "2026-07-28" && !strings.Contains(md, "without Last-Event-ID") {
			t.Errorf("%s: the reconnect plan does not say it goes without Last-Event-ID", name)
		}
	}
}

// TestMarkdownLinksTheScenariosItNames: a card that names a built-in
// scenario (the route-by-id card names broken-route-by-id-only) links its
// page when the review's links are absolute, and marks it as code when
// they are not.
func TestMarkdownLinksTheScenariosItNames(t *testing.T) {
	data := doc(`"transport":"streamable-http","server":{"policy":{"routeByIdOnly":true}}`, httpCall)
	for _, tc := range []struct{ base, want string }{
		{"https://lab.example/playground/", "[`broken-route-by-id-only`](https://lab.example/s/broken-route-by-id-only/)"},
		{"", "`broken-route-by-id-only`"},
	} {
		o := opts
		o.LinkBase = tc.base
		rep, err := review.Review([]byte(data), o)
		if err != nil {
			t.Fatal(err)
		}
		if md := review.Markdown(rep); !strings.Contains(md, tc.want) {
			t.Errorf("link base %q: the Markdown lacks %s", tc.base, tc.want)
		}
	}
}
