package review

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// minRaceLatencyMs is the one-way latency below which a race run raises the
// latency to raceLatencyMs: with less than 2 ms in flight, neither the
// in-flight cancellation nor the in-flight response can happen.
const (
	minRaceLatencyMs = 2
	raceLatencyMs    = 10
)

// pivot is when a race run's client cancels (or the handler completes):
// 300 ms, or half the call's shortest deadline when that comes sooner, so
// no deadline fires first; at least 1 ms.
func (r *reviewer) pivot() int64 {
	t := int64(300)
	for _, d := range []int64{r.rep.Operation.IdleTimeoutMs, r.rep.Operation.MaxTimeoutMs} {
		if d > 0 && t >= d {
			t = d / 2
		}
	}
	return max(t, 1)
}

// raceVariants are the race table's transports, one review part each: the
// input's protocol on stdio, then Streamable HTTP under each revision.
var raceVariants = []struct{ transport, protocol, slug string }{
	{scenario.TransportStdio, "", "stdio"},
	{scenario.TransportHTTP, scenario.Protocol20260728, "http-2026"},
	{scenario.TransportHTTP, scenario.Protocol20251125, "http-2025"},
}

// raceOrders are the orders of each transport's rows.
var raceOrders = []string{CancelFirst, CompleteFirst, InFlight}

// races returns the review part that runs one row of the race table: the
// race of variant i (raceVariants) in order.
func (r *reviewer) races(i int, order string) func() error {
	return func() error {
		v := raceVariants[i]
		if v.protocol == "" {
			v.protocol = r.s.Protocol
		}
		if r.rep.Races == nil {
			r.rep.Races = []Race{}
		}
		row, err := r.race(v.transport, v.protocol, v.slug, order)
		if err != nil {
			return err
		}
		r.rep.Races = append(r.rep.Races, row)
		return nil
	}
}

// race derives and runs one row. The call is sent at 0 (progress at half
// the pivot T when it has a token); then, with U and D the one-way
// latencies:
//   - cancel-first: cancel at T, complete at T+U+10 (the server has observed
//     the cancellation);
//   - complete-first: complete at T, cancel at T+D/2 (the response is on the
//     wire when the client gives up);
//   - in-flight: cancel at T, complete at T+U/2 (the cancellation is on the
//     wire when the handler commits).
func (r *reviewer) race(transport, protocol, slug, order string) (Race, error) {
	sc := r.base(transport, protocol)
	if sc.LatencyMs.Up < minRaceLatencyMs {
		sc.LatencyMs.Up = raceLatencyMs
	}
	if sc.LatencyMs.Down < minRaceLatencyMs {
		sc.LatencyMs.Down = raceLatencyMs
	}
	up, down, t := sc.LatencyMs.Up, sc.LatencyMs.Down, r.pivot()
	id := *r.op.ID
	steps := []scenario.Step{r.call(0, false)}
	if r.op.ProgressToken != nil && t/2 >= 1 {
		steps = append(steps, scenario.Step{At: t / 2, Do: scenario.VerbProgress, ID: &id, Progress: ptr(1.0)})
	}
	reason := ptr("review: " + order)
	cancel := func(at int64) scenario.Step {
		return scenario.Step{At: at, Do: scenario.VerbCancel, ID: &id, Reason: reason}
	}
	complete := func(at int64) scenario.Step { return scenario.Step{At: at, Do: scenario.VerbComplete, ID: &id} }
	switch order {
	case CancelFirst:
		steps = append(steps, cancel(t), complete(t+up+10))
	case CompleteFirst:
		steps = append(steps, complete(t), cancel(t+down/2))
	case InFlight:
		steps = append(steps, cancel(t), complete(t+up/2))
	}
	sc.Steps = steps
	run, err := r.run("race-"+slug+"-"+order, fmt.Sprintf("Race, %s: %s under %s", order, transport, protocol), sc)
	if err != nil {
		return Race{}, err
	}
	band, err := r.band(sc, slug, order)
	if err != nil {
		return Race{}, err
	}
	row := Race{Transport: transport, Protocol: protocol, Order: order, ClientIgnores: []string{}, ServerIgnores: []string{},
		Checks: verdicts(run.Trace), Run: run.ID, Link: run.Link, Band: band}
	if req := request(run.Trace, id); req != nil {
		row.Signal = req.Signal
		row.FinalResponse = len(req.Response) > 0 && string(req.Response) != "null"
		row.ServerState = req.State
	}
	for _, e := range run.Trace.Events {
		if e.Type != trace.TypeIgnore || e.ID == nil || e.ID.Raw() != id.Raw() {
			continue
		}
		switch e.Actor {
		case trace.ActorClient:
			row.ClientIgnores = appendOnce(row.ClientIgnores, ignored(e))
		case trace.ActorServer:
			row.ServerIgnores = appendOnce(row.ServerIgnores, ignored(e))
		}
	}
	return row, nil
}

