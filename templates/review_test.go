package templates

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/ledger/sqlite"
	"github.com/mcplab/mcplab/engine/review"
)

// TestReviewPage: the review page draws one row per failure card with its
// status and one per race with its transport and order, links every run to
// the playground, offers the Markdown and marks the current scenario in
// the picker; the live panel loads the SQLite build with the scenario to
// edit and its calls; no card of the flagship (no idempotency key) is
// mitigated by the key the review adds, every card opens its run, and the
// tally names "not evaluated" only when a card is.
func TestReviewPage(t *testing.T) {
	ex, _ := examples.Get("flagship-retry-charges-twice")
	rep, err := review.Review(ex.JSON, review.Options{Engine: engine.Options{OpenLedger: sqlite.NewMemory}, LinkBase: "../playground/"})
	if err != nil {
		t.Fatal(err)
	}
	md := review.Markdown(rep)
	picker := []ReviewLink{{Name: ex.Name, Title: ex.Title, Href: "./", Current: true}, {Name: "other", Title: "Other", Href: "other/"}}
	var buf bytes.Buffer
	v := NewReviewView("../", ex.Name, ex.Title, "../s/"+ex.Name+"/", rep, md, picker)
	v.Scenario, v.Ops = `{"mcplab":1,"steps":[]}`, []string{"41", `"job-1"`}
	if err := ReviewPage(v).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if os.Getenv("REVIEW_HTML") != "" {
		os.WriteFile(os.Getenv("REVIEW_HTML"), buf.Bytes(), 0o644)
	}
	for _, want := range []string{
		`data-id="rpc-id-as-dedup" data-status="at-risk"`,
		// A card that rests on the key the call lacks is not mitigated.
		`data-id="key-reuse-changed-args" data-status="not-applicable"`,
		`data-id="check-then-act" data-status="at-risk"`,
		`data-transport="streamable-http" data-protocol="2025-11-25" data-order="in-flight"`,
		`id="review-markdown"`,
		`aria-current="page" data-name="flagship-retry-charges-twice"`,
		`href="../playground/#s=`,
		`data-retry-class="unsafe"`,
		// The live panel: SQLite's build, the scenario to edit, the calls.
		`id="review-live" class="review-live" data-wasm="ledger.wasm" data-root="../"`,
		`{&#34;mcplab&#34;:1,&#34;steps&#34;:[]}</textarea>`,
		`<option value="41" selected>request 41</option><option value="&#34;job-1&#34;">request &#34;job-1&#34;</option>`,
		`id="review-copy-link"`,
		// The herd the scenario leaves out is the format's default, said so;
		// no task asked for is not applicable.
		`The scenario configures no herd, so this run uses the format&#39;s default: 10000 clients`,
		`<li class="none" data-status="not-applicable"><strong>not applicable</strong>, task: `,
		`<section id="review-idempotency" aria-labelledby="review-idempotency-h" data-status="evaluated">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	// Every card opens its run; the tally counts what the cards say and
	// names no "not evaluated" when none is.
	tally := map[string]int{}
	for _, c := range rep.FailureCards {
		tally[c.Status]++
		if c.Link == "" {
			t.Errorf("card %s links no run", c.ID)
		}
	}
	want := strconv.Itoa(tally[review.AtRisk]) + " at risk</strong>, " + strconv.Itoa(tally[review.Mitigated]) + " mitigated, " + strconv.Itoa(tally[review.NotApplicable]) + " not applicable."
	if tally[review.NotEvaluated] != 0 || !strings.Contains(html, want) || strings.Contains(html, "not evaluated.") {
		t.Errorf("the tally does not say %q (not evaluated: %d)", want, tally[review.NotEvaluated])
	}
	if got := strings.Count(html, `<tr id="card-`); got != len(review.FailureIDs) {
		t.Errorf("%d card rows, want %d", got, len(review.FailureIDs))
	}
	if !strings.Contains(html, "# Reliability review: `charge_account`") {
		t.Error("the Markdown textarea does not hold the review")
	}
}
