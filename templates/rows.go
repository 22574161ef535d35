package templates

// The trace read as rows: each request's outcome headline and summary row,
// each check and each event, as the tables and the cards show them.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/trace"
)

// plainID prints a JSON-RPC id (JSON text) as a reader reads it: a string
// id without its quotes.
func plainID(id string) string {
	if u, err := strconv.Unquote(id); err == nil && strings.HasPrefix(id, `"`) {
		return u
	}
	return id
}

// outcome is the headline of one request: who won the cancellation race, or
// its state.
type outcome struct {
	ID string // JSON-RPC id as JSON text
	// Key is "cancellation-wins", "completion-wins", "timed-out" (the
	// client's timeout gave up on a request the server completed),
	// "client-error" (the server completed it, the client got an error),
	// "never-delivered" (the server completed it, the client still waits),
	// "completed-unseen" (a server's own log shows it completed and cannot
	// show the client), "abandoned" (the server completed it, the client
	// had let it go), or the request state: the engine's decision
	// (trace.Outcome), drawn as it is.
	Key  string
	Text string // e.g. "cancellation wins"
	// Detail says what the trace recorded, in one sentence.
	Detail string
	// Tone is the outcome class whose colour the card takes when it is
	// not Key's own ("cancelled" for the neutral colour of a request the
	// client let go, "failed" for a failure); "" uses Key's.
	Tone string
}

// Class is the card's colour class: a card is green ("outcome-completed",
// "outcome-completion-wins") only when the client got its result (issue
// 13: a card must agree with what the client actually got).
func (o outcome) Class() string {
	if o.Tone != "" {
		return "outcome-" + o.Tone
	}
	return "outcome-" + o.Key
}

// requestRow is one row of the request summary (trace.Request, as text).
type requestRow struct {
	ID, Method, Name     string
	State, Cause, Signal string // "" when null
	// Unsignalled is how the request ended when it has a cause and no
	// signal (unsignalledEnd), "" otherwise.
	Unsignalled            string
	Reason                 string
	Response               string // the response JSON (cellJSON), "" when none
	ClientOutcome          string
	RetryClass             string
	SentAt                 int64
	EndedAt                string // ms, or "" while pending
	IdleTimeout, MaxTimout string // ms, or "" for none
	Outcome                outcome
}

// checkRow is one check, with its result in words and a symbol.
type checkRow struct {
	Rule   string
	Result string // "pass", "fail" or "undecided"
	Symbol string // ✓, ✗ or ?
	Detail string
	Events []int
}

// eventRow is one event of the event table.
type eventRow struct {
	Seq     int
	At      int64
	Actor   string
	Type    string
	ID      string
	Wire    int
	Fields  string // from → to, status, cause, signal, sentAt: the event's other fields
	Note    string
	Message string // exact wire JSON (cellJSON), plus headers when present
}

// outcomeOf writes the headline of a request from the outcome the engine
// decided (trace.Request.Outcome, coordinator.Decide) and its summary: the
// words, the detail sentence, and the colour class of a card that is not
// its key's own. It decides nothing: a trace without an outcome (one
// written before the engine decided it) reads as the server's state.
func outcomeOf(r trace.Request) outcome {
	key := string(r.Outcome)
	if key == "" {
		key = r.State
	}
	o := outcome{ID: r.ID.String(), Key: key, Text: key}
	timedOut := r.Cause != nil && (*r.Cause == trace.CauseMaxTimeout || *r.Cause == trace.CauseIdleTimeout)
	abandoned := r.ClientOutcome == trace.OutcomeAbandoned
	switch trace.Outcome(key) {
	case trace.OutcomeCancellationWins:
		o.Text = "cancellation wins"
		if timedOut {
			// The client's own timeout cancelled it: nobody pressed cancel.
			o.Text = strings.ReplaceAll(*r.Cause, "-", " ") + ", cancellation wins"
		}
	case trace.OutcomeClientError:
		o.Text, o.Tone = "completed on the server, an error on the client", trace.StateFailed
	case trace.OutcomeNeverDelivered:
		o.Text, o.Tone = "completed on the server, never reached the client", trace.StateFailed
	case trace.OutcomeCancelledClientWaits:
		o.Text, o.Tone = "cancelled on the server; the client still waits", trace.StateCancelled
	case trace.OutcomeCompletedUnseen:
		o.Text = "completed on the server; this log cannot show whether the client got it"
	case trace.OutcomeTimedOut:
		o.Text, o.Tone = "timed out: completed on the server, abandoned by the client", trace.StateFailed
	case trace.OutcomeCompletedAbandoned:
		o.Text, o.Tone = "completed on the server, abandoned by the client", trace.StateCancelled
	case trace.OutcomeCompletionWins:
		o.Text = "completion wins"
		if abandoned {
			// Its result reaches nobody, so the card is not green.
			o.Text, o.Tone = "completion wins: completed on the server, abandoned by the client", trace.StateCancelled
		}
	}
	// The engine's completion-wins with nothing sent: the cancel came
	// after the answer.
	cancelledLate := o.Key == string(trace.OutcomeCompletionWins) && r.Cause == nil && r.Signal == nil
	var b strings.Builder
	// The id as the card's title names it (plainID): the card reads
	// "Request tasks/cancel-2" above "Request tasks/cancel-2 ended ...".
	if r.State == trace.StateInProgress {
		fmt.Fprintf(&b, "Request %s is still in progress", plainID(o.ID))
	} else {
		fmt.Fprintf(&b, "Request %s ended %s", plainID(o.ID), r.State)
	}
	switch {
	case r.Cause != nil && r.Signal == nil:
		b.WriteString("; " + unsignalledEnd(*r.Cause))
	case r.Cause != nil:
		fmt.Fprintf(&b, "; cancellation attempted (%s, signal %s)", *r.Cause, *r.Signal)
	case cancelledLate:
		b.WriteString("; the client's cancel came after it had its answer, so no cancellation was sent")
	}
	if len(r.Response) == 0 || string(r.Response) == "null" {
		b.WriteString("; the server sent no response")
	} else {
		b.WriteString("; the server sent a response")
	}
	switch {
	case o.Key == string(trace.OutcomeCompletedUnseen):
		b.WriteString("; the client's side is not in this log (a server's own log)")
	case r.ClientOutcome != "":
		fmt.Fprintf(&b, "; client outcome: %s", r.ClientOutcome)
	}
	b.WriteString(".")
	o.Detail = b.String()
	return o
}

