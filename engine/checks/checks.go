// Package checks evaluates the rules of DOMAIN.md on a trace.
//
// Every check is a function of the trace's events (what was on the wire,
// when, and what each side did with it) plus the requests[] summary and,
// when present, the scenario's configuration; never of engine internals. That
// is what lets the same checks judge simulated traffic and imported real
// traffic.
//
// A check is listed only when its subject occurs in the trace (no
// cancellation, no no-message-after-cancel). OK is true when the rule holds,
// false with the offending events when it is broken, and null when the
// trace cannot decide (Detail says why).
//
// # Rules
//
// Every rule id [Evaluate] can report, in its order. SCENARIO.md (version 1)
// lists some ids "such as"; the ones marked (mcplab addition) are not in
// that list. A check appears only when its subject occurs in the trace.
//   - no-message-after-cancel: after the server observes a cancellation it
//     sends nothing more for that request (no result, error or progress).
//   - http-cancel-closes-stream: on Streamable HTTP under 2026-07-28 the
//     client cancels by closing the request's stream and POSTs no
//     notifications/cancelled.
//   - http-cancel-posts-notification (mcplab addition): on Streamable HTTP
//     under 2025-11-25 the client cancels by POSTing notifications/cancelled;
//     closing the stream is not a cancellation.
//   - progress-increases: progress values on the wire strictly increase per
//     progress token.
//   - stale-progress-ignored (mcplab addition): a non-increasing progress
//     value does not reset the client's idle clock.
//   - no-progress-after-final: no progress follows a request's final
//     response.
//   - max-timeout-enforced: a request with a maximum timeout stops being
//     waited for by start + maximum, whatever progress arrives.
//   - idle-timeout-enforced (mcplab addition): a request with an idle timeout
//     is not waited for longer than that without valid progress.
//   - late-response-ignored: the client ignores a response for a request it
//     abandoned.
//   - server-cancel-only-for-listen: a server-sent notifications/cancelled
//     only tears down a subscriptions/listen stream.
//   - cancellation-never-answered (mcplab addition): the server never
//     answers a cancellation notification, valid or not.
//   - one-response-per-request (mcplab addition): the server sends at most
//     one final response per request.
//   - initialize-not-cancelled (mcplab addition): under 2025-11-25 the client
//     never cancels initialize.
//   - no-last-event-id: under 2026-07-28 a client does not reconnect with
//     Last-Event-ID (the server keeps no event ids to resume from).
//   - reconnect-new-request-and-refetch (mcplab addition): under 2026-07-28,
//     after a listen stream drops, the client opens a new listen request with
//     a new id and refetches the affected state.
//   - buffer-within-capacity: a bounded SSE buffer never holds more than its
//     capacity; an unbounded one fails.
//   - final-never-dropped: the SSE buffer never drops or refuses a final
//     response.
//   - task-ack-not-terminal: the client calls a task stopped only once its
//     worker status is terminal, and a terminal status never changes.
//   - one-execution-per-key: a side effect runs at most once per idempotency
//     key, whatever the JSON-RPC ids, races or replicas.
//   - key-reuse-rejected: a key reused with different arguments is rejected,
//     never answered with the other intent's result.
//   - defensive-copy: every replay returns exactly the result first committed
//     for its key, even after a caller mutated what it got back.
//   - no-unsafe-retry (mcplab addition): a mutation without an idempotency
//     key (retry class unsafe) is never retried under a new JSON-RPC id.
//   - sse-headers (mcplab addition): a Streamable HTTP response stream
//     carries Cache-Control: no-cache and X-Accel-Buffering: no.
//   - herd-all-reconnect (mcplab addition): in the herd experiment every
//     client reconnects within its attempts.
package checks

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule ids (stable; SCENARIO.md, checks[]).
const (
	NoMessageAfterCancel        = "no-message-after-cancel"
	HTTPCancelClosesStream      = "http-cancel-closes-stream"
	HTTPCancelPostsNotification = "http-cancel-posts-notification"
	ProgressIncreases           = "progress-increases"
	StaleProgressIgnored        = "stale-progress-ignored"
	NoProgressAfterFinal        = "no-progress-after-final"
	MaxTimeoutEnforced          = "max-timeout-enforced"
	IdleTimeoutEnforced         = "idle-timeout-enforced"
	LateResponseIgnored         = "late-response-ignored"
	ServerCancelOnlyForListen   = "server-cancel-only-for-listen"
	CancellationNeverAnswered   = "cancellation-never-answered"
	OneResponsePerRequest       = "one-response-per-request"
	InitializeNotCancelled      = "initialize-not-cancelled"
	NoLastEventID               = "no-last-event-id"
	ReconnectRefetches          = "reconnect-new-request-and-refetch"
	BufferWithinCapacity        = "buffer-within-capacity"
	FinalNeverDropped           = "final-never-dropped"
	TaskAckNotTerminal          = "task-ack-not-terminal"
	OneExecutionPerKey          = "one-execution-per-key"
	KeyReuseRejected            = "key-reuse-rejected"
	DefensiveCopy               = "defensive-copy"
	NoUnsafeRetry               = "no-unsafe-retry"
	SSEHeaders                  = "sse-headers"
	HerdAllReconnect            = "herd-all-reconnect"
)

