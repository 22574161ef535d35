package checks_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// The rules for the failures of the field (SCENARIO.md, "Switches for the
// failures real software shows"), each proven on hand-built traces: the
// correct behaviour passes, the broken one fails, and a legitimate case the
// rule must not flag passes.

// verdictOf returns the ok text of rule in tr's checks, or absent.
func verdictOf(t *testing.T, tr *trace.Trace, rule trace.RuleID) string {
	t.Helper()
	for _, c := range checks.Evaluate(tr) {
		if c.Rule == rule {
			if c.Detail == "" {
				t.Errorf("%s has no detail", rule)
			}
			return okText(c.OK)
		}
	}
	return absent
}

// herd builds a herd result whose sampled clients drew delays[i] for
// attempt a (a one-point window when point), with arrivals per bucket.
func herd(point bool, buckets [][2]int64, delays ...[]int64) *trace.Trace {
	h := &trace.HerdResult{Strategy: "x", Clients: 10000, BucketMs: 100, CapacityPerSecond: 2000, Buckets: buckets, Reconnected: 10000}
	end := int64(9000)
	h.AllReconnectedAtMs = &end
	for i, ds := range delays {
		s := trace.HerdSample{ClientID: "client-" + string(rune('0'+i))}
		for a, d := range ds {
			w := [2]int64{d / 2, d}
			if point {
				w = [2]int64{d, d}
			}
			s.Draws = append(s.Draws, trace.HerdDraw{Attempt: a, WindowMs: w, DelayMs: d})
		}
		h.Sample = append(h.Sample, s)
	}
	tr := build(nil, nil)
	tr.Herd = h
	return tr
}

// TestHerdRules proves herd-jittered and herd-all-reconnect (DOMAIN.md §10,
// failure lockstep-backoff): equal delays from a one-point window are
// lockstep; jittered delays that happen to coincide for one client pair are
// not; herd-all-reconnect judges only whether every client got back.
func TestHerdRules(t *testing.T) {
	spread := [][2]int64{{100, 5905}, {200, 4095}, {500, 3210}, {600, 2809}}
	lockstep := [][2]int64{{200, 10000}, {300, 0}, {700, 8000}}
	tests := []struct {
		name string
		rule trace.RuleID
		want string
		tr   *trace.Trace
	}{
		{"jittered delays differ", checks.HerdJittered, "true", herd(false, spread, []int64{140, 400}, []int64{210, 300})},
		{"exponential without jitter: equal delays", checks.HerdJittered, "false", herd(true, lockstep, []int64{250, 500}, []int64{250, 500})},
		{"a jittered pair that coincides is not lockstep", checks.HerdJittered, "true", herd(false, spread, []int64{200, 400}, []int64{200, 300})},
		{"one sampled client cannot decide", checks.HerdJittered, "null", herd(true, lockstep, []int64{250})},
		{"spread waves pass", checks.HerdAllReconnect, "true", herd(false, spread, []int64{140}, []int64{210})},
		// a lockstep herd that all got back breaks herd-jittered (the
		// rule SCENARIO.md names for lockstep), not herd-all-reconnect.
		{"a whole wave in one bucket, all got in: every client reconnected", checks.HerdAllReconnect, "true", herd(true, lockstep, []int64{250}, []int64{250})},
		{"a whole wave in one bucket, all got in: lockstep", checks.HerdJittered, "false", herd(true, lockstep, []int64{250}, []int64{250})},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, tt.rule); got != tt.want {
				t.Errorf("%s: ok=%s, want %s", tt.rule, got, tt.want)
			}
		})
	}
}

// teardown is the client tearing down its session about reqID.
func teardown(at int64, reqID string) trace.Event {
	e := act(at, client, trace.TypeError, reqID)
	e.Cause = trace.CauseSessionTeardown
	return e
}

