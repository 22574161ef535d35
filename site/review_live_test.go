package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// pastedScenario is what the live review test pastes: the user's own
// checkout, a read then a charge without an idempotency key, on Streamable
// HTTP with a ledger. Its second call is the one under review.
const pastedScenario = `{
  "mcplab": 1,
  "title": "My checkout",
  "transport": "streamable-http",
  "ledger": {},
  "client": {"idleTimeoutMs": 1000, "maxTimeoutMs": 4000},
  "steps": [
    {"at": 0, "do": "call", "id": 1, "name": "lookup_cart"},
    {"at": 0, "do": "call", "id": "pay-1", "name": "charge_account", "arguments": {"account": "acct-1", "cents": 500}}
  ]
}`

// reviewShown is what a test reads of the review on the page: the card
// statuses, the race rows (transport protocol order signal final) and the
// reviewed call.
type reviewShown struct {
	Op    string   `json:"op"`
	Cards []string `json:"cards"`
	Races []string `json:"races"`
	Runs  string   `json:"runs"`
}

const readReviewJS = `(() => {
  const res = document.querySelector("#review-body .review-result");
  return {
    op: res.dataset.op, runs: res.dataset.runs,
    cards: Array.from(document.querySelectorAll("#failure-cards tr[data-id]")).map(tr => tr.dataset.id + " " + tr.dataset.status),
    races: Array.from(document.querySelectorAll("#races tbody tr")).map(tr => [tr.dataset.transport, tr.dataset.protocol, tr.dataset.order, tr.querySelector("code").textContent, tr.dataset.final].join(" ")),
  };
})()`

// waitReview waits until the live review generation gen (or any newer
// one, with gen 0) is on the page, or fails with the page's error. A
// review's HTML is larger than mcplabMorph patches at once (32 KB), so it
// reaches the DOM over a few frames after the body says done: the wait
// includes !mcplabMorph.busy (on a quiet machine the test read the
// prerendered review before the patch, flagship's request 41).
func waitReview(t *testing.T, ctx context.Context, gen int) {
	t.Helper()
	pred := fmt.Sprintf(`(() => { const b = document.getElementById("review-body"); return (b.dataset.state === "done" && Number(b.dataset.gen) >= %d && !mcplabMorph.busy) || b.dataset.state === "error"; })()`, gen)
	if _, err := pollJS[bool](ctx, pred, ledgerReadyTimeout); err != nil {
		t.Fatalf("waiting for the review: %v", err)
	}
	if st := evalJSON[string](t, ctx, `document.getElementById("review-body").dataset.state`); st != "done" {
		t.Fatalf("the review failed: %s %s", evalJSON[string](t, ctx, `document.getElementById("lab-error").textContent`), evalJSON[string](t, ctx, `document.getElementById("review-error-text").textContent`))
	}
}