// Evaluate returns the applicable checks for tr, in a fixed order.
func Evaluate(tr *trace.Trace) []trace.Check {
	v := newView(tr)
	out := []trace.Check{}
	for _, f := range []func(*view) (trace.Check, bool){
		noMessageAfterCancel, httpCancelSignal, progressIncreases, staleProgressIgnored,
		noProgressAfterFinal, maxTimeoutEnforced, idleTimeoutEnforced, lateResponseIgnored,
		serverCancelOnlyForListen, cancellationNeverAnswered, oneResponsePerRequest,
		initializeNotCancelled, noLastEventID, reconnectRefetches,
		bufferWithinCapacity, finalNeverDropped, taskAckNotTerminal,
		oneExecutionPerKey, keyReuseRejected, defensiveCopy, noUnsafeRetry,
		sseHeaders, herdAllReconnect,
	} {
		if c, ok := f(v); ok {
			out = append(out, c)
		}
	}
	return out
}

// wire is what an event's message says, parsed once.
type wire struct {
	method   string
	id       string // JSON text of the id, "" if none
	hasID    bool   // an "id" member is present (even null)
	response bool   // result or error, no method
	token    string // progress token text (notifications/progress)
	progress *float64
	cancelOf string // requestId text of a valid notifications/cancelled
	listen   bool   // method subscriptions/listen
}