// TestClientReactionRules proves late-message-tolerated, late-progress-ignored
// and progress-resets-idle (DOMAIN.md §1–3, §11 late-message-fatal and
// ignore-progress), including the legitimate cases they must not flag.
func TestClientReactionRules(t *testing.T) {
	stdio := mustScenario(t, `"transport":"stdio"`)
	late := func(react trace.Event) *trace.Trace {
		return build(stdio, nil,
			send(0, client, "7", req7), send(300, client, "", cancel7), send(300, server, "7", resp7),
			deliver(310, 300, client, resp7), react)
	}
	lateProgress := func(react trace.Event) *trace.Trace {
		return build(stdio, nil,
			send(0, client, "7", req7), deliver(210, 200, client, resp7), act(210, client, trace.TypeAccept, "7"),
			deliver(260, 250, client, progress("p", 2)), react)
	}
	// idle builds request 7 (idle 500) with valid progress delivered at
	// progressAt and an idle timeout at timeoutAt.
	idle := func(progressAt, timeoutAt int64, values ...float64) *trace.Trace {
		evs := []trace.Event{send(0, client, "7", req7)}
		for _, v := range values {
			evs = append(evs, deliver(progressAt, progressAt-10, client, progress("p", v)))
		}
		evs = append(evs, timeout(timeoutAt, "7", trace.CauseIdleTimeout))
		return build(stdio, request(0, 500, 0, at(timeoutAt)), evs...)
	}
	tests := []struct {
		name string
		rule trace.RuleID
		want string
		tr   *trace.Trace
	}{
		{"late response dropped", checks.LateMessageTolerated, "true", late(act(310, client, trace.TypeIgnore, "7"))},
		{"late response tears down the session", checks.LateMessageTolerated, "false", late(teardown(310, "7"))},
		{"no late message: omitted", checks.LateMessageTolerated, absent, build(stdio, nil, send(0, client, "7", req7), deliver(10, 5, client, resp7))},
		{"late progress tears down the session", checks.LateMessageTolerated, "false", lateProgress(teardown(260, ""))},
		{"late progress ignored", checks.LateProgressIgnored, "true", lateProgress(act(260, client, trace.TypeIgnore, ""))},
		{"late progress resets a clock", checks.LateProgressIgnored, "false", lateProgress(act(260, client, trace.TypeActivity, "7"))},
		{"late progress is a protocol error", checks.LateProgressIgnored, "false", lateProgress(teardown(260, ""))},
		{"progress for a pending request is not late", checks.LateProgressIgnored, absent, build(stdio, nil,
			send(0, client, "7", req7), deliver(100, 90, client, progress("p", 1)), act(100, client, trace.TypeActivity, "7"))},
		{"idle timeout a full limit after progress", checks.ProgressResetsIdle, "true", idle(400, 900, 1)},
		{"idle timeout 100 ms after valid progress", checks.ProgressResetsIdle, "false", idle(400, 500, 1)},
		{"stale progress does not count as activity", checks.ProgressResetsIdle, "true", build(stdio, request(0, 500, 0, at(900)),
			send(0, client, "7", req7), deliver(400, 390, client, progress("p", 2)), deliver(800, 790, client, progress("p", 2)),
			timeout(900, "7", trace.CauseIdleTimeout))},
		{"no idle timeout configured: omitted", checks.ProgressResetsIdle, absent, build(stdio, request(0, 0, 2000, at(2000)),
			send(0, client, "7", req7), deliver(400, 390, client, progress("p", 1)), timeout(2000, "7", trace.CauseMaxTimeout))},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, tt.rule); got != tt.want {
				t.Errorf("%s: ok=%s, want %s", tt.rule, got, tt.want)
			}
		})
	}
}

