package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
)

// TestReviewThisOperationFollowsEdits (issue 16, "arrive from any scenario
// page's 'Review this operation'"): scenario A's page links its review
// (the live review page on the built-in scenario); once the reader flips
// the transport control to Streamable HTTP the link carries the edited
// scenario (review/#s=..., the page's own share fragment); following it
// reviews the edited scenario in the browser: the review page's scenario
// is the edited one, and its races and failure cards are exactly the
// engine's review of it.
func TestReviewThisOperationFollowsEdits(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(ex.Name))
	waitReady(t, ctx)
	if href := evalJSON[string](t, ctx, `document.getElementById("review-operation").href`); href != siteURL+"/review/#example="+ex.Name {
		t.Fatalf("unedited, Review this operation links %q, want %s/review/#example=%s", href, siteURL, ex.Name)
	}

	setControl(t, ctx, "transport", scenario.TransportHTTP)
	waitFor(t, ctx, "the review link to carry the edited scenario",
		`document.getElementById("review-operation").href === location.origin + "/review/" + location.hash && location.hash.startsWith("#s=")`)
	link := evalJSON[string](t, ctx, `document.getElementById("review-operation").href`)

	start := time.Now()
	evalJSON[bool](t, ctx, `(document.getElementById("review-operation").click(), true)`)
	if _, err := pollJS[bool](ctx, `location.pathname === "/review/" && document.documentElement.dataset.ready === "1"`, ledgerReadyTimeout); err != nil {
		t.Fatalf("following %s: %v", link, err)
	}
	waitReview(t, ctx, 1)
	t.Logf("the review of the edited scenario ran in %v", time.Since(start).Round(time.Millisecond))
	if got := evalJSON[string](t, ctx, `location.href`); got != link {
		t.Errorf("the review page is at %q, want the link %q", got, link)
	}

	text := evalJSON[string](t, ctx, `document.getElementById("review-input").value`)
	s, err := scenario.Decode([]byte(text))
	if err != nil {
		t.Fatalf("the review page's scenario: %v\n%s", err, text)
	}
	if s.Transport != scenario.TransportHTTP {
		t.Errorf("the review page reviews transport %q, want the edited %q", s.Transport, scenario.TransportHTTP)
	}
	edited, err := scenario.SetPath(ex.JSON, "transport", json.RawMessage(`"streamable-http"`))
	if err != nil {
		t.Fatal(err)
	}
	want := nativeReview(t, string(edited), "")
	got := evalJSON[reviewShown](t, ctx, readReviewJS)
	if got.Runs != fmt.Sprint(len(want.Runs)) || len(got.Races) != len(want.Races) || len(got.Cards) != len(want.FailureCards) {
		t.Fatalf("the page shows %s runs, %d race rows, %d cards; the engine's review of the edited scenario has %d, %d, %d",
			got.Runs, len(got.Races), len(got.Cards), len(want.Runs), len(want.Races), len(want.FailureCards))
	}
	for i, r := range want.Races {
		sig := "none"
		if r.Signal != nil {
			sig = *r.Signal
		}
		final := map[bool]string{true: "yes", false: "no"}[r.FinalResponse]
		if w := strings.Join([]string{r.Transport, r.Protocol, r.Order, sig, final}, " "); got.Races[i] != w {
			t.Errorf("race row %d: page %q, engine %q", i, got.Races[i], w)
		}
	}
	for i, c := range want.FailureCards {
		if w := c.ID + " " + c.Status; got.Cards[i] != w {
			t.Errorf("card %d: page %q, engine %q", i, got.Cards[i], w)
		}
	}
}
