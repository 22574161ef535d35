package review

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Bounds of the flow-control runs.
const (
	// maxProduced bounds the progress values of one derived run (the
	// produce verb's own limit, 1000).
	maxProduced = 1000
	// unboundedPush is how many progress values the overload run pushes into
	// an unbounded buffer (capacity 0).
	unboundedPush = 24
	// quietDefaultMs is how long the quiet SSE run keeps a stream open when
	// neither a proxy idle close nor a keep-alive sets the length.
	quietDefaultMs = 1000
)

// token returns the call's progress token, or a review token when it has
// none (progress is opt-in: a run that shows progress must ask for it).
func (r *reviewer) token(c scenario.Step) scenario.Step {
	if c.ProgressToken == nil {
		t := scenario.NewStringID("review-" + stringID(*r.op.ID))
		c.ProgressToken = &t
	}
	return c
}

// flow runs the flow-control part.
func (r *reviewer) flow() error {
	fc := &r.rep.FlowControl
	fc.NotApplicable, fc.NotEvaluated = []string{}, []string{}
	o, id := r.rep.Operation, *r.op.ID
	http := r.s.Transport == scenario.TransportHTTP
	complete := func(at int64) scenario.Step { return scenario.Step{At: at, Do: scenario.VerbComplete, ID: &id} }

	// The bounded buffer under overload: 2 x capacity + 4 progress values,
	// one per ms from 1 ms after the call reaches the server (its up
	// latency), then the final response. The server's handlers are left
	// out, so the run's own steps say when the progress and the answer
	// come, and a handler finishing early cannot skip them.
	switch {
	case !http:
		fc.NotApplicable = append(fc.NotApplicable, "buffer: on stdio the server writes to a pipe; the lab models the SSE buffer on Streamable HTTP only.")
	default:
		buf, assumed := r.s.Buffer, ""
		if buf == nil {
			b := scenario.DefaultBuffer()
			buf = &b
			assumed = fmt.Sprintf("The scenario configures no server SSE buffer, so this overload runs the format's default: capacity %d, policy %s (set buffer.capacity and buffer.policy to your server's).", b.Capacity, b.Policy)
		}
		n := unboundedPush
		if c := buf.Capacity; c > 0 {
			n = min(2*c+4, maxProduced)
		}
		sc := r.own()
		sc.Buffer = buf
		sc.Server.Handlers = nil
		start := r.arrived()
		sc.Steps = []scenario.Step{r.token(r.call(0, false)),
			{At: start, Do: scenario.VerbProduce, ID: &id, EveryMs: 1, Count: n, FromValue: ptr(1.0), Total: ptr(float64(n))},
			complete(start + int64(n) + 1)}
		run, err := r.run("buffer-overload", fmt.Sprintf("Overload: %d progress values into a buffer of capacity %d (%s)", n, buf.Capacity, buf.Policy), sc)
		if err != nil {
			return err
		}
		// The summary names the buffer the run configured even when the
		// call never reaches it (a server that refuses the call).
		be := &BufferEvidence{Pushed: n, Assumed: assumed, Summary: trace.Buffer{Capacity: buf.Capacity, Policy: buf.Policy}}
		for _, b := range run.Trace.Buffers {
			if b.Stream.Raw() == id.Raw() {
				be.Summary = b
			}
		}
		skipped := ""
		for _, e := range run.Trace.Events {
			if e.Type == trace.TypeSkip && e.Step != nil && *e.Step == 1 {
				// The produce step did not happen: nothing was pushed, and
				// the evidence says so rather than claim an overload.
				be.Pushed, skipped = 0, " The progress was never pushed: "+e.Note
			}
		}
		b := be.Summary
		be.Evidence = evidence(run, fmt.Sprintf("Depth peaked at %d (capacity %d); %d progress dropped, %d coalesced, %d final(s) dropped, %d final(s) delivered; %s.%s",
			b.MaxDepth, b.Capacity, b.DroppedProgress, b.Coalesced, b.DroppedFinals, b.FinalsDelivered, either(b.NeedsRefetch, "the client must refetch what it missed", "the client needs no refetch"), skipped), checks.BufferWithinCapacity, checks.FinalNeverDropped)
		fc.Buffer = be
	}

	// SSE headers and keep-alive against the proxy's idle close: a quiet
	// stream, no progress, open past the proxy's idle close.
	if !http {
		fc.NotApplicable = append(fc.NotApplicable, "sse: stdio has no HTTP headers, proxy or keep-alive.")
	} else {
		quiet := int64(quietDefaultMs)
		idle := int64(0)
		if r.s.Proxy != nil && r.s.Proxy.IdleCloseMs > 0 {
			idle = r.s.Proxy.IdleCloseMs
			quiet = idle + 100
		} else if k := r.s.Server.KeepaliveEveryMs; k > 0 {
			quiet = 3 * k
		}
		sc := r.own()
		sc.Steps = []scenario.Step{r.call(0, false), complete(quiet)}
		run, err := r.run("sse-quiet", fmt.Sprintf("A quiet stream for %d ms: SSE headers and keep-alive", quiet), sc)
		if err != nil {
			return err
		}
		se := &SSEEvidence{KeepaliveEveryMs: r.s.Server.KeepaliveEveryMs, IdleCloseMs: idle}
		keepalives := 0
		for _, e := range run.Trace.Events {
			if e.ID == nil || e.ID.Raw() != id.Raw() {
				continue
			}
			if e.Headers != nil && se.Headers == nil && e.Actor == trace.ActorServer {
				se.Headers = e.Headers
			}
			if e.Actor == trace.ActorProxy && e.Type == trace.TypeCloseStream {
				se.ProxyClosed = true
			}
			if e.Type == trace.TypeKeepalive && e.Actor == trace.ActorServer {
				keepalives++
			}
		}
		finding := fmt.Sprintf("%d keep-alive comment(s) in %d quiet ms", keepalives, quiet)
		switch {
		case se.ProxyClosed:
			finding += fmt.Sprintf("; the proxy closed the idle stream after %d ms, killing the response.", idle)
		case idle > 0:
			finding += fmt.Sprintf("; the proxy's %d ms idle close never fired.", idle)
		default:
			finding += "; no proxy idle close is configured."
		}
		se.Evidence = evidence(run, finding, checks.SSEHeaders)
		fc.SSE = se
	}

	// Progress against the client's idle timeout through the proxy.
	switch {
	case !http || r.s.Proxy == nil:
		fc.NotApplicable = append(fc.NotApplicable, "progress: no proxy sits between server and client, so progress travels as it is sent.")
	default:
		every := int64(200)
		if o.IdleTimeoutMs > 1 {
			every = o.IdleTimeoutMs / 2
		}
		count := int64(5) // the handler completes before the maximum timeout
		if o.MaxTimeoutMs > 0 {
			count = max(min(count, o.MaxTimeoutMs/every-2), 1)
		}
		sc := r.own()
		sc.Steps = []scenario.Step{r.token(r.call(0, false)),
			{At: max(every, r.arrived()), Do: scenario.VerbProduce, ID: &id, EveryMs: every, Count: int(count), FromValue: ptr(1.0), Total: ptr(float64(count))},
			complete((count + 1) * every)}
		run, err := r.run("progress-through-proxy", fmt.Sprintf("Progress every %d ms through the proxy", every), sc)
		if err != nil {
			return err
		}
		held, activity := 0, 0
		for _, e := range run.Trace.Events {
			if e.ID == nil || e.ID.Raw() != id.Raw() {
				continue
			}
			if e.Actor == trace.ActorProxy && e.Type == trace.TypeHold {
				held++
			}
			if e.Actor == trace.ActorClient && e.Type == trace.TypeActivity {
				activity++
			}
		}
		pe := &ProgressEvidence{Held: held, Activity: activity}
		outcome := ""
		if req := request(run.Trace, id); req != nil {
			pe.Outcome, outcome = req.ClientOutcome, req.ClientOutcome
			if req.Cause != nil && req.ClientOutcome == trace.OutcomeAbandoned {
				pe.Cause = *req.Cause
				outcome += " (" + *req.Cause + ")"
			}
		}
		pe.Evidence = evidence(run, fmt.Sprintf("%d progress values sent every %d ms; the proxy held %d message(s); the client took %d as activity; outcome: %s.", count, every, held, activity, outcome),
			checks.SSEHeaders, checks.IdleTimeoutEnforced)
		fc.Progress = pe
	}

	// The deadlines: steady progress past twice the maximum timeout.
	if o.MaxTimeoutMs == 0 {
		fc.NotApplicable = append(fc.NotApplicable, "deadlines: the call has no maximum timeout, so nothing bounds it while progress flows.")
		if err := r.unbounded(); err != nil {
			return err
		}
		return r.silent()
	}
	every := max(o.MaxTimeoutMs/4, 1)
	if o.IdleTimeoutMs > 1 {
		every = min(every, o.IdleTimeoutMs/2)
	}
	count := int(min(2*o.MaxTimeoutMs/every, maxProduced))
	sc := r.own()
	sc.Steps = []scenario.Step{r.token(r.call(0, false)),
		{At: max(every, r.arrived()), Do: scenario.VerbProduce, ID: &id, EveryMs: every, Count: count, FromValue: ptr(1.0)},
		complete(every*int64(count+1) + 1)}
	run, err := r.run("deadlines", fmt.Sprintf("Progress every %d ms past the %d ms maximum timeout", every, o.MaxTimeoutMs), sc)
	if err != nil {
		return err
	}
	finding := "The request was never abandoned."
	if req := request(run.Trace, id); req != nil && req.EndedAt != nil {
		finding = fmt.Sprintf("The client stopped waiting at %d ms (maximum %d ms), outcome %s.", *req.EndedAt, o.MaxTimeoutMs, req.ClientOutcome)
	}
	ev := evidence(run, finding, checks.MaxTimeoutEnforced)
	fc.Deadlines = &ev
	return r.silent()
}