// TestDisconnectStopsWork proves disconnect-stops-work (DOMAIN.md §1, §11
// disconnect-unobserved): after the server saw the stream close it sends
// nothing more and commits no effect; a response it sent before the close
// arrived (the race) is not flagged; under 2025-11-25 the rule is omitted.
func TestDisconnectStopsWork(t *testing.T) {
	http26 := mustScenario(t, `"transport":"streamable-http","protocol":"2026-07-28"`)
	http25 := mustScenario(t, `"transport":"streamable-http","protocol":"2025-11-25"`)
	closeSeen := func(at int64) trace.Event {
		e := deliver(at, at-10, server, "")
		e.ID, e.Signal, e.Message = id("7"), trace.SignalCloseStream, nil
		return e
	}
	effect := act(800, trace.ActorLedger, trace.TypeEffect, "7")
	tests := []struct {
		name, want string
		tr         *trace.Trace
	}{
		{"the server stops", "true", build(http26, nil, send(0, client, "7", req7), closeStream(300, client, "7"), closeSeen(310), status(310, "7", cancelled, "client"))},
		{"progress into the closed stream", "false", build(http26, nil, send(0, client, "7", req7), closeStream(300, client, "7"), closeSeen(310), send(400, server, "", progress("p", 2)))},
		{"the side effect commits after the close", "false", build(http26, nil, send(0, client, "7", req7), closeStream(300, client, "7"), closeSeen(310), effect)},
		{"a response sent before the close arrived", "true", build(http26, nil, send(0, client, "7", req7), send(305, server, "7", resp7), closeStream(300, client, "7"), closeSeen(310))},
		{"2025-11-25: a disconnect is not a cancellation", absent, build(http25, nil, send(0, client, "7", req7), closeStream(300, client, "7"), closeSeen(310), effect)},
		{"no revision known", "null", build(nil, nil, send(0, client, "7", req7), closeSeen(310))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, checks.DisconnectStopsWork); got != tt.want {
				t.Errorf("ok=%s, want %s", got, tt.want)
			}
		})
	}
}

// TestPollIntervalRespected proves poll-interval-respected (DOMAIN.md §6):
// one polling loop at the advertised pollIntervalMs passes, also at exactly
// the interval; the second loop a tasks/cancel acknowledgement used to start
// (polls 100 ms apart with an interval of 300) fails; another task's poll
// in between is not flagged (the interval is per task); a 2025-11-25 Task
// advertises the interval as pollInterval.
func TestPollIntervalRespected(t *testing.T) {
	s := mustScenario(t, `"transport":"stdio"`)
	created := `{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","task":{"taskId":"task-42","status":"working","pollIntervalMs":300}}}`
	get := func(n int) string {
		return `{"jsonrpc":"2.0","id":"tasks/get-` + string(rune('0'+n)) + `","method":"tasks/get","params":{"taskId":"task-42"}}`
	}
	created2025 := `{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"task-42","status":"working","pollInterval":300}}}`
	pollsAfter := func(handle string, at ...int64) *trace.Trace {
		evs := []trace.Event{send(0, client, "1", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"render"}}`), send(10, server, "1", handle)}
		for n, a := range at {
			evs = append(evs, send(a, client, "", get(n+1)))
		}
		return build(s, nil, evs...)
	}
	polls := func(at ...int64) *trace.Trace { return pollsAfter(created, at...) }
	tests := []struct {
		name, want string
		tr         *trace.Trace
	}{
		{"one loop at the interval", "true", polls(320, 640, 960)},
		{"a second loop after the acknowledgement", "false", polls(320, 420, 640)},
		{"a single poll: omitted", absent, polls(320)},
		{"polls exactly pollIntervalMs apart", "true", polls(320, 620, 920)},
		{"2025-11-25: the Task's pollInterval is the interval, kept", "true", pollsAfter(created2025, 320, 620, 920)},
		{"2025-11-25: the Task's pollInterval is the interval, broken", "false", pollsAfter(created2025, 320, 420, 640)},
		{"another task's polls in between are not this task's", "true", build(s, nil,
			send(0, client, "1", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"render"}}`), send(10, server, "1", created),
			send(20, client, "2", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"render"}}`),
			send(30, server, "2", `{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","task":{"taskId":"task-43","status":"working","pollIntervalMs":300}}}`),
			send(320, client, "", get(1)), send(340, client, "", `{"jsonrpc":"2.0","id":"tasks/get-9","method":"tasks/get","params":{"taskId":"task-43"}}`),
			send(620, client, "", get(2)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, checks.PollIntervalRespected); got != tt.want {
				t.Errorf("ok=%s, want %s", got, tt.want)
			}
		})
	}
}