// nativeReview is the engine's own review of the canonical form of data,
// call op: what the page must show.
func nativeReview(t *testing.T, data, op string) *review.Report {
	t.Helper()
	canon, err := scenario.Canonical([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := review.Review(canon, review.Options{Op: op, Engine: runOptions})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestReviewLiveInBrowser (the page live): on /review/ a user
// pastes their own scenario, the picker lists its calls, picking one
// reviews it: the browser reviews it in the engine worker on SQLite in WebAssembly,
// with the progress of its parts shown: the race table and the failure
// cards are exactly the engine's review of that call (the keyless charge's
// rpc-id-as-dedup card at risk, linking its run in the playground on the
// SQLite build); the Markdown links every run absolutely; the address bar
// and Copy link carry the scenario and the call, and that link opened in a
// fresh tab reproduces the review. An invalid scenario says where it is
// wrong (line and column) and keeps the last review. Screenshots at 1280
// and 390 CSS pixels are saved for a person to look at.
func TestReviewLiveInBrowser(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	start := time.Now()
	navigate(t, ctx, siteURL+"/review/")
	if _, err := pollJS[string](ctx, `document.documentElement.dataset.ready`, ledgerReadyTimeout); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ctx)
	t.Logf("the page was ready (ledger.wasm compiled) in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()

	// Paste, and record the progress texts the page shows.
	evalJSON[bool](t, ctx, `(() => {
  window.progressSeen = [];
  new MutationObserver(() => window.progressSeen.push(document.getElementById("review-progress-text").textContent))
    .observe(document.getElementById("review-progress"), {subtree: true, childList: true, characterData: true});
  const ed = document.getElementById("review-input");
  ed.focus();
  ed.select();
  document.execCommand("insertText", false, `+strconv.Quote(pastedScenario)+`);
  return true;
})()`)
	// The picker lists the pasted scenario's calls; picking the charge
	// reviews it.
	waitFor(t, ctx, "the picker to list the pasted calls", `Array.from(document.querySelectorAll("#review-op option")).map(o => o.value).join(" ") === '1 "pay-1"'`)
	evalJSON[bool](t, ctx, `(() => { const s = document.getElementById("review-op"); s.value = '"pay-1"'; s.dispatchEvent(new Event("change")); return true; })()`)
	waitReview(t, ctx, 1)
	t.Logf("the review ran in %v", time.Since(start).Round(time.Millisecond))

	want := nativeReview(t, pastedScenario, `"pay-1"`)
	got := evalJSON[reviewShown](t, ctx, readReviewJS)
	if got.Op != `"pay-1"` || got.Runs != strconv.Itoa(len(want.Runs)) {
		t.Errorf("the page reviewed call %s with %s runs, want \"pay-1\" with %d", got.Op, got.Runs, len(want.Runs))
	}
	if len(got.Races) != 9 || len(got.Cards) != len(want.FailureCards) {
		t.Fatalf("%d race rows and %d cards, want 9 and %d", len(got.Races), len(got.Cards), len(want.FailureCards))
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
	// The keyless charge: a retry under a new id charges twice.
	card := evalJSON[[]string](t, ctx, `(() => { const tr = document.querySelector('#failure-cards tr[data-id="rpc-id-as-dedup"]'); return [tr.dataset.status, tr.querySelector("a[href]").href]; })()`)
	if card[0] != review.AtRisk || !strings.HasPrefix(card[1], siteURL+"/playground/?ledger=1#s=") {
		t.Errorf("card rpc-id-as-dedup: %q, want at-risk linking the playground on the SQLite build", card)
	}
	// Every part was reported while it ran.
	seen := evalJSON[[]string](t, ctx, `window.progressSeen`)
	parts := 0
	for i := 1; i < len(review.Parts); i++ {
		for _, s := range seen {
			if strings.HasPrefix(s, fmt.Sprintf("Part %d of %d done", i, len(review.Parts))) {
				parts++
				break
			}
		}
	}
	if parts != len(review.Parts)-1 {
		t.Errorf("the page reported %d of the %d intermediate parts: %q", parts, len(review.Parts)-1, seen)
	}
	md := evalJSON[string](t, ctx, `document.getElementById("review-markdown").value`)
	if !strings.Contains(md, "[retry-new-id]("+siteURL+"/playground/?ledger=1#s=") || strings.Contains(md, "-link-base https://") {
		t.Errorf("the live Markdown does not link its runs absolutely:\n%.600s", md)
	}

	// The link: the address bar, the field Copy link copies.
	link := evalJSON[string](t, ctx, `document.getElementById("review-link").value`)
	if link != evalJSON[string](t, ctx, `location.href`) || !strings.Contains(link, "/review/#s=") || !strings.HasSuffix(link, "&op=%22pay-1%22") {
		t.Fatalf("review link %q (address bar %q): want /review/#s=...&op=%%22pay-1%%22", link, evalJSON[string](t, ctx, `location.href`))
	}
	evalJSON[bool](t, ctx, `(document.getElementById("review-copy-link").click(), true)`)
	if _, err := pollJS[bool](ctx, `/Copied|Selected/.test(document.getElementById("lab-status").textContent)`, readyTimeout); err != nil {
		t.Errorf("Copy link said nothing: %v", err)
	}
	shoot(t, ctx, "review-live", 1280)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, "review-live", 390)
	if w := evalJSON[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("at 390 px the page is %v px wide: it scrolls sideways", w)
	}

	// A fresh tab opens the link and shows the same review.
	ctx2, _ := openTab(t, siteURL)
	start = time.Now()
	navigate(t, ctx2, link)
	waitReview(t, ctx2, 1)
	again := evalJSON[reviewShown](t, ctx2, readReviewJS)
	if fmt.Sprint(again) != fmt.Sprint(got) {
		t.Errorf("the link reproduces another review:\n%+v\nwant\n%+v", again, got)
	}
	if v := evalJSON[string](t, ctx2, `document.getElementById("review-op").value`); v != `"pay-1"` {
		t.Errorf("the link's tab selects call %s, want \"pay-1\"", v)
	}
	t.Logf("the link's tab reviewed in %v", time.Since(start).Round(time.Millisecond))
	// An invalid edit: located as the user types, the last review kept.
	evalJSON[bool](t, ctx2, `(() => {
  const ed = document.getElementById("review-input");
  ed.focus();
  ed.select();
  document.execCommand("insertText", false, '{\n  "mcplab": 1,\n  "steps": [\n    {"at": -5, "do": "call", "id": 1}\n  ]\n}');
  return true;
})()`)
	if _, err := pollJS[bool](ctx2, `!document.getElementById("review-error").hidden`, readyTimeout); err != nil {
		t.Fatalf("no error shown for a negative time: %v", err)
	}
	e := evalJSON[[]string](t, ctx2, `[document.getElementById("review-error-text").textContent, document.getElementById("review-error").dataset.line, document.getElementById("review-error").dataset.col]`)
	if !strings.Contains(e[0], "line 4, column 12") || !strings.Contains(e[0], "steps[0].at") || e[1] != "4" || e[2] != "12" {
		t.Errorf("error %q (line %s, column %s), want steps[0].at at line 4, column 12", e[0], e[1], e[2])
	}
	if after := evalJSON[reviewShown](t, ctx2, readReviewJS); fmt.Sprint(after) != fmt.Sprint(got) {
		t.Error("an invalid scenario replaced the last review")
	}
}

// shoot saves screenshots of the viewport for a person to look at, in
// $TMPDIR/mcplab-NAME-WIDTH-PART.png: the page's top (the live panel) and
// the review from its failure cards, and from its race table.
func shoot(t *testing.T, ctx context.Context, name string, width int) {
	t.Helper()
	for _, part := range []struct{ name, sel string }{{"top", "body"}, {"cards", "#review-op-title"}, {"races", "#races-h"}} {
		evalJSON[bool](t, ctx, `(document.querySelector('`+part.sel+`').scrollIntoView({block: "start"}), true)`)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Errorf("screenshot: %v", err)
			return
		}
		file := filepath.Join(os.TempDir(), fmt.Sprintf("mcplab-%s-%d-%s.png", name, width, part.name))
		if err := os.WriteFile(file, shot, 0o644); err == nil {
			t.Logf("screenshot: %s", file)
		}
	}
}

// Rule: the review page names the scenario it reviews. Opened with
// #example=NAME of another built-in than its own, its document title, its
// breadcrumb and the picker's current entry follow NAME, not the
// prerendered flagship.
func TestReviewPageNamesTheLinkedScenario(t *testing.T) {
	const name = "practice-reserve-inventory"
	ex := examplestest.Get(t, name)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/review/#example="+name)
	if _, err := pollJS[string](ctx, `document.documentElement.dataset.ready`, ledgerReadyTimeout); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ctx)
	if got := evalJSON[string](t, ctx, `document.title`); !strings.Contains(got, ex.Title) {
		t.Errorf("the document title is %q, want it to name %q", got, ex.Title)
	}
	if got := evalJSON[string](t, ctx, `Array.from(document.querySelectorAll("#review .crumbs span")).pop().textContent`); got != name {
		t.Errorf("the breadcrumb ends %q, want %q", got, name)
	}
	if got := evalJSON[[]string](t, ctx, `Array.from(document.querySelectorAll('#review-picker a[aria-current="page"]')).map((a) => a.dataset.name)`); len(got) != 1 || got[0] != name {
		t.Errorf("the picker marks %q current, want only %q", got, name)
	}
}

// Rule: the review page names what the reader pasted. A pasted
// scenario of the reader's own, once it reads, names the page (document
// title "Reliability review: My checkout", breadcrumb "your scenario", no
// built-in current in the picker) and its calls fill the call picker; a
// text that does not read empties the picker (and disables it) instead of
// leaving the last scenario's calls to pick.
func TestReviewPageNamesAPastedScenario(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/review/")
	if _, err := pollJS[string](ctx, `document.documentElement.dataset.ready`, ledgerReadyTimeout); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ctx)
	paste := func(text string) {
		evalJSON[bool](t, ctx, fmt.Sprintf(`(() => { const ed = document.getElementById("review-input"); ed.value = %s; ed.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, strconv.Quote(text)))
	}
	paste(pastedScenario)
	waitFor(t, ctx, "the page to name the pasted scenario", `document.title.includes("My checkout")`)
	if got := evalJSON[string](t, ctx, `Array.from(document.querySelectorAll("#review .crumbs span")).pop().textContent`); got != "your scenario" {
		t.Errorf("the breadcrumb ends %q, want %q", got, "your scenario")
	}
	if got := evalJSON[int](t, ctx, `document.querySelectorAll('#review-picker a[aria-current="page"]').length`); got != 0 {
		t.Errorf("the picker marks %d built-ins current, want none for the reader's own scenario", got)
	}
	if got := evalJSON[[]string](t, ctx, `Array.from(document.querySelectorAll("#review-op option")).map((o) => o.value)`); strings.Join(got, ",") != `1,"pay-1"` {
		t.Errorf("the call picker lists %q, want the pasted scenario's calls 1 and \"pay-1\" (ids as JSON)", got)
	}
	paste(`{"mcplab": 1, "steps": [`)
	waitFor(t, ctx, "the error of the text that does not read", `!document.getElementById("review-error").hidden`)
	if got := evalJSON[[]any](t, ctx, `[document.querySelectorAll("#review-op option").length, document.getElementById("review-op").disabled]`); got[0] != float64(0) || got[1] != true {
		t.Errorf("for a text that does not read the call picker holds %v options (disabled: %v), want none, disabled", got[0], got[1])
	}
}
