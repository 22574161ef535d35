package templates

import (
	"bytes"
	"context"
	"os"
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
// the picker (issue 16, the page).
func TestReviewPage(t *testing.T) {
	ex, _ := examples.Get("flagship-retry-charges-twice")
	rep, err := review.Review(ex.JSON, review.Options{Engine: engine.Options{OpenLedger: sqlite.NewMemory}, LinkBase: "../playground/"})
	if err != nil {
		t.Fatal(err)
	}
	md := review.Markdown(rep)
	picker := []ReviewLink{{Name: ex.Name, Title: ex.Title, Href: "./", Current: true}, {Name: "other", Title: "Other", Href: "other/"}}
	var buf bytes.Buffer
	if err := ReviewPage(NewReviewView("../", ex.Name, ex.Title, "../s/"+ex.Name+"/", rep, md, picker)).Render(context.Background(), &buf); err != nil {
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
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if got := strings.Count(html, `<tr id="card-`); got != len(review.FailureIDs) {
		t.Errorf("%d card rows, want %d", got, len(review.FailureIDs))
	}
	if !strings.Contains(html, "# Reliability review: `charge_account`") {
		t.Error("the Markdown textarea does not hold the review")
	}
}
