package probe

// The situations of `probe`, each a function that drives one
// fresh session and reports what it saw; probe.go runs them, writes each
// transcript and has the engine judge it.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// cancelMark is one cancellation the probe sent: the request it cancels,
// when it was written, and when the fence request sent right after it was
// answered (zero: not answered).
type cancelMark struct {
	id     string
	closed bool      // the cancellation closed the request's stream (2026-07-28 on Streamable HTTP)
	sentAt time.Time // when the request itself was sent
	at     time.Time
	fence  time.Time
	unseen bool // Streamable HTTP: the call's POST was not answered before the cancellation was sent
}

// sitReport is what a situation found, before the engine judges the
// transcript: its facts (one phrase each), the cancellations to refine
// no-message-after-cancel with, and a violation the probe itself saw
// (the server did not answer a normal call after bad cancellations).
type sitReport struct {
	facts    []string
	cancels  []cancelMark
	violated string
}

func (r *sitReport) fact(format string, args ...any) {
	r.facts = append(r.facts, fmt.Sprintf(format, args...))
}

// situation is one of the probe's situations.
type situation struct {
	name string
	http bool // only on Streamable HTTP
	// decides is the rule the situation is about: when the engine leaves
	// it undecided the situation is undecided, whatever else passed.
	decides trace.RuleID
	run     func(p *prober, s *session, r *sitReport, deadline time.Time) error
}

// situations in the order they run; "clean" is the warm-up the others
// take their timing from.
var situations = []situation{
	{name: "clean", run: sitClean},
	{name: "cancel-after-progress", run: sitCancelAfterProgress, decides: checks.NoMessageAfterCancel},
	{name: "cancel-at-once", run: sitCancelAtOnce, decides: checks.NoMessageAfterCancel},
	{name: "race-sweep", run: sitRace, decides: checks.NoMessageAfterCancel},
	{name: "bad-cancellations", run: sitBadCancels},
	{name: "http-close-stream", http: true, run: sitCloseStream},
	{name: "idle-timeout", run: sitIdle, decides: checks.NoMessageAfterCancel},
}

