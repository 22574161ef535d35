package checks_test

import (
	"fmt"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The rules of 2025-11-25 resumption and of a call's timeout
// (resume.go), each proven on hand-built traces: the correct behaviour
// passes, the broken switch's trace fails, and a legitimate case the rule
// must not flag passes or is left out.

// sseEvent is e carrying SSE event id eventID.
func sseEvent(e trace.Event, eventID string) trace.Event {
	e.EventID = eventID
	return e
}

// onStream is e about stream (request) reqID.
func onStream(e trace.Event, reqID string) trace.Event {
	e.ID = id(reqID)
	return e
}

// resumeGET is the client reconnecting stream reqID with Last-Event-ID
// lei ("" for none).
func resumeGET(at int64, reqID, lei string) trace.Event {
	e := act(at, client, trace.TypeReconnect, reqID)
	if lei != "" {
		e.Headers = map[string]string{"Last-Event-ID": lei}
	}
	return e
}

// primed is the start of call 7 under 2025-11-25: the request, its priming
// event (id 1) and progress as event 2, both received by the client.
func primed() []trace.Event {
	prog := progress("p", 1)
	return []trace.Event{
		wired(send(0, client, "7", req7), 1), wired(deliver(10, 0, server, req7), 1),
		sseEvent(onStream(act(10, server, trace.TypePrime, "7"), "7"), "1"),
		sseEvent(onStream(deliver(20, 10, client, ""), "7"), "1"),
		wired(sseEvent(send(50, server, "7", prog), "2"), 2), wired(sseEvent(onStream(deliver(60, 50, client, prog), "7"), "2"), 2),
	}
}

// wired gives e wire number n (a send and its delivery share it).
func wired(e trace.Event, n int) trace.Event {
	e.Wire = n
	return e
}

func with(evs []trace.Event, more ...trace.Event) []trace.Event {
	return append(append([]trace.Event{}, evs...), more...)
}

// TestResumeRules proves resume-keeps-position, resume-replays-own-stream
// and dropped-call-resumed (DOMAIN.md §9; failures forget-resume-token,
// modelcontextprotocol/typescript-sdk#2499, and replay-other-streams, modelcontextprotocol/servers#4087).
func TestResumeRules(t *testing.T) {
	s2025 := mustScenario(t, `"protocol":"2025-11-25","transport":"streamable-http"`)
	s2026 := mustScenario(t, `"protocol":"2026-07-28","transport":"streamable-http"`)
	drop := closeStream(100, trace.ActorNetwork, "7")
	kept := sseEvent(onStream(act(300, server, trace.TypeEnqueue, "7"), "7"), "3")
	replay := sseEvent(send(311, server, "7", resp7), "3")
	got := sseEvent(onStream(deliver(321, 311, client, resp7), "7"), "3")
	prog8 := progress("q", 1)
	other := []trace.Event{ // call 8's event 4, already delivered on its own stream
		send(0, client, "8", req8), deliver(10, 0, server, req8),
		sseEvent(send(80, server, "8", prog8), "4"), sseEvent(onStream(deliver(90, 80, client, prog8), "8"), "4"),
	}
	tests := []struct {
		name string
		rule trace.RuleID
		want string
		tr   *trace.Trace
	}{
		{"resumed from the last event received", checks.ResumeKeepsPosition, "true",
			build(s2025, nil, with(primed(), drop, resumeGET(291, "7", "2"))...)},
		{"modelcontextprotocol/typescript-sdk#2499: the second resume forgets the position", checks.ResumeKeepsPosition, "false",
			build(s2025, nil, with(primed(), drop, resumeGET(291, "7", "2"), closeStream(400, trace.ActorNetwork, "7"), resumeGET(591, "7", ""))...)},
		{"a second resume from the same position, no new event", checks.ResumeKeepsPosition, "true",
			build(s2025, nil, with(primed(), drop, resumeGET(291, "7", "2"), closeStream(400, trace.ActorNetwork, "7"), resumeGET(591, "7", "2"))...)},
		{"an older position than the last event received", checks.ResumeKeepsPosition, "false",
			build(s2025, nil, with(primed(), drop, resumeGET(291, "7", "1"))...)},
		{"nothing received: a GET without Last-Event-ID keeps no position", checks.ResumeKeepsPosition, absent,
			build(s2025, nil, send(0, client, "7", req7), drop, resumeGET(291, "7", ""))},
		{"2026-07-28 has no resumption (no-last-event-id judges it)", checks.ResumeKeepsPosition, absent,
			build(s2026, nil, with(primed(), drop, resumeGET(291, "7", ""))...)},

		{"the stream's own missed event replayed once", checks.ResumeReplaysOwnStream, "true",
			build(s2025, nil, with(primed(), drop, kept, resumeGET(291, "7", "2"), replay, got)...)},
		{"modelcontextprotocol/servers#4087: another stream's event replayed, delivered twice", checks.ResumeReplaysOwnStream, "false",
			build(s2025, nil, with(with(primed(), other...), drop, kept, resumeGET(291, "7", "2"),
				sseEvent(send(301, server, "7", prog8), "4"), sseEvent(onStream(deliver(311, 301, client, prog8), "7"), "4"), replay, got)...)},
		{"an event lost on the closed stream, then replayed, is delivered once", checks.ResumeReplaysOwnStream, "true",
			build(s2025, nil, with(primed(), drop, sseEvent(send(105, server, "7", resp7), "3"),
				sseEvent(onStream(trace.Event{At: 115, Actor: trace.ActorNetwork, Type: trace.TypeDrop, From: server, To: client, Message: []byte(resp7)}, "7"), "3"),
				resumeGET(291, "7", "2"), replay, got)...)},
		{"no resumption with Last-Event-ID", checks.ResumeReplaysOwnStream, absent,
			build(s2025, nil, primed()...)},

		{"the dropped call is resumed", checks.DroppedCallResumed, "true",
			build(s2025, nil, with(primed(), drop, resumeGET(291, "7", "2"))...)},
		{"the dropped call is left pending", checks.DroppedCallResumed, "false",
			build(s2025, nil, with(primed(), drop, kept)...)},
		{"zed-industries/zed#56775: a dropped call never resumed, then ended by the client's timeout", checks.DroppedCallResumed, "false",
			build(s2025, nil, with(primed(), drop, kept, timeout(600, "7", trace.CauseMaxTimeout))...)},
		{"a dropped call resumed, then timed out", checks.DroppedCallResumed, "true",
			build(s2025, nil, with(primed(), drop, resumeGET(291, "7", "2"), timeout(600, "7", trace.CauseMaxTimeout))...)},
		{"a dropped call the client reports failed by an error", checks.DroppedCallResumed, "true",
			build(s2025, nil, with(primed(), drop, act(150, client, trace.TypeError, "7"))...)},
		{"a wire log cannot see whether a cancel after an unresumed drop was a timeout", checks.DroppedCallResumed, "null",
			imported(build(s2025, nil, with(primed(), drop, send(600, client, "", cancel7))...), trace.ObserverWire)},
		{"a client's own log shows the cancel was no timeout", checks.DroppedCallResumed, "true",
			imported(build(s2025, nil, with(primed(), drop, send(600, client, "", cancel7))...), trace.ObserverClient)},
		{"under 2026-07-28 a dropped call that then times out is a cancellation, not judged", checks.DroppedCallResumed, absent,
			build(s2026, nil, with(primed(), drop, timeout(600, "7", trace.CauseMaxTimeout))...)},
		{"a stream closed after the response arrived is no dropped call", checks.DroppedCallResumed, absent,
			build(s2025, nil, with(primed(), send(70, server, "7", resp7), deliver(80, 70, client, resp7), drop)...)},
		{"an import that does not say the revision cannot decide", checks.DroppedCallResumed, "null",
			build(nil, nil, with(primed(), drop)...)},
		{"under 2026-07-28 the drop is the cancellation", checks.DroppedCallResumed, absent,
			build(s2026, nil, with(primed(), drop)...)},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			if got := verdictOf(t, tt.tr, tt.rule); got != tt.want {
				t.Errorf("%s: ok=%s, want %s", tt.rule, got, tt.want)
			}
		})
	}
}

