package probe

// The probe's timing and evidence: when it cancels and how long it
// listens, and how the fence and the warm-up time refine the engine's
// no-message-after-cancel verdict (the design record in probe.go).

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// call sends tools/call of the probe's tool with a progress token.
func (s *session) call(p *prober) (string, time.Time, error) {
	id, at, err := s.request(jsonrpc.MethodToolsCall, map[string]any{"name": p.tool, "arguments": p.args}, true)
	s.calls = append(s.calls, id)
	return id, at, err
}

// grace is how long the probe keeps listening after a call ends or is
// cancelled: twice the progress interval, within [probeMinGrace, probeMaxGrace].
func (p *prober) grace() time.Duration {
	return min(max(2*p.warm.interval, probeMinGrace), probeMaxGrace)
}

// closesToCancel reports whether the session cancels by closing the
// request's stream: Streamable HTTP under 2026-07-28 (basic/transports,
// "Cancellation"), which defines no notifications/cancelled there.
func (p *prober) closesToCancel(s *session) bool { return p.url != "" && s.stateless }

// signal names the cancellation signal of the session's transport and
// revision.
func (p *prober) signal(s *session) string {
	if p.closesToCancel(s) {
		return "closing the request's response stream"
	}
	return "POST notifications/cancelled"
}

// cancel sends the cancellation of request id the transport and revision
// prescribe (DOMAIN.md §1: the notification on stdio and on Streamable
// HTTP under 2025-11-25; closing the request's stream on Streamable HTTP
// under 2026-07-28), then the fence.
func (p *prober) cancel(s *session, id string, sent time.Time, reason string, deadline time.Time) cancelMark {
	m := cancelMark{id: id, sentAt: sent}
	if !s.c.received(id, deadline) {
		m.unseen = true
	}
	if p.closesToCancel(s) {
		m.at, m.closed = s.c.closeStream(id, true)
		if !m.closed {
			m.at = time.Now() // the stream had ended: the server had answered
		}
	} else {
		m.at, _ = s.cancel(id, reason)
	}
	s.cancelledAt[id] = m.at
	m.fence = s.fence(minTime(deadline, time.Now().Add(p.warm.done+p.grace())))
	return m
}

// linger reads whatever the server still sends until the tool would have
// finished and the grace after that has passed (or the deadline).
func (p *prober) linger(s *session, sent time.Time, m cancelMark, deadline time.Time) {
	end := sent.Add(p.fastest())
	if now := time.Now(); now.After(end) {
		end = now
	}
	_ = s.wait(minTime(deadline, end.Add(p.grace())), nil)
}

// fastest is the fastest completion of the tool the probe has seen: the
// least time from a call to its response, over every call of every
// situation so far that was not cancelled before its response arrived
// (noteCompletions), the warm-up's included. A message is early only
// against it: a server whose first call is slower (a lazy set-up, load, a
// slow link) is not convicted at an offset where completion won.
func (p *prober) fastest() time.Duration {
	if p.quickest > 0 && p.quickest < p.warm.done {
		return p.quickest
	}
	return p.warm.done
}

// noteCompletions lowers the fastest completion (prober.fastest) by the
// session's tools/call requests that were answered before any
// cancellation of theirs was sent (session.cancelledAt).
func (p *prober) noteCompletions(s *session) {
	recs := s.c.records()
	for _, id := range s.calls {
		v := viewRequest(recs, s, id)
		if v.sent.IsZero() || v.response.IsZero() {
			continue
		}
		at, cancelled := s.cancelledAt[id]
		cancelled = cancelled && !at.After(v.response)
		if d := v.response.Sub(v.sent); !cancelled && (p.quickest == 0 || d < p.quickest) {
			p.quickest = d
		}
	}
}

// fenceWhy is proven's reason for a message read after the fence's answer.
const fenceWhy = "after the fence"

