package review

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// reviewer holds one review in the making.
type reviewer struct {
	s    *scenario.Scenario
	op   scenario.Step
	opts Options
	rep  *Report
	// explored are each transport's race explored (exploreRace), by slug.
	explored map[string]*explore.Report
	// ledgerAssumed is the sentence the ledger cards start with when the
	// review runs a keyed ledger tool on the lab's default ledger, which
	// the scenario does not configure (assumeLedger); "" otherwise.
	ledgerAssumed string
}

// parts are the review's parts in the order they run (Parts names them):
// the race table row by row, then retry, idempotency, flow control and
// recovery (with the staged runs); the failure cards follow from all of
// them.
func (r *reviewer) parts() []func() error {
	var ps []func() error
	for i := range raceVariants {
		for _, order := range raceOrders {
			ps = append(ps, r.races(i, order))
		}
	}
	recovery := func() error { // the staged runs close the recovery part
		if err := r.recovery(); err != nil {
			return err
		}
		return r.staged()
	}
	return append(ps, r.retry, r.idempotency, r.flow, recovery)
}

// operation describes the call under review.
func (r *reviewer) operation() Operation {
	s, op := r.s, r.op
	o := Operation{Title: s.Title, ID: *op.ID, Method: op.Method, Name: op.Name, Arguments: op.Arguments,
		IdempotencyKey: keyOf(op.Arguments), LedgerTool: isLedgerTool(op.Name), ProgressToken: op.ProgressToken,
		Task: op.Task, Transport: s.Transport, Protocol: s.Protocol, Hints: op.Annotations,
		IdleTimeoutMs: s.Client.IdleTimeoutMs, MaxTimeoutMs: s.Client.MaxTimeoutMs}
	if o.Method == "" {
		o.Method = "tools/call"
	}
	o.SideEffect = o.LedgerTool
	if op.SideEffect != nil {
		o.SideEffect = *op.SideEffect
	}
	if op.IdleTimeoutMs != nil {
		o.IdleTimeoutMs = *op.IdleTimeoutMs
	}
	if op.MaxTimeoutMs != nil {
		o.MaxTimeoutMs = *op.MaxTimeoutMs
	}
	if s.Client.Policy.Timeouts == scenario.TimeoutsNone {
		// The client sends every request with no timeout at all, whatever
		// the defaults and the step say (client.policy.timeouts).
		o.IdleTimeoutMs, o.MaxTimeoutMs = 0, 0
	}
	return o
}

func isLedgerTool(name string) bool { return name == "charge_account" || name == "reserve_inventory" }

// keyOf returns arguments.idempotencyKey when it is a non-empty string.
func keyOf(args json.RawMessage) string {
	var a struct {
		Key any `json:"idempotencyKey"`
	}
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	if k, ok := a.Key.(string); ok {
		return k
	}
	return ""
}

// base returns the input's configuration on transport and protocol, with no
// steps and no herd; a server that applies notifications/initialized late
// keeps that switch only for an operation sent as the session opens. Streamable-HTTP-only members are dropped on stdio. The
// client's HTTP cancellation keeps what the input set when it differs from
// the input's default, else takes the default of the new protocol.
func (r *reviewer) base(transport, protocol string) scenario.Scenario {
	b := *r.s
	b.Title, b.Notes, b.Steps, b.Herd = "", "", nil, nil
	b.Transport, b.Protocol = transport, protocol
	if transport == scenario.TransportStdio {
		b.Proxy, b.Buffer, b.Consumer = nil, nil, nil
		b.Server.KeepaliveEveryMs, b.Server.SSEHeaders = 0, nil
	}
	if b.Server.Policy.AsyncInitialized && r.op.At != 0 {
		// The server rejects only a request that arrives with
		// notifications/initialized, which a call sent after the session
		// opens never does: the derived runs, which send it at 0, would
		// meet a rejection the operation never meets.
		b.Server.Policy.AsyncInitialized = false
	}
	if r.s.Client.Policy.HTTPCancel == defaultHTTPCancel(r.s.Transport, r.s.Protocol) {
		b.Client.Policy.HTTPCancel = defaultHTTPCancel(transport, protocol)
	}
	return b
}

// defaultHTTPCancel is scenario.Decode's default client.policy.httpCancel.
func defaultHTTPCancel(transport, protocol string) string {
	if transport == scenario.TransportHTTP && protocol == scenario.Protocol20251125 {
		return scenario.HTTPCancelPostNotification
	}
	return scenario.HTTPCancelCloseStream
}

// own is the input's configuration on its own transport and protocol.
func (r *reviewer) own() scenario.Scenario { return r.base(r.s.Transport, r.s.Protocol) }

// call returns the operation's call step at time at, without its task
// (a task is reviewed by its own run) unless withTask.
func (r *reviewer) call(at int64, withTask bool) scenario.Step {
	c := r.op
	c.At = at
	if !withTask {
		c.Task = ""
	}
	return c
}

// withArgs returns c with arguments args.
func withArgs(c scenario.Step, args json.RawMessage) scenario.Step {
	c.Arguments = args
	return c
}

