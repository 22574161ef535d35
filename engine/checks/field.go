// Rules for the client reactions real software gets wrong (SCENARIO.md,
// "Switches for the failures real software shows"; DOMAIN.md §11
// late-message-fatal and ignore-progress). Each is computed from events and
// requests[] only, so it judges imported transcripts too.

package checks

import (
	"encoding/json"
	"strconv"

	"sort"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule ids of this file.
const (
	// LateMessageTolerated: A late response or late progress never costs the
	// client its session: it is ignored, not a protocol error (SCENARIO.md,
	// Switches for the failures real software shows (failure late-message-
	// fatal)).
	LateMessageTolerated trace.RuleID = "late-message-tolerated"
	// LateProgressIgnored: progress for a finished or unknown token is ignored
	// (SCENARIO.md, Switches for the failures real software shows).
	LateProgressIgnored trace.RuleID = "late-progress-ignored"
	// ProgressResetsIdle: valid progress resets the idle clock: no idle timeout
	// fires sooner than the idle limit after it (SCENARIO.md, Switches for the
	// failures real software shows (failure ignore-progress)).
	ProgressResetsIdle trace.RuleID = "progress-resets-idle"
)

// lateMessage is one late message handed to the client: a response for a
// request it had abandoned, or progress for a request it had finished or
// for a token no request of it carries.
type lateMessage struct {
	at       int // the delivery event
	progress bool
}

// lateMessages lists the late messages delivered to the client, in order.
// A request is finished at the client once it timed out, closed its stream,
// sent a cancellation for it, or received its final response.
func (v *view) lateMessages() []lateMessage {
	done := make(map[string]int64, len(v.tr.Requests)) // request id → when the client was done with it
	var out []lateMessage
	for i, e := range v.ev {
		m := v.msg(i)
		if e.Actor == trace.ActorClient && (e.Type == trace.TypeTimeout || e.Type == trace.TypeCloseStream ||
			(v.clientSends(i) && m.cancelOf != "")) {
			id := idOf(e)
			if m.cancelOf != "" {
				id = m.cancelOf
			}
			if _, ok := done[id]; !ok {
				done[id] = e.At
			}
		}
		if e.Type != trace.TypeDeliver || e.To != trace.ActorClient {
			continue
		}
		// late reports whether the message for id came after the client
		// was done with it: a message a HAR records only somewhere in an
		// exchange that began before then is not known to be late.
		late := func(id string) bool {
			at, ok := done[id]
			return ok && (e.Within == nil || e.Within.From > at)
		}
		switch {
		case m.response:
			if late(m.id) {
				out = append(out, lateMessage{at: i})
			}
			if _, ok := done[m.id]; !ok {
				done[m.id] = e.At
			}
		case m.method == jsonrpc.MethodProgress && m.progress != nil && m.token != "":
			if id := v.tokenReq(i); id == "" || late(id) {
				out = append(out, lateMessage{at: i, progress: true})
			}
		}
	}
	return out
}

// tornDown reports whether event j is the client tearing its session down.
func (v *view) tornDown(j int) bool {
	return j >= 0 && v.ev[j].Type == trace.TypeError && v.ev[j].Cause == trace.CauseSessionTeardown
}

// lateMessageTolerated: a late response or late progress never costs the
// client its session (failure late-message-fatal: anthropics/claude-code#51073,
// modelcontextprotocol/typescript-sdk#2580). Both races are legitimate (DOMAIN.md §1): the
// client must drop the message, not tear down the calls in flight.
//
// Rule: lateMessageTolerated.
func lateMessageTolerated(v *view) (trace.Check, bool) {
	late := v.lateMessages()
	if len(late) == 0 {
		return trace.Check{}, false
	}
	var bad, good []int
	for _, l := range late {
		react := v.clientReaction(l.at)
		switch {
		case v.tornDown(react):
			bad = append(bad, l.at, react)
		case react >= 0:
			good = append(good, l.at)
		}
	}
	if len(bad)+len(good) == 0 {
		return undecided(LateMessageTolerated, "The trace does not show how the client treated the late messages it received."), true
	}
	return verdict(LateMessageTolerated, bad, good,
		"A late message cost the client its session ("+seqList(bad)+"): the calls in flight on it failed although the server did nothing wrong (late-message-fatal).",
		"The client survived "+strconv.Itoa(len(good))+" late message(s) without tearing down its session.")
}

// lateProgressIgnored: progress for a finished or unknown token is dropped:
// it neither resets a clock nor raises an error (DOMAIN.md §3; failure
// late-message-fatal, anthropics/claude-code#64475).
//
// Rule: lateProgressIgnored.
func lateProgressIgnored(v *view) (trace.Check, bool) {
	var bad, good []int
	seen := false
	for _, l := range v.lateMessages() {
		if !l.progress {
			continue
		}
		seen = true
		react := v.clientReaction(l.at)
		switch {
		case react < 0:
		case v.ev[react].Type == trace.TypeCloseStream:
			// Closing the stream of the abandoned request (a HAR draws it
			// at the stream's end, with the stream's progress) is not
			// acting on the progress.
		case v.ev[react].Type == trace.TypeIgnore:
			good = append(good, react)
		default:
			bad = append(bad, react)
		}
	}
	if !seen {
		return trace.Check{}, false
	}
	if len(bad)+len(good) == 0 {
		return undecided(LateProgressIgnored, "The trace does not show how the client treated late progress."), true
	}
	return verdict(LateProgressIgnored, bad, good,
		"The client acted on progress for a finished or unknown token ("+seqList(bad)+") instead of ignoring it.",
		"The client ignored "+strconv.Itoa(len(good))+" late progress notification(s).")
}

// progressResetsIdle: valid progress (strictly increasing for its token,
// for a request the client still waits for) resets the request's idle
// clock, so no idle timeout fires less than idleTimeoutMs after it
// (DOMAIN.md §2–3; failure ignore-progress, leehack/mcp_dart#106). A request with
// an idle timeout that carried no progressToken and was cut by it breaks
// no rule (nothing was ignored), but the check names it in its detail as
// the diagnosis of anthropics/claude-code#58687: the client never asked for the
// progress that would have kept it alive. Listed when a request with an idle timeout
// received valid progress or timed out idle without a token.
//
// From a server's or a wire's view with the client's idle timeout stated
// (trace.Source.IdleTimeoutMs) the client's timeouts are unseen; its
// cancellations are judged instead (progressResetsIdleSeen).
//
// Rule: progressResetsIdle.
func progressResetsIdle(v *view) (trace.Check, bool) {
	if src := v.tr.Source; src != nil && src.IdleTimeoutMs > 0 && observer(v.tr) != trace.ObserverClient {
		return progressResetsIdleSeen(v, src.IdleTimeoutMs)
	}
	idle := map[string]int64{}
	for _, r := range v.tr.Requests {
		if r.IdleTimeoutMs > 0 {
			idle[r.ID.Raw()] = r.IdleTimeoutMs
		}
	}
	if len(idle) == 0 {
		return trace.Check{}, false
	}
	hasToken := map[string]bool{}
	for _, id := range v.tokens {
		hasToken[id] = true
	}
	var noToken []int // idle timeouts of requests that never asked for progress
	last := map[string]float64{}
	lastValid := map[string]int{} // request id → its latest valid progress delivery
	done := make(map[string]bool, len(idle))
	var bad, good []int
	for i, e := range v.ev {
		m := v.msg(i)
		switch {
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && m.response:
			done[m.id] = true
		case e.Type == trace.TypeDeliver && e.To == trace.ActorClient && m.method == jsonrpc.MethodProgress && m.progress != nil:
			id := v.tokenReq(i)
			l, ok := last[inSession(e.Session, m.token)]
			if on := idOf(e); on != "" && on != id {
				continue // on another stream: not the request's progress (progress-on-request-stream)
			}
			if id == "" || idle[id] == 0 || done[id] || (ok && *m.progress <= l) {
				continue
			}
			last[inSession(e.Session, m.token)] = *m.progress
			lastValid[id] = i
		case e.Actor == trace.ActorClient && e.Type == trace.TypeTimeout:
			id := idOf(e)
			done[id] = true
			if e.Cause == trace.CauseIdleTimeout && idle[id] > 0 && !hasToken[id] && v.method[id] != "" {
				noToken = append(noToken, i)
				continue
			}
			p, ok := lastValid[id]
			if !ok || e.Cause != trace.CauseIdleTimeout {
				continue
			}
			if e.At-v.ev[p].At < idle[id] {
				bad = append(bad, p, i)
			} else {
				good = append(good, p, i)
			}
			delete(lastValid, id)
		}
	}
	for _, p := range lastValid {
		good = append(good, p)
	}
	if len(bad) > 0 {
		return fail(ProgressResetsIdle, "An idle timeout fired less than the idle limit after valid progress ("+seqList(bad)+"): the client's idle clock ignored progress (ignore-progress).", bad...), true
	}
	if len(good)+len(noToken) == 0 {
		return trace.Check{}, false
	}
	detail := "Every idle timeout came a full idle limit after the last valid progress."
	if len(noToken) > 0 {
		// Not a broken rule: no progress was ignored. The diagnosis says why
		// the call died (anthropics/claude-code#58687).
		detail += " Diagnosis: a request with an idle timeout carried no progressToken and was cut by that timeout (" + seqList(noToken) + "); the client never asked for progress, so nothing the server could send would have kept it alive."
		good = append(good, noToken...)
	}
	sort.Ints(good)
	return pass(ProgressResetsIdle, detail, good...), true
}

// DisconnectStopsWork is the rule id of disconnectStopsWork: under
// 2026-07-28, once the server saw a request's stream close it sends nothing
// more for it and commits no side effect of it (SCENARIO.md, Switches for
// the failures real software shows (failure disconnect-unobserved)).
const DisconnectStopsWork trace.RuleID = "disconnect-stops-work"

// disconnectStopsWork: under 2026-07-28 a request's response stream closing
// is its cancellation (DOMAIN.md §1): once the server has seen it close,
// it sends nothing more for the request and no side effect of it commits
// (failure disconnect-unobserved, modelcontextprotocol/rust-sdk#857). Listed when the server
// saw a request stream close; null when the trace does not say which
// revision was in use; omitted under 2025-11-25, where a disconnect is not
// a cancellation.
//
// Rule: disconnectStopsWork.
func disconnectStopsWork(v *view) (trace.Check, bool) {
	closed := map[string]bool{}
	var bad, good []int
	for i, e := range v.ev {
		id := idOf(e)
		switch {
		case e.Type == trace.TypeDeliver && e.To == trace.ActorServer && e.Signal == trace.SignalCloseStream && id != "":
			if !closed[id] {
				good = append(good, i)
			}
			closed[id] = true
		case v.serverSends(i) && closed[v.concerns(i)]:
			bad = append(bad, i)
		case e.Type == trace.TypeEffect && closed[id]:
			bad = append(bad, i)
		}
	}
	if len(good) == 0 {
		return trace.Check{}, false
	}
	s := v.tr.Scenario
	if s == nil {
		return undecided(DisconnectStopsWork, "The transcript does not say which protocol revision was in use; only under 2026-07-28 is a disconnect a cancellation."), true
	}
	if s.Protocol == trace.Protocol20251125 {
		return trace.Check{}, false
	}
	return verdict(DisconnectStopsWork, bad, good,
		"After the server saw the stream close, work went on for the request ("+seqList(bad)+"): messages into a closed stream or a side effect nobody waits for (disconnect-unobserved).",
		"After each stream close the server sent nothing more for the request and committed no side effect.")
}

// PollIntervalRespected is the rule id of pollIntervalRespected: the client
// polls a task no more often than the pollIntervalMs the server advertised
// for it (DOMAIN.md §6).
const PollIntervalRespected trace.RuleID = "poll-interval-respected"

// pollIntervalRespected: the client polls a task with tasks/get no more
// often than the pollIntervalMs the server last advertised for it
// (DOMAIN.md §6): one polling loop, also after a tasks/cancel
// acknowledgement. Listed when a task is polled at least twice after the
// server advertised an interval.
//
// Rule: pollIntervalRespected.
func pollIntervalRespected(v *view) (trace.Check, bool) {
	interval := map[string]int64{} // task id → advertised pollIntervalMs
	lastPoll := map[string]int{}   // task id → the client's previous tasks/get
	var bad, good []int
	seen := false
	for i, e := range v.ev {
		switch {
		case v.serverSends(i) && v.msg(i).response:
			if id, ms, ok := advertisedInterval(e.Message); ok {
				interval[id] = ms
			}
		case v.clientSends(i) && v.msg(i).method == jsonrpc.MethodTasksGet:
			id := taskIDParam(e.Message)
			ms, ok := interval[id]
			if p, polled := lastPoll[id]; polled && ok && id != "" {
				seen = true
				if e.At-v.ev[p].At < ms {
					bad = append(bad, p, i)
				} else {
					good = append(good, i)
				}
			}
			lastPoll[id] = i
		}
	}
	if !seen {
		return trace.Check{}, false
	}
	return verdict(PollIntervalRespected, bad, good,
		"The client polled a task sooner than its pollIntervalMs ("+seqList(bad)+"): two polling loops, or one that ignores the interval.",
		"Every tasks/get came at least pollIntervalMs after the previous one for its task.")
}

// advertisedInterval reads a task's id and polling interval (ms) from a
// server response: a task-augmented result ({"task": {...}}) or a
// tasks/get result. The Task names the interval pollIntervalMs under
// 2026-07-28 and pollInterval under 2025-11-25 (its schema's Task).
func advertisedInterval(msg []byte) (string, int64, bool) {
	type task struct {
		TaskID       string `json:"taskId"`
		Interval     *int64 `json:"pollIntervalMs"`
		Interval2025 *int64 `json:"pollInterval"`
	}
	var m struct {
		Result *struct {
			task
			Task *task `json:"task"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Result == nil {
		return "", 0, false
	}
	t := m.Result.task
	if m.Result.Task != nil {
		t = *m.Result.Task
	}
	if t.Interval == nil {
		t.Interval = t.Interval2025
	}
	if t.TaskID == "" || t.Interval == nil {
		return "", 0, false
	}
	return t.TaskID, *t.Interval, true
}

// taskIDParam reads params.taskId of a tasks/* request, "" if none.
func taskIDParam(msg []byte) string {
	var m struct {
		Params struct {
			TaskID string `json:"taskId"`
		} `json:"params"`
	}
	_ = json.Unmarshal(msg, &m)
	return m.Params.TaskID
}

// ProgressTokenKnown is the rule id of progressTokenKnown: the server sends
// progress only under a token a client request carried (SCENARIO.md,
// Switches for the failures real software shows (failure invented-progress-
// token)).
const ProgressTokenKnown trace.RuleID = "progress-token-known"

// progressTokenKnown: the server sends progress only under a token a
// client request carried in params._meta.progressToken (DOMAIN.md §3); a
// token the server invents reaches no request (failure
// invented-progress-token: twentyhq/twenty#24559, kaeawc/auto-mobile#6118). Listed when
// the server sent progress.
//
// Rule: progressTokenKnown.
func progressTokenKnown(v *view) (trace.Check, bool) {
	var bad, good []int
	for i := range v.ev {
		m := v.msg(i)
		if !v.serverSends(i) || m.method != jsonrpc.MethodProgress {
			continue
		}
		if v.tokenReq(i) == "" {
			bad = append(bad, i)
		} else {
			good = append(good, i)
		}
	}
	return verdict(ProgressTokenKnown, bad, good,
		"The server sent progress under a token no client request carried ("+seqList(bad)+"): it invented the token, so the progress reaches no request and resets no clock (invented-progress-token).",
		"Every progress notification the server sent used a token a client request carried.")
}

// ProgressOnRequestStream is the rule id of progressOnRequestStream: A
// request's progress travels on its own response stream, never on another
// request's (SCENARIO.md, Switches for the failures real software shows
// (failure progress-on-wrong-stream)).
const ProgressOnRequestStream trace.RuleID = "progress-on-request-stream"

// progressOnRequestStream: on Streamable HTTP a request's progress travels
// on that request's own response stream, never on another stream such as
// the subscriptions/listen stream (DOMAIN.md §3; failure
// progress-on-wrong-stream, gradio-app/gradio#12034): a client reads a request's
// progress where it waits for the request, so progress elsewhere resets no
// clock. Listed when the server sent progress for a known token on a
// stream it names (the event's id).
//
// Rule: progressOnRequestStream.
func progressOnRequestStream(v *view) (trace.Check, bool) {
	var bad, good []int
	for i, e := range v.ev {
		m := v.msg(i)
		if !v.serverSends(i) || m.method != jsonrpc.MethodProgress {
			continue
		}
		id, on := v.tokenReq(i), idOf(e)
		if id == "" || on == "" {
			continue
		}
		if on == id {
			good = append(good, i)
		} else {
			bad = append(bad, i)
		}
	}
	return verdict(ProgressOnRequestStream, bad, good,
		"The server sent a request's progress on another stream ("+seqList(bad)+"), not on the request's own response stream: the client waiting for the request never sees it (progress-on-wrong-stream).",
		"Every progress notification travelled on its own request's stream.")
}
