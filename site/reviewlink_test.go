package site

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"
)

// TestReviewThisOperationFollowsEdits ("arrive from any scenario
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

// Rule (README "Review page": a damaged link shows no run at all, only
// why, never the default's output): the review page opened with a link to
// scenario A and a call A does not have (&op=999) says so, and
//   - shows no review: the one prerendered for the page's own scenario is
//     taken off the page ("Nothing has run yet"), never offered as the
//     link's, and the message does not call it "the last one that ran";
//   - its picker lists only A's real calls, none chosen (no "request 999");
//   - its status leaves "Loading the simulator…" for a state that says the
//     review did not run, and the page is ready (data-ready="1").
func TestReviewLinkToAMissingCallShowsNoReview(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	frag, err := scenario.ShareFragment(ex.JSON)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, id := range review.Calls(examplestest.DecodeExample(t, ex)) {
		calls = append(calls, id.Raw())
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/review/#"+frag+"&op=999")
	if _, err := pollJS[bool](ctx, `document.documentElement.dataset.ready === "1" && document.getElementById("review-body").dataset.state === "error"`, ledgerReadyTimeout); err != nil {
		t.Fatalf("waiting for the page to say the review did not run: %v", err)
	}
	msg := evalJSON[string](t, ctx, `document.getElementById("review-error-text").textContent`)
	if !strings.Contains(msg, "no call step has the id 999") || strings.Contains(msg, "last one that ran") {
		t.Errorf("the error says %q, want that A has no call 999, and no word of a last review", msg)
	}
	shown := evalJSON[[2]string](t, ctx, `[String(document.querySelectorAll("#review-body .review-result").length), document.getElementById("review-nothing")?.textContent ?? ""]`)
	if shown[0] != "0" || !strings.HasPrefix(shown[1], "Nothing has run yet.") {
		t.Errorf("#review-body holds %s reviews and says %q; want none and \"Nothing has run yet. ...\"", shown[0], shown[1])
	}
	opts := evalJSON[[]string](t, ctx, `[...document.getElementById("review-op").options].filter(o => o.value !== "").map(o => o.value)`)
	if fmt.Sprint(opts) != fmt.Sprint(calls) {
		t.Errorf("the picker offers %q, want A's calls %q", opts, calls)
	}
	if v := evalJSON[string](t, ctx, `document.getElementById("review-op").value`); v != "" {
		t.Errorf("the picker has call %q chosen, want none", v)
	}
	status := evalJSON[[2]string](t, ctx, `[document.getElementById("lab-status").dataset.state ?? "", document.getElementById("lab-status").textContent]`)
	if status[0] != "error" || strings.Contains(status[1], "Loading") {
		t.Errorf("#lab-status is %q: %q, want the error state saying the review did not run", status[0], status[1])
	}
	// Choosing one of A's calls reviews it.
	evalJSON[bool](t, ctx, `(() => { const s = document.getElementById("review-op"); s.value = `+strconv.Quote(calls[0])+`; s.dispatchEvent(new Event("change")); return true; })()`)
	waitReview(t, ctx, 1)
	if got := evalJSON[reviewShown](t, ctx, readReviewJS); got.Op != calls[0] {
		t.Errorf("after choosing call %s the page reviews %q", calls[0], got.Op)
	}
	if evalJSON[bool](t, ctx, `!!document.getElementById("review-nothing")`) {
		t.Error("the review ran but #review-nothing is still on the page")
	}
}

// Rule (README "Review page", /review/#s=!!!! showed the flagship's
// review under "This link cannot be opened" and a green "Live"): a review
// link that cannot be opened shows no review at all, as the playground
// shows no run for it: the prerendered review is taken off the page
// ("Nothing has run yet"), the breadcrumb and title do not name the page's
// own scenario, and the status is the error state; pressing Review then
// reviews the scenario the editor holds.
func TestReviewDamagedLinkShowsNoReview(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/review/#s=!!!!")
	if _, err := pollJS[bool](ctx, `document.documentElement.dataset.ready === "1" && document.getElementById("review-body").dataset.state === "error"`, ledgerReadyTimeout); err != nil {
		t.Fatalf("waiting for the page to say the link cannot be opened: %v", err)
	}
	got := evalJSON[[6]string](t, ctx, `[document.getElementById("lab-error").textContent, String(document.querySelectorAll("#review-body .review-result").length), document.getElementById("review-nothing")?.textContent ?? "", [...document.querySelectorAll("#review .crumbs span")].pop()?.textContent ?? "", document.title, document.getElementById("lab-status").dataset.state ?? ""]`)
	if !strings.Contains(got[0], "This link cannot be opened") || strings.Contains(got[0], "its own scenario's review") {
		t.Errorf("#lab-error says %q, want that the link cannot be opened, and no word of a review shown", got[0])
	}
	if got[1] != "0" || !strings.HasPrefix(got[2], "Nothing has run yet.") {
		t.Errorf("#review-body holds %s reviews and says %q; want none and \"Nothing has run yet. ...\"", got[1], got[2])
	}
	if got[3] != "link that cannot be opened" || !strings.Contains(got[4], "link that cannot be opened") {
		t.Errorf("breadcrumb %q, title %q: want both to name the link that cannot be opened, not the page's own scenario", got[3], got[4])
	}
	if got[5] != "error" {
		t.Errorf("#lab-status is in state %q, want error", got[5])
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("review-run"))); err != nil {
		t.Fatal(err)
	}
	waitReview(t, ctx, 1)
	if evalJSON[bool](t, ctx, `!!document.getElementById("review-nothing") || document.querySelectorAll("#review-body .review-result").length !== 1`) {
		t.Error("Review did not replace \"Nothing has run yet\" with the review of the editor's scenario")
	}
}