func parse(msg json.RawMessage) (w wire) {
	if len(msg) == 0 {
		return w
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return w
	}
	w.method = m.Method
	w.hasID = m.ID != nil
	w.id, _ = coordinator.IDText(m.ID)
	w.response = m.Method == "" && (m.Result != nil || m.Error != nil)
	w.listen = m.Method == "subscriptions/listen"
	switch m.Method {
	case "notifications/progress":
		var p struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress *float64        `json:"progress"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			w.token, _ = coordinator.IDText(p.Token)
			w.progress = p.Progress
		}
	case "notifications/cancelled":
		if c, err := coordinator.ParseCancellation(msg); err == nil {
			w.cancelOf = c.RequestID
		}
	}
	return w
}

// view indexes a trace for the checks.
type view struct {
	tr     *trace.Trace
	ev     []trace.Event
	msg    []wire
	tokens map[string]string // progress token → request id (from the client's requests)
	method map[string]string // request id → method
	sent   map[int]bool      // wire numbers whose send event is recorded
}

func newView(tr *trace.Trace) *view {
	v := &view{tr: tr, ev: tr.Events, tokens: map[string]string{}, method: map[string]string{}, sent: map[int]bool{}}
	v.msg = make([]wire, len(tr.Events))
	for _, e := range tr.Events {
		if e.Type == trace.TypeSend && e.Wire > 0 {
			v.sent[e.Wire] = true
		}
	}
	for i, e := range tr.Events {
		v.msg[i] = parse(e.Message)
		if v.clientSends(i) && v.msg[i].method != "" && v.msg[i].hasID {
			v.method[v.msg[i].id] = v.msg[i].method
			var m struct {
				Params struct {
					Meta struct {
						Token json.RawMessage `json:"progressToken"`
					} `json:"_meta"`
				} `json:"params"`
			}
			if json.Unmarshal(e.Message, &m) == nil {
				if t, ok := coordinator.IDText(m.Params.Meta.Token); ok {
					v.tokens[t] = v.msg[i].id
				}
			}
		}
	}
	return v
}

// serverSends reports whether event i is the server putting a message on
// the wire: its send event, or, in a log that recorded only the receiving
// end (an imported client-side log), the delivery of a message whose send
// was not recorded.
func (v *view) serverSends(i int) bool { return v.puts(i, trace.ActorServer) }

func (v *view) clientSends(i int) bool { return v.puts(i, trace.ActorClient) }

func (v *view) puts(i int, from string) bool {
	e := v.ev[i]
	if e.From != from {
		return false
	}
	if e.Type == trace.TypeSend {
		return true
	}
	return e.Type == trace.TypeDeliver && len(e.Message) > 0 && !v.sent[e.Wire]
}

// concerns returns the request id a server message is about: a response's
// id or a progress notification's request.
func (v *view) concerns(i int) string {
	m := v.msg[i]
	if m.response {
		return m.id
	}
	if m.method == "notifications/progress" {
		return v.tokens[m.token]
	}
	return ""
}

func idOf(e trace.Event) string {
	if e.ID == nil {
		return ""
	}
	return e.ID.Raw()
}

func pass(rule, detail string, seqs ...int) trace.Check {
	t := true
	return trace.Check{Rule: rule, OK: &t, Detail: detail, Events: seqs}
}

func fail(rule, detail string, seqs ...int) trace.Check {
	f := false
	return trace.Check{Rule: rule, OK: &f, Detail: detail, Events: seqs}
}

func undecided(rule, detail string) trace.Check {
	return trace.Check{Rule: rule, OK: nil, Detail: detail}
}

func seqList(seqs []int) string {
	s := make([]string, len(seqs))
	for i, n := range seqs {
		s[i] = "#" + strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// noMessageAfterCancel: after the server observes a cancellation it sends
// nothing more for that request: no result, no error, no progress (DOMAIN.md §1).
func noMessageAfterCancel(v *view) (trace.Check, bool) {
	cancelledAt := map[string]int{} // request id → seq of the server's status event
	var bad, proof []int
	for i, e := range v.ev {
		if e.Actor == trace.ActorServer && e.Type == trace.TypeStatus && e.Status == trace.StateCancelled {
			if _, ok := cancelledAt[idOf(e)]; !ok {
				cancelledAt[idOf(e)] = i
				proof = append(proof, i)
			}
			continue
		}
		if v.serverSends(i) {
			if _, ok := cancelledAt[v.concerns(i)]; ok && v.concerns(i) != "" {
				bad = append(bad, i)
			}
		}
	}
	if len(cancelledAt) == 0 {
		if src := v.tr.Source; src != nil && src.Side == "client" {
			for i := range v.ev {
				if v.clientSends(i) && v.msg[i].cancelOf != "" {
					return undecided(NoMessageAfterCancel, "A client-side log cannot show whether the server read the cancellation before it responded (that order is the legitimate race); judge the server's own log."), true
				}
			}
		}
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(NoMessageAfterCancel, fmt.Sprintf("The server sent %d message(s) for a request after accepting its cancellation (%s).", len(bad), seqList(bad)), bad...), true
	}
	return pass(NoMessageAfterCancel, fmt.Sprintf("The server accepted %d cancellation(s) and sent nothing more for those requests.", len(cancelledAt)), proof...), true
}

// httpCancelSignal: on Streamable HTTP the client's cancellation signal
// depends on the revision (DOMAIN.md §1): 2026-07-28 closes the request's
// stream and POSTs nothing; 2025-11-25 POSTs notifications/cancelled.
func httpCancelSignal(v *view) (trace.Check, bool) {
	s := v.tr.Scenario
	var posts, closes []int
	for i, e := range v.ev {
		if v.clientSends(i) && v.msg[i].method == "notifications/cancelled" {
			posts = append(posts, i)
		}
		if e.Type == trace.TypeCloseStream && e.Actor == trace.ActorClient {
			closes = append(closes, i)
		}
	}
	if len(posts)+len(closes) == 0 {
		return trace.Check{}, false
	}
	if s == nil {
		if len(closes) > 0 {
			return undecided(HTTPCancelClosesStream, "The transcript does not say which protocol revision was in use."), true
		}
		return trace.Check{}, false
	}
	if s.Transport != scenario.TransportHTTP {
		return trace.Check{}, false
	}
	if s.Protocol == scenario.Protocol20251125 {
		if len(posts) == 0 {
			return fail(HTTPCancelPostsNotification, "Under 2025-11-25 closing the stream is not a cancellation; the client must POST notifications/cancelled.", closes...), true
		}
		return pass(HTTPCancelPostsNotification, "Under 2025-11-25 the client cancels by POSTing notifications/cancelled.", posts...), true
	}
	if len(posts) > 0 {
		return fail(HTTPCancelClosesStream, fmt.Sprintf("Under 2026-07-28 the client must cancel by closing the request's stream; it POSTed notifications/cancelled (%s).", seqList(posts)), posts...), true
	}
	return pass(HTTPCancelClosesStream, "Under 2026-07-28 the client cancels by closing the request's stream and POSTs no notification.", closes...), true
}

// progressIncreases: for each token, progress values on the wire strictly
// increase (DOMAIN.md §3).
func progressIncreases(v *view) (trace.Check, bool) {
	last := map[string]float64{}
	var bad []int
	n := 0
	for i := range v.ev {
		m := v.msg[i]
		if !v.serverSends(i) || m.method != "notifications/progress" || m.progress == nil {
			continue
		}
		n++
		if l, ok := last[m.token]; ok && *m.progress <= l {
			bad = append(bad, i)
			continue
		}
		last[m.token] = *m.progress
	}
	if n == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(ProgressIncreases, fmt.Sprintf("%d progress value(s) did not increase (%s).", len(bad), seqList(bad)), bad...), true
	}
	return pass(ProgressIncreases, fmt.Sprintf("All %d progress values strictly increase per token.", n)), true
}

// staleProgressIgnored: a non-increasing progress value must not reset the
// client's idle clock (DOMAIN.md §3): after its delivery the client ignores
// it rather than recording activity.
func staleProgressIgnored(v *view) (trace.Check, bool) {
	last := map[string]float64{}
	var bad, good []int
	for i, e := range v.ev {
		m := v.msg[i]
		if e.Type != trace.TypeDeliver || e.To != trace.ActorClient || m.method != "notifications/progress" || m.progress == nil {
			continue
		}
		l, seen := last[m.token]
		if !seen || *m.progress > l {
			last[m.token] = *m.progress
			continue
		}
		react := v.reaction(i, trace.ActorClient)
		switch {
		case react < 0:
			return undecided(StaleProgressIgnored, "The trace does not show how the client reacted to stale progress."), true
		case v.ev[react].Type == trace.TypeActivity:
			bad = append(bad, react)
		default:
			good = append(good, react)
		}
	}
	return verdict(StaleProgressIgnored, bad, good, fmt.Sprintf("The client let non-increasing progress reset its idle clock (%s): a stuck server can keep the request alive.", seqList(bad)), "The client ignored non-increasing progress; its idle clock was not reset.")
}

// reaction returns the seq of actor's first event at the same time after
// event i, or -1.
func (v *view) reaction(i int, actor string) int {
	for j := i + 1; j < len(v.ev) && v.ev[j].At == v.ev[i].At; j++ {
		if v.ev[j].Actor == actor {
			return j
		}
	}
	return -1
}

// noProgressAfterFinal: progress stops after the final response (DOMAIN.md §3).
func noProgressAfterFinal(v *view) (trace.Check, bool) {
	final := map[string]bool{}
	var bad []int
	progress := false
	for i := range v.ev {
		if !v.serverSends(i) {
			continue
		}
		m := v.msg[i]
		if m.response {
			final[m.id] = true
		}
		if m.method == "notifications/progress" {
			progress = true
			if id := v.tokens[m.token]; id != "" && final[id] {
				bad = append(bad, i)
			}
		}
	}
	if !progress || len(final) == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(NoProgressAfterFinal, fmt.Sprintf("Progress was sent after the final response (%s).", seqList(bad)), bad...), true
	}
	return pass(NoProgressAfterFinal, "No progress followed a final response."), true
}

// maxTimeoutEnforced: a request with a maximum timeout stops being waited
// for no later than start + max, whatever progress arrives (DOMAIN.md §2).
func maxTimeoutEnforced(v *view) (trace.Check, bool) {
	var bad, good []int
	var details []string
	for _, r := range v.tr.Requests {
		if r.MaxTimeoutMs <= 0 {
			continue
		}
		deadline := r.SentAt + r.MaxTimeoutMs
		if r.EndedAt != nil && *r.EndedAt <= deadline {
			good = append(good, v.timeoutEvent(r.ID.Raw(), trace.CauseMaxTimeout)...)
			continue
		}
		if r.EndedAt == nil && v.tr.EndMs < deadline {
			continue // the trace ends before the deadline: nothing to judge
		}
		ended := "was still waiting"
		if r.EndedAt != nil {
			ended = fmt.Sprintf("stopped only at %d ms", *r.EndedAt)
		}
		details = append(details, fmt.Sprintf("request %s (started %d, maximum %d ms) %s, past its deadline %d", r.ID, r.SentAt, r.MaxTimeoutMs, ended, deadline))
		bad = append(bad, v.timeoutEvent(r.ID.Raw(), "")...)
	}
	if len(details) > 0 {
		return fail(MaxTimeoutEnforced, "The maximum timeout was not enforced: "+strings.Join(details, "; ")+".", bad...), true
	}
	if len(good) == 0 {
		if hasMax(v.tr) {
			return pass(MaxTimeoutEnforced, "Every request with a maximum timeout ended by its deadline."), true
		}
		return trace.Check{}, false
	}
	return pass(MaxTimeoutEnforced, "The maximum timeout cut the request at exactly start + maximum, whatever progress arrived.", good...), true
}

func hasMax(tr *trace.Trace) bool {
	for _, r := range tr.Requests {
		if r.MaxTimeoutMs > 0 {
			return true
		}
	}
	return false
}

// timeoutEvent returns the seqs of the client's timeout events for id (of
// cause, or any cause when cause is "").
func (v *view) timeoutEvent(id, cause string) []int {
	var out []int
	for i, e := range v.ev {
		if e.Type == trace.TypeTimeout && idOf(e) == id && (cause == "" || e.Cause == cause) {
			out = append(out, i)
		}
	}
	return out
}

// idleTimeoutEnforced: a request with an idle timeout is abandoned once no
// valid progress arrived for that long (DOMAIN.md §2). Activity is read
// from the client's activity events.
func idleTimeoutEnforced(v *view) (trace.Check, bool) {
	var bad, good []int
	any := false
	for _, r := range v.tr.Requests {
		if r.IdleTimeoutMs <= 0 {
			continue
		}
		any = true
		last := r.SentAt
		end := v.tr.EndMs
		if r.EndedAt != nil {
			end = *r.EndedAt
		}
		violated := -1
		for i, e := range v.ev {
			if e.At > end {
				break
			}
			if idOf(e) != r.ID.Raw() || e.Actor != trace.ActorClient {
				continue
			}
			if e.At-last > r.IdleTimeoutMs && violated < 0 {
				violated = i
			}
			if e.Type == trace.TypeActivity {
				last = e.At
			}
		}
		if violated < 0 && end-last > r.IdleTimeoutMs {
			violated = len(v.ev) - 1
		}
		if violated >= 0 {
			bad = append(bad, violated)
		} else {
			good = append(good, v.timeoutEvent(r.ID.Raw(), trace.CauseIdleTimeout)...)
		}
	}
	if !any {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(IdleTimeoutEnforced, fmt.Sprintf("A request went longer than its idle timeout without valid progress and was still waited for (%s).", seqList(bad)), bad...), true
	}
	return pass(IdleTimeoutEnforced, "No request was waited for longer than its idle timeout without valid progress.", good...), true
}

// lateResponseIgnored: the client ignores any response that arrives for a
// request it abandoned (DOMAIN.md §1).
func lateResponseIgnored(v *view) (trace.Check, bool) {
	abandoned := map[string]bool{}
	var bad, good []int
	for i, e := range v.ev {
		if e.Actor == trace.ActorClient && (e.Type == trace.TypeTimeout || e.Type == trace.TypeCloseStream ||
			(v.clientSends(i) && v.msg[i].cancelOf != "")) {
			id := idOf(e)
			if v.msg[i].cancelOf != "" {
				id = v.msg[i].cancelOf
			}
			abandoned[id] = true
		}
		if e.Type == trace.TypeDeliver && e.To == trace.ActorClient && v.msg[i].response && abandoned[v.msg[i].id] {
			react := v.reaction(i, trace.ActorClient)
			switch {
			case react < 0:
				return undecided(LateResponseIgnored, "The trace does not show how the client treated a late response."), true
			case v.ev[react].Type == trace.TypeIgnore:
				good = append(good, react)
			default:
				bad = append(bad, react)
			}
		}
	}
	return verdict(LateResponseIgnored, bad, good, "The client used a response for a request it had abandoned.", fmt.Sprintf("The client ignored %d late response(s) for abandoned requests.", len(good)))
}

// serverCancelOnlyForListen: a server-sent notifications/cancelled only
// tears down a subscriptions/listen stream (DOMAIN.md §1).
func serverCancelOnlyForListen(v *view) (trace.Check, bool) {
	var bad, good []int
	for i := range v.ev {
		m := v.msg[i]
		if !v.serverSends(i) || m.method != "notifications/cancelled" {
			continue
		}
		if m.cancelOf != "" && v.method[m.cancelOf] == "subscriptions/listen" {
			good = append(good, i)
		} else {
			bad = append(bad, i)
		}
	}
	return verdict(ServerCancelOnlyForListen, bad, good, fmt.Sprintf("The server sent notifications/cancelled for something other than a subscriptions/listen stream (%s).", seqList(bad)), "Server-sent cancellations only tore down listen streams.")
}

// cancellationNeverAnswered: a cancellation is a notification; valid or not,
// the server never answers it (DOMAIN.md §1: ignoring never answers).
func cancellationNeverAnswered(v *view) (trace.Check, bool) {
	var cancels, bad []int
	for i := range v.ev {
		if v.clientSends(i) && v.msg[i].method == "notifications/cancelled" {
			cancels = append(cancels, i)
		}
		if len(cancels) > 0 && v.serverSends(i) && v.msg[i].response && (v.msg[i].id == "" || v.method[v.msg[i].id] == "") {
			bad = append(bad, i)
		}
	}
	if len(cancels) == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(CancellationNeverAnswered, fmt.Sprintf("The server answered something that was not a request (%s).", seqList(bad)), bad...), true
	}
	return pass(CancellationNeverAnswered, fmt.Sprintf("%d cancellation notification(s) sent; the server answered none of them.", len(cancels)), cancels...), true
}

// oneResponsePerRequest: the coordinator stores one terminal state; the
// server sends at most one final response per request (DOMAIN.md §1).
func oneResponsePerRequest(v *view) (trace.Check, bool) {
	seen := map[string]int{}
	var bad []int
	for i := range v.ev {
		if v.serverSends(i) && v.msg[i].response && v.msg[i].id != "" {
			if _, ok := seen[v.msg[i].id]; ok {
				bad = append(bad, i)
			}
			seen[v.msg[i].id] = i
		}
	}
	if len(seen) == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(OneResponsePerRequest, "The server sent more than one final response for a request.", bad...), true
	}
	return pass(OneResponsePerRequest, fmt.Sprintf("%d request(s) answered, each exactly once.", len(seen))), true
}

// initializeNotCancelled: under 2025-11-25 initialize is never cancelled.
func initializeNotCancelled(v *view) (trace.Check, bool) {
	if v.tr.Scenario == nil || v.tr.Scenario.Protocol != scenario.Protocol20251125 {
		return trace.Check{}, false
	}
	init := false
	var bad []int
	for i, e := range v.ev {
		if v.clientSends(i) && v.msg[i].method == "initialize" {
			init = true
		}
		if v.clientSends(i) && v.msg[i].cancelOf != "" && v.method[v.msg[i].cancelOf] == "initialize" {
			bad = append(bad, i)
		}
		if e.Type == trace.TypeCloseStream && e.Actor == trace.ActorClient && v.method[idOf(e)] == "initialize" {
			bad = append(bad, i)
		}
	}
	if !init {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(InitializeNotCancelled, "The client cancelled initialize, which 2025-11-25 forbids.", bad...), true
	}
	return pass(InitializeNotCancelled, "initialize was not cancelled."), true
}

// noLastEventID: under 2026-07-28 there is no Last-Event-ID resumption; a
// client that sends the header resumes from state the server lacks
// (DOMAIN.md §9).
func noLastEventID(v *view) (trace.Check, bool) {
	var with, without []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorClient || e.Type != trace.TypeReconnect {
			continue
		}
		if _, ok := e.Headers["Last-Event-ID"]; ok {
			with = append(with, i)
		} else {
			without = append(without, i)
		}
	}
	if len(with)+len(without) == 0 {
		return trace.Check{}, false
	}
	s := v.tr.Scenario
	if s == nil {
		return undecided(NoLastEventID, "The transcript does not say which protocol revision was in use."), true
	}
	if s.Protocol == scenario.Protocol20251125 {
		return trace.Check{}, false // resumption is the protocol's own there
	}
	if len(with) > 0 {
		return fail(NoLastEventID, "Under 2026-07-28 the client reconnected with Last-Event-ID; the server keeps no event ids, so nothing is resumed and stale state stays.", with...), true
	}
	return pass(NoLastEventID, "The client reconnected without Last-Event-ID.", without...), true
}

// reconnectRefetches: after a listen stream drops (2026-07-28) the client
// opens a new listen request with a new id and refetches every affected id
// from an authoritative method (DOMAIN.md §9), never resuming.
func reconnectRefetches(v *view) (trace.Check, bool) {
	if len(v.tr.Reconnects) == 0 || (v.tr.Scenario != nil && v.tr.Scenario.Protocol == scenario.Protocol20251125) {
		return trace.Check{}, false
	}
	var bad []string
	var proof []int
	for _, rc := range v.tr.Reconnects {
		if rc.NewID == rc.PreviousID {
			bad = append(bad, fmt.Sprintf("stream %s was resumed under its old id instead of a new listen request", rc.PreviousID))
			continue
		}
		opened := -1
		for i := range v.ev {
			if v.clientSends(i) && v.msg[i].method == "subscriptions/listen" && strings.Trim(v.msg[i].id, `"`) == rc.NewID {
				opened = i
				break
			}
		}
		if opened < 0 {
			bad = append(bad, fmt.Sprintf("no new listen request %s was sent", rc.NewID))
			continue
		}
		proof = append(proof, opened)
		for i := opened + 1; i < len(v.ev); i++ {
			if v.clientSends(i) && v.msg[i].hasID && (v.msg[i].method == "resources/read" || v.msg[i].method == "tools/list" || v.msg[i].method == "tasks/get") {
				proof = append(proof, i)
			}
		}
	}
	if len(bad) > 0 {
		return fail(ReconnectRefetches, "After the drop, "+strings.Join(bad, "; ")+": the client must open a new listen request and refetch.", proof...), true
	}
	return pass(ReconnectRefetches, "After each drop the client opened a new listen request and refetched the affected state.", proof...), true
}