func ms(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

// sitClean is the warm-up: a call with a progress token, waited for to
// the end; it measures the completion time and the progress interval.
func sitClean(p *prober, s *session, r *sitReport, deadline time.Time) error {
	tools, err := s.tools(deadline)
	if err != nil {
		return err
	}
	var tool probeTool
	if p.tool == "" {
		if len(tools) == 0 {
			return errors.New("the server lists no tools (give one with -tool)")
		}
		tool = tools[0]
		p.tool = tool.name
		r.fact("no -tool given: using the first listed, %q", p.tool)
	} else {
		i := slices.IndexFunc(tools, func(t probeTool) bool { return t.name == p.tool })
		if i < 0 {
			var names []string
			for _, t := range tools {
				names = append(names, t.name)
			}
			return &InputError{fmt.Sprintf("-tool: the server lists no tool %q (it lists %s)", p.tool, strings.Join(names, ", "))}
		}
		tool = tools[i]
	}
	if !p.argsGiven && len(requiredArgs(tool.schema)) > 0 {
		return needArgs(tool)
	}
	id, sent, err := s.call(p)
	if err != nil {
		return err
	}
	at, isErr, err := s.response(id, deadline)
	if err != nil {
		return fmt.Errorf("tools/call %s: %w", p.tool, s.explain(err))
	}
	v := viewRequest(s.c.records(), s, id)
	p.warm = warmup{done: at.Sub(sent), progress: len(v.progress)}
	if len(v.progress) > 0 {
		p.warm.first = v.progress[0].Sub(sent)
		if n := len(v.progress); n > 1 {
			p.warm.interval = v.progress[n-1].Sub(v.progress[0]) / time.Duration(n-1)
		} else {
			p.warm.interval = p.warm.first
		}
	}
	kind := "result"
	if isErr {
		kind = "error"
	}
	r.fact("%s after %s", kind, ms(p.warm.done))
	if n, tok := strangeProgress(s); n > 0 {
		r.fact("%d progress under a token the probe never gave (%s)", n, tok)
	}
	if p.warm.progress == 0 {
		r.fact("no progress under the call's token (the situations that cancel after progress are skipped)")
	} else {
		r.fact("%d progress, first at %s, every %s", p.warm.progress, ms(p.warm.first), ms(p.warm.interval))
	}
	// Whatever comes after the final response is judged too.
	_ = s.wait(minTime(deadline, time.Now().Add(p.grace())), nil)
	return nil
}

// sitCancelAfterProgress cancels (with the signal the transport and
// revision prescribe) as soon as the first progress arrives.
func sitCancelAfterProgress(p *prober, s *session, r *sitReport, deadline time.Time) error {
	if p.warm.progress == 0 {
		return errSkip("the tool sent no progress in the warm-up")
	}
	id, sent, err := s.call(p)
	if err != nil {
		return err
	}
	var first time.Time
	var done bool
	err = s.wait(deadline, func(in inbound, mi msgInfo) bool {
		if s.about(mi) == id {
			first, done = in.at, mi.response
			return true
		}
		return false
	})
	if err != nil {
		return fmt.Errorf("waiting for the first progress: %w", s.explain(err))
	}
	if done {
		r.fact("the call ended before any progress")
		return nil
	}
	r.fact("first progress at %s", ms(first.Sub(sent)))
	if p.url != "" {
		r.fact("signal: %s, as %s prescribes", p.signal(s), s.version)
	}
	mark := p.cancel(s, id, sent, "mcplab probe: cancel after the first progress", deadline)
	r.cancels = append(r.cancels, mark)
	p.linger(s, sent, mark, deadline)
	r.fact("%s", p.order(s, mark))
	return nil
}

// sitCancelAtOnce cancels right after the call, before any work.
func sitCancelAtOnce(p *prober, s *session, r *sitReport, deadline time.Time) error {
	id, sent, err := s.call(p)
	if err != nil {
		return err
	}
	mark := p.cancel(s, id, sent, "mcplab probe: cancel at once", deadline)
	r.cancels = append(r.cancels, mark)
	if p.url != "" {
		r.fact("cancelled %s after the call, once the server had answered its POST", ms(mark.at.Sub(sent)))
	}
	p.linger(s, sent, mark, deadline)
	r.fact("%s", p.order(s, mark))
	return nil
}

// raceSteps are the offsets of the race sweep, as fractions of the
// warm-up's completion time around it (0 is that time).
var raceSteps = []float64{-0.2, -0.1, -0.04, -0.01, 0, 0.01, 0.04, 0.1}

// raceMinSteps is the fewest offsets worth a sweep: the three nearest the
// completion time (-1%, 0, +1%). With less time left the sweep is skipped.
const raceMinSteps = 3

// raceStepCost estimates one offset's call: until the cancellation at
// d·(1+f), or the tool's warm-up time if later (the probe lingers until
// the tool would have finished), then the grace, plus 10% for the fence
// and the scheduler.
func (p *prober) raceStepCost(d time.Duration, f float64) time.Duration {
	return (max(d+time.Duration(f*float64(d)), p.fastest()) + p.grace()) * 11 / 10
}

// racePlan returns the offsets that fit in left after a warm call of d
// (those nearest 0 first, run in raceSteps' order) and the time all of
// them would need.
func (p *prober) racePlan(d, left time.Duration) (steps []float64, all time.Duration) {
	byNear := append([]float64(nil), raceSteps...)
	sort.SliceStable(byNear, func(i, j int) bool { return math.Abs(byNear[i]) < math.Abs(byNear[j]) })
	used := (d + p.grace()) * 11 / 10 // the warm call
	all = used
	keep := map[float64]bool{}
	fits := true
	for _, f := range byNear {
		c := p.raceStepCost(d, f)
		all += c
		if fits = fits && used+c <= left; fits {
			used += c
			keep[f] = true
		}
	}
	for _, f := range raceSteps {
		if keep[f] {
			steps = append(steps, f)
		}
	}
	return steps, all
}

// sitRace first calls the tool once uncancelled in this session (a warm
// server is faster than the cold warm-up), then places one call's
// cancellation at each offset around that completion time and reports
// which order occurred at each. The sweep is sized to the time left (see
// racePlan): fewer offsets, nearest the completion time first, or none
// with the limit that would let it run.
func sitRace(p *prober, s *session, r *sitReport, deadline time.Time) error {
	if steps, all := p.racePlan(p.fastest(), time.Until(deadline)); len(steps) < raceMinSteps {
		return errSkip(fmt.Sprintf("the sweep needs about %s (a warm call and %d cancelled calls of about %s each), more than is left of %s; %s would let it run",
			ms(all), len(raceSteps), ms(p.fastest()), p.limitName(deadline), p.limitFor(deadline, all)))
	}
	id, sent, err := s.call(p)
	if err != nil {
		return err
	}
	at, _, err := s.response(id, deadline)
	if err != nil {
		return fmt.Errorf("the warm call: %w", s.explain(err))
	}
	d := at.Sub(sent)
	p.noteCompletions(s) // the sweep lingers for the fastest completion
	r.fact("warm call %s", ms(d))
	_ = s.wait(minTime(deadline, time.Now().Add(p.grace())), nil)
	steps, all := p.racePlan(d, time.Until(deadline)+(d+p.grace())*11/10)
	if len(steps) < len(raceSteps) {
		r.fact("%d of the %d offsets fit in %s, those nearest the completion time (%s would fit all)", len(steps), len(raceSteps), p.limitName(deadline), p.limitFor(deadline, all))
	}
	for _, f := range steps {
		if p.stopped() != "" {
			return errStopped
		}
		fmt.Fprintf(p.log, "probe:   race at %+.0f%% of %s …\n", f*100, ms(d))
		off := d + time.Duration(f*float64(d))
		id, sent, err := s.call(p)
		if err != nil {
			return err
		}
		at := sent.Add(off)
		if at.After(deadline) {
			r.fact("%s came before the offset %+.0f%% (%s would fit all)", p.limitName(deadline), f*100, p.limitFor(deadline, all))
			return nil
		}
		if err := s.wait(at, nil); errors.Is(err, errDead) {
			return s.explain(err)
		}
		mark := p.cancel(s, id, sent, fmt.Sprintf("mcplab probe: race at %+.0f%% of %s", f*100, ms(d)), deadline)
		r.cancels = append(r.cancels, mark)
		p.linger(s, sent, mark, deadline)
		r.fact("%+.0f%% (%s): %s", f*100, ms(mark.at.Sub(sent)), p.order(s, mark))
	}
	return nil
}

// sitBadCancels sends cancellations the server must ignore (for a request
// already completed, for an unknown id, malformed ones) and then a normal
// call, which must be answered.
func sitBadCancels(p *prober, s *session, r *sitReport, deadline time.Time) error {
	if p.closesToCancel(s) {
		return errSkip("under 2026-07-28 Streamable HTTP carries no notifications/cancelled (closing a stream is the cancellation), so there is none to send badly")
	}
	done, _, err := s.request(s.fenceMethod(), nil, false)
	if err != nil {
		return err
	}
	if _, _, err := s.response(done, deadline); err != nil {
		return fmt.Errorf("%s: %w", s.fenceMethod(), s.explain(err))
	}
	n := 0
	for _, params := range []any{
		map[string]any{"requestId": atoi(done), "reason": "mcplab probe: the request already completed"},
		map[string]any{"requestId": 987654321, "reason": "mcplab probe: no such request"},
		map[string]any{"requestId": map[string]any{"not": "an id"}},
		map[string]any{"reason": "mcplab probe: no requestId"},
		nil,
	} {
		if _, err := s.notify("notifications/cancelled", params); err != nil {
			return err
		}
		n++
	}
	r.fact("%d cancellations sent (completed, unknown, 3 malformed)", n)
	id, sent, err := s.call(p)
	if err != nil {
		return err
	}
	at, _, err := s.response(id, deadline)
	if err != nil {
		r.violated = "the normal call after them got no answer (" + s.explain(err).Error() + ")"
		return nil
	}
	r.fact("the normal call after them answered in %s", ms(at.Sub(sent)))
	_ = s.wait(minTime(deadline, time.Now().Add(p.grace())), nil)
	return nil
}

// sitCloseStream (Streamable HTTP) cancels with the signal the negotiated
// revision does not prescribe: closing the request's response stream
// under 2025-11-25 (where a disconnect is not a cancellation), then checks
// the server still answers.
func sitCloseStream(p *prober, s *session, r *sitReport, deadline time.Time) error {
	if p.closesToCancel(s) {
		return errSkip("under 2026-07-28 closing the stream is the cancellation itself, which the cancelling situations use")
	}
	id, sent, err := s.call(p)
	if err != nil {
		return err
	}
	if p.warm.progress > 0 {
		_ = s.wait(deadline, func(in inbound, mi msgInfo) bool { return s.about(mi) == id })
	}
	closedAt := time.Now()
	// Nothing is tested when the server had answered before the probe
	// could close the stream: the situation is skipped, never a pass.
	// Not recorded: under 2025-11-25 the close is the probe's deliberate
	// test of the other signal, not a cancellation of its own.
	if _, ok := s.c.closeStream(id, false); !ok || answeredBy(s.c.records(), id, closedAt) {
		return errSkip("the server had answered before the probe could close the response stream, so nothing was tested; a slower call (-tool, -args) lets the probe close it while the server works")
	}
	r.fact("closed the request's stream at %s (under %s that is not a cancellation)", ms(closedAt.Sub(sent)), s.version)
	fence := s.fence(minTime(deadline, time.Now().Add(p.grace()+p.warm.done)))
	if fence.IsZero() {
		r.violated = "the server did not answer a ping after the stream was closed"
		return nil
	}
	r.fact("the server answered a %s %s later; what it did with the request cannot be seen once the stream is closed", s.fenceMethod(), ms(fence.Sub(closedAt)))
	return nil
}

// answeredBy reports whether recs hold the server's response to request
// id, read at or before t.
func answeredBy(recs []record, id string, t time.Time) bool {
	for _, rec := range recs {
		if rec.from == trace.ActorServer && !rec.at.After(t) {
			if mi := parseMsg(rec.msg); mi.response && mi.id == id {
				return true
			}
		}
	}
	return false
}

// sitIdle runs a client idle timeout shorter than the tool's progress
// interval: the client gives up, cancels, and the server must then stop.
func sitIdle(p *prober, s *session, r *sitReport, deadline time.Time) error {
	gap := p.warm.interval
	what := "progress interval"
	if p.warm.progress == 0 {
		gap, what = p.warm.done, "completion time (no progress)"
	}
	idle := max(gap/2, time.Millisecond)
	id, sent, err := s.call(p)
	if err != nil {
		return err
	}
	last := sent
	for {
		var got, done bool
		err := s.wait(minTime(deadline, last.Add(idle)), func(in inbound, mi msgInfo) bool {
			if s.about(mi) == id {
				got, done, last = true, mi.response, in.at
				return true
			}
			return false
		})
		if errors.Is(err, errDead) {
			return s.explain(err)
		}
		if done {
			r.fact("the call ended before the idle timeout of %s fired", ms(idle))
			return nil
		}
		if !got {
			break
		}
	}
	if time.Now().After(deadline) {
		return errTimeout
	}
	r.fact("idle timeout %s (half the %s of %s): gave up at %s", ms(idle), what, ms(gap), ms(time.Since(sent)))
	mark := p.cancel(s, id, sent, fmt.Sprintf("mcplab probe: idle timeout, no progress for %s", ms(idle)), deadline)
	r.cancels = append(r.cancels, mark)
	p.linger(s, sent, mark, deadline)
	r.fact("%s", p.order(s, mark))
	return nil
}

// strangeProgress counts the progress notifications the server sent under
// a token no request of the session carried (progress-token-known) and
// returns the first such token's JSON text.
func strangeProgress(s *session) (int, string) {
	n, first := 0, ""
	for _, r := range s.c.records() {
		if mi := parseMsg(r.msg); r.from == trace.ActorServer && mi.method == "notifications/progress" && s.tokens[mi.token] == "" {
			if n++; first == "" {
				first = mi.token
			}
		}
	}
	return n, first
}

// errSkip marks a situation that cannot run against this server.
type errSkip string

func (e errSkip) Error() string { return string(e) }

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}