// proven reports whether a server message about m's request, read at t,
// was written after the server read the cancellation (see the design
// record at the top of this file), and why.
func (p *prober) proven(m cancelMark, t time.Time, response bool) (bool, string) {
	if !t.After(m.at) || m.unseen {
		return false, ""
	}
	done, tol := p.fastest(), p.tolerance()
	if !m.fence.IsZero() && t.After(m.fence.Add(p.streamSkew())) {
		return true, fenceWhy
	}
	if response && t.Before(m.sentAt.Add(done-tol)) {
		return true, fmt.Sprintf("%s before the tool could have finished (its fastest completion, %s: the probe's own evidence, the transcript alone leaves it undecided)", ms(m.sentAt.Add(done).Sub(t)), ms(done))
	}
	return false, ""
}

// streamSkew is how much later than the fence's answer a message must be
// read to count as written after it. On stdio both come down one pipe in
// the order the server wrote them: 0. On Streamable HTTP the fence's
// answer and the call's messages come on different response streams, so
// their arrival order within a few milliseconds is not the order the
// server wrote them in (a result read 47 µs after the fence's answer may
// have been written first, which the transcript's judge also leaves
// undecided): the probe's timing tolerance.
func (p *prober) streamSkew() time.Duration {
	if p.url == "" {
		return 0
	}
	return p.tolerance()
}

// tolerance is the margin of the probe's timing evidence: a twentieth of
// the fastest completion it saw, at least 10 ms.
func (p *prober) tolerance() time.Duration { return max(p.fastest()/20, 10*time.Millisecond) }

// order says, from the records, which order occurred for m's request.
func (p *prober) order(s *session, m cancelMark) string {
	p.noteCompletions(s)
	v := viewRequest(s.c.records(), s, m.id)
	if !v.response.IsZero() && !v.response.After(m.at) {
		return fmt.Sprintf("completed first (%s %s before the cancellation)", v.kind, ms(m.at.Sub(v.response)))
	}
	if m.closed {
		return "stream closed (the 2026-07-28 cancellation): nothing after it reaches the client, undecided"
	}
	var late, race []string
	for _, x := range v.after(m.at) {
		what := "progress"
		if x.response {
			what = v.kind
		}
		if ok, why := p.proven(m, x.at, x.response); ok {
			late = append(late, fmt.Sprintf("%s %s after it (%s)", what, ms(x.at.Sub(m.at)), why))
		} else {
			race = append(race, fmt.Sprintf("%s %s after it", what, ms(x.at.Sub(m.at))))
		}
	}
	fence := "the fence"
	if m.fence.IsZero() {
		fence = "the fence (never answered)"
	}
	if m.unseen {
		fence += "; the call's POST was not answered before the cancellation was sent, so the server may have read the cancellation first"
	}
	before := "before " + fence
	if skew := p.streamSkew(); skew > 0 && !m.fence.IsZero() {
		before = fmt.Sprintf("before %s or within %s of its answer, which came on another HTTP stream", fence, ms(skew))
	}
	switch {
	case len(late) > 0:
		return "MESSAGE AFTER THE ACCEPTED CANCELLATION: " + strings.Join(late, ", ")
	case len(race) > 0:
		return "race, undecided from the client: " + strings.Join(race, ", ") + ", " + before
	}
	return "cancellation won (nothing after it)"
}

// serverRules are the rules about what a server sends, the ones the probe
// judges. The others (late-response-ignored, the timeout rules, the HTTP
// cancel signal, ...) are about the client, which is the probe itself; its
// transcripts cannot show that it ignores late responses, so the engine may
// leave them undecided or misread a message sent in the same millisecond.
var serverRules = map[trace.RuleID]bool{
	checks.NoMessageAfterCancel:      true,
	checks.ProgressIncreases:         true,
	checks.ProgressTokenKnown:        true,
	checks.NoProgressAfterFinal:      true,
	checks.ServerCancelOnlyForListen: true,
	checks.CancellationNeverAnswered: true,
	checks.OneResponsePerRequest:     true,
	checks.SSEHeaders:                true,
}

