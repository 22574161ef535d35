// Package templates renders mcplab traces and pages with templ: the timeline
// SVG, the request summary, the checks, the event table, the scenario
// controls, and the full pages that embed them.
//
// The exported surface is what site/ (prerendering) and wasm/ (the
// browser) use, 35 names; everything else is unexported:
//
//   - Output(tr) is everything the browser re-renders after a run: outcome
//     headlines, timeline, the charts of the trace's other summaries (task
//     lanes, SSE buffer occupancy, reconnect herd and backoff, reconnects,
//     the idempotency ledger; charts.go, tasks.go, herd.go, ledger.go),
//     request summary, retry classes, checks and events.
//   - A Drawing (AllCharts, ScenarioCharts, TranscriptCharts; drawing.go)
//     is the set of summary charts a binary draws, so each wasm binary
//     links the charts its pages' traces can have; Output draws them all.
//   - ScenarioPage(p) and IndexPage(root, entries) are the prerendered pages.
//   - NewView(tr) and NewControls(s) are the view models those components
//     draw: plain values (lanes, arrows, marks, x positions, controls), so
//     tests can assert a position or a label without parsing SVG.
//   - PlaygroundPage, ImportPage and ImportResult are the playground and
//     import pages; Embed, OEmbed and HostSnippet serve embedding.
//   - LocateError and IndentScenario serve the playground's editor.
//
// templates edits no scenario: each control carries its path and value
// kind (scenario.Value*), and the browser glue applies it with
// scenario.Edit.
//
// Design decision (STYLE.md, Model and view): the engine knows no pixels and
// the templates know no protocol rules. The view model only places and
// labels what the trace records: an arrow goes from a send event's time and
// lane to its delivery event's time and lane (both carried by the trace,
// linked by the wire number), a mark sits at its event's time on its actor's
// lane, and an outcome headline is read from a request's state and signal.
// Consequence: an imported real transcript draws the same way as a simulated
// one, and a rule change in the engine never needs a template change.
//
// Files: view.go is the surface (View, the request, check and event rows);
// timeline.go lays out the timeline (lanes, time scale, arrows and marks in
// their rows); layout.go is its label geometry (the network band, legend,
// summary); labels.go classifies wire messages and writes the labels and
// tooltips.
//
// Every number written into SVG goes through formatNum, which rounds to one
// decimal and prints the shortest form, so output is byte-stable across
// platforms and between native and WebAssembly builds (golden tests pin it).
package templates

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/mcplab/mcplab/engine/trace"
)

// View is everything Output draws for one trace.
type View struct {
	Timeline timeline
	// narrow lays the same timeline out for a phone (narrowFrame) the
	// first time it is called (NarrowTimeline): a page that shows the
	// wide one renders the narrow one later, after the frame (a
	// change within a frame; the narrow layout is a third of a view).
	narrow func() timeline
	// Verdict is the run's headline: the story's point in domain words.
	Verdict verdict
	// Cards are the outcomes under the verdict, repeats summarized.
	Cards    []outcomeCard
	Outcomes []outcome
	Requests []requestRow
	Checks   []checkRow
	Events   []eventRow
	// Pass, Fail and Undecided count the checks by result.
	Pass, Fail, Undecided int
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

// NewView builds the view model of a trace. It never fails: anything it
// cannot interpret is drawn as a plain mark or raw message. A nil trace
// gives an empty view.
func NewView(tr *trace.Trace) View {
	if tr == nil {
		tr = &trace.Trace{}
	}
	v := View{Timeline: newTimeline(tr), narrow: sync.OnceValue(func() timeline { return newNarrowTimeline(tr) })}
	for _, r := range tr.Requests {
		row := newRequestRow(r)
		v.Requests = append(v.Requests, row)
		v.Outcomes = append(v.Outcomes, row.Outcome)
	}
	for _, c := range tr.Checks {
		row := checkRow{Rule: c.Rule, Detail: checkDetail(tr, c), Events: c.Events}
		switch {
		case c.OK == nil:
			row.Result, row.Symbol = "undecided", "?"
			v.Undecided++
		case *c.OK:
			row.Result, row.Symbol = "pass", "✓"
			v.Pass++
		default:
			row.Result, row.Symbol = "fail", "✗"
			v.Fail++
		}
		v.Checks = append(v.Checks, row)
	}
	for _, e := range tr.Events {
		v.Events = append(v.Events, newEventRow(e))
	}
	v.Verdict, v.Cards = newVerdict(tr), append(groupOutcomes(v.Requests), taskCards(tr)...)
	judgeCards(tr, v.Verdict, v.Cards)
	return v
}

// NarrowTimeline is the timeline laid out for a phone (narrowFrame), laid
// out on the first call; the zero View's is empty.
func (v View) NarrowTimeline() timeline {
	if v.narrow == nil {
		return timeline{}
	}
	return v.narrow()
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
	row := eventRow{Seq: e.Seq, At: e.At, Actor: e.Actor, Type: e.Type, Wire: e.Wire, Note: e.Note}
	if e.ID != nil {
		row.ID = e.ID.String()
	}
	var f []string
	if e.From != "" || e.To != "" {
		f = append(f, e.From+" → "+e.To)
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

// maxCellJSON is the most of a message or response (bytes) a table
// cell shows. A scenario's payload may be 64 KB (scenario.MaxPayloadBytes);
// three such cells of unbroken JSON took 77 ms of layout in one frame
// (TestPlaygroundLongLinePasteStaysResponsive), and no
// reader reads 64 KB in a cell. The timeline's tooltip keeps the whole
// message.
const maxCellJSON = 4096

// cellJSON is s, or its first maxCellJSON bytes (whole characters) and
// a note of how many bytes are left out.
func cellJSON(s string) string {
	if len(s) <= maxCellJSON {
		return s
	}
	cut := maxCellJSON
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)-cut) + " more bytes; the timeline's tooltip shows the whole message)"
}

// cmp returns a if it is not empty, else b.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// formatNum prints an SVG coordinate deterministically: rounded to one
// decimal, shortest form, never "-0".
func formatNum(v float64) string {
	r := math.Round(v*10) / 10
	if r == 0 {
		return "0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// arrowKinds lists every arrow kind, for the arrowhead markers.
var arrowKinds = []string{kindRequest, kindResult, kindError, kindProgress, kindCancel, kindClose, kindStreamDrop, kindNotification, kindKeepalive, kindRaw}

// i64 formats an integer attribute value.
func i64(n int64) string { return strconv.FormatInt(n, 10) }

// orNone returns s, or "none" when s is empty.
func orNone(s string) string { return cmp(s, "none") }

// slashBreaks writes s, escaped, with a line-break opportunity (<wbr>)
// after each slash, so a method name (notifications/cancelled) can wrap in
// a narrow table column instead of widening it.
func slashBreaks(s string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		for i, part := range strings.SplitAfter(s, "/") {
			if i > 0 {
				if _, err := io.WriteString(w, "<wbr/>"); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, templ.EscapeString(part)); err != nil {
				return err
			}
		}
		return nil
	})
}

// orPending returns s, or "pending" when s is empty.
func orPending(s string) string { return cmp(s, "pending") }
