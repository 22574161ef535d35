package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/site/internal/build"
)

// TestReviewCommand: `site review` prints exactly the golden review of
// engine/review (Markdown by default, JSON with -json) for a built-in
// scenario named by a share link, with the flags before or after it.
func TestReviewCommand(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		golden string
	}{
		{[]string{"review", "#example=flagship-with-idempotency-key"}, "flagship-with-idempotency-key.review.md"},
		{[]string{"review", "-json", "#example=flagship-retry-charges-twice"}, "flagship-retry-charges-twice.review.json"},
		{[]string{"review", "#example=task-cancel-ack-not-final", "-json"}, "task-cancel-ack-not-final.review.json"},
	} {
		var out, errOut bytes.Buffer
		if err := run(tc.args, &out, &errOut); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, errOut.String())
		}
		want, err := os.ReadFile(filepath.Join("..", "engine", "review", "testdata", tc.golden))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Errorf("%v: the output differs from engine/review/testdata/%s", tc.args, tc.golden)
		}
	}
}

// TestReviewCommandOpAndLinkBase: -op picks the call by id and -link-base
// prefixes every link; the JSON carries the contract's members.
func TestReviewCommandOpAndLinkBase(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"review", "-json", "-op", "4", "-link-base", "https://lab.example/playground/", "#example=practice-reserve-inventory"}
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	var rep struct {
		Operation struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"operation"`
		Races        []map[string]json.RawMessage `json:"races"`
		RetryClass   string                       `json:"retryClass"`
		Idempotency  map[string]json.RawMessage   `json:"idempotency"`
		FlowControl  map[string]json.RawMessage   `json:"flowControl"`
		Recovery     map[string]json.RawMessage   `json:"recovery"`
		FailureCards []struct{ ID, Status, Why, Link string }
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Operation.ID != 4 || rep.Operation.Name != "reserve_inventory" || rep.RetryClass != "conditional" {
		t.Errorf("operation %+v, class %s: want call 4, reserve_inventory, conditional", rep.Operation, rep.RetryClass)
	}
	if len(rep.Races) != 9 || rep.Idempotency == nil || rep.FlowControl == nil || rep.Recovery == nil {
		t.Errorf("want 9 races and the idempotency, flowControl and recovery members: %s", out.String()[:200])
	}
	for _, k := range []string{"transport", "protocol", "order", "signal", "finalResponse", "clientIgnores", "checks"} {
		if _, ok := rep.Races[0][k]; !ok {
			t.Errorf("a race row has no %q", k)
		}
	}
	for _, c := range rep.FailureCards {
		if c.Link != "" && !strings.HasPrefix(c.Link, "https://lab.example/playground/#s=") {
			t.Errorf("card %s: link %q does not start with the -link-base", c.ID, c.Link)
		}
	}
}

// TestReviewCommandBadInput: an invalid scenario gets the same located
// error as `run`, a scenario without a call says so, and both exit 2.
func TestReviewCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":-5,"do":"complete","id":1}]}`), 0o644)
	var runErr, reviewErr, out bytes.Buffer
	errRun := run([]string{"run", bad}, &out, &runErr)
	errReview := run([]string{"review", bad}, &out, &reviewErr)
	if errReview == nil || exitCode(errReview) != 2 || reviewErr.String() != runErr.String() || !strings.Contains(reviewErr.String(), "steps[1].at") {
		t.Errorf("review: %v (exit %d) %q; run said %q (%v)", errReview, exitCode(errReview), reviewErr.String(), runErr.String(), errRun)
	}
	none := filepath.Join(dir, "none.json")
	os.WriteFile(none, []byte(`{"mcplab":1,"steps":[{"at":0,"do":"listen","id":"s","filter":{}}]}`), 0o644)
	reviewErr.Reset()
	err := run([]string{"review", none}, &out, &reviewErr)
	if err == nil || exitCode(err) != 2 || !strings.Contains(reviewErr.String(), "no call") {
		t.Errorf("no call: %v %q, want exit 2 saying there is no call", err, reviewErr.String())
	}
}

// TestReviewPageInBrowser (the page): /review/ shows the
// flagship's review, card for card what the engine's review says, with
// each card's link; every picker entry opens that scenario's review; a
// race's "open" link runs the derived scenario in the playground with the
// checks the review judged.
func TestReviewPageInBrowser(t *testing.T) {
	ex := examplestest.Get(t, build.ReviewDefault)
	rep, err := review.Review(ex.JSON, review.Options{Engine: runOptions, LinkBase: "../" + build.ReviewLinkBase(ex)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/review/")
	type card struct{ ID, Status, Link string }
	got := evalJSON[[]card](t, ctx, `Array.from(document.querySelectorAll("#failure-cards tr[data-id]")).map(tr => ({ID: tr.dataset.id, Status: tr.dataset.status, Link: tr.querySelector("a[href]")?.getAttribute("href") ?? ""}))`)
	if len(got) != len(rep.FailureCards) {
		t.Fatalf("%d cards on the page, want %d", len(got), len(rep.FailureCards))
	}
	for i, c := range rep.FailureCards {
		if got[i] != (card{c.ID, c.Status, c.Link}) {
			t.Errorf("card %d: page %+v, review %+v", i, got[i], card{c.ID, c.Status, c.Link})
		}
	}
	picks := evalJSON[[]string](t, ctx, `Array.from(document.querySelectorAll("#review-picker a[data-name]")).map(a => a.href)`)
	if len(picks) != len(build.Reviewed()) {
		t.Errorf("the picker has %d entries, want %d", len(picks), len(build.Reviewed()))
	}
	for _, href := range picks {
		resp, err := http.Get(href)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`id="failure-cards"`)) {
			t.Errorf("picker link %s: status %d, not a review page", href, resp.StatusCode)
		}
	}
	// Open the 2026 HTTP cancel-first race in the playground.
	var race review.Race
	for _, r := range rep.Races {
		if r.Transport == "streamable-http" && r.Protocol == "2026-07-28" && r.Order == review.CancelFirst {
			race = r
		}
	}
	// The run's link, not a verdict's link to its rule's page.
	sel := `#races tr[data-protocol="2026-07-28"][data-transport="streamable-http"][data-order="cancel-first"] a:not(.rule-ref)`
	navigate(t, ctx, evalJSON[string](t, ctx, `document.querySelector('`+sel+`').href`))
	waitReady(t, ctx)
	var pass, fail int
	for _, run := range rep.Runs {
		if run.ID == race.Run {
			for _, c := range run.Trace.Checks {
				if c.OK != nil && *c.OK {
					pass++
				} else if c.OK != nil {
					fail++
				}
			}
		}
	}
	tally := evalJSON[[]string](t, ctx, `[document.getElementById("output").dataset.pass, document.getElementById("output").dataset.fail]`)
	if tally[0] != strconv.Itoa(pass) || tally[1] != strconv.Itoa(fail) {
		t.Errorf("the playground shows %s pass, %s fail; the review's run has %d pass, %d fail", tally[0], tally[1], pass, fail)
	}
}