// bufferWithinCapacity: a bounded SSE buffer never holds more than its
// capacity (DOMAIN.md §7); an unbounded one is flagged, since memory then
// grows with a slow consumer.
func bufferWithinCapacity(v *view) (trace.Check, bool) {
	if len(v.tr.Buffers) == 0 {
		return trace.Check{}, false
	}
	var bad []string
	peak := 0
	for _, b := range v.tr.Buffers {
		if b.MaxDepth > peak {
			peak = b.MaxDepth
		}
		switch {
		case b.Capacity == 0:
			bad = append(bad, fmt.Sprintf("stream %s is unbounded and grew to %d events", b.Stream, b.MaxDepth))
		case b.MaxDepth > b.Capacity:
			bad = append(bad, fmt.Sprintf("stream %s held %d events, capacity %d", b.Stream, b.MaxDepth, b.Capacity))
		}
	}
	if len(bad) > 0 {
		return fail(BufferWithinCapacity, strings.Join(bad, "; ")+": memory grows with a slow consumer."), true
	}
	return pass(BufferWithinCapacity, fmt.Sprintf("Every SSE buffer stayed within its capacity (peak %d events).", peak)), true
}

// finalNeverDropped: under pressure the buffer evicts progress, never the
// final response (DOMAIN.md §7).
func finalNeverDropped(v *view) (trace.Check, bool) {
	if len(v.tr.Buffers) == 0 {
		return trace.Check{}, false
	}
	var bad []int
	for i, e := range v.ev {
		if e.Actor == trace.ActorServer && (e.Type == trace.TypeDrop || e.Type == trace.TypeError) && v.msg[i].response {
			bad = append(bad, i)
		}
	}
	if len(bad) > 0 {
		return fail(FinalNeverDropped, fmt.Sprintf("A final response was dropped or refused by the SSE buffer (%s): the client cannot learn the outcome.", seqList(bad)), bad...), true
	}
	n := 0
	for _, b := range v.tr.Buffers {
		n += b.FinalsDelivered
	}
	return pass(FinalNeverDropped, fmt.Sprintf("No final response was dropped; %d delivered through the buffer.", n)), true
}

