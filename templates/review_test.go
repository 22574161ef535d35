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
// the picker (the page); the live panel loads the SQLite build
// with the scenario to edit and its calls; parts and cards not evaluated
// are told apart from those not applicable.
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
		`data-id="key-reuse-changed-args" data-status="mitigated"`,
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
		// Not evaluated apart from not applicable (no herd configured; no task).
		`<li class="none" data-status="not-evaluated"><strong>not evaluated</strong>, herd: `,
		`<li class="none" data-status="not-applicable"><strong>not applicable</strong>, task: `,
		`<section id="review-idempotency" aria-labelledby="review-idempotency-h" data-status="evaluated">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	ne := 0
	for _, c := range rep.FailureCards {
		if c.Status == review.NotEvaluated {
			ne++
		}
	}
	if want := " " + strconv.Itoa(ne) + " not evaluated."; ne == 0 || !strings.Contains(html, want) {
		t.Errorf("the tally does not count the %d not-evaluated cards (%q)", ne, want)
	}
	if got := strings.Count(html, `<tr id="card-`); got != len(review.FailureIDs) {
		t.Errorf("%d card rows, want %d", got, len(review.FailureIDs))
	}
	if !strings.Contains(html, "# Reliability review: `charge_account`") {
		t.Error("the Markdown textarea does not hold the review")
	}
}
