package checks_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The traces here are built by hand, event by event, so the checks are
// proven on their own: they judge what is on the wire and what each side
// did, whoever produced the trace (the runner, or an imported transcript).

// ---- building traces ------------------------------------------------------

func mustScenario(t *testing.T, members string) *scenario.Scenario {
	t.Helper()
	if members != "" {
		members += ","
	}
	s, err := scenario.Decode([]byte(`{"mcplab":1,` + members + `"steps":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func id(raw string) *scenario.ID {
	var v scenario.ID
	if err := v.UnmarshalJSON([]byte(raw)); err != nil {
		panic(err)
	}
	return &v
}

// send is actor from putting msg on the wire.
func send(at int64, from trace.Actor, reqID, msg string) trace.Event {
	to := trace.ActorServer
	if from == trace.ActorServer {
		to = trace.ActorClient
	}
	e := trace.Event{At: at, Actor: from, Type: trace.TypeSend, From: from, To: to, Message: []byte(msg)}
	if reqID != "" {
		e.ID = id(reqID)
	}
	return e
}

// deliver is msg, sent at sentAt, reaching to.
func deliver(at, sentAt int64, to trace.Actor, msg string) trace.Event {
	from := trace.ActorClient
	if to == trace.ActorClient {
		from = trace.ActorServer
	}
	return trace.Event{At: at, Actor: trace.ActorNetwork, Type: trace.TypeDeliver, From: from, To: to, SentAt: &sentAt, Message: []byte(msg)}
}

// act is actor doing typ about request reqID.
func act(at int64, actor trace.Actor, typ trace.EventType, reqID string) trace.Event {
	e := trace.Event{At: at, Actor: actor, Type: typ}
	if reqID != "" {
		e.ID = id(reqID)
	}
	return e
}

func status(at int64, reqID, state, cause string) trace.Event {
	e := act(at, trace.ActorServer, trace.TypeStatus, reqID)
	e.Status, e.Cause = state, cause
	return e
}

func timeout(at int64, reqID, cause string) trace.Event {
	e := act(at, trace.ActorClient, trace.TypeTimeout, reqID)
	e.Cause = cause
	return e
}

func closeStream(at int64, actor trace.Actor, reqID string) trace.Event {
	e := act(at, actor, trace.TypeCloseStream, reqID)
	e.From, e.To, e.Signal = trace.ActorClient, trace.ActorServer, trace.SignalCloseStream
	return e
}

// build numbers the events and ends the trace at the last one.
func build(s *scenario.Scenario, reqs []trace.Request, evs ...trace.Event) *trace.Trace {
	for i := range evs {
		evs[i].Seq = i
	}
	tr := &trace.Trace{Mcplab: 1, Scenario: s, Events: evs, Requests: reqs}
	if len(evs) > 0 {
		tr.EndMs = evs[len(evs)-1].At
	}
	return tr
}

// request is a requests[] entry for id 7 with the client's deadlines.
func request(sentAt, idle, max int64, endedAt *int64) []trace.Request {
	return []trace.Request{{ID: *id(`7`), Method: "tools/call", State: trace.StateInProgress, SentAt: sentAt, EndedAt: endedAt, IdleTimeoutMs: idle, MaxTimeoutMs: max}}
}

func at(ms int64) *int64 { return &ms }

const (
	req7      = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{},"_meta":{"progressToken":"p"}}}`
	req8      = `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"other","arguments":{},"_meta":{"progressToken":"q"}}}`
	resp7     = `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`
	err7      = `{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"x"}}`
	cancel7   = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"r"}}`
	listen9   = `{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}`
	cancel9   = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`
	initReq1  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	cancel1   = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`
	absent    = "absent"
	client    = trace.ActorClient
	server    = trace.ActorServer
	cancelled = trace.StateCancelled
)

func progress(token string, v float64) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%q,"progress":%v}}`, token, v)
}

// ---- the table ------------------------------------------------------------