// TestRequestHasTimeout proves request-has-timeout (DOMAIN.md §2: a
// request must have idle > 0; failure no-timeout,
// anthropics/claude-code#69593): a call with an idle or a maximum timeout
// passes wherever it is; a call with neither fails when the scenario
// states the client's timeout policy or a timeout anywhere else (the
// client's defaults, a call step's own, another request: an inconsistent
// client); and a trace that states no timeout at all does not model them,
// so the rule is left out (the built-in lessons, a transcript imported
// without a maximum).
func TestRequestHasTimeout(t *testing.T) {
	reqs := func(timeouts ...[2]int64) []trace.Request {
		var out []trace.Request
		for n, to := range timeouts {
			r := request(0, to[0], to[1], nil)[0]
			r.ID = *id(fmt.Sprint(7 + n))
			out = append(out, r)
		}
		return out
	}
	evs := []trace.Event{send(0, client, "7", req7), deliver(10, 0, server, req7), send(0, client, "8", req8), deliver(10, 0, server, req8)}
	none, idle, max := [2]int64{0, 0}, [2]int64{500, 0}, [2]int64{0, 2000}
	tests := []struct {
		name, members string // scenario members; "-" for an imported transcript (no scenario)
		reqs          []trace.Request
		want          string
	}{
		{"required, with both timeouts", `"client":{"policy":{"timeouts":"required"}}`, reqs([2]int64{500, 2000}), "true"},
		{"required, a maximum only", `"client":{"policy":{"timeouts":"required"}}`, reqs(max), "true"},
		{"required, but the call has none", `"client":{"policy":{"timeouts":"required"}}`, reqs(none), "false"},
		{"anthropics/claude-code#69593: the client sets none", `"client":{"policy":{"timeouts":"none"}}`, reqs(none), "false"},
		{"no policy: a call with its own idle timeout is judged", ``, reqs(idle), "true"},
		{"no policy: the client's default timeout carried", `"client":{"idleTimeoutMs":500}`, reqs(idle, idle), "true"},
		{"no policy: one call with a timeout, another without (inconsistent client)", ``, reqs(idle, none), "false"},
		{"no policy: the client's default stated, a call without one", `"client":{"maxTimeoutMs":2000}`, reqs(none), "false"},
		{"no timeout stated anywhere (the lessons): not applicable", ``, reqs(none, none), absent},
		{"imported with a maximum timeout given", "-", reqs(max, max), "true"},
		{"imported: one request timed, another not", "-", reqs(max, none), "false"},
		{"imported without timeouts: not applicable", "-", reqs(none, none), absent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *scenario.Scenario
			if tt.members != "-" {
				members := `"transport":"stdio"`
				if tt.members != "" {
					members += "," + tt.members
				}
				s = mustScenario(t, members)
			}
			if got := verdictOf(t, build(s, tt.reqs, evs...), checks.RequestHasTimeout); got != tt.want {
				t.Errorf("ok=%s, want %s", got, tt.want)
			}
		})
	}
	// A scenario whose only call step states a timeout, traced without it
	// (a policy "none" run, as the engine records it): the step states
	// timeouts, so the call's lack of one is judged.
	s, err := scenario.Decode([]byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":7,"name":"crunch","idleTimeoutMs":500}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := verdictOf(t, build(s, reqs(none), evs[:2]...), checks.RequestHasTimeout); got != "false" {
		t.Errorf("a step states a timeout, the call carries none: ok=%s, want false", got)
	}
}