// TestReviewCommandLinks: the Markdown links the derived runs only with an
// absolute -link-base (a relative link is dead in a pull request), and a
// review page's link (#s=...&op=ID) reviews the call it names; a race's
// call is reviewable (items 4 and 5 of the follow-up).
func TestReviewCommandLinks(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"review", "#example=ledger-keyed-race"}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if strings.Contains(out.String(), "](") || !strings.Contains(out.String(), "`ledger-race`") {
		t.Errorf("without -link-base the Markdown must name runs without links:\n%.400s", out.String())
	}
	out.Reset()
	if err := run([]string{"review", "-link-base", "https://lab.example/playground/?ledger=1", "#example=ledger-keyed-race&op=50"}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "[ledger-race](https://lab.example/playground/?ledger=1#s=") || !strings.Contains(out.String(), "`id 50`") {
		t.Errorf("with -link-base the runs must be links to it, for call 50:\n%.400s", out.String())
	}
	// A relative -link-base would be dropped by the Markdown without a
	// word: it is a usage error naming the flag (JSON keeps any prefix).
	for _, b := range []string{"/playground/", "lab.example/playground/", "ftp://lab.example/"} {
		errOut.Reset()
		err := run([]string{"review", "-link-base", b, "#example=ledger-keyed-race"}, &out, &errOut)
		if err == nil || exitCode(err) != 2 || !strings.Contains(errOut.String(), "-link-base") || !strings.Contains(errOut.String(), "absolute") {
			t.Errorf("-link-base %s: %v %q, want exit 2 asking for an absolute URL", b, err, errOut.String())
		}
	}
	out.Reset()
	if err := run([]string{"review", "-json", "-link-base", "../playground/", "#example=ledger-keyed-race"}, &out, &errOut); err != nil || !strings.Contains(out.String(), `"../playground/#s=`) {
		t.Errorf("-json with a relative -link-base: %v, want its links prefixed", err)
	}
	errOut.Reset()
	err := run([]string{"review", "#example=ledger-keyed-race&op=7"}, &out, &errOut)
	if err == nil || exitCode(err) != 2 || !strings.Contains(errOut.String(), "no call step has the id 7") {
		t.Errorf("&op=7: %v %q, want exit 2: no call 7", err, errOut.String())
	}
}

// TestReviewLinkBaseIsThePlayground (`-link-base https://lab.example/`
// made links to https://lab.example/#s=..., which open the index, not the
// playground): a -link-base whose path does not end in "playground/" is a
// usage error, exit 2, suggesting the playground's address; the
// playground's own, with the SQLite build's ?ledger=1 or under a subpath,
// is taken, and so is a relative one with -json.
func TestReviewLinkBaseIsThePlayground(t *testing.T) {
	for _, c := range []struct{ base, want string }{
		{"https://lab.example/", "https://lab.example/playground/"},
		{"https://lab.example", "https://lab.example/playground/"},
		{"https://lab.example/playground", "https://lab.example/playground/"},
		{"https://lab.example/lab/index.html", "https://lab.example/lab/playground/"},
		{"https://lab.example/playground/index.html", "https://lab.example/playground/"},
		{"https://lab.example/?ledger=1", "https://lab.example/playground/?ledger=1"},
	} {
		var out, errOut bytes.Buffer
		err := run([]string{"review", "-link-base", c.base, "#example=ledger-keyed-race"}, &out, &errOut)
		want := fmt.Sprintf("error: -link-base %q: want the playground's address, such as %s\n", c.base, c.want)
		if code := exitCode(err); err == nil || code != 2 || errOut.String() != want || out.Len() > 0 {
			t.Errorf("review -link-base %s: exit %d, stderr %q; want 2 and %q", c.base, code, errOut.String(), want)
		}
	}
	for _, args := range [][]string{
		{"-link-base", "https://lab.example/playground/"},
		{"-link-base", "https://lab.example/playground/?ledger=1"},
		{"-link-base", "http://localhost:8080/docs/lab/playground/"},
		{"-json", "-link-base", "../playground/?ledger=1"},
	} {
		var out, errOut bytes.Buffer
		if err := run(append(append([]string{"review"}, args...), "#example=ledger-keyed-race"), &out, &errOut); err != nil || !strings.Contains(out.String(), args[len(args)-1]+"#s=") {
			t.Errorf("review %s: %v %q; want its runs linked under it", strings.Join(args, " "), err, errOut.String())
		}
	}
}
