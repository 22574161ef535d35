package review_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
)

// Scenario parts the card cases combine.
const (
	httpCall   = `{"at":0,"do":"call","id":1,"name":"crunch","progressToken":"p-1"}`
	keyedCall  = `{"at":0,"do":"call","id":41,"name":"charge_account","arguments":{"account":"acct-9","cents":1200,"idempotencyKey":"checkout-7"}}`
	keylessPay = `{"at":0,"do":"call","id":41,"name":"charge_account","arguments":{"account":"acct-9","cents":1200}}`
	taskCall   = `{"at":0,"do":"call","id":1,"name":"render_video","task":"task-42"}`
	timeouts   = `"client":{"idleTimeoutMs":1000,"maxTimeoutMs":2000}`
)

// doc builds a scenario document from top-level members and one call step.
func doc(members, call string) string {
	if members != "" {
		members += ","
	}
	return `{"mcplab":1,` + members + `"steps":[` + call + `]}`
}

// cardCases gives, for each failure card, a scenario where it must be
// at-risk and one where it must be mitigated (DOMAIN.md §11; SCENARIO.md,
// "Policies: every failure mode is one switch away"): the two differ only
// by the switch or setting the failure names.
var cardCases = []struct {
	id, atRisk, mitigated string
}{
	{"http-client-posts-cancel",
		doc(`"transport":"streamable-http",`+timeouts[:len(timeouts)-1]+`,"policy":{"httpCancel":"post-notification"}}`, httpCall),
		doc(`"transport":"streamable-http",`+timeouts, httpCall)},
	{"respond-after-cancel",
		doc(timeouts+`,"server":{"policy":{"respondAfterCancel":true}}`, httpCall),
		doc(timeouts, httpCall)},
	{"progress-resets-every-deadline",
		doc(`"client":{"idleTimeoutMs":1000,"maxTimeoutMs":2000,"policy":{"progressResetsMax":true}}`, httpCall),
		doc(timeouts, httpCall)},
	{"rpc-id-as-dedup",
		doc(`"ledger":{},`+timeouts, keylessPay),
		doc(`"ledger":{},`+timeouts, keyedCall)},
	{"check-then-act",
		doc(`"ledger":{},"server":{"policy":{"atomicLedger":false}}`, keyedCall),
		doc(`"ledger":{}`, keyedCall)},
	{"ledger-not-shared",
		doc(`"ledger":{"replicas":2,"shared":false}`, keyedCall),
		doc(`"ledger":{"replicas":2,"shared":true}`, keyedCall)},
	{"mutable-stored-result",
		doc(`"ledger":{},"server":{"policy":{"defensiveCopy":false}}`, keyedCall),
		doc(`"ledger":{}`, keyedCall)},
	{"key-reuse-changed-args",
		doc(`"ledger":{},"server":{"policy":{"fingerprint":false}}`, keyedCall),
		doc(`"ledger":{}`, keyedCall)},
	{"unbounded-progress-queue",
		doc(`"transport":"streamable-http","buffer":{"capacity":0},"consumer":{"drainEveryMs":100,"batch":1}`, httpCall),
		doc(`"transport":"streamable-http","buffer":{"capacity":3},"consumer":{"drainEveryMs":100,"batch":1}`, httpCall)},
	{"final-dropped",
		doc(`"transport":"streamable-http","buffer":{"capacity":3,"policy":"drop-newest"},"consumer":{"drainEveryMs":100,"batch":1}`, httpCall),
		doc(`"transport":"streamable-http","buffer":{"capacity":3,"policy":"evict-progress"},"consumer":{"drainEveryMs":100,"batch":1}`, httpCall)},
	{"proxy-buffers-sse",
		doc(`"transport":"streamable-http",`+timeouts+`,"server":{"sseHeaders":false},"proxy":{"buffering":true,"flushBytes":4096}`, httpCall),
		doc(`"transport":"streamable-http",`+timeouts+`,"proxy":{"buffering":true,"flushBytes":4096}`, httpCall)},
	{"last-event-id-assumed",
		doc(`"transport":"streamable-http","client":{"policy":{"sendLastEventId":true}}`, httpCall),
		doc(`"transport":"streamable-http"`, httpCall)},
	{"herd-reconnect",
		doc(`"herd":{"clients":2000,"strategy":"none","serverCapacityPerSecond":500}`, httpCall),
		doc(`"herd":{"clients":2000,"strategy":"reference","serverCapacityPerSecond":500}`, httpCall)},
	// Lockstep waves that all get back in the end still reconnect at once
	// (exponential without jitter, herd-all-reconnect passes).
	{"herd-reconnect",
		doc(`"herd":{"clients":2000,"strategy":"exponential","serverCapacityPerSecond":500,"maxAttempts":20}`, httpCall),
		doc(`"herd":{"clients":2000,"strategy":"reference","serverCapacityPerSecond":500,"maxAttempts":20}`, httpCall)},
	{"task-ack-as-final",
		doc(`"transport":"streamable-http","client":{"policy":{"treatTaskAckAsFinal":true}}`, taskCall),
		doc(`"transport":"streamable-http"`, taskCall)},
	{"lockstep-backoff",
		doc(`"herd":{"clients":2000,"strategy":"none","serverCapacityPerSecond":500}`, httpCall),
		doc(`"herd":{"clients":2000,"strategy":"full-jitter","serverCapacityPerSecond":500}`, httpCall)},
	{"no-timeout",
		doc(``, httpCall),
		doc(`"client":{"idleTimeoutMs":1000}`, httpCall)},
	{"proxy-idle-close-unhandled",
		doc(`"transport":"streamable-http","proxy":{"buffering":false,"idleCloseMs":1000}`, httpCall),
		doc(`"transport":"streamable-http","server":{"keepaliveEveryMs":300},"proxy":{"buffering":false,"idleCloseMs":1000}`, httpCall)},
	{"abandon-silently",
		doc(`"client":{"idleTimeoutMs":1000,"maxTimeoutMs":2000,"policy":{"cancelOnAbandon":false}}`, httpCall),
		doc(timeouts, httpCall)},
	{"await-after-cancel",
		doc(`"client":{"idleTimeoutMs":1000,"maxTimeoutMs":2000,"policy":{"awaitResponseAfterCancel":true}}`, httpCall),
		doc(timeouts, httpCall)},
	{"cancel-blocked",
		doc(`"transport":"streamable-http","client":{"idleTimeoutMs":1000,"maxTimeoutMs":2000,"policy":{"cancelAfterFirstEvent":true}}`, httpCall),
		doc(`"transport":"streamable-http",`+timeouts, httpCall)},
	{"skip-refetch",
		doc(`"transport":"streamable-http","client":{"policy":{"skipRefetch":true}}`, httpCall),
		doc(`"transport":"streamable-http"`, httpCall)},
	{"no-maximum-under-progress",
		doc(`"client":{"idleTimeoutMs":1000}`, httpCall),
		doc(timeouts, httpCall)},
	{"constant-retry-loop",
		doc(`"herd":{"clients":2000,"strategy":"none","serverCapacityPerSecond":500}`, httpCall),
		doc(`"herd":{"clients":2000,"strategy":"reference","serverCapacityPerSecond":500}`, httpCall)},
	// work-stops-after-cancel: the race runs cancel the call while its
	// handler works; handlerIgnoresCancel works on past the checkpoint.
	{"cancel-swallowed",
		doc(`"server":{"handlers":{"crunch":{"workMs":400}},"policy":{"handlerIgnoresCancel":true}}`, httpCall),
		doc(`"server":{"handlers":{"crunch":{"workMs":400}}}`, httpCall)},
	// resources-released: a cancelled handler without its finally keeps
	// what it holds (releaseOnCancel false).
	{"resource-leaked-on-cancel",
		doc(`"server":{"handlers":{"crunch":{"workMs":400,"holds":"db"}},"policy":{"releaseOnCancel":false}}`, httpCall),
		doc(`"server":{"handlers":{"crunch":{"workMs":400,"holds":"db"}}}`, httpCall)},
	// notifications-not-held: holdNotifications writes the handler's
	// progress only when it returns.
	{"notifications-held",
		doc(`"server":{"handlers":{"crunch":{"workMs":400,"progressEveryMs":100}},"policy":{"holdNotifications":true}}`, httpCall),
		doc(`"server":{"handlers":{"crunch":{"workMs":400,"progressEveryMs":100}}}`, httpCall)},
}