// TestChecks proves each rule of DOMAIN.md that checks.Evaluate judges: for
// every rule a trace where it holds (ok true), one where it is broken (ok
// false, naming the offending events), one where its subject is absent (the
// check is omitted), and where it applies one the trace cannot decide (ok
// null).
func TestChecks(t *testing.T) {
	stdio := mustScenario(t, `"transport":"stdio"`)
	http26 := mustScenario(t, `"transport":"streamable-http","protocol":"2026-07-28"`)
	http25 := mustScenario(t, `"transport":"streamable-http","protocol":"2025-11-25"`)
	stdio25 := mustScenario(t, `"protocol":"2025-11-25"`)

	tests := []struct {
		name       string
		rule       trace.RuleID
		tr         *trace.Trace
		want       string // "true", "false", "null" or absent
		wantEvents []int  // the seqs the check names, when given
	}{
		// §1: after a cancellation wins the server sends nothing more for it.
		{"server silent after cancelling", checks.NoMessageAfterCancel, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "7", progress("p", 1)), status(310, "7", cancelled, "client")),
			"true", []int{2}},
		{"response after cancelling", checks.NoMessageAfterCancel, build(stdio, nil,
			send(0, client, "7", req7), status(310, "7", cancelled, "client"), send(320, server, "7", resp7)),
			"false", []int{2}},
		{"error after cancelling", checks.NoMessageAfterCancel, build(stdio, nil,
			send(0, client, "7", req7), status(310, "7", cancelled, "client"), send(320, server, "7", err7)),
			"false", []int{2}},
		{"progress after cancelling, found by its token", checks.NoMessageAfterCancel, build(stdio, nil,
			send(0, client, "7", req7), status(310, "7", cancelled, "client"), send(315, server, "", progress("p", 2))),
			"false", []int{2}},
		{"another request's messages after cancelling are fine", checks.NoMessageAfterCancel, build(stdio, nil,
			send(0, client, "7", req7), send(0, client, "8", req8), status(310, "7", cancelled, "client"),
			send(315, server, "", progress("q", 1)), send(320, server, "8", `{"jsonrpc":"2.0","id":8,"result":{}}`)),
			"true", nil},
		{"no cancellation accepted", checks.NoMessageAfterCancel, build(stdio, nil,
			send(0, client, "7", req7), send(100, client, "", cancel7), act(110, server, trace.TypeIgnore, "7"), send(120, server, "7", resp7)),
			absent, nil},

		// §1: Streamable HTTP 2026-07-28 cancels by closing the stream.
		{"2026 HTTP closes the stream", checks.HTTPCancelClosesStream, build(http26, nil,
			send(0, client, "7", req7), closeStream(300, client, "7")),
			"true", []int{1}},
		{"2026 HTTP POSTs notifications/cancelled", checks.HTTPCancelClosesStream, build(http26, nil,
			send(0, client, "7", req7), send(300, client, "7", cancel7)),
			"false", []int{1}},
		{"2026 HTTP POSTs even alongside a close", checks.HTTPCancelClosesStream, build(http26, nil,
			send(0, client, "7", req7), closeStream(300, client, "7"), send(300, client, "7", cancel7)),
			"false", []int{2}},
		{"2026 HTTP: a network disconnect is not the client's signal", checks.HTTPCancelClosesStream, build(http26, nil,
			send(0, client, "7", req7), closeStream(300, trace.ActorNetwork, "7")),
			absent, nil},
		{"2026 HTTP without cancellation", checks.HTTPCancelClosesStream, build(http26, nil,
			send(0, client, "7", req7), send(100, server, "7", resp7)),
			absent, nil},
		{"stdio notification is not judged as HTTP", checks.HTTPCancelClosesStream, build(stdio, nil,
			send(0, client, "7", req7), send(300, client, "7", cancel7)),
			absent, nil},
		{"a transcript without a revision cannot decide", checks.HTTPCancelClosesStream, build(nil, nil,
			send(0, client, "7", req7), closeStream(300, client, "7")),
			"null", nil},

		// §1: Streamable HTTP 2025-11-25 cancels by POSTing the notification.
		{"2025 HTTP POSTs notifications/cancelled", checks.HTTPCancelPostsNotification, build(http25, nil,
			send(0, client, "7", req7), send(300, client, "7", cancel7)),
			"true", []int{1}},
		{"2025 HTTP only closes the stream", checks.HTTPCancelPostsNotification, build(http25, nil,
			send(0, client, "7", req7), closeStream(300, client, "7")),
			"false", []int{1}},
		{"2025 stdio is not judged as HTTP", checks.HTTPCancelPostsNotification, build(stdio25, nil,
			send(0, client, "7", req7), send(300, client, "7", cancel7)),
			absent, nil},

		// §3: progress strictly increases per token.
		{"increasing progress", checks.ProgressIncreases, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "", progress("p", 1)), send(200, server, "", progress("p", 1.5))),
			"true", nil},
		{"equal progress", checks.ProgressIncreases, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "", progress("p", 1)), send(200, server, "", progress("p", 1))),
			"false", []int{2}},
		{"lower progress", checks.ProgressIncreases, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "", progress("p", 2)), send(200, server, "", progress("p", 1)), send(300, server, "", progress("p", 3))),
			"false", []int{2}},
		{"tokens are independent", checks.ProgressIncreases, build(stdio, nil,
			send(0, client, "7", req7), send(0, client, "8", req8), send(100, server, "", progress("p", 5)), send(200, server, "", progress("q", 1))),
			"true", nil},
		{"no progress on the wire", checks.ProgressIncreases, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "7", resp7)),
			absent, nil},

		// §3: a non-increasing value must not reset the client's idle clock.
		{"stale progress ignored", checks.StaleProgressIgnored, build(stdio, nil,
			deliver(100, 100, client, progress("p", 1)), act(100, client, trace.TypeActivity, "7"),
			deliver(400, 400, client, progress("p", 1)), act(400, client, trace.TypeIgnore, "7")),
			"true", []int{3}},
		{"stale progress taken as activity", checks.StaleProgressIgnored, build(stdio, nil,
			deliver(100, 100, client, progress("p", 2)), act(100, client, trace.TypeActivity, "7"),
			deliver(400, 400, client, progress("p", 1)), act(400, client, trace.TypeActivity, "7")),
			"false", []int{3}},
		{"no reaction recorded", checks.StaleProgressIgnored, build(stdio, nil,
			deliver(100, 100, client, progress("p", 1)), act(100, client, trace.TypeActivity, "7"),
			deliver(400, 400, client, progress("p", 1))),
			"null", nil},
		{"only increasing progress delivered", checks.StaleProgressIgnored, build(stdio, nil,
			deliver(100, 100, client, progress("p", 1)), act(100, client, trace.TypeActivity, "7"),
			deliver(400, 400, client, progress("p", 2)), act(400, client, trace.TypeActivity, "7")),
			absent, nil},

		// §3: progress stops after the final response.
		{"progress then response", checks.NoProgressAfterFinal, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "", progress("p", 1)), send(200, server, "7", resp7)),
			"true", nil},
		{"progress after the response", checks.NoProgressAfterFinal, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "", progress("p", 1)), send(200, server, "7", resp7), send(300, server, "", progress("p", 2))),
			"false", []int{3}},
		{"progress after an error response", checks.NoProgressAfterFinal, build(stdio, nil,
			send(0, client, "7", req7), send(200, server, "7", err7), send(300, server, "", progress("p", 2))),
			"false", []int{2}},
		{"another request's progress after a response is fine", checks.NoProgressAfterFinal, build(stdio, nil,
			send(0, client, "7", req7), send(0, client, "8", req8), send(200, server, "7", resp7), send(300, server, "", progress("q", 2))),
			"true", nil},
		{"progress but no final", checks.NoProgressAfterFinal, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "", progress("p", 1))),
			absent, nil},
		{"final but no progress", checks.NoProgressAfterFinal, build(stdio, nil,
			send(0, client, "7", req7), send(200, server, "7", resp7)),
			absent, nil},

		// §2: nothing resets the maximum: the client stops waiting by start + max.
		{"cut by the maximum at exactly start + max", checks.MaxTimeoutEnforced, build(stdio, request(0, 500, 2000, at(2000)),
			send(0, client, "7", req7), act(1999, client, trace.TypeActivity, "7"), timeout(2000, "7", trace.CauseMaxTimeout)),
			"true", []int{2}},
		{"answered before the maximum", checks.MaxTimeoutEnforced, build(stdio, request(100, 0, 2000, at(700)),
			send(100, client, "7", req7), act(700, client, trace.TypeAccept, "7")),
			"true", nil},
		{"waited for past the maximum", checks.MaxTimeoutEnforced, build(stdio, request(0, 500, 2000, at(3300)),
			send(0, client, "7", req7), timeout(3300, "7", trace.CauseIdleTimeout)),
			"false", []int{1}},
		{"still waiting past the maximum when the trace ends", checks.MaxTimeoutEnforced, build(stdio, request(0, 0, 2000, nil),
			send(0, client, "7", req7), act(2500, client, trace.TypeActivity, "7")),
			"false", nil},
		{"trace ends before the deadline: not a violation", checks.MaxTimeoutEnforced, build(stdio, request(0, 0, 2000, nil),
			send(0, client, "7", req7), act(1500, client, trace.TypeActivity, "7")),
			"true", nil},
		{"no maximum configured", checks.MaxTimeoutEnforced, build(stdio, request(0, 500, 0, at(500)),
			send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout)),
			absent, nil},

		// §2: progress resets the idle clock; without it the client gives up after idle.
		{"idle deadline at exactly last activity + idle", checks.IdleTimeoutEnforced, build(stdio, request(0, 500, 0, at(1700)),
			send(0, client, "7", req7), act(400, client, trace.TypeActivity, "7"), act(800, client, trace.TypeActivity, "7"),
			act(1200, client, trace.TypeActivity, "7"), timeout(1700, "7", trace.CauseIdleTimeout)),
			"true", []int{4}},
		{"answered while activity kept it alive", checks.IdleTimeoutEnforced, build(stdio, request(0, 500, 0, at(900)),
			send(0, client, "7", req7), act(400, client, trace.TypeActivity, "7"), act(900, client, trace.TypeAccept, "7")),
			"true", nil},
		{"waited 600 ms without activity", checks.IdleTimeoutEnforced, build(stdio, request(0, 500, 0, at(1000)),
			send(0, client, "7", req7), act(400, client, trace.TypeActivity, "7"), act(1000, client, trace.TypeAccept, "7")),
			"false", []int{2}},
		{"stale progress ignored is not activity", checks.IdleTimeoutEnforced, build(stdio, request(0, 500, 0, at(800)),
			send(0, client, "7", req7), act(100, client, trace.TypeActivity, "7"), act(400, client, trace.TypeIgnore, "7"), act(800, client, trace.TypeAccept, "7")),
			"false", []int{3}},
		{"still waiting past idle when the trace ends", checks.IdleTimeoutEnforced, build(stdio, request(0, 500, 0, nil),
			send(0, client, "7", req7), act(800, server, trace.TypeStart, "7")),
			"false", nil},
		{"no idle timeout configured", checks.IdleTimeoutEnforced, build(stdio, request(0, 0, 2000, at(2000)),
			send(0, client, "7", req7), timeout(2000, "7", trace.CauseMaxTimeout)),
			absent, nil},

		// §1: the client ignores a response for a request it abandoned.
		{"late response after a timeout ignored", checks.LateResponseIgnored, build(stdio, nil,
			send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), deliver(600, 590, client, resp7), act(600, client, trace.TypeIgnore, "7")),
			"true", []int{3}},
		{"late response after a cancellation notification ignored", checks.LateResponseIgnored, build(stdio, nil,
			send(0, client, "7", req7), send(105, client, "7", cancel7), deliver(110, 100, client, resp7), act(110, client, trace.TypeIgnore, "7")),
			"true", []int{3}},
		{"late response after closing the stream ignored", checks.LateResponseIgnored, build(http26, nil,
			send(0, client, "7", req7), closeStream(105, client, "7"), deliver(110, 100, client, resp7), act(110, client, trace.TypeIgnore, "7")),
			"true", []int{3}},
		{"late response used", checks.LateResponseIgnored, build(stdio, nil,
			send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), deliver(600, 590, client, resp7), act(600, client, trace.TypeAccept, "7")),
			"false", []int{3}},
		{"openai/codex#20925: cancelled, kept waiting, then used the answer", checks.LateResponseIgnored, build(stdio, nil,
			send(0, client, "7", req7), send(100, client, "7", cancel7), act(100, client, trace.TypeAwait, "7"), deliver(520, 510, client, resp7), act(520, client, trace.TypeAccept, "7")),
			"false", []int{4}},
		{"late response with no recorded reaction", checks.LateResponseIgnored, build(stdio, nil,
			send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), deliver(600, 590, client, resp7)),
			"null", nil},
		{"response to a request never abandoned", checks.LateResponseIgnored, build(stdio, nil,
			send(0, client, "7", req7), deliver(110, 100, client, resp7), act(110, client, trace.TypeAccept, "7")),
			absent, nil},

		// §1: a server-sent cancellation only tears down a listen stream.
		{"server cancels a listen stream", checks.ServerCancelOnlyForListen, build(stdio, nil,
			send(0, client, "9", listen9), send(500, server, "9", cancel9)),
			"true", []int{1}},
		{"server cancels a tool call", checks.ServerCancelOnlyForListen, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "", cancel7)),
			"false", []int{1}},
		{"server cancels an unknown request", checks.ServerCancelOnlyForListen, build(stdio, nil,
			send(100, server, "", cancel9)),
			"false", []int{0}},
		{"server sends a malformed cancellation", checks.ServerCancelOnlyForListen, build(stdio, nil,
			send(0, client, "9", listen9), send(100, server, "", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`)),
			"false", []int{1}},
		{"client cancellations are not the server's", checks.ServerCancelOnlyForListen, build(stdio, nil,
			send(0, client, "7", req7), send(100, client, "7", cancel7)),
			absent, nil},

		// §1: a cancellation is a notification; nothing answers it.
		{"cancellation unanswered", checks.CancellationNeverAnswered, build(stdio, nil,
			send(0, client, "7", req7), send(100, client, "7", cancel7), send(120, server, "7", resp7)),
			"true", []int{1}},
		{"cancellation answered with a null id", checks.CancellationNeverAnswered, build(stdio, nil,
			send(0, client, "7", req7), send(100, client, "7", cancel7), send(110, server, "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}`)),
			"false", []int{2}},
		{"cancellation answered with an unknown id", checks.CancellationNeverAnswered, build(stdio, nil,
			send(0, client, "7", req7), send(100, client, "7", cancel7), send(110, server, "", `{"jsonrpc":"2.0","id":99,"result":{}}`)),
			"false", []int{2}},
		{"no cancellation sent", checks.CancellationNeverAnswered, build(stdio, nil,
			send(0, client, "7", req7), send(110, server, "", `{"jsonrpc":"2.0","id":99,"result":{}}`)),
			absent, nil},

		// §1: one terminal state, one final response per request.
		{"one response", checks.OneResponsePerRequest, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "7", resp7)),
			"true", nil},
		{"7 and \"7\" are different requests", checks.OneResponsePerRequest, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "7", resp7), send(100, server, `"7"`, `{"jsonrpc":"2.0","id":"7","result":{}}`)),
			"true", nil},
		{"two responses", checks.OneResponsePerRequest, build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "7", resp7), send(200, server, "7", err7)),
			"false", []int{2}},
		{"no response", checks.OneResponsePerRequest, build(stdio, nil,
			send(0, client, "7", req7)),
			absent, nil},

		// §1, 2025-11-25 only: initialize is never cancelled.
		{"initialize not cancelled", checks.InitializeNotCancelled, build(stdio25, nil,
			send(0, client, "1", initReq1), send(100, server, "1", `{"jsonrpc":"2.0","id":1,"result":{}}`)),
			"true", nil},
		{"initialize cancelled by notification", checks.InitializeNotCancelled, build(stdio25, nil,
			send(0, client, "1", initReq1), send(100, client, "1", cancel1)),
			"false", []int{1}},
		{"initialize cancelled by closing its stream", checks.InitializeNotCancelled, build(http25, nil,
			send(0, client, "1", initReq1), closeStream(100, client, "1")),
			"false", []int{1}},
		{"2026-07-28 does not have the rule", checks.InitializeNotCancelled, build(stdio, nil,
			send(0, client, "1", initReq1), send(100, client, "1", cancel1)),
			absent, nil},
		{"no initialize", checks.InitializeNotCancelled, build(stdio25, nil,
			send(0, client, "7", req7), send(100, client, "7", cancel7)),
			absent, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			got := checks.Evaluate(tt.tr)
			var c *trace.Check
			for i := range got {
				if got[i].Rule == tt.rule {
					if c != nil {
						t.Fatalf("%s listed twice", tt.rule)
					}
					c = &got[i]
				}
			}
			if tt.want == absent {
				if c != nil {
					t.Fatalf("%s present (ok=%s: %s), want it omitted: its subject is absent", tt.rule, okText(c.OK), c.Detail)
				}
				return
			}
			if c == nil {
				t.Fatalf("%s omitted, want ok=%s (got %s)", tt.rule, tt.want, list(got))
			}
			if okText(c.OK) != tt.want {
				t.Fatalf("%s ok=%s (%s), want %s", tt.rule, okText(c.OK), c.Detail, tt.want)
			}
			if c.Detail == "" {
				t.Errorf("%s has no detail", tt.rule)
			}
			if tt.wantEvents != nil && !slices.Equal(c.Events, tt.wantEvents) {
				t.Errorf("%s names events %v, want %v", tt.rule, c.Events, tt.wantEvents)
			}
			for _, seq := range c.Events {
				if seq < 0 || seq >= len(tt.tr.Events) {
					t.Errorf("%s names event %d, outside the trace", tt.rule, seq)
				}
			}
		})
	}
}