// otherID is a request id distinct from the operation's: n+1 for an
// integer id, "<id>-<suffix>" for a string id.
func (r *reviewer) otherID(suffix string, n int64) scenario.ID {
	var i int64
	if json.Unmarshal([]byte(r.op.ID.Raw()), &i) == nil {
		return scenario.NewIntID(i + n)
	}
	var s string
	_ = json.Unmarshal([]byte(r.op.ID.Raw()), &s)
	return scenario.NewStringID(s + "-" + suffix)
}

// arrived is the first ms at which a call sent at 0 has reached the server:
// its up latency plus 1 (a 2025-11-25 session's handshake runs before 0, so
// the call leaves at 0). A server step on the call before then cannot
// happen.
func (r *reviewer) arrived() int64 { return r.s.LatencyMs.Up + 1 }

// tick is one step of a sequential derived run: a round trip plus 10 ms.
func (r *reviewer) tick() int64 { return r.s.LatencyMs.Up + r.s.LatencyMs.Down + 10 }

// run encodes sc as a scenario document, decodes it again (so it meets every
// limit of package scenario), runs it (engine.MaxActions holds) and records
// it under id.
func (r *reviewer) run(id, title string, sc scenario.Scenario) (*Run, error) {
	doc, err := r.document(id, title, sc)
	if err != nil {
		return nil, err
	}
	s, err := scenario.Decode(doc)
	if err != nil {
		return nil, fmt.Errorf("review: derived run %s: %w", id, err)
	}
	tr, err := engine.RunWith(s, r.opts.Engine)
	if err != nil {
		return nil, fmt.Errorf("review: derived run %s: %w", id, err)
	}
	frag, err := scenario.ShareFragment(doc)
	if err != nil {
		return nil, fmt.Errorf("review: run %s: %w", id, err)
	}
	run := &Run{ID: id, Title: title, Link: r.opts.LinkBase + "#" + frag, Scenario: doc, Trace: tr}
	r.rep.Runs = append(r.rep.Runs, run)
	return run, nil
}

// document is the canonical scenario document of derived run id: sc with
// title and the review's notes (a race's call step written without a
// time or verb of its own).
func (r *reviewer) document(id, title string, sc scenario.Scenario) ([]byte, error) {
	sc.Title = title
	sc.Notes = fmt.Sprintf("Derived by the reliability review of request %s%s.", r.op.ID.Raw(), inTitle(r.s.Title))
	if sc.Steps == nil {
		sc.Steps = []scenario.Step{}
	}
	data, err := json.Marshal(sc)
	if err != nil {
		return nil, fmt.Errorf("review: run %s: %w", id, err)
	}
	for i, st := range sc.Steps {
		if st.Call != nil { // a race's call has no time or verb of its own
			for _, p := range []string{"at", "do"} {
				if data, err = scenario.DeletePath(data, fmt.Sprintf("steps[%d].call.%s", i, p)); err != nil {
					return nil, fmt.Errorf("review: run %s: %w", id, err)
				}
			}
		}
	}
	doc, err := scenario.Canonical(data)
	if err != nil {
		return nil, fmt.Errorf("review: run %s: %w", id, err)
	}
	return doc, nil
}

func inTitle(t string) string {
	if t == "" {
		return ""
	}
	return fmt.Sprintf(" in %q", t)
}

// verdicts returns the checks of tr, only those of rules when any are given
// (in tr's order).
func verdicts(tr *trace.Trace, rules ...trace.RuleID) []Verdict {
	want := map[trace.RuleID]bool{}
	for _, r := range rules {
		want[r] = true
	}
	out := []Verdict{}
	for _, c := range tr.Checks {
		if len(rules) == 0 || want[c.Rule] {
			out = append(out, Verdict{Rule: c.Rule, OK: c.OK, Detail: c.Detail})
		}
	}
	return out
}

// evidence builds the Evidence of run with finding and the checks of rules.
func evidence(run *Run, finding string, rules ...trace.RuleID) Evidence {
	return Evidence{Run: run.ID, Link: run.Link, Finding: finding, Checks: verdicts(run.Trace, rules...)}
}

// request returns the summary of request id in tr.
func request(tr *trace.Trace, id scenario.ID) *trace.Request {
	for i := range tr.Requests {
		if tr.Requests[i].ID.Raw() == id.Raw() {
			return &tr.Requests[i]
		}
	}
	return nil
}

// failed reports whether any check of rules (all when none) is violated in
// the verdicts; present whether any of them was evaluated at all.
func failed(vs []Verdict, rules ...trace.RuleID) (bad, present bool) {
	want := map[trace.RuleID]bool{}
	for _, r := range rules {
		want[r] = true
	}
	for _, v := range vs {
		if len(rules) > 0 && !want[v.Rule] {
			continue
		}
		present = true
		if v.OK != nil && !*v.OK {
			bad = true
		}
	}
	return bad, present
}

// sortedKeys returns the member names of a JSON object, sorted.
func sortedKeys(obj json.RawMessage) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func ptr[T any](v T) *T { return &v }