// unsignalledEnd says in domain words how a request with a cause but no
// signal ended: nothing carried a cancellation for it, so "cause via
// signal" would read "session-teardown via none". The request table's
// Cancellation column and the outcome card both say it.
func unsignalledEnd(cause string) string {
	switch cause {
	case trace.CauseSessionTeardown:
		// DOMAIN.md §11 late-message-fatal: the calls in flight fail with
		// the session.
		return "the client tore down the session it was on, sending no cancellation"
	case trace.CauseDisconnect:
		return "the connection was lost before any cancellation was sent"
	case trace.CauseServer:
		return "the server ended it"
	case trace.CauseIdleTimeout:
		return "the client's idle timeout fired, sending no cancellation"
	case trace.CauseMaxTimeout:
		return "the client's maximum timeout fired, sending no cancellation"
	case trace.CauseClient:
		return "the client gave up without sending a cancellation"
	}
	return cause + ", no cancellation sent"
}

func newRequestRow(r trace.Request) requestRow {
	row := requestRow{
		ID: r.ID.String(), Method: r.Method, Name: r.Name, State: r.State,
		ClientOutcome: r.ClientOutcome, RetryClass: r.RetryClass, SentAt: r.SentAt,
		Outcome: outcomeOf(r),
	}
	if r.Cause != nil {
		row.Cause = *r.Cause
	}
	if r.Signal != nil {
		row.Signal = *r.Signal
	} else if r.Cause != nil {
		row.Unsignalled = unsignalledEnd(*r.Cause)
	}
	if r.Reason != nil {
		row.Reason = *r.Reason
	}
	if len(r.Response) > 0 && string(r.Response) != "null" {
		row.Response = cellJSON(string(r.Response))
	}
	if r.EndedAt != nil {
		row.EndedAt = strconv.FormatInt(*r.EndedAt, 10)
	}
	if r.IdleTimeoutMs > 0 {
		row.IdleTimeout = strconv.FormatInt(r.IdleTimeoutMs, 10)
	}
	if r.MaxTimeoutMs > 0 {
		row.MaxTimout = strconv.FormatInt(r.MaxTimeoutMs, 10)
	}
	return row
}

func newEventRow(e trace.Event) eventRow {
	row := eventRow{Seq: e.Seq, At: e.At, Actor: string(e.Actor), Type: string(e.Type), Wire: e.Wire, Note: e.Note}
	if e.ID != nil {
		row.ID = e.ID.String()
	}
	var f []string
	if e.From != "" || e.To != "" {
		f = append(f, string(e.From)+" → "+string(e.To))
	}
	if e.SentAt != nil {
		f = append(f, "sent at "+strconv.FormatInt(*e.SentAt, 10)+" ms")
	}
	if e.Status != "" {
		f = append(f, "status "+e.Status)
	}
	if e.Cause != "" {
		f = append(f, "cause "+e.Cause)
	}
	if e.Signal != "" {
		f = append(f, "signal "+e.Signal)
	}
	row.Fields = strings.Join(f, "; ")
	row.Message = cellJSON(string(e.Message))
	if len(e.Headers) > 0 {
		keys := make([]string, 0, len(e.Headers))
		for k := range e.Headers {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var hb strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&hb, "%s: %s\n", k, e.Headers[k])
		}
		if row.Message != "" {
			hb.WriteString(row.Message)
		}
		row.Message = strings.TrimSuffix(hb.String(), "\n")
	}
	return row
}