// refine keeps the server's rules of the engine's verdicts and applies the fence and timing evidence to the engine's
// no-message-after-cancel verdict (design record above).
func (p *prober) refine(tr *trace.Trace, recs []record, s *session, marks []cancelMark) []trace.Check {
	var out []trace.Check
	for _, c := range tr.Checks {
		if serverRules[c.Rule] {
			out = append(out, c)
		}
	}
	if closedCheck, ok := closedUndecided(out, marks); ok {
		out = append(out, closedCheck)
	}
	for i, c := range out {
		if c.Rule != checks.NoMessageAfterCancel || c.OK != nil && *c.OK {
			continue // the engine's undecided messages (a client's view) may be proven below
		}
		var kept []int
		var why string
		for _, seq := range c.Events {
			e := tr.Events[seq]
			if e.Wire < 1 || e.Wire > len(recs) {
				kept = append(kept, seq) // not ours to second-guess
				continue
			}
			rec := recs[e.Wire-1]
			mi := parseMsg(rec.msg)
			for _, m := range marks {
				if m.id != s.about(mi) {
					continue
				}
				if ok, w := p.proven(m, rec.at, mi.response); ok {
					kept = append(kept, seq)
					why = w
				}
			}
		}
		if len(kept) == 0 {
			out[i] = trace.Check{Rule: c.Rule, Detail: "Undecided from the client: every message the server sent after a cancellation arrived before its answer to the fence request (ping, or server/discover under 2026-07-28) sent right after it, at a time the tool could also have finished (the legitimate race)."}
			continue
		}
		bad := false
		out[i].OK, out[i].Events = &bad, kept
		if why == fenceWhy {
			why += " (the fence: the server's answer to the request (ping, or server/discover) sent right after the cancellation, so it had read the cancellation)"
		}
		out[i].Detail = fmt.Sprintf("%d message(s) after an accepted cancellation; the last proven one arrived %s.", len(kept), why)
	}
	return out
}

// closedUndecided is the undecided no-message-after-cancel of a
// situation whose cancellations closed the request's stream (2026-07-28
// on Streamable HTTP) when the engine's checks do not judge the rule: the
// client reads nothing of a closed stream, so it cannot see whether the
// server stopped. ok is false when no cancellation closed a stream or the
// rule is judged already.
func closedUndecided(cs []trace.Check, marks []cancelMark) (trace.Check, bool) {
	for _, c := range cs {
		if c.Rule == checks.NoMessageAfterCancel {
			return trace.Check{}, false
		}
	}
	for _, m := range marks {
		if m.closed {
			return trace.Check{Rule: checks.NoMessageAfterCancel, Detail: "Undecided from the client: under 2026-07-28 the client cancels on Streamable HTTP by closing the request's stream, and nothing the server sends for the request after that reaches it. Judge the server's own log."}, true
		}
	}
	return trace.Check{}, false
}

// reqView is what the records say about one request.
type reqView struct {
	sent     time.Time
	response time.Time // zero: none
	kind     string    // "result" or "error"
	progress []time.Time
	msgs     []msgAt // every server message about it, in order
}

type msgAt struct {
	at       time.Time
	response bool
}

func (v reqView) after(t time.Time) []msgAt {
	var out []msgAt
	for _, m := range v.msgs {
		if m.at.After(t) {
			out = append(out, m)
		}
	}
	return out
}

func viewRequest(recs []record, s *session, id string) reqView {
	v := reqView{kind: "result"}
	for _, r := range recs {
		mi := parseMsg(r.msg)
		if r.from == trace.ActorClient {
			if mi.method != "" && mi.id == id && v.sent.IsZero() {
				v.sent = r.at
			}
			continue
		}
		if s.about(mi) != id {
			continue
		}
		v.msgs = append(v.msgs, msgAt{at: r.at, response: mi.response})
		if mi.response && v.response.IsZero() {
			v.response = r.at
			if mi.isError {
				v.kind = "error"
			}
		}
		if mi.method == "notifications/progress" {
			v.progress = append(v.progress, r.at)
		}
	}
	return v
}