// recovery runs the recovery part.
func (r *reviewer) recovery() error {
	rc := &r.rep.Recovery
	rc.NotApplicable, rc.NotEvaluated = []string{}, []string{}
	o := r.rep.Operation
	up, down := r.s.LatencyMs.Up, r.s.LatencyMs.Down

	// The reconnect plan: a listen stream drops while the call is in flight.
	lid := scenario.NewStringID("review-listen")
	if lid.Raw() == r.op.ID.Raw() { // ids are used once per scenario
		lid = scenario.NewStringID("review-listen-2")
	}
	filter, _ := json.Marshal(map[string]bool{"toolsListChanged": true})
	sc := r.own()
	sc.Steps = []scenario.Step{{At: 0, Do: scenario.VerbListen, ID: &lid, Filter: filter}, r.call(10, false),
		{At: 20 + up + down, Do: scenario.VerbDrop, ID: &lid, Affected: []string{nameOf(o)}}}
	run, err := r.run("reconnect", "A listen stream drops while the call is in flight", sc)
	if err != nil {
		return err
	}
	re := &ReconnectEvidence{}
	if len(run.Trace.Reconnects) > 0 {
		re.Plan = &run.Trace.Reconnects[0]
		p := re.Plan
		re.Evidence = evidence(run, fmt.Sprintf("The client reopens %s as %s %s, refetches %s and %s.",
			p.PreviousID, p.NewID, either(p.SendLastEventID, "with a Last-Event-ID header", "without Last-Event-ID"), listOr(p.Refetch, "nothing"),
			either(p.RetryUnsafeMutation, "replays the unsafe mutation", "does not replay the unsafe mutation")), checks.NoLastEventID, checks.ReconnectRefetches)
	} else {
		re.Evidence = evidence(run, "The client made no reconnect plan: under "+r.s.Protocol+" it resumed the stream.", checks.NoLastEventID, checks.ReconnectRefetches)
	}
	rc.Reconnect = re

	// The herd at the configured scale and strategy, else the format's
	// default (scenario.DefaultHerd), said on the evidence.
	{
		sc := r.own()
		h, assumed := scenario.DefaultHerd(), ""
		if r.s.Herd != nil {
			h = *r.s.Herd
		} else {
			assumed = fmt.Sprintf("The scenario configures no herd, so this run uses the format's default: %d clients, strategy %s, base %d ms, cap %d ms, a server admitting %d reconnects per second (set herd.clients and herd.strategy to your fleet's and client's).",
				h.Clients, h.Strategy, h.BaseMs, h.CapMs, h.ServerCapacityPerSecond)
		}
		h.Compare = false
		sc.Herd = &h
		run, err := r.run("herd", fmt.Sprintf("%d clients reconnect with strategy %s", h.Clients, h.Strategy), sc)
		if err != nil {
			return err
		}
		he := &HerdEvidence{Strategy: h.Strategy, Clients: h.Clients, Assumed: assumed}
		if hr := run.Trace.Herd; hr != nil {
			he.PeakPerBucket, he.BucketMs, he.Exhausted, he.AllReconnectedAtMs = hr.PeakPerBucket, hr.BucketMs, hr.Exhausted, hr.AllReconnectedAtMs
		}
		done := "not every client got back"
		if he.AllReconnectedAtMs != nil {
			done = fmt.Sprintf("all reconnected by %d ms", *he.AllReconnectedAtMs)
		}
		he.Evidence = evidence(run, fmt.Sprintf("Peak %d reconnects in one %d ms bucket; %d client(s) gave up; %s.", he.PeakPerBucket, he.BucketMs, he.Exhausted, done), checks.HerdAllReconnect)
		rc.Herd = he
	}

	if err := r.streamRuns(); err != nil {
		return err
	}

	// The durable task's cancellation trace.
	if o.Task == "" {
		rc.NotApplicable = append(rc.NotApplicable, "task: the call asks for no durable task (call.task).")
		return nil
	}
	t := 100 + up + down
	sc = r.own()
	sc.Steps = []scenario.Step{r.call(0, true), {At: t, Do: scenario.VerbTaskCancel, TaskID: o.Task},
		{At: 3 * t, Do: scenario.VerbCheckpoint, TaskID: o.Task}}
	if run, err = r.run("task-cancel", fmt.Sprintf("tasks/cancel on task %s, then a worker checkpoint", o.Task), sc); err != nil {
		return err
	}
	te := &TaskEvidence{}
	for _, tk := range run.Trace.Tasks {
		if tk.TaskID == o.Task {
			te.Task = tk
		}
	}
	te.Evidence = evidence(run, fmt.Sprintf("The cancel is acknowledged at about %d ms; the task ends %s (history %v).", t+up+down, te.Task.Status, te.Task.History), checks.TaskAckNotTerminal)
	rc.Task = te
	return nil
}

// either says a switch in words: yes when v, else no.
func either(v bool, yes, no string) string {
	if v {
		return yes
	}
	return no
}

// listOr joins xs with commas, none when xs is empty.
func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}