// taskAckNotTerminal: a tasks/cancel acknowledgement leaves the task
// non-terminal until a worker observes it (DOMAIN.md §6, §12 statement 12):
// the client may call a task stopped only once the worker's status is
// terminal, and a worker status is never changed after it is terminal.
func taskAckNotTerminal(v *view) (trace.Check, bool) {
	worker := map[string]string{} // task → latest worker status so far
	var bad, good []int
	seen := false
	for i, e := range v.ev {
		if e.TaskID == "" {
			continue
		}
		seen = true
		switch {
		case e.Actor == trace.ActorWorker && e.Type == trace.TypeStatus:
			if isTerminalTask(worker[e.TaskID]) && e.Status != worker[e.TaskID] {
				bad = append(bad, i)
			}
			worker[e.TaskID] = e.Status
		case e.Actor == trace.ActorClient && e.Type == trace.TypeStatus && (e.Status == "stopped" || isTerminalTask(e.Status)):
			if isTerminalTask(worker[e.TaskID]) {
				good = append(good, i)
			} else {
				bad = append(bad, i)
			}
		}
	}
	if !seen {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(TaskAckNotTerminal, fmt.Sprintf("The client reported a task stopped while its worker was still %s (%s): the acknowledgement was taken as final.", "working", seqList(bad)), bad...), true
	}
	return pass(TaskAckNotTerminal, "The client reported a task finished only after the worker reached a terminal status.", good...), true
}

