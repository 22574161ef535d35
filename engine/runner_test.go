package engine_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// DOMAIN.md §9: each reconnect refetches under its own request ids. Two
// listen streams that drop within one backoff delay must not share
// "refetch-<n>-<k>" ids, or the server would see one id answered twice and
// one-response-per-request would fail for a well-behaved client.
func TestRefetchIDsPerReconnect(t *testing.T) {
	tr := run(t, sc(http2026,
		`{"at":0,"do":"listen","id":"sub-1","filter":{"resourceSubscriptions":["file:///a"]}}`,
		`{"at":0,"do":"listen","id":"sub-2","filter":{"resourceSubscriptions":["file:///b"]}}`,
		`{"at":300,"do":"drop","id":"sub-1","affected":["file:///a"]}`,
		`{"at":310,"do":"drop","id":"sub-2","affected":["file:///b"]}`))
	logOnFailure(t, tr)
	var refetches []string
	for _, r := range tr.Requests {
		if r.Method == "resources/read" {
			refetches = append(refetches, r.ID.Raw())
		}
	}
	if len(refetches) != 2 || refetches[0] != `"refetch-1-1"` || refetches[1] != `"refetch-2-1"` {
		t.Errorf("refetch ids %v, want [\"refetch-1-1\" \"refetch-2-1\"]", refetches)
	}
	wantCheck(t, tr, "one-response-per-request", "true")
}

// The engine never panics on input (ARCHITECTURE.md): a mutate-result with
// no ledger (a fuzzer's crasher) is refused by Decode, and a scenario value
// that reaches the runner without one is a skip event (the step cannot
// happen), not a nil dereference.
func TestMutateResultWithoutLedger(t *testing.T) {
	in := `{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":1,"do":"mutate-result","of":1}]}`
	s, err := scenario.Decode([]byte(in))
	if err == nil {
		t.Log("Decode accepted mutate-result without a ledger; the runner must still be safe")
	} else {
		// Build the scenario Decode would refuse, as a future gap could let it through.
		s, err = scenario.Decode([]byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1}]}`))
		if err != nil {
			t.Fatal(err)
		}
		of := scenario.NewIntID(1)
		s.Steps = append(s.Steps, scenario.Step{At: 1, Do: scenario.VerbMutateResult, Of: &of})
	}
	tr, err := engine.Run(s)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if n := len(find(tr, ev{typ: "skip", at: 1})); n != 1 || len(tr.Skipped) != 1 || tr.Skipped[0].Step != 1 {
		t.Errorf("%d skip events at 1 ms, skipped %+v; want steps[1] skipped, naming the missing ledger", n, tr.Skipped)
	}
}

// a run past MaxEvents fails with ErrTooLarge and no trace. 60
// produce steps of 1,000 values each make about 180,000 events (send,
// deliver and activity per value) in fewer than MaxActions actions. The
// error is a *BoundError whose message says what a reader must hear: the
// scenario is valid (it decodes), its run went past the named bound with
// its number, and what to change.
func TestEventBound(t *testing.T) {
	steps := []string{`{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p-7"}`}
	for k := 0; k < 60; k++ {
		steps = append(steps, fmt.Sprintf(`{"at":%d,"do":"produce","id":7,"count":1000,"everyMs":1,"fromValue":%d}`, k*1000, k*1000))
	}
	doc := []byte(sc(stdio, steps...))
	if _, err := scenario.Decode(doc); err != nil {
		t.Fatalf("the scenario must be valid: %v", err)
	}
	tr, err := entry.RunJSON(doc, entry.Document{})
	if !errors.Is(err, engine.ErrTooLarge) || tr != nil {
		t.Fatalf("entry.RunJSON: %d bytes, %v; want ErrTooLarge and no trace", len(tr), err)
	}
	var be *engine.BoundError
	if !errors.As(err, &be) || be.Bound != "MaxEvents" || be.Limit != engine.MaxEvents {
		t.Fatalf("error %v (%T): want a *BoundError naming MaxEvents", err, err)
	}
	msg := err.Error()
	want := "the scenario is valid, but its run went past the engine's bound of 100,000 events (MaxEvents), so it has no trace; to run it, make it smaller: fewer steps or produce values"
	if !strings.HasPrefix(msg, want) || !trace.IsBoundMessage(msg) {
		t.Errorf("message %q\nwant it to begin %q", msg, want)
	}
	if strings.Contains(msg, "invalid") || strings.Contains(msg, "trace too large") {
		t.Errorf("message %q: a valid scenario's run is not called invalid, nor named by the category's bare words", msg)
	}
}