func okText(ok *bool) string {
	if ok == nil {
		return "null"
	}
	return fmt.Sprint(*ok)
}

func list(cs []trace.Check) string {
	var s []string
	for _, c := range cs {
		s = append(s, string(c.Rule)+"="+okText(c.OK))
	}
	return "[" + strings.Join(s, " ") + "]"
}

// TestEvaluateEmptyAndOrder proves Evaluate lists no check for a trace with
// nothing to judge (an empty list, not null, so the JSON says []), and
// lists checks in a fixed order whatever the events.
func TestEvaluateEmptyAndOrder(t *testing.T) {
	if got := checks.Evaluate(build(nil, nil)); got == nil || len(got) != 0 {
		t.Fatalf("Evaluate(empty) = %#v, want an empty, non-nil list", got)
	}
	s := mustScenario(t, `"transport":"streamable-http","protocol":"2026-07-28"`)
	tr := build(s, request(0, 500, 2000, at(2000)),
		send(0, client, "7", req7), send(100, server, "", progress("p", 1)), deliver(100, 100, client, progress("p", 1)),
		act(100, client, trace.TypeActivity, "7"), send(200, client, "7", cancel7), status(210, "7", cancelled, "client"),
		send(220, server, "7", resp7), timeout(2000, "7", trace.CauseMaxTimeout))
	want := []trace.RuleID{checks.NoMessageAfterCancel, checks.HTTPCancelClosesStream, checks.ProgressIncreases, checks.NoProgressAfterFinal,
		checks.MaxTimeoutEnforced, checks.IdleTimeoutEnforced, checks.ProgressResetsIdle, checks.ProgressTokenKnown, checks.CancellationNeverAnswered, checks.OneResponsePerRequest,
		checks.RequestHasTimeout, checks.WorkStopsAfterCancel, checks.MaximumBoundsProgress, checks.CallOutcomeKnown}
	var got []trace.RuleID
	for _, c := range checks.Evaluate(tr) {
		got = append(got, c.Rule)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rules %v, want %v", got, want)
	}
}