func isTerminalTask(s string) bool { return s == "completed" || s == "failed" || s == "cancelled" }

// oneExecutionPerKey: a side effect runs at most once per idempotency key
// (DOMAIN.md §4, §12 statement 7), whatever the JSON-RPC ids, races or
// replicas.
func oneExecutionPerKey(v *view) (trace.Check, bool) {
	effects := map[string][]int{}
	var keys []string
	for i, e := range v.ev {
		if e.Actor == trace.ActorLedger && e.Type == "effect" && e.Key != "" {
			if _, ok := effects[e.Key]; !ok {
				keys = append(keys, e.Key)
			}
			effects[e.Key] = append(effects[e.Key], i)
		}
	}
	if len(keys) == 0 {
		return trace.Check{}, false
	}
	var bad []int
	var which []string
	for _, k := range keys {
		if len(effects[k]) > 1 {
			bad = append(bad, effects[k]...)
			which = append(which, fmt.Sprintf("%q ran %d times", k, len(effects[k])))
		}
	}
	if len(bad) > 0 {
		return fail(OneExecutionPerKey, "A keyed side effect ran more than once: "+strings.Join(which, "; ")+".", bad...), true
	}
	return pass(OneExecutionPerKey, fmt.Sprintf("Each of %d idempotency key(s) executed exactly once.", len(keys))), true
}

