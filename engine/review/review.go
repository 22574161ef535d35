// Package review computes a reliability review of one MCP operation: the
// artifacts a capstone asks for, each backed by a derived run.
//
// The input is a scenario in the ordinary format (SCENARIO.md): its
// configuration (transport, protocol, timeouts, policies, buffer, proxy,
// ledger, herd) describes the system once, and one of its call steps is the
// operation to review (Options.Op, default the first call). From them the
// package derives small scenarios, runs each through the engine's public
// entry (engine.RunWith) and judges it with the checks the engine already
// evaluates. Nothing here simulates anything itself.
//
// A review has six parts (the JSON members of Report):
//   - races: the cancellation race for stdio, Streamable HTTP under
//     2026-07-28 and under 2025-11-25, each in three orders: cancel-first
//     (the cancellation reaches the server before the handler finishes),
//     complete-first (the handler finishes, then the client cancels while the
//     response travels) and in-flight (the client cancels first, but the
//     handler finishes while the cancellation is on the network) (DOMAIN.md §1);
//   - retryClass and retry: safe, conditional or unsafe (DOMAIN.md §5), with
//     the run of a retry under a new JSON-RPC id and the run of a retry with
//     the same idempotency key; tool annotations are shown as untrusted hints,
//     never used to decide;
//   - idempotency: the argument fields the key binds, the stored record, the
//     mismatch fixture, the concurrent same-key race on two SQLite
//     connections, the reopen check and the mutation-alias check, each a run
//     on the real ledger (DOMAIN.md §4), for the ledger tools only;
//   - flowControl: the bounded buffer under overload (DOMAIN.md §7), the SSE
//     headers, keep-alive against the proxy's idle close, progress against
//     the client's idle timeout through the proxy (§8), and the two deadlines
//     (§2);
//   - recovery: the reconnect plan (§9), the herd (§10) and the task
//     cancellation trace when the operation is a durable task (§6);
//   - failureCards: one card per failure id of DOMAIN.md §11 (and the ids of
//     the field), at-risk, mitigated or not-applicable, with why and a share
//     link that opens the run that shows it.
//
// Design record. Context: the review must stay true as the engine grows and
// must obey the same bounds as any run. Decision: every derived run is a
// scenario document, built from the decoded input, encoded and decoded again
// by scenario.Decode (so it meets every limit of package scenario), run by
// engine.RunWith (so engine.MaxActions holds) and linked by
// scenario.ShareFragment (so the link opens exactly that run). A card's
// status comes from the checks of its run, plus the configuration where the
// configuration alone decides (no maximum timeout, no proxy); where the
// scenario leaves out what a run needs (no buffer, no herd, no ledger for
// a keyed charge), the run takes the format's default and the card says
// so; where a client switch hides a failure's trigger, a staged run puts
// it in place and the card says that too. A card never rests on the
// idempotency key the review adds to show the boundary: for a call without
// a key the cards of a key check are at-risk or not-applicable.
// Consequence: a review runs about twenty-five small scenarios, and every
// card links the run it rests on.
//
// The package is pure: deterministic, no clock, no I/O except the ledger
// store the caller's engine.Options opens.
package review