// cardOf returns the card id of rep.
func cardOf(t *testing.T, rep *review.Report, id string) review.Card {
	t.Helper()
	for _, c := range rep.FailureCards {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no failure card %s", id)
	return review.Card{}
}

func mustReview(t *testing.T, data string) *review.Report {
	t.Helper()
	rep, err := review.Review([]byte(data), opts)
	if err != nil {
		t.Fatalf("review: %v\n%s", err, data)
	}
	return rep
}

// TestFailureCards proves each card's judgement both ways: the broken
// switch of its failure makes it at-risk, with a link to the run that
// shows it, and the correct default makes it mitigated (DOMAIN.md §11).
func TestFailureCards(t *testing.T) {
	for _, tc := range cardCases {
		t.Run(tc.id, func(t *testing.T) {
			bad := cardOf(t, mustReview(t, tc.atRisk), tc.id)
			if bad.Status != review.AtRisk {
				t.Errorf("with the failure's switch on: status %s (%s), want at-risk", bad.Status, bad.Why)
			}
			good := cardOf(t, mustReview(t, tc.mitigated), tc.id)
			if good.Status != review.Mitigated {
				t.Errorf("with the correct setting: status %s (%s), want mitigated", good.Status, good.Why)
			}
			for _, c := range []review.Card{bad, good} {
				if c.Why == "" || !strings.HasPrefix(c.Link, "#s=") {
					t.Errorf("card %+v: want a why and a #s= link to its run", c)
				}
			}
		})
	}
}

// TestEveryFailureIDHasACard: a review lists one card per id of DOMAIN.md
// §11 (and the field's), in FailureIDs order, each with a status.
func TestEveryFailureIDHasACard(t *testing.T) {
	rep := mustReview(t, doc(timeouts, httpCall))
	if len(rep.FailureCards) != len(review.FailureIDs) {
		t.Fatalf("%d cards, want %d", len(rep.FailureCards), len(review.FailureIDs))
	}
	for i, c := range rep.FailureCards {
		if c.ID != review.FailureIDs[i] {
			t.Errorf("card %d is %s, want %s", i, c.ID, review.FailureIDs[i])
		}
		switch c.Status {
		case review.AtRisk, review.Mitigated, review.NotApplicable, review.NotEvaluated:
		default:
			t.Errorf("card %s: status %q", c.ID, c.Status)
		}
		if c.Why == "" {
			t.Errorf("card %s has no why", c.ID)
		}
	}
	// A crunch tool runs nothing on the ledger: its ledger cards say so.
	for _, id := range []string{"check-then-act", "key-reuse-changed-args", "mutable-stored-result"} {
		if c := cardOf(t, rep, id); c.Status != review.NotApplicable {
			t.Errorf("%s on a non-ledger tool: %s, want not-applicable", id, c.Status)
		}
	}
}

// TestLinksOpenTheirRuns: every run's share link decodes to a scenario
// whose run has exactly the checks the review judged (SCENARIO.md,
// Sharing: the link carries the derived scenario).
func TestLinksOpenTheirRuns(t *testing.T) {
	rep := mustReview(t, doc(`"ledger":{},`+timeouts, keyedCall))
	for _, run := range rep.Runs {
		l, err := scenario.ParseLink(run.Link)
		if err != nil {
			t.Fatalf("%s: %v", run.ID, err)
		}
		s, err := scenario.Decode(l.Scenario)
		if err != nil {
			t.Fatalf("%s: the link's scenario: %v", run.ID, err)
		}
		tr, err := engine.RunWith(s, opts.Engine)
		if err != nil {
			t.Fatalf("%s: %v", run.ID, err)
		}
		got, _ := json.Marshal(tr.Checks)
		want, _ := json.Marshal(run.Trace.Checks)
		if string(got) != string(want) {
			t.Errorf("%s: the link's run has checks\n%s\nthe review judged\n%s", run.ID, got, want)
		}
	}
}

// TestRaceTable: nine rows, three transports x three orders, with the
// signal each transport uses (DOMAIN.md §1) and the race's outcome: a
// cancellation that reaches the server first suppresses the final
// response; a completion that wins keeps it.
func TestRaceTable(t *testing.T) {
	rep := mustReview(t, doc(timeouts, httpCall))
	if len(rep.Races) != 9 {
		t.Fatalf("%d race rows, want 9", len(rep.Races))
	}
	signals := map[string]string{"stdio 2026-07-28": "notifications/cancelled", "streamable-http 2026-07-28": "close-stream", "streamable-http 2025-11-25": "notifications/cancelled"}
	for _, r := range rep.Races {
		if r.Signal == nil || *r.Signal != signals[r.Transport+" "+r.Protocol] {
			t.Errorf("%s %s %s: signal %v, want %s", r.Transport, r.Protocol, r.Order, r.Signal, signals[r.Transport+" "+r.Protocol])
		}
		if want := r.Order != review.CancelFirst; r.FinalResponse != want {
			t.Errorf("%s %s %s: finalResponse %t, want %t", r.Transport, r.Protocol, r.Order, r.FinalResponse, want)
		}
		if r.Order != review.CancelFirst && !contains(r.ServerIgnores, "late cancellation") && !contains(r.ServerIgnores, "late stream close") {
			t.Errorf("%s %s %s: the server ignores %v, want the late cancellation", r.Transport, r.Protocol, r.Order, r.ServerIgnores)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestRetryClass: the class follows DOMAIN.md §5 from the side effect and
// the key, never from annotations; the evidence counts executions on the
// real ledger.
func TestRetryClass(t *testing.T) {
	hinted := `{"at":0,"do":"call","id":41,"name":"charge_account","arguments":{"account":"acct-9","cents":1200},"annotations":{"readOnlyHint":true,"idempotentHint":true}}`
	for _, tc := range []struct {
		name, data, class string
		newID, sameKey    int
	}{
		{"keyless mutation", doc(`"ledger":{}`, keylessPay), "unsafe", 2, 1},
		{"keyed mutation", doc(`"ledger":{}`, keyedCall), "conditional", 2, 1},
		{"annotations claim read-only", doc(`"ledger":{}`, hinted), "unsafe", 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustReview(t, tc.data)
			if rep.RetryClass != tc.class {
				t.Errorf("class %s, want %s", rep.RetryClass, tc.class)
			}
			if e := rep.Retry.NewID.Executions; e == nil || *e != tc.newID {
				t.Errorf("new-id run: %v executions, want %d", e, tc.newID)
			}
			if e := rep.Retry.SameKey.Executions; e == nil || *e != tc.sameKey {
				t.Errorf("same-key run: %v executions, want %d", e, tc.sameKey)
			}
		})
	}
	rep := mustReview(t, doc(`"ledger":{}`, hinted))
	if !strings.Contains(rep.Retry.HintsNote, "the hint is wrong") {
		t.Errorf("hints note %q: want the read-only hint called wrong", rep.Retry.HintsNote)
	}
	if rep := mustReview(t, doc(timeouts, httpCall)); rep.RetryClass != "safe" {
		t.Errorf("a read: class %s, want safe", rep.RetryClass)
	}
}

// TestIdempotencyBoundary: for a keyed charge, the record is stored under
// the key with the reference fingerprint fields, the mismatch fixture is
// rejected, the race and the reopen execute once (DOMAIN.md §4).
func TestIdempotencyBoundary(t *testing.T) {
	rep := mustReview(t, doc(`"ledger":{}`, keyedCall))
	i := rep.Idempotency
	if !i.Applicable || i.Key != "checkout-7" || strings.Join(i.Binds, ",") != "account,cents" {
		t.Fatalf("boundary %+v: want key checkout-7 binding account,cents", i)
	}
	if i.Record == nil || i.Record.Key != "checkout-7" {
		t.Errorf("record %+v, want key checkout-7", i.Record)
	}
	if !strings.Contains(i.Mismatch.Finding, "rejected") || *i.Mismatch.Executions != 1 {
		t.Errorf("mismatch: %s (%d executions), want rejected with 1 execution", i.Mismatch.Finding, *i.Mismatch.Executions)
	}
	for name, ev := range map[string]*review.Evidence{"race": i.Race, "reopen": i.Reopen, "mutation alias": i.MutationAlias} {
		if *ev.Executions != 1 {
			t.Errorf("%s: %d executions, want 1", name, *ev.Executions)
		}
	}
}

// TestBadInput: the same located errors as run; a scenario with no call,
// or without the call -op names, says so at "steps".
func TestBadInput(t *testing.T) {
	_, err := review.Review([]byte(`{"mcplab":1,"steps":[{"at":-1,"do":"call","id":1}]}`), opts)
	var se *scenario.Error
	if !errors.As(err, &se) || se.Path != "steps[0].at" {
		t.Errorf("negative time: %v, want a scenario error at steps[0].at", err)
	}
	_, err = review.Review([]byte(`{"mcplab":1,"herd":{},"steps":[]}`), opts)
	if !errors.Is(err, review.ErrNoCall) || !errors.As(err, &se) || se.Path != "steps" {
		t.Errorf("no call: %v, want ErrNoCall at steps", err)
	}
	o := opts
	o.Op = "7"
	_, err = review.Review([]byte(doc(``, httpCall)), o)
	if !errors.Is(err, review.ErrNoCall) {
		t.Errorf("-op 7 with only call 1: %v, want ErrNoCall", err)
	}
}

// TestOpSelectsTheCall: -op names a call by its id, quoted or bare.
func TestOpSelectsTheCall(t *testing.T) {
	data := `{"mcplab":1,"steps":[{"at":0,"do":"call","id":1,"name":"a"},{"at":0,"do":"call","id":"job-1","name":"b"}]}`
	for op, want := range map[string]string{"": "a", "1": "a", "job-1": "b", `"job-1"`: "b"} {
		o := opts
		o.Op = op
		rep, err := review.Review([]byte(data), o)
		if err != nil || rep.Operation.Name != want {
			t.Errorf("-op %q: %v, %v; want the call named %s", op, rep, err, want)
		}
	}
}

// TestDerivedRunsObeyBounds: a derived run past the engine's bounds
// (engine.MaxActions, or engine.MaxEvents, whichever it reaches first)
// fails the review with the engine's error, never a partial review. A proxy
// that closes idle streams after a virtual day, with a keep-alive every
// 50 ms, makes the quiet-stream run write 1.7 million comments.
func TestDerivedRunsObeyBounds(t *testing.T) {
	data := doc(`"transport":"streamable-http","server":{"keepaliveEveryMs":50},"proxy":{"buffering":false,"idleCloseMs":86300000}`, httpCall)
	_, err := review.Review([]byte(data), opts)
	if !(errors.Is(err, sim.ErrTooManyActions) || errors.Is(err, engine.ErrTooLarge)) || !strings.Contains(err.Error(), "sse-quiet") {
		t.Errorf("got %v, want the sse-quiet run's bound error (too many actions or events)", err)
	}
}

// TestHandlerCardsWithoutEvidence: a server-handler card is not-applicable
// where the operation has nothing its rule judges (no handler, no resource,
// no progress; stdio for responses-routed-by-request), and the
// cross-wired-response card is at-risk by its switch, judged on the
// duplicate-id run when the tool has a handler, and not-applicable
// without one, where the review's runs script each answer by id
// (DOMAIN.md §11).
func TestHandlerCardsWithoutEvidence(t *testing.T) {
	const handler = `"server":{"handlers":{"crunch":{"workMs":400}}}`
	for _, tc := range []struct {
		name, id, data, want string
	}{
		{"work-stops-after-cancel without a handler", "cancel-swallowed", doc(timeouts, httpCall), review.NotApplicable},
		{"resources-released without a handler", "resource-leaked-on-cancel", doc(timeouts, httpCall), review.NotApplicable},
		{"resources-released with a handler that holds nothing", "resource-leaked-on-cancel", doc(handler, httpCall), review.NotApplicable},
		{"notifications-not-held with a handler that reports no progress", "notifications-held", doc(handler, httpCall), review.NotApplicable},
		{"notifications-not-held on a call without a progress token", "notifications-held",
			doc(`"server":{"handlers":{"crunch":{"workMs":400,"progressEveryMs":100}}}`, `{"at":0,"do":"call","id":1,"name":"crunch"}`), review.NotApplicable},
		{"responses-routed-by-request on stdio", "cross-wired-response", doc(`"server":{"policy":{"routeByIdOnly":true}}`, httpCall), review.NotApplicable},
		{"responses-routed-by-request under routeByIdOnly", "cross-wired-response",
			doc(`"transport":"streamable-http","server":{"policy":{"routeByIdOnly":true}}`, httpCall), review.AtRisk},
		{"responses-routed-by-request without a handler", "cross-wired-response", doc(`"transport":"streamable-http"`, httpCall), review.NotApplicable},
		{"responses-routed-by-request with a handler", "cross-wired-response", doc(`"transport":"streamable-http",`+handler, httpCall), review.Mitigated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cardOf(t, mustReview(t, tc.data), tc.id)
			if c.Status != tc.want {
				t.Errorf("%s: status %s (%s), want %s", tc.id, c.Status, c.Why, tc.want)
			}
			if c.Why == "" {
				t.Errorf("%s: no why", tc.id)
			}
		})
	}
}
