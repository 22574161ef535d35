package schema

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// Check judges rule message-valid on tr: every wire message an event of
// tr carries (a send, deliver, replay or suppress event's; not the
// ledger's or the worker's records) is valid against the schema of tr's revision (an imported
// trace's Source.Protocol, else its scenario's protocol). It leaves out
// what the scenario sends raw with a send step and any malformed
// notifications/cancelled (a probe's deliberate ones: their point is to
// be malformed), and, under 2025-11-25, a server/discover request sent
// before initialize with its delivery: DOMAIN.md, "The two protocol
// eras": a client may call it first and fall back to initialize when the
// server does not know it, so that probe mixes no eras. Any other method
// only the other revision defines fails (Validate, Foreign), and so does
// a result member only the other revision's Result names. It fails
// naming the first invalid message's event and the JSON Pointer of its
// first failing value, passes when every message is valid, and is
// undecided for a transcript whose revision is unknown or has no
// embedded schema.
func Check(tr *trace.Trace) trace.Check {
	rev := ""
	if tr.Scenario != nil {
		rev = tr.Scenario.Protocol
	}
	if tr.Source != nil {
		rev = tr.Source.Protocol
		if rev == "" {
			return undecided("The transcript does not say its protocol revision, so no schema can judge its messages.")
		}
	}
	if revs, err := load(); err != nil || revs[rev] == nil {
		return undecided(fmt.Sprintf("No official schema for protocol revision %q is embedded (have %s and %s): its messages cannot be judged.", rev, Revisions[0], Revisions[1]))
	}
	raw := checks.RawSendsOf(tr)
	methods := map[string]string{} // request id text -> method, the latest request
	type key struct{ msg, method string }
	judged := map[key]bool{}
	checked, left, probes := 0, 0, 0
	probeIDs := map[string]bool{}     // the ids of the discovery probes left out, until initialize
	probeAnswers := map[string]bool{} // the probes' answers left out, by their bytes
	initialized := false
	var firstBad *trace.Event
	var firstProblem error
	bad := 0
	for i := range tr.Events {
		e := &tr.Events[i]
		if len(e.Message) == 0 || !wireTypes[e.Type] || e.Actor == trace.ActorLedger || e.Actor == trace.ActorWorker {
			continue // a ledger record or replay, a client's mutation: not wire messages
		}
		if raw.Has(e.Message) {
			left++
			continue
		}
		m, err := jsonrpc.Parse(e.Message)
		if err == nil && m.Method == jsonrpc.MethodCancelled {
			if _, cerr := jsonrpc.ParseCancellation(e.Message); cerr != nil {
				left++
				continue
			}
		}
		if err == nil && m.Kind == jsonrpc.Request && m.Method == jsonrpc.MethodInitialize {
			initialized = true
			clear(probeIDs) // the client falls back once the probe is answered: ids after it are the session's
		}
		if err == nil && m.Kind == jsonrpc.Request && m.Method == jsonrpc.MethodDiscover && rev == jsonrpc.Revision20251125 && !initialized {
			probes++ // a discovery probe before the 2025-11-25 handshake (Check)
			probeIDs[m.ID] = true
			continue
		}
		if err == nil && (m.Kind == jsonrpc.Response || m.Kind == jsonrpc.Error) && (probeIDs[m.ID] || probeAnswers[string(e.Message)]) {
			// The probe's answer, in the revision the server speaks best: its
			// send, and its deliveries, which a recorder may log after the
			// client's initialize (it writes a delivery once the client has it).
			probeAnswers[string(e.Message)] = true
			continue
		}
		method := ""
		switch {
		case err == nil && m.Kind == jsonrpc.Request:
			methods[m.ID] = m.Method
		case err == nil && (m.Kind == jsonrpc.Response || m.Kind == jsonrpc.Error):
			method = methods[m.ID]
		}
		k := key{string(e.Message), method}
		if ok, seen := judged[k]; seen {
			if !ok {
				bad++
			}
			checked++
			continue
		}
		verr := Validate(rev, e.Message, method)
		var p *Problem
		if verr != nil && !errors.As(verr, &p) {
			return undecided("The schema could not judge the messages: " + verr.Error())
		}
		judged[k] = verr == nil
		checked++
		if verr != nil {
			bad++
			if firstBad == nil {
				firstBad, firstProblem = e, verr
			}
		}
	}
	if firstBad != nil {
		return fail(fmt.Sprintf("%s is not a valid %s message %s; %d of %d messages are invalid.", where(firstBad), rev, firstProblem, bad, checked), firstBad.Seq)
	}
	detail := fmt.Sprintf("All %d messages are valid against the %s schema", checked, rev)
	if left > 0 {
		detail += fmt.Sprintf(" (%d left out: raw sends and malformed cancellations, whose point is to be malformed)", left)
	}
	if probes > 0 {
		detail += fmt.Sprintf(" (%d left out with its answer: the client's server/discover before initialize, the discovery probe a client may send before it falls back to the 2025-11-25 handshake)", probes)
	}
	return pass(detail + ".")
}

// wireTypes are the event types whose message is one on the wire (sent,
// delivered, replayed) or one the server would have put there
// (suppressed).
var wireTypes = map[trace.EventType]bool{trace.TypeSend: true, trace.TypeDeliver: true, trace.TypeReplay: true, trace.TypeSuppress: true}

// where names event e for a reader: its seq, type and actor, and the
// transcript line it was read from.
func where(e *trace.Event) string {
	s := "Event " + strconv.Itoa(e.Seq) + " (" + string(e.Actor) + " " + string(e.Type)
	if e.Line > 0 {
		s += ", line " + strconv.Itoa(e.Line)
	}
	return s + ")"
}

func pass(detail string) trace.Check {
	t := true
	return trace.Check{Rule: Rule, OK: &t, Detail: detail}
}

func fail(detail string, seq int) trace.Check {
	f := false
	return trace.Check{Rule: Rule, OK: &f, Detail: detail, Events: []int{seq}}
}

func undecided(detail string) trace.Check {
	return trace.Check{Rule: Rule, Detail: detail}
}

// Description is the rule's entry in the rules reference (checks.Rule):
// package checks describes the rules Evaluate reports, this package its
// own.
var Description = checks.Rule{
	ID:     Rule,
	Checks: "Every wire message is valid against the official JSON Schema of the protocol revision it claims: a request or notification against its method's definition, a response against the result its request names. A method only the other revision defines (subscriptions/listen under 2025-11-25, ping under 2026-07-28) is invalid there; a vendor's method neither defines is not. So is a result member only the other revision's Result names (resultType under 2025-11-25).",
	Source: "MCP specification, schema/2025-11-25/schema.json and schema/2026-07-28/schema.json; " + checks.DomainNotes + " §1, The two protocol eras",
	Undecided: "The transcript does not say its protocol revision, or names one whose schema is not embedded: no schema can judge its messages. " +
		"Judged only on the command line (mcplab run -checks, probe, mock and probe-client), not in the browser: the site's pages, the import page included, do not link the validator and leave this rule out of their tally.",
}