// Example: a hand-written transcript in which the server answered after
// accepting a cancellation (DOMAIN.md §11, "server responds after accepted
// cancellation").
func ExampleEvaluate() {
	tr := build(nil, nil,
		send(0, client, "7", req7),
		send(300, client, "7", cancel7),
		status(310, "7", cancelled, "client"),
		send(320, server, "7", resp7),
	)
	for _, c := range checks.Evaluate(tr) {
		fmt.Printf("%s ok=%s events=%v\n", c.Rule, okText(c.OK), c.Events)
	}
	// Output:
	// no-message-after-cancel ok=false events=[3]
	// cancellation-never-answered ok=true events=[1]
	// one-response-per-request ok=true events=[]
	// work-stops-after-cancel ok=true events=[2 3]
	// call-outcome-known ok=true events=[1]
}

// TestLateResponseDetail: late-response-ignored's detail cites the event
// where the client used the answer and says what the client did (DOMAIN.md
// §1): a client that cancelled and kept waiting is not called one that
// abandoned the request.
func TestLateResponseDetail(t *testing.T) {
	stdio := mustScenario(t, `"transport":"stdio"`)
	tests := []struct {
		name, says, never string
		tr                *trace.Trace
	}{
		{"cancelled and kept waiting (await-after-cancel)", "cancelled (#4): it cancelled and kept waiting", "given up on",
			build(stdio, nil, send(0, client, "7", req7), send(100, client, "7", cancel7), act(100, client, trace.TypeAwait, "7"), deliver(520, 510, client, resp7), act(520, client, trace.TypeAccept, "7"))},
		{"timed out, then used the answer", "given up on (#3)", "kept waiting",
			build(stdio, nil, send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout), deliver(600, 590, client, resp7), act(600, client, trace.TypeAccept, "7"))},
	}
	for _, tt := range tests {
		t.Run(string(checks.LateResponseIgnored)+"/"+tt.name, func(t *testing.T) {
			found := false
			for _, c := range checks.Evaluate(tt.tr) {
				if c.Rule != checks.LateResponseIgnored {
					continue
				}
				found = true
				if c.OK == nil || *c.OK {
					t.Fatalf("%s passed or undecided: %s", checks.LateResponseIgnored, c.Detail)
				}
				if !strings.Contains(c.Detail, tt.says) || strings.Contains(c.Detail, tt.never) {
					t.Errorf("detail %q: want %q and not %q", c.Detail, tt.says, tt.never)
				}
			}
			if !found {
				t.Fatalf("%s not listed", checks.LateResponseIgnored)
			}
		})
	}
}
