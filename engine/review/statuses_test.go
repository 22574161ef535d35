package review_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/review"
)

// ledgerCards are the failure cards only a run on the ledger can judge.
var ledgerCards = []string{"check-then-act", "ledger-not-shared", "mutable-stored-result", "key-reuse-changed-args"}

// TestNotEvaluatedIsNotNotApplicable: a part that cannot apply to the
// operation reads not-applicable, one the review could not run reads
// not-evaluated, with why, in the JSON, the cards and the Markdown
// (review.NotEvaluated's rule):
//   - a charge without "ledger": the boundary and the ledger cards are
//     not-evaluated (the review still runs, and says to add the ledger);
//   - the same charge with "ledger": {}: evaluated;
//   - a read (no side effect): not-applicable;
//   - a side effect on a tool the ledger does not run: not-evaluated;
//   - no herd configured: the herd cards are not-evaluated; no task asked
//     for: the task card is not-applicable;
//   - Streamable HTTP without a buffer: not-evaluated; stdio: not-applicable;
//   - resumption cards under 2025-11-25: evaluated by resume-keeps-position
//     and resume-replays-own-stream (mitigated on a well-behaved client);
//   - resumption cards under 2026-07-28: not-applicable (no resumption).
func TestNotEvaluatedIsNotNotApplicable(t *testing.T) {
	for _, tc := range []struct {
		name, data, idem string
		cards            map[string]string
	}{
		{"charge without a ledger", doc(timeouts, keyedCall), review.NotEvaluated,
			map[string]string{"check-then-act": review.NotEvaluated, "ledger-not-shared": review.NotEvaluated, "mutable-stored-result": review.NotEvaluated, "key-reuse-changed-args": review.NotEvaluated, "rpc-id-as-dedup": review.NotEvaluated}},
		{"charge on the ledger", doc(`"ledger":{},`+timeouts, keyedCall), review.Evaluated,
			map[string]string{"check-then-act": review.Mitigated, "key-reuse-changed-args": review.Mitigated}},
		{"a read", doc(timeouts, httpCall), review.NotApplicable,
			map[string]string{"check-then-act": review.NotApplicable, "rpc-id-as-dedup": review.NotApplicable,
				"herd-reconnect": review.NotEvaluated, "lockstep-backoff": review.NotEvaluated, "task-ack-as-final": review.NotApplicable,
				"unbounded-progress-queue": review.NotApplicable, "final-dropped": review.NotApplicable,
				"forget-resume-token": review.NotApplicable, "replay-other-streams": review.NotApplicable}},
		{"an e-mail sent", doc(timeouts, `{"at":0,"do":"call","id":3,"name":"send_email","sideEffect":true}`), review.NotEvaluated,
			map[string]string{"check-then-act": review.NotEvaluated, "mutable-stored-result": review.NotEvaluated}},
		{"HTTP without a buffer, 2025", doc(`"transport":"streamable-http","protocol":"2025-11-25"`, httpCall), review.NotApplicable,
			map[string]string{"unbounded-progress-queue": review.NotEvaluated, "final-dropped": review.NotEvaluated,
				"forget-resume-token": review.Mitigated, "replay-other-streams": review.Mitigated}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustReview(t, tc.data)
			if i := rep.Idempotency; i.Status != tc.idem || i.Applicable != (tc.idem == review.Evaluated) || i.Why == "" {
				t.Errorf("idempotency: status %s, applicable %t (%s); want %s", i.Status, i.Applicable, i.Why, tc.idem)
			}
			for id, want := range tc.cards {
				c := cardOf(t, rep, id)
				if c.Status != want || c.Why == "" {
					t.Errorf("card %s: %s (%s), want %s with a why", id, c.Status, c.Why, want)
				}
				if (want == review.NotApplicable || want == review.NotEvaluated) && c.Link != "" {
					t.Errorf("card %s is %s but links %s: no run shows it", id, want, c.Link)
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
	// The two lists are kept apart in JSON and in Markdown.
	rep := mustReview(t, doc(timeouts, httpCall))
	if !hasPrefix(rep.Recovery.NotEvaluated, "herd:") || hasPrefix(rep.Recovery.NotApplicable, "herd:") || !hasPrefix(rep.Recovery.NotApplicable, "task:") {
		t.Errorf("recovery: not applicable %q, not evaluated %q; want herd not evaluated, task not applicable", rep.Recovery.NotApplicable, rep.Recovery.NotEvaluated)
	}
	md := review.Markdown(rep)
	for _, want := range []string{"- **not-evaluated**, herd: ", "- **not-applicable**, task: ", "- **not-applicable**, buffer: on stdio"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
	js, _ := review.Encode(rep)
	if !bytes.Contains(js, []byte(`"notEvaluated": [`)) || !bytes.Contains(js, []byte(`"status": "not-evaluated"`)) {
		t.Errorf("the JSON carries no notEvaluated list or not-evaluated card")
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
		if len(calls) != 1 || s.Steps[0].Do != "race" || calls[0].Raw() != s.Steps[0].Call.ID.Raw() {
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