// TestProgressTokenRules proves progress-token-known (DOMAIN.md §3, §11
// invented-progress-token) and the no-token diagnosis of
// progress-resets-idle (anthropics/claude-code#58687).
func TestProgressTokenRules(t *testing.T) {
	stdio := mustScenario(t, `"transport":"stdio"`)
	noToken := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{}}}`
	tests := []struct {
		name string
		rule trace.RuleID
		want string
		tr   *trace.Trace
	}{
		{"progress under the request's token", checks.ProgressTokenKnown, "true", build(stdio, nil, send(0, client, "7", req7), send(100, server, "", progress("p", 1)))},
		{"progress under an invented token", checks.ProgressTokenKnown, "false", build(stdio, nil, send(0, client, "7", noToken), send(100, server, "", progress("server-1", 1)))},
		{"no progress sent: omitted", checks.ProgressTokenKnown, absent, build(stdio, nil, send(0, client, "7", req7), send(100, server, "7", resp7))},
		{"late progress under the finished request's own token is known", checks.ProgressTokenKnown, "true", build(stdio, nil,
			send(0, client, "7", req7), send(100, server, "7", resp7), deliver(110, 100, client, resp7), send(150, server, "", progress("p", 2)))},
		{"idle timeout on a request without a token: diagnosed, not broken", checks.ProgressResetsIdle, "true", build(stdio, request(0, 500, 0, at(500)), send(0, client, "7", noToken), timeout(500, "7", trace.CauseIdleTimeout))},
		{"idle timeout with a token but no progress: omitted", checks.ProgressResetsIdle, absent, build(stdio, request(0, 500, 0, at(500)), send(0, client, "7", req7), timeout(500, "7", trace.CauseIdleTimeout))},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, tt.rule); got != tt.want {
				t.Errorf("%s: ok=%s, want %s", tt.rule, got, tt.want)
			}
		})
	}
}

// TestProxyForwardsPromptly proves proxy-forwards-promptly (DOMAIN.md §8,
// §11 proxy-buffers-sse): a hold on a stream that asked for no buffering
// fails; prompt delivery passes; a hold on a stream without the header is
// not this rule's subject (sse-headers judges it).
func TestProxyForwardsPromptly(t *testing.T) {
	http26 := mustScenario(t, `"transport":"streamable-http","protocol":"2026-07-28","proxy":{"buffering":true}`)
	start := func(noBuffer bool) trace.Event {
		e := act(10, server, trace.TypeStart, "7")
		if noBuffer {
			e.Headers = map[string]string{"X-Accel-Buffering": "no"}
		}
		return e
	}
	deliverOn := func(at int64) trace.Event {
		e := deliver(at, at-10, client, progress("p", 1))
		e.ID = id("7")
		return e
	}
	hold := act(210, trace.ActorProxy, trace.TypeHold, "7")
	tests := []struct {
		name, want string
		tr         *trace.Trace
	}{
		{"forwarded as it came", "true", build(http26, nil, send(0, client, "7", req7), start(true), deliverOn(210))},
		{"held despite X-Accel-Buffering: no", "false", build(http26, nil, send(0, client, "7", req7), start(true), hold, deliverOn(1210))},
		{"held without the header: not this rule", absent, build(http26, nil, send(0, client, "7", req7), start(false), hold, deliverOn(1210))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, checks.ProxyForwardsPromptly); got != tt.want {
				t.Errorf("ok=%s, want %s", got, tt.want)
			}
		})
	}
}

// TestProgressOnRequestStream proves progress-on-request-stream (DOMAIN.md
// §3, §11 progress-on-wrong-stream): progress on the request's own stream
// passes, on the listen stream fails (and resets no idle clock), and a
// message with no stream named (stdio, a raw send) is not judged.
func TestProgressOnRequestStream(t *testing.T) {
	http26 := mustScenario(t, `"transport":"streamable-http","protocol":"2026-07-28"`)
	on := func(stream string, at int64) trace.Event { return send(at, server, stream, progress("p", 1)) }
	tests := []struct {
		name string
		rule trace.RuleID
		want string
		tr   *trace.Trace
	}{
		{"on the request's own stream", checks.ProgressOnRequestStream, "true", build(http26, nil, send(0, client, "9", listen9), send(0, client, "7", req7), on("7", 100))},
		{"on the listen stream", checks.ProgressOnRequestStream, "false", build(http26, nil, send(0, client, "9", listen9), send(0, client, "7", req7), on("9", 100))},
		{"no stream named", checks.ProgressOnRequestStream, absent, build(http26, nil, send(0, client, "7", req7), on("", 100))},
		{"progress on the listen stream resets no idle clock", checks.ProgressResetsIdle, absent, build(http26, request(0, 500, 0, at(500)),
			send(0, client, "9", listen9), send(0, client, "7", req7), func() trace.Event {
				e := deliver(110, 100, client, progress("p", 1))
				e.ID = id("9")
				return e
			}(), timeout(500, "7", trace.CauseIdleTimeout))},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, tt.rule); got != tt.want {
				t.Errorf("%s: ok=%s, want %s", tt.rule, got, tt.want)
			}
		})
	}
}

// TestLockstepHerdDetail (broken-herd-exponential-lockstep failed
// herd-all-reconnect though every client reconnected): a lockstep herd that
// all got back passes herd-all-reconnect, and herd-jittered says what
// failed with the wave's numbers, digits grouped as the page writes them;
// a herd that left clients behind fails herd-all-reconnect with the count.
func TestLockstepHerdDetail(t *testing.T) {
	lockstep := [][2]int64{{200, 10000}, {300, 0}, {700, 8000}}
	detail := func(tr *trace.Trace, rule trace.RuleID) (string, string) {
		t.Helper()
		for _, c := range checks.Evaluate(tr) {
			if c.Rule == rule {
				ok := "null"
				if c.OK != nil {
					ok = strconv.FormatBool(*c.OK)
				}
				return ok, c.Detail
			}
		}
		t.Fatalf("no %s check", rule)
		return "", ""
	}
	tr := herd(true, lockstep, []int64{250}, []int64{250})
	if ok, d := detail(tr, checks.HerdAllReconnect); ok != "true" || d != "All 10,000 clients reconnected within their attempts, the last at 9,000 ms." {
		t.Errorf("herd-all-reconnect %s %q", ok, d)
	}
	want := "With strategy x all 2 sampled clients drew the same delay for attempt 0: refused clients come back in lockstep (lockstep-backoff). " +
		"10,000 reconnects arrived in the one 100 ms bucket at 200 ms, with none around it, against a capacity of 2,000 per second: each wave overloads the recovering server again. " +
		"All 10,000 clients got back in the end, the last at 9,000 ms; with more clients or fewer attempts some give up. Add jitter to the capped exponential backoff."
	if ok, d := detail(tr, checks.HerdJittered); ok != "false" || d != want {
		t.Errorf("herd-jittered %s %q\nwant false %q", ok, d, want)
	}
	tr.Herd.Exhausted, tr.Herd.Reconnected, tr.Herd.AllReconnectedAtMs, tr.Herd.PeakPerBucket = 4000, 6000, nil, 10000
	if ok, d := detail(tr, checks.HerdAllReconnect); ok != "false" || !strings.HasPrefix(d, "4,000 of 10,000 clients gave up after their attempts") || !strings.Contains(d, "peak 10,000 in one 100 ms bucket") {
		t.Errorf("herd-all-reconnect %s %q", ok, d)
	}
}

// TestSSEHeaders proves sse-headers (DOMAIN.md §8) on the headers real
// servers write: Cache-Control is a list of directives, so the Go SDK's
// "no-cache, no-transform" says no-cache; a stream without
// X-Accel-Buffering: no fails, and so does one that may be cached.
func TestSSEHeaders(t *testing.T) {
	http26 := mustScenario(t, `"transport":"streamable-http","protocol":"2026-07-28"`)
	start := func(h map[string]string) trace.Event {
		e := act(10, server, trace.TypeStart, "7")
		e.Headers = h
		return e
	}
	tests := []struct {
		name, want string
		headers    map[string]string
	}{
		{"no-cache alone", "true", map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}},
		{"no-cache among directives (the Go SDK's)", "true", map[string]string{"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}},
		{"without X-Accel-Buffering", "false", map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform"}},
		{"cacheable", "false", map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "max-age=60", "X-Accel-Buffering": "no"}},
		{"a JSON response is no stream", absent, map[string]string{"Content-Type": "application/json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := build(http26, nil, send(0, client, "7", req7), start(tt.headers))
			if got := verdictOf(t, tr, checks.SSEHeaders); got != tt.want {
				t.Errorf("ok=%s, want %s", got, tt.want)
			}
		})
	}
}