import (
	"bytes"
	_ "embed" // Schema
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Statuses of a failure card (and, the last two, of a part the review did
// not show). Not applicable and not evaluated differ in who is missing
// something: not-applicable means the failure cannot happen to this
// operation (a read has no side effect to repeat; stdio has no proxy), so
// nothing is left to check; not-evaluated means it can, but no derived run
// decides it (the tool's effect is not on the lab's ledger), so the reader
// must still check it. Where the scenario's client switches keep the
// derived runs from a rule, a staged run (stagings) puts the trigger in
// place; where it configures no ledger for a keyed charge, the runs use
// the lab's default ledger; either way the card says what it assumed.
const (
	AtRisk        = "at-risk"        // a derived run (or the configuration) shows the failure
	Mitigated     = "mitigated"      // the derived run shows the correct behaviour
	NotApplicable = "not-applicable" // the operation cannot meet this failure; Why says why
	NotEvaluated  = "not-evaluated"  // the operation can meet it, but the review ran nothing that shows it; Why says what is missing
)

// Evaluated is Idempotency.Status when the review ran the part's runs.
const Evaluated = "evaluated"

// Race orders of the race table (DOMAIN.md §1, "The race").
const (
	CancelFirst   = "cancel-first"
	CompleteFirst = "complete-first"
	InFlight      = "in-flight"
)

// ErrNoCall is returned (wrapped in a *scenario.Error at "steps") for a
// scenario without a call step, or without the call Options.Op names.
var ErrNoCall = errors.New("no call to review")

// Options configure a review.
type Options struct {
	// Op is the JSON-RPC id of the call step to review, as written in the
	// scenario (41, "job-1") or bare (job-1); "" means the first call.
	Op string
	// Engine is what every derived run links in; its OpenLedger must be set
	// for a ledger tool (engine.ErrNoLedger otherwise).
	Engine engine.Options
	// LinkBase prefixes every share link: "" gives a bare "#s=..." fragment
	// (what `run` and `review` accept), "../playground/" a link from a page.
	LinkBase string
}

// Report is the review of one operation. Its JSON encoding (Encode) is the
// contract of Schema: operation, races, retryClass, idempotency,
// flowControl, recovery and failureCards, plus retry and runs.
type Report struct {
	Operation    Operation   `json:"operation"`
	Races        []Race      `json:"races"`
	RetryClass   string      `json:"retryClass"`
	Retry        Retry       `json:"retry"`
	Idempotency  Idempotency `json:"idempotency"`
	FlowControl  FlowControl `json:"flowControl"`
	Recovery     Recovery    `json:"recovery"`
	FailureCards []Card      `json:"failureCards"`
	// Runs are the derived runs, in the order the review made them; every
	// Run and Evidence names one by ID.
	Runs []*Run `json:"runs"`
}

// Operation is the call under review and the configuration around it, as
// the scenario states them (defaults filled in).
type Operation struct {
	Title     string          `json:"title,omitempty"` // the scenario's title
	ID        scenario.ID     `json:"id"`
	Method    string          `json:"method"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// IdempotencyKey is arguments.idempotencyKey, "" when absent.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// SideEffect is whether the call mutates (call.sideEffect, default true
	// for a ledger tool).
	SideEffect bool `json:"sideEffect"`
	// LedgerTool is true for charge_account and reserve_inventory, whose
	// effects run on the real SQLite ledger.
	LedgerTool    bool         `json:"ledgerTool"`
	ProgressToken *scenario.ID `json:"progressToken,omitempty"`
	Task          string       `json:"task,omitempty"`
	Transport     string       `json:"transport"`
	Protocol      string       `json:"protocol"`
	// IdleTimeoutMs and MaxTimeoutMs are the call's deadlines (its own or
	// the client's defaults), 0 = none.
	IdleTimeoutMs int64 `json:"idleTimeoutMs"`
	MaxTimeoutMs  int64 `json:"maxTimeoutMs"`
	// Hints are the tool's annotations as advertised: untrusted.
	Hints json.RawMessage `json:"hints,omitempty"`
}

// Verdict is one check of a derived run (trace.Check without its events).
type Verdict struct {
	Rule   trace.RuleID `json:"rule"`
	OK     *bool        `json:"ok"`
	Detail string       `json:"detail"`
}

// Race is one row of the race table: the operation cancelled on one
// transport and protocol in one order.
type Race struct {
	Transport string `json:"transport"`
	Protocol  string `json:"protocol"`
	Order     string `json:"order"` // CancelFirst, CompleteFirst or InFlight
	// Signal is how the cancellation travelled ("notifications/cancelled",
	// "close-stream"), null when none was sent.
	Signal *string `json:"signal"`
	// FinalResponse is whether the server put a final response on the wire.
	FinalResponse bool `json:"finalResponse"`
	// ServerState is the request's one terminal state at the server.
	ServerState string `json:"serverState"`
	// ClientIgnores and ServerIgnores say what each side received late and
	// must ignore (empty: nothing).
	ClientIgnores []string  `json:"clientIgnores"`
	ServerIgnores []string  `json:"serverIgnores"`
	Checks        []Verdict `json:"checks"`
	Run           string    `json:"run"`
	Link          string    `json:"link"`
	// Band is where this row's outcome holds, found by the race explorer:
	// with the cancellation sent at CancelMs, every completion time from
	// FromMs to ToMs (ms after the call, both included, exact to 1 ms)
	// gives the outcome class Outcome that the row's own completion,
	// CompleteMs, gives. Null when the explorer found no class there.
	Band *Band `json:"band"`
}

// Band is the interval of completion times around a race row's own where
// the race has the row's outcome (Race.Band; engine/explore's classes).
type Band struct {
	CancelMs   int64  `json:"cancelMs"`
	CompleteMs int64  `json:"completeMs"`
	FromMs     int64  `json:"fromMs"`
	ToMs       int64  `json:"toMs"`
	Outcome    string `json:"outcome"`
}

// Evidence is one derived run seen from the section that uses it: what it
// shows in a sentence and the checks that decide it.
type Evidence struct {
	Run     string    `json:"run"`
	Link    string    `json:"link"`
	Finding string    `json:"finding"`
	Checks  []Verdict `json:"checks"`
	// Executions is the number of side effects the ledger ran, for runs of a
	// ledger tool.
	Executions *int `json:"executions,omitempty"`
}

// Retry is the evidence for the retry class (DOMAIN.md §5).
type Retry struct {
	Rule string `json:"rule"` // what the class allows
	// HintsNote says how the annotations compare with the class; they are
	// never the deciding input.
	HintsNote string `json:"hintsNote"`
	// NewID is the same call sent again under a new JSON-RPC id without an
	// idempotency key; SameKey the same call retried with its key (one is
	// added when the call has none, marked KeyAdded).
	NewID    Evidence `json:"newId"`
	SameKey  Evidence `json:"sameKey"`
	KeyAdded bool     `json:"keyAdded"`
}

// Idempotency is the idempotency boundary (DOMAIN.md §4).
type Idempotency struct {
	// Status is Evaluated (the ledger runs below exist), NotApplicable (the
	// call has no side effect) or NotEvaluated (it has one, but the review
	// could not run it on the lab's ledger: not a ledger tool, or the
	// scenario configures no "ledger"); Why says which.
	Status string `json:"status"`
	// Applicable is Status == Evaluated (kept for tools that read it).
	Applicable bool   `json:"applicable"`
	Why        string `json:"why"`
	Key        string `json:"key,omitempty"`
	KeyAdded   bool   `json:"keyAdded,omitempty"`
	// Binds lists the argument fields the fingerprint covers.
	Binds  []string            `json:"binds,omitempty"`
	Record *trace.LedgerRecord `json:"record,omitempty"`
	Stored *Evidence           `json:"stored,omitempty"`
	// Mismatch is the same key with changed arguments (ChangedArguments).
	Mismatch         *Evidence       `json:"mismatch,omitempty"`
	ChangedArguments json.RawMessage `json:"changedArguments,omitempty"`
	Race             *Evidence       `json:"race,omitempty"`
	Reopen           *Evidence       `json:"reopen,omitempty"`
	MutationAlias    *Evidence       `json:"mutationAlias,omitempty"`
}

// FlowControl is the flow-control part: each member nil when the
// configuration has nothing it could show (NotApplicable says why).
type FlowControl struct {
	Buffer *BufferEvidence `json:"buffer"`
	// SSE is the response headers and keep-alive against the proxy's idle
	// close, Streamable HTTP only.
	SSE *SSEEvidence `json:"sse"`
	// Progress is progress against the client's idle timeout through the
	// configured proxy, Streamable HTTP with a proxy only.
	Progress *ProgressEvidence `json:"progress"`
	// Deadlines is the maximum timeout under steady progress (DOMAIN.md §2).
	Deadlines *Evidence `json:"deadlines"`
	// NotApplicable and NotEvaluated say why a member is null, each reason
	// prefixed with the member's name ("buffer: ..."): the part cannot apply
	// to this operation, or it can but the scenario does not give what the
	// review needs to run it (NotEvaluated).
	NotApplicable []string `json:"notApplicable"`
	NotEvaluated  []string `json:"notEvaluated"`
}

// BufferEvidence is the bounded buffer under overload (DOMAIN.md §7).
type BufferEvidence struct {
	Evidence
	Pushed  int          `json:"pushed"` // progress values produced; 0 when the run could not push them
	Summary trace.Buffer `json:"summary"`
	// Assumed says what the run assumed because the scenario does not say
	// it (no "buffer": the format's default, scenario.DefaultBuffer); ""
	// when the run is of the configured buffer.
	Assumed string `json:"assumed,omitempty"`
}

// ProgressEvidence is progress sent at half the client's idle timeout
// through the configured proxy (DOMAIN.md §8): how many messages the proxy
// held, how many the client took as activity, and how the call ended.
type ProgressEvidence struct {
	Evidence
	Held     int    `json:"held"`
	Activity int    `json:"activity"`
	Outcome  string `json:"outcome"`
	// Cause is why the client stopped waiting, "" when it got its result.
	Cause string `json:"cause,omitempty"`
}

// SSEEvidence is what a quiet response stream shows (DOMAIN.md §8).
type SSEEvidence struct {
	Evidence
	Headers          map[string]string `json:"headers"`
	KeepaliveEveryMs int64             `json:"keepaliveEveryMs"`
	IdleCloseMs      int64             `json:"idleCloseMs"`
	ProxyClosed      bool              `json:"proxyClosed"`
}

// Recovery is the recovery part (DOMAIN.md §6, §9, §10).
type Recovery struct {
	Reconnect *ReconnectEvidence `json:"reconnect"`
	Herd      *HerdEvidence      `json:"herd"`
	Task      *TaskEvidence      `json:"task"`
	// NotApplicable and NotEvaluated say why a member is null, as in
	// FlowControl.
	NotApplicable []string `json:"notApplicable"`
	NotEvaluated  []string `json:"notEvaluated"`
}

// ReconnectEvidence is the reconnect plan after a listen stream drops while
// the operation is in flight.
type ReconnectEvidence struct {
	Evidence
	Plan *trace.Reconnect `json:"plan"`
}

// HerdEvidence is the herd at the configured scale and strategy.
type HerdEvidence struct {
	Evidence
	Strategy           string `json:"strategy"`
	Clients            int    `json:"clients"`
	PeakPerBucket      int    `json:"peakPerBucket"`
	BucketMs           int64  `json:"bucketMs"`
	Exhausted          int    `json:"exhausted"`
	AllReconnectedAtMs *int64 `json:"allReconnectedAtMs"`
	// Assumed says what the run assumed because the scenario does not say
	// it (no "herd": the format's default scale and strategy,
	// scenario.DefaultHerd); "" when the run is of the configured herd.
	Assumed string `json:"assumed,omitempty"`
}

// TaskEvidence is the durable task's cancellation trace.
type TaskEvidence struct {
	Evidence
	Task trace.Task `json:"task"`
}

// Card is one failure card.
type Card struct {
	ID      string `json:"id"`      // a DOMAIN.md §11 failure id
	Failure string `json:"failure"` // what goes wrong
	Status  string `json:"status"`  // AtRisk, Mitigated, NotApplicable or NotEvaluated
	Why     string `json:"why"`
	// Run and Link name the derived run the card rests on: the run that
	// decides it, or, for a card the configuration decides (not-applicable
	// included), the run of the operation as configured where the failure
	// would be; "" only when the review made no such run.
	Run  string `json:"run,omitempty"`
	Link string `json:"link"`
}

// Run is one derived scenario and its trace.
type Run struct {
	ID    string `json:"id"` // stable within a review, e.g. "race-stdio-cancel-first"
	Title string `json:"title"`
	Link  string `json:"link"` // Options.LinkBase + "#s=..."
	// Scenario is the derived scenario document; Trace its run.
	Scenario []byte       `json:"-"`
	Trace    *trace.Trace `json:"-"`
}

// Schema is the JSON Schema (draft 2020-12) of a Report's encoding, served
// by the site as /review.schema.json.
//
//go:embed review.schema.json
var Schema []byte

// Review decodes a scenario document (the same located errors as
// scenario.Decode) and reviews its call named by opts.Op.
func Review(data []byte, opts Options) (*Report, error) {
	s, err := scenario.Decode(data)
	if err != nil {
		return nil, err
	}
	return Of(s, opts)
}

// Of reviews the call of s named by opts.Op (the first call when ""). The
// error is a *scenario.Error wrapping ErrNoCall when there is no such call,
// or the error of a derived run (a missing ledger, a run past
// engine.MaxActions).
func Of(s *scenario.Scenario, opts Options) (*Report, error) {
	st, err := Start(s, opts)
	if err != nil {
		return nil, err
	}
	for !st.Done() {
		if err := st.Next(); err != nil {
			return nil, err
		}
	}
	return st.Report(), nil
}

// Parts names the parts of a review in the order a Stepper runs them: the
// nine rows of the race table, one derived run each, then the retry class
// (2 runs), the idempotency boundary (up to 6), flow control (up to 5) and
// recovery (up to 5).
var Parts = func() []string {
	var ps []string
	for _, v := range []string{"stdio", "Streamable HTTP 2026-07-28", "Streamable HTTP 2025-11-25"} {
		for _, o := range raceOrders {
			ps = append(ps, "race "+o+" on "+v)
		}
	}
	return append(ps, "retry class", "idempotency boundary", "flow control", "recovery")
}()

// Stepper runs a review one part at a time (Parts), so a caller can report
// progress between parts: the browser's worker answers the page once per
// part. Of is Start, then Next until Done, then Report.
type Stepper struct {
	r     *reviewer
	parts []func() error
	next  int
	err   error
}

// Start finds the call of s named by opts.Op (the errors of Of) and
// returns a Stepper that has run no part yet.
func Start(s *scenario.Scenario, opts Options) (*Stepper, error) {
	op, err := findOp(s, opts.Op)
	if err != nil {
		return nil, err
	}
	r := &reviewer{s: s, op: op, opts: opts}
	r.rep = &Report{Operation: r.operation()}
	r.assumeLedger()
	return &Stepper{r: r, parts: r.parts()}, nil
}

// Next runs the next part (Parts[st.Step()]) and, after the last, judges
// the failure cards. After an error every call returns it again.
func (st *Stepper) Next() error {
	if st.err != nil || st.Done() {
		return st.err
	}
	if st.err = st.parts[st.next](); st.err != nil {
		return st.err
	}
	st.next++
	if st.Done() {
		st.r.rep.FailureCards = st.r.cards()
	}
	return nil
}

// Step is the number of parts run so far (0..len(Parts)).
func (st *Stepper) Step() int { return st.next }

// Done reports whether every part has run.
func (st *Stepper) Done() bool { return st.next == len(st.parts) }

// Runs is the number of derived runs made so far.
func (st *Stepper) Runs() int { return len(st.r.rep.Runs) }

// Operation is the call under review.
func (st *Stepper) Operation() Operation { return st.r.rep.Operation }

// Report is the review once Done, nil before.
func (st *Stepper) Report() *Report {
	if !st.Done() {
		return nil
	}
	return st.r.rep
}

// Calls lists the ids of the calls a scenario offers for review (Options.Op
// names one of them), in step order: each call step's, and each race's
// call's.
func Calls(s *scenario.Scenario) []scenario.ID {
	var ids []scenario.ID
	for _, st := range s.Steps {
		if st.Do == scenario.VerbRace && st.Call != nil && st.Call.ID != nil {
			ids = append(ids, *st.Call.ID)
		} else if st.Do == scenario.VerbCall && st.ID != nil {
			ids = append(ids, *st.ID)
		}
	}
	return ids
}

// findOp returns the call step named op, or the first call. The call of a
// race step counts as a call at the race's time (its first connection's id,
// scenario.RaceID), so a scenario whose only call is inside a race is
// reviewable: the review sends that call once per derived run.
func findOp(s *scenario.Scenario, op string) (scenario.Step, error) {
	var calls []string // the ids a review can take, as the scenario writes them
	for _, st := range s.Steps {
		if st.Do == scenario.VerbRace && st.Call != nil {
			c := *st.Call
			c.At, c.Do = st.At, scenario.VerbCall
			st = c
		}
		if st.Do != scenario.VerbCall || st.ID == nil {
			continue
		}
		calls = append(calls, st.ID.Raw())
		if op == "" || st.ID.Raw() == op || st.ID.Raw() == quote(op) {
			return st, nil
		}
	}
	if len(calls) == 0 {
		return scenario.Step{}, &scenario.Error{Path: "steps", Err: fmt.Errorf("%w: the scenario has no call step (a review needs one \"do\": \"call\", or a race's call)", ErrNoCall)}
	}
	return scenario.Step{}, &scenario.Error{Path: "steps", Err: fmt.Errorf("%w: no call step has the id %s (its calls: %s)", ErrNoCall, op, strings.Join(calls, ", "))}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// Encode returns the report's JSON: two-space indent, trailing newline,
// HTML characters not escaped (as engine.Encode does for traces).
func Encode(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("encoding review: %w", err)
	}
	return buf.Bytes(), nil
}