// TestReplayIsNotANewMessage proves that a 2025-11-25 replay (a send
// repeating an event id already on the wire) is not a second message:
// progress-increases and one-response-per-request count it once, while
// the same value sent again without an event id still fails.
func TestReplayIsNotANewMessage(t *testing.T) {
	s2025 := mustScenario(t, `"protocol":"2025-11-25","transport":"streamable-http"`)
	prog := progress("p", 2)
	lost := func(at, sent int64, msg, eventID string) trace.Event {
		return sseEvent(onStream(trace.Event{At: at, Actor: trace.ActorNetwork, Type: trace.TypeDrop, From: server, To: client, SentAt: &sent, Message: []byte(msg)}, "7"), eventID)
	}
	replayed := build(s2025, nil, with(primed(), closeStream(100, trace.ActorNetwork, "7"),
		wired(sseEvent(send(105, server, "7", prog), "3"), 3), wired(lost(115, 105, prog, "3"), 3),
		wired(sseEvent(send(106, server, "7", resp7), "4"), 4), wired(lost(116, 106, resp7, "4"), 4),
		resumeGET(291, "7", "2"), wired(sseEvent(send(301, server, "7", prog), "3"), 5), wired(sseEvent(send(301, server, "7", resp7), "4"), 6))...)
	resent := build(s2025, nil, with(primed(), wired(send(105, server, "7", prog), 3), wired(send(106, server, "7", prog), 4),
		wired(send(107, server, "7", resp7), 5), wired(send(108, server, "7", resp7), 6))...)
	for _, c := range []struct {
		name string
		rule trace.RuleID
		want string
		tr   *trace.Trace
	}{
		{"replayed progress", checks.ProgressIncreases, "true", replayed},
		{"replayed response", checks.OneResponsePerRequest, "true", replayed},
		{"the same progress sent twice", checks.ProgressIncreases, "false", resent},
		{"the response sent twice", checks.OneResponsePerRequest, "false", resent},
	} {
		if got := verdictOf(t, c.tr, c.rule); got != c.want {
			t.Errorf("%s: %s ok=%s, want %s", c.name, c.rule, got, c.want)
		}
	}
}