// keyReuseRejected: a key reused with different arguments is rejected, never
// answered with the other intent's result (DOMAIN.md §4).
func keyReuseRejected(v *view) (trace.Check, bool) {
	first := map[string]string{} // key → fingerprint of its first execution
	var bad, good []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorLedger || e.Key == "" || e.Fingerprint == "" {
			continue
		}
		fp, seen := first[e.Key]
		if !seen {
			if e.Type == "effect" {
				first[e.Key] = e.Fingerprint
			}
			continue
		}
		if fp == e.Fingerprint {
			continue
		}
		if e.Type == "reject" {
			good = append(good, i)
		} else {
			bad = append(bad, i)
		}
	}
	return verdict(KeyReuseRejected, bad, good, fmt.Sprintf("A key was reused with different arguments and not rejected (%s): one key aliased two intents.", seqList(bad)), "Every reuse of a key with different arguments was rejected.")
}

// defensiveCopy: every replay returns exactly the result first committed
// for its key, even after a caller mutated what it got back (DOMAIN.md §4).
func defensiveCopy(v *view) (trace.Check, bool) {
	committed := map[string]string{}
	var bad, good []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorLedger || e.Key == "" {
			continue
		}
		switch e.Type {
		case "effect":
			if _, ok := committed[e.Key]; !ok && len(e.Message) > 0 {
				committed[e.Key] = string(e.Message)
			}
		case "replay":
			if want, ok := committed[e.Key]; ok {
				if string(e.Message) == want {
					good = append(good, i)
				} else {
					bad = append(bad, i)
				}
			}
		}
	}
	return verdict(DefensiveCopy, bad, good, fmt.Sprintf("A replay returned a result that differs from the committed one (%s): a caller's mutation corrupted the stored result.", seqList(bad)), fmt.Sprintf("%d replay(s) returned exactly the committed result.", len(good)))
}