// raceSlackMs widens a race's window past the latencies on both sides:
// 10 ms, as the cancel-first row's completion comes 10 ms after the
// cancellation has arrived.
const raceSlackMs = 10

// band is where row order's outcome holds (Band): the race explorer
// (engine/explore) runs the row's scenario with the cancellation at the
// pivot T and the completion at every ms of the window from T less the
// latency down and raceSlackMs (at least the call's arrival) to T plus
// the latency up and raceSlackMs, once per transport (slug); the band is
// the interval of that window around the row's own completion whose
// outcome class is the row's. The row's completion, as a time with the
// cancellation at T: cancel-first T+U+10, in-flight T+U/2, complete-first
// T-D/2 (the row's own run completes at T and cancels D/2 later: the same
// race shifted).
func (r *reviewer) band(sc scenario.Scenario, slug, order string) (*Band, error) {
	up, down, t := sc.LatencyMs.Up, sc.LatencyMs.Down, r.pivot()
	own := t + up + raceSlackMs
	switch order {
	case InFlight:
		own = t + up/2
	case CompleteFirst:
		own = t - max(down/2, 1)
	}
	rep, err := r.exploreRace(sc, slug)
	if err != nil || rep == nil {
		return nil, err
	}
	for _, c := range rep.Classes {
		for _, reg := range c.Regions {
			if len(reg) == 1 && reg[0].From <= own && own <= reg[0].To {
				return &Band{CancelMs: t, CompleteMs: own, FromMs: reg[0].From, ToMs: reg[0].To, Outcome: c.Key}, nil
			}
		}
	}
	return nil, nil
}

// exploreRace explores the race of sc's transport once (r.explored[slug]):
// sc's call and progress, the cancellation at the pivot and the
// completion over the window band describes, every ms. A window the
// explorer refuses is an error of the review.
func (r *reviewer) exploreRace(sc scenario.Scenario, slug string) (*explore.Report, error) {
	if rep, ok := r.explored[slug]; ok {
		return rep, nil
	}
	up, down, t := sc.LatencyMs.Up, sc.LatencyMs.Down, r.pivot()
	steps := sc.Steps[:0:0]
	for _, st := range sc.Steps {
		if st.Do != scenario.VerbCancel && st.Do != scenario.VerbComplete {
			steps = append(steps, st)
		}
	}
	id := *r.op.ID
	steps = append(steps, scenario.Step{At: t, Do: scenario.VerbCancel, ID: &id}, scenario.Step{At: t, Do: scenario.VerbComplete, ID: &id})
	sc.Steps = steps
	doc, err := r.document("race-"+slug, "Race window: "+slug, sc)
	if err != nil {
		return nil, err
	}
	window := scenario.Vary{Path: fmt.Sprintf("steps[%d].at", len(steps)-1), From: max(t-down-raceSlackMs, up+1), To: t + up + raceSlackMs, ByMs: 1}
	rep, err := explore.Explore(doc, explore.Options{Engine: r.opts.Engine, Vary: []scenario.Vary{window}})
	if err != nil {
		return nil, fmt.Errorf("review: race window %s: %w", slug, err)
	}
	if r.explored == nil {
		r.explored = map[string]*explore.Report{}
	}
	r.explored[slug] = rep
	return rep, nil
}

// ignored names what an ignore event dropped: "late response", "late
// progress", "late cancellation", "late stream close", or its note.
func ignored(e trace.Event) string {
	if e.Signal == trace.SignalCloseStream {
		return "late stream close"
	}
	var m struct {
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(e.Message, &m)
	switch {
	case m.Result != nil || m.Error != nil:
		return "late response"
	case m.Method == "notifications/progress":
		return "late progress"
	case m.Method == "notifications/cancelled":
		return "late cancellation"
	}
	note := strings.ToLower(e.Note)
	for _, what := range []string{"late response", "late progress", "late cancellation", "stale progress"} {
		if strings.Contains(note, what) {
			return what
		}
	}
	return strings.TrimSuffix(e.Note, ".")
}

func appendOnce(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
