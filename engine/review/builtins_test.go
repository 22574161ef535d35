package review_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/review"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestEveryBuiltInDecidesEveryCard reviews every built-in scenario with a
// call: each failure card is at-risk, mitigated or not-applicable (never
// not-evaluated), says why, and links a derived run of the review, so the
// reader can open the run the card rests on (DOMAIN.md §11; the statuses
// of review.Card).
func TestEveryBuiltInDecidesEveryCard(t *testing.T) {
	reviewed := 0
	for _, ex := range examples.All() {
		rep, err := review.Review(ex.JSON, opts)
		if errors.Is(err, review.ErrNoCall) {
			continue
		}
		if err != nil {
			t.Errorf("%s: review: %v", ex.Name, err)
			continue
		}
		reviewed++
		runs := map[string]string{}
		for _, run := range rep.Runs {
			runs[run.ID] = run.Link
		}
		for _, c := range rep.FailureCards {
			switch c.Status {
			case review.AtRisk, review.Mitigated, review.NotApplicable:
			default:
				t.Errorf("%s: card %s is %s: %s", ex.Name, c.ID, c.Status, c.Why)
			}
			if c.Why == "" {
				t.Errorf("%s: card %s (%s) says no why", ex.Name, c.ID, c.Status)
			}
			if c.Link == "" || runs[c.Run] != c.Link {
				t.Errorf("%s: card %s links %q (run %q), not a derived run of the review", ex.Name, c.ID, c.Link, c.Run)
			}
		}
	}
	if reviewed < 10 {
		t.Errorf("reviewed %d built-ins with a call, want every one (at least 10)", reviewed)
	}
}

// TestStagedAndRefusedCards: where a client switch hides a failure's
// trigger, the card rests on a staged run of the same operation with the
// trigger in place, says so, and is decided by the server's or client's
// own switch both ways; where the server refuses the call before it runs,
// or nothing is ever resumed, the failures of a call at work are
// not-applicable with the reason (review.NotApplicable's rule).
func TestStagedAndRefusedCards(t *testing.T) {
	const http26 = `"transport":"streamable-http","protocol":"2026-07-28",`
	const call = `{"at":0,"do":"call","id":7,"name":"crunch","progressToken":"p-7"}`
	const late = `{"at":5,"do":"call","id":7,"name":"crunch","progressToken":"p-7"}`
	for _, tc := range []struct {
		rule, data, card, status, run, says string
	}{
		{"disconnect-stops-work on a closed stream (DOMAIN.md §1)", doc(http26+`"client":{"policy":{"httpCancel":"post-notification"}}`, call),
			"disconnect-unobserved", review.Mitigated, "race-closed-stream", "Staged: client.policy.httpCancel is post-notification"},
		{"disconnect-stops-work broken by server.policy.ignoreDisconnect", doc(http26+`"client":{"policy":{"httpCancel":"post-notification"}},"server":{"policy":{"ignoreDisconnect":true}}`, call),
			"disconnect-unobserved", review.AtRisk, "race-closed-stream", "Staged:"},
		{"refetch-after-reconnect once the client reopens without Last-Event-ID (DOMAIN.md §9)", doc(http26+`"client":{"policy":{"sendLastEventId":true}}`, call),
			"skip-refetch", review.Mitigated, "reconnect-without-last-event-id", "Staged: client.policy.sendLastEventId is true"},
		{"refetch-after-reconnect broken by client.policy.skipRefetch", doc(http26+`"client":{"policy":{"sendLastEventId":true,"skipRefetch":true}}`, call),
			"skip-refetch", review.AtRisk, "reconnect-without-last-event-id", "Staged:"},
		{"progress-resets-idle past a buffering proxy (DOMAIN.md §2, §8)", doc(http26+`"server":{"sseHeaders":false},"proxy":{"buffering":true,"flushBytes":4096},"client":{"idleTimeoutMs":500,"maxTimeoutMs":5000}`, call),
			"ignore-progress", review.Mitigated, "deadlines-unbuffered", "Staged: the proxy buffers"},
		{"progress-resets-idle broken by client.policy.ignoreProgress", doc(http26+`"server":{"sseHeaders":false},"proxy":{"buffering":true,"flushBytes":4096},"client":{"idleTimeoutMs":500,"maxTimeoutMs":5000,"policy":{"ignoreProgress":true}}`, call),
			"ignore-progress", review.AtRisk, "deadlines-unbuffered", "Staged:"},
		{"a call refused for its headers never runs (-32020)", doc(http26+`"client":{"maxTimeoutMs":3000,"policy":{"headerMismatch":"Mcp-Name"}}`, call),
			"abandon-silently", review.NotApplicable, "", "HeaderMismatch (-32020)"},
		{"a call refused for its revision never runs (-32022)", doc(http26+`"client":{"maxTimeoutMs":3000,"policy":{"claimProtocolVersion":"2099-01-01"}}`, call),
			"abandon-silently", review.NotApplicable, "", "UnsupportedProtocolVersion (-32022)"},
		{"a call that arrives with notifications/initialized is rejected", doc(`"protocol":"2025-11-25","server":{"policy":{"asyncInitialized":true}},`+timeouts, call),
			"late-message-fatal", review.NotApplicable, "", "server.policy.asyncInitialized"},
		{"a call sent after the session opened is served", doc(`"protocol":"2025-11-25","server":{"policy":{"asyncInitialized":true}},`+timeouts, late),
			"abandon-silently", review.Mitigated, "silent-server", "abandon-tells-server"},
		{"stdio has no stream to resume", doc(`"protocol":"2025-11-25",`+timeouts, call),
			"forget-resume-token", review.NotApplicable, "", "On stdio"},
		{"a client that resumes no dropped call resumes nothing wrongly", doc(`"transport":"streamable-http","protocol":"2025-11-25","client":{"policy":{"resumeDroppedCalls":false}}`, call),
			"resume-without-last-event-id", review.NotApplicable, "call-stream-drop", "resumeDroppedCalls is false"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			rep := mustReview(t, tc.data)
			c := cardOf(t, rep, tc.card)
			if c.Status != tc.status || (tc.run != "" && c.Run != tc.run) || !strings.Contains(c.Why, tc.says) {
				t.Errorf("card %s: %s on run %s (%s); want %s on run %q, saying %q", tc.card, c.Status, c.Run, c.Why, tc.status, tc.run, tc.says)
			}
		})
	}
}

