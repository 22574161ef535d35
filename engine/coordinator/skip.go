package coordinator

import (
	"strconv"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// StepActor is the side whose move scripted verb is (SCENARIO.md, Steps:
// client verbs and server verbs): trace.ActorServer, trace.ActorNetwork
// (a disconnect) or trace.ActorClient.
func StepActor(verb scenario.Verb) trace.Actor {
	switch verb {
	case scenario.VerbProgress, scenario.VerbProduce, scenario.VerbComplete, scenario.VerbFail,
		scenario.VerbNotify, scenario.VerbEndListen, scenario.VerbDrop, scenario.VerbCheckpoint,
		scenario.VerbFinishTask, scenario.VerbRace, scenario.VerbReopenLedger, scenario.VerbEndSession:
		return trace.ActorServer
	case scenario.VerbDisconnect:
		return trace.ActorNetwork
	}
	return trace.ActorClient
}

// Unhappening says why scripted step st, acting on request id (c and s
// its client and server halves), cannot happen now, or "" when it can
// (SCENARIO.md, "honest time": such a step becomes a skip event, never a
// silent drop):
//   - progress, produce, complete or fail for a request that has not
//     reached the server yet, or that has already completed or failed
//     there, or whose handler stopped at a checkpoint (a cancelled request
//     without a handler still reaches its scripted completion: that is
//     the race, and the completion is suppressed);
//   - cancel of a request the client has already finished (its result,
//     its error, or its own abandonment);
//   - disconnect of a request whose stream is already closed;
//   - retry of a request the client already has its result for (orig:
//     the retried request's client half; a call answered with an error
//     may be retried, as its retry class says).
func Unhappening(st scenario.Step, id string, c *Client, s *Server, orig *Client) string {
	switch st.Do {
	case scenario.VerbProgress, scenario.VerbProduce, scenario.VerbComplete, scenario.VerbFail:
		what := string(st.Do)
		if st.Do == scenario.VerbProgress || st.Do == scenario.VerbProduce {
			what = "report progress for"
		}
		switch {
		case s == nil || !s.Arrived:
			return "Request " + id + " has not reached the server yet: the server cannot " + what + " it."
		case s.Stopped:
			return "Request " + id + "'s handler has already returned after its cancellation: it cannot " + what + " it any more."
		case s.State() == Completed || s.State() == Failed:
			again := ""
			if string(s.State()) == what+"d" || string(s.State()) == what+"ed" {
				again = " again"
			}
			return "Request " + id + " has already " + string(s.State()) + " at the server, so the server cannot " + what + " it" + again + "."
		}
	case scenario.VerbDisconnect:
		if c != nil && !c.Reading {
			return "Request " + id + "'s stream is already closed: there is nothing to disconnect."
		}
	case scenario.VerbCancel:
		if c != nil && !c.Pending() {
			return "Request " + id + " is already " + trace.OutcomeWord(c.Outcome) + " at the client: there is nothing to cancel."
		}
	case scenario.VerbRetry:
		if orig != nil && orig.Outcome == trace.OutcomeResult {
			return "Request " + st.Of.String() + " already has its result at the client: a call that got its answer is never retried, so request " + id + " is never sent."
		}
	}
	return ""
}

// Skip is the skip event of steps[step], a move of actor (StepActor)
// that cannot happen, with why (Unhappening, or NotSentYet), and its entry
// of the trace's skipped[].
func Skip(step int, actor trace.Actor, why string) (trace.Event, trace.Skip) {
	note := "steps[" + strconv.Itoa(step) + "] cannot happen: " + why
	return trace.Event{Actor: actor, Type: trace.TypeSkip, Step: &step, Note: note}, trace.Skip{Step: step, Reason: why}
}

// NotSentYet is why a step at atMs (virtual ms) naming request id cannot
// happen when the client has not sent it by then: its own call or retry
// has not happened, or could not, or the retry policy sends it later.
func NotSentYet(id string, atMs int64) string {
	return "request " + id + " has not been sent yet at " + strconv.FormatInt(atMs, 10) + " ms, so nothing can act on it then."
}

// StepSkip decides whether scripted step steps[i] st can happen now
// (SCENARIO.md, "honest time"): when it cannot, skip is true with its
// skip event (ID set) and its entry of skipped[]. halves looks up a
// request's client and server halves by id (nil, nil: not sent);
// hasLedger says the run has the scenario's ledger, live that the server
// serves the client's Streamable HTTP session (an end-session step without
// one cannot happen: stdio, 2026-07-28, or a session already retired),
// and known is why the caller already knows st cannot happen on its wire
// ("" for none; a 2025-11-25 stdio listen stream's drop,
// recovery.Listen.PipeUnhappening). A step naming a
// request not sent by its time (its retry was skipped, or comes later), a ledger verb without a
// ledger (scenario.Step.Unready), or a step Unhappening refuses is
// skipped; a skipped cancel of a request that ended for its client marks
// it CancelledLate.
func StepSkip(i int, st scenario.Step, halves func(scenario.ID) (*Client, *Server), hasLedger, live bool, known string) (e trace.Event, entry trace.Skip, skip bool) {
	actor := StepActor(st.Do)
	sent := func(id scenario.ID) bool { c, _ := halves(id); return c != nil }
	id := st.ID
	if id == nil {
		id = st.Of
	}
	why := st.Unready(i, sent, hasLedger)
	switch {
	case why != "" && id != nil && !sent(*id):
		why = NotSentYet(id.String(), st.At)
	case why == "" && known != "":
		why = known
	case why == "" && st.Do == scenario.VerbEndSession && !live:
		why = "there is no live Streamable HTTP session to end (stdio, 2026-07-28, or its session is already retired)."
	case why == "" && st.Do == scenario.VerbRetry:
		orig, _ := halves(*st.Of)
		why = Unhappening(st, st.ID.String(), nil, nil, orig)
	case why == "" && st.ID != nil:
		c, s := halves(*st.ID)
		if why = Unhappening(st, st.ID.String(), c, s, nil); why != "" && st.Do == scenario.VerbCancel {
			// The client decided to cancel after the request had ended for
			// it: the outcome names the race completion won (Decide).
			c.CancelledLate = true
		}
	}
	if why == "" {
		return e, entry, false
	}
	e, entry = Skip(i, actor, why)
	e.ID = st.ID
	if e.ID == nil {
		e.ID = id
	}
	return e, entry, true
}
