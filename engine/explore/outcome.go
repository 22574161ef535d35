package explore

import (
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// classify returns a run's outcome class key (SCENARIO.md, Explore: for
// each request its state, the cause of its cancellation, the client's
// outcome and whether a response was sent, then the failing rules), the
// failing rules sorted, and the order of its events: a hash of each
// event's actor, type, request, task, ends, wire number, signal, status
// and cause, in trace order, times left out.
//
// A key reads "7 completed at the server after the client cancelled
// (client), client abandoned, response sent; fails: none" (a request the
// server cancelled on the client's cancel: "7 cancelled at the server, as
// the client asked (client)"): the server's
// state, and for a request with a cause who gave it up and the cause
// itself (gaveUp), so a request the server completed anyway does not read
// as "completed (cause client)"; requests follow the trace's order,
// separated by "; ". A
// scenario with a ledger also counts its side effects ("side effects 2;"
// before the rules): a retry that charges twice is a class of its own even
// where the same rules fail.
func classify(tr *trace.Trace) (key string, failing []trace.RuleID, sig uint64) {
	var b strings.Builder
	for _, r := range tr.Requests {
		b.WriteString(r.ID.Raw())
		b.WriteByte(' ')
		b.WriteString(r.State)
		if r.Cause != nil {
			b.WriteString(" at the server")
			b.WriteString(gaveUp(r.State, *r.Cause))
			b.WriteString(" (")
			b.WriteString(*r.Cause)
			b.WriteByte(')')
		}
		b.WriteString(", client ")
		b.WriteString(r.ClientOutcome)
		if len(r.Response) > 0 && string(r.Response) != "null" {
			b.WriteString(", response sent; ")
		} else {
			b.WriteString(", no response; ")
		}
	}
	if tr.Scenario != nil && tr.Scenario.Ledger != nil {
		b.WriteString("side effects ")
		b.WriteString(strconv.Itoa(tr.Ledger.Executions))
		b.WriteString("; ")
	}
	for _, c := range tr.Checks {
		if c.OK != nil && !*c.OK {
			failing = append(failing, c.Rule)
		}
	}
	slices.Sort(failing)
	failing = slices.Compact(failing)
	b.WriteString("fails: ")
	if len(failing) == 0 {
		b.WriteString("none")
	}
	for i, rule := range failing {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(rule))
	}

	h := fnv.New64a()
	var scratch []byte
	for i := range tr.Events {
		e := &tr.Events[i]
		scratch = scratch[:0]
		scratch = append(scratch, e.Actor...)
		scratch = append(scratch, 0)
		scratch = append(scratch, e.Type...)
		scratch = append(scratch, 0)
		if e.ID != nil {
			scratch = append(scratch, e.ID.Raw()...)
		}
		scratch = append(scratch, 0)
		scratch = append(scratch, e.TaskID...)
		scratch = append(scratch, 0)
		scratch = append(scratch, e.From...)
		scratch = append(scratch, 0)
		scratch = append(scratch, e.To...)
		scratch = append(scratch, 0)
		scratch = strconv.AppendInt(scratch, int64(e.Wire), 10)
		scratch = append(scratch, 0)
		scratch = append(scratch, e.Signal...)
		scratch = append(scratch, 0)
		scratch = append(scratch, e.Status...)
		scratch = append(scratch, 0)
		scratch = append(scratch, e.Cause...)
		scratch = append(scratch, 1)
		h.Write(scratch)
	}
	return b.String(), failing, h.Sum64()
}

// gaveUp says who let a request in state go for cause (a trace.Cause*
// value), as a class key reads it after "at the server": " after the
// client timed out", and for a request the server cancelled because the
// client cancelled it ", as the client asked", which does not say
// "cancelled" twice.
func gaveUp(state, cause string) string {
	switch cause {
	case trace.CauseClient:
		if state == trace.StateCancelled {
			return ", as the client asked" // not "cancelled ... after the client cancelled"
		}
		return " after the client cancelled"
	case trace.CauseIdleTimeout, trace.CauseMaxTimeout:
		return " after the client timed out"
	case trace.CauseSessionTeardown:
		return " after the client tore the session down"
	case trace.CauseDisconnect:
		return " after the stream dropped"
	case trace.CauseServer:
		return " after the server ended it"
	}
	return " after a cancellation"
}

// thousands writes n with its digits grouped by commas (100,000).
func thousands(n int64) string {
	return trace.Thousands(n)
}
