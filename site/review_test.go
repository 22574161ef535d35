package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