// noUnsafeRetry: an unsafe mutation (a side effect without an idempotency
// key) is never retried automatically; a new JSON-RPC id is not
// deduplication (DOMAIN.md §4–5, §12 statement 6).
func noUnsafeRetry(v *view) (trace.Check, bool) {
	var bad []string
	any := false
	for _, r := range v.tr.Requests {
		if r.RetryOf == nil {
			continue
		}
		any = true
		if r.RetryClass == trace.RetryUnsafe {
			bad = append(bad, fmt.Sprintf("request %s retried %s", r.ID, r.RetryOf))
		}
	}
	if !any {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(NoUnsafeRetry, fmt.Sprintf("An unsafe mutation was retried with a new JSON-RPC id (%s): without an idempotency key the effect runs again (%d executions).", strings.Join(bad, "; "), v.tr.Ledger.Executions)), true
	}
	return pass(NoUnsafeRetry, "Every retry was of a safe read or carried its idempotency key."), true
}

// verdict turns the offending (bad) and the proving (good) events into a
// check: omitted when there are neither, failed with failDetail when any
// event is bad, passed with passDetail otherwise.
func verdict(rule string, bad, good []int, failDetail, passDetail string) (trace.Check, bool) {
	if len(bad)+len(good) == 0 {
		return trace.Check{}, false
	}
	if len(bad) > 0 {
		return fail(rule, failDetail, bad...), true
	}
	return pass(rule, passDetail, good...), true
}

// sseHeaders: a Streamable HTTP response stream carries Cache-Control:
// no-cache and X-Accel-Buffering: no, so compatible proxies forward each
// event at once instead of buffering it (DOMAIN.md §8).
func sseHeaders(v *view) (trace.Check, bool) {
	var bad, good []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorServer || e.Headers == nil || e.Headers["Content-Type"] != "text/event-stream" {
			continue
		}
		if e.Headers["Cache-Control"] == "no-cache" && e.Headers["X-Accel-Buffering"] == "no" {
			good = append(good, i)
		} else {
			bad = append(bad, i)
		}
	}
	return verdict(SSEHeaders, bad, good,
		fmt.Sprintf("%d response stream(s) opened without Cache-Control: no-cache and X-Accel-Buffering: no (%s): a proxy may buffer them, so progress arrives in bursts or after the client's timeout.", len(bad), seqList(bad)),
		"Every response stream carried Cache-Control: no-cache and X-Accel-Buffering: no.")
}

// herdAllReconnect: after a mass disconnect every client gets back within
// its attempts; a herd that keeps overloading the recovering server leaves
// clients behind (DOMAIN.md §10).
func herdAllReconnect(v *view) (trace.Check, bool) {
	h := v.tr.Herd
	if h == nil {
		return trace.Check{}, false
	}
	if h.Exhausted > 0 {
		return fail(HerdAllReconnect, fmt.Sprintf("%d of %d clients gave up after their attempts: with strategy %s the refused clients came back together (peak %d in one %d ms bucket) and overloaded the server again.", h.Exhausted, h.Clients, h.Strategy, h.PeakPerBucket, h.BucketMs)), true
	}
	return pass(HerdAllReconnect, fmt.Sprintf("All %d clients reconnected by %d ms without exceeding %d per second.", h.Clients, *h.AllReconnectedAtMs, h.CapacityPerSecond)), true
}