// TestBufferOverloadOverloads: the derived buffer-overload run pushes its
// progress after the call has reached the server, so no step of it is
// skipped and the buffer really meets 2 x capacity + 4 values (DOMAIN.md
// §7); a buffer that drops the final response or grows without bound is
// then at-risk on its card, and the reference buffer is mitigated on both.
func TestBufferOverloadOverloads(t *testing.T) {
	want := map[string]map[string]string{
		"broken-buffer-drops-final": {"final-dropped": review.AtRisk},
		"broken-buffer-unbounded":   {"unbounded-progress-queue": review.AtRisk},
		"buffer-reference-coalesce": {"final-dropped": review.Mitigated, "unbounded-progress-queue": review.Mitigated},
	}
	seen, overloaded := map[string]bool{}, 0
	for _, ex := range examples.All() {
		rep, err := review.Review(ex.JSON, opts)
		if errors.Is(err, review.ErrNoCall) {
			continue
		}
		if err != nil {
			t.Errorf("%s: review: %v", ex.Name, err)
			continue
		}
		refused := false
		for _, c := range rep.FailureCards {
			// A server that refuses the call before its handler runs
			// makes every failure of a call at work not-applicable: the
			// run shows the refusal, not an overload.
			refused = refused || (c.ID == "final-dropped" && c.Status == review.NotApplicable)
		}
		for _, run := range rep.Runs {
			if run.ID != "buffer-overload" || refused {
				continue
			}
			overloaded++
			for _, e := range run.Trace.Events {
				if e.Type == trace.TypeSkip {
					t.Errorf("%s: buffer-overload skips a step: %s", ex.Name, e.Note)
				}
			}
			b := rep.FlowControl.Buffer
			if b == nil {
				t.Errorf("%s: a buffer-overload run but no buffer evidence", ex.Name)
				continue
			}
			want := 24 // unboundedPush, into a buffer of capacity 0
			if c := b.Summary.Capacity; c > 0 {
				want = 2*c + 4
			}
			if b.Pushed != want || b.Summary.DroppedProgress+b.Summary.Coalesced == 0 && b.Summary.Capacity > 0 {
				t.Errorf("%s: buffer-overload pushed %d (want %d) and dropped or coalesced none: %+v", ex.Name, b.Pushed, want, b.Summary)
			}
		}
		cards, ok := want[ex.Name]
		if !ok {
			continue
		}
		seen[ex.Name] = true
		for _, c := range rep.FailureCards {
			if st, ok := cards[c.ID]; ok {
				if c.Status != st || c.Run != "buffer-overload" {
					t.Errorf("%s: card %s is %s on run %q (%s), want %s on buffer-overload", ex.Name, c.ID, c.Status, c.Run, c.Why, st)
				}
				delete(cards, c.ID)
			}
		}
		for id := range cards {
			t.Errorf("%s: no card %s", ex.Name, id)
		}
	}
	if len(seen) != len(want) || overloaded < len(want) {
		t.Errorf("reviewed %d of the %d buffer built-ins, %d buffer-overload runs", len(seen), len(want), overloaded)
	}
}
