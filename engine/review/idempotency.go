package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// retryRules says what each retry class allows (DOMAIN.md §5).
var retryRules = map[string]string{
	trace.RetrySafe:        "safe: retry with a new JSON-RPC id once the failure boundary is understood",
	trace.RetryConditional: "conditional: retry only with the same idempotency key and identical arguments",
	trace.RetryUnsafe:      "unsafe: never retry automatically; reconcile first",
}

// addedKey is the idempotency key a review adds to a call that has none,
// to show the boundary the fix would draw.
func (r *reviewer) addedKey() string {
	return "review-" + stringID(*r.op.ID)
}

func stringID(id scenario.ID) string {
	var s string
	if json.Unmarshal([]byte(id.Raw()), &s) == nil {
		return s
	}
	return id.Raw()
}

// setKey returns args with idempotencyKey set to key ("" removes it). args
// that are not an object are returned unchanged.
func setKey(args json.RawMessage, key string) json.RawMessage {
	var m map[string]json.RawMessage
	if len(args) == 0 {
		m = map[string]json.RawMessage{}
	} else if json.Unmarshal(args, &m) != nil || m == nil {
		return args
	}
	if key == "" {
		delete(m, "idempotencyKey")
	} else {
		m["idempotencyKey"], _ = json.Marshal(key)
	}
	b, _ := json.Marshal(m) // sorted keys
	return b
}

// retry runs the retry evidence: the call retried under a new JSON-RPC id
// without a key, and retried with its key (added when missing). Each run:
// call at 0, complete at one tick, retry at two, complete at three.
func (r *reviewer) retry() error {
	key, added := r.rep.Operation.IdempotencyKey, false
	if key == "" {
		key, added = r.addedKey(), true
	}
	newID, err := r.retryRun("retry-new-id", "Retry under a new JSON-RPC id, no idempotency key", setKey(r.op.Arguments, ""))
	if err != nil {
		return err
	}
	sameKey, err := r.retryRun("retry-same-key", fmt.Sprintf("Retry with the same idempotency key %q", key), setKey(r.op.Arguments, key))
	if err != nil {
		return err
	}
	class := trace.RetrySafe
	if req := request(r.rep.Runs[0].Trace, *r.op.ID); req != nil {
		class = req.RetryClass // the first race run sends the call exactly as given
	}
	r.rep.RetryClass = class
	r.rep.Retry = Retry{Rule: retryRules[class], HintsNote: hintsNote(r.op.Annotations, class), NewID: newID, SameKey: sameKey, KeyAdded: added}
	return nil
}

func (r *reviewer) retryRun(id, title string, args json.RawMessage) (Evidence, error) {
	sc, t, rid := r.own(), r.tick(), r.otherID("retry", 1)
	opID := *r.op.ID
	sc.Steps = []scenario.Step{withArgs(r.call(0, false), args),
		{At: t, Do: scenario.VerbComplete, ID: &opID}, lostAnswer(t, opID),
		{At: 2 * t, Do: scenario.VerbRetry, ID: &rid, Of: &opID},
		{At: 3 * t, Do: scenario.VerbComplete, ID: &rid}}
	run, err := r.run(id, title, sc)
	if err != nil {
		return Evidence{}, err
	}
	ev := evidence(run, "", checks.OneExecutionPerKey, checks.NoUnsafeRetry, checks.DefensiveCopy)
	if !r.onLedger() {
		why := "is not a ledger tool"
		if r.rep.Operation.LedgerTool {
			why = "runs on no ledger (the scenario configures none)"
		}
		ev.Finding = fmt.Sprintf("The retry %s is answered; %s %s, so the lab counts no side effects: whether it ran twice is the server's to prove.", rid.Raw(), nameOf(r.rep.Operation), why)
		return ev, nil
	}
	n := run.Trace.Ledger.Executions
	ev.Executions = &n
	switch n {
	case 1:
		ev.Finding = fmt.Sprintf("The retry %s ran no new side effect: 1 execution; the stored result was replayed.", rid.Raw())
	default:
		ev.Finding = fmt.Sprintf("The retry %s ran the side effect again: %d executions.", rid.Raw(), n)
	}
	return ev, nil
}

// onLedger reports whether the operation's side effects run on the lab's
// SQLite ledger: a ledger tool in a scenario that configures a ledger.
func (r *reviewer) onLedger() bool { return r.rep.Operation.LedgerTool && r.s.Ledger != nil }

func nameOf(o Operation) string {
	if o.Name != "" {
		return o.Name
	}
	return o.Method
}

// hintsNote compares the annotations with the class, without letting them
// decide (DOMAIN.md §5).
func hintsNote(hints json.RawMessage, class string) string {
	if len(hints) == 0 {
		return "The tool advertises no annotations. The class comes from the side effect and the idempotency key, never from hints."
	}
	var h struct {
		ReadOnly   *bool `json:"readOnlyHint"`
		Idempotent *bool `json:"idempotentHint"`
	}
	_ = json.Unmarshal(hints, &h)
	note := "Annotations " + string(compact(hints)) + " are untrusted hints: the application contract and the server decide retry safety."
	if h.ReadOnly != nil && *h.ReadOnly && class != trace.RetrySafe {
		note += " Here readOnlyHint says read-only, but the call has a side effect: the hint is wrong."
	}
	if h.Idempotent != nil && *h.Idempotent && class == trace.RetryUnsafe {
		note += " Here idempotentHint says idempotent, but no key deduplicates the call: the hint does not make a retry safe."
	}
	return note
}

func compact(b json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

// idempotency runs the idempotency boundary for a ledger tool: the stored
// record, the mismatch fixture, the two-connection race, the reopen check
// and the mutation-alias check.
func (r *reviewer) idempotency() error {
	o := r.rep.Operation
	idem := &r.rep.Idempotency
	switch {
	case !o.SideEffect:
		idem.Status = NotApplicable
		idem.Why = fmt.Sprintf("%s has no side effect (call.sideEffect is not true): a repeated call changes nothing, so there is no boundary to draw.", nameOf(o))
		return nil
	case !o.LedgerTool:
		idem.Status = NotEvaluated
		idem.Why = fmt.Sprintf("%s has a side effect, but the lab runs side effects on its SQLite ledger only for charge_account and reserve_inventory: the boundary was not evaluated, so check your server's key handling yourself (or describe the operation as one of those two tools).", nameOf(o))
		return nil
	case r.s.Ledger == nil:
		idem.Status = NotEvaluated
		idem.Why = fmt.Sprintf("The scenario configures no ledger, so the review could not run %s on SQLite: add \"ledger\": {} to derive the stored record, the mismatch fixture, the race, the reopen and the mutation-alias checks.", nameOf(o))
		return nil
	}
	idem.Status, idem.Applicable = Evaluated, true
	key := o.IdempotencyKey
	if key == "" {
		key, idem.KeyAdded = r.addedKey(), true
		idem.Why = fmt.Sprintf("The call carries no idempotency key: these runs add %q to show the boundary a key would draw.", key)
	} else {
		idem.Why = fmt.Sprintf("The call carries idempotency key %q.", key)
	}
	idem.Why = strings.TrimSpace(r.ledgerAssumed + " " + idem.Why)
	idem.Why += " A local table makes only the local effect atomic: a real payment or inventory system must accept the same key too, or the effect must go through a transactional outbox."
	idem.Key = key
	args := setKey(r.op.Arguments, key)
	if in, err := ledger.Prepare(o.Name, args, []byte(r.op.ID.Raw())); err == nil {
		idem.Binds = sortedKeys(in.Args)
	} else {
		idem.Why += fmt.Sprintf(" The arguments are invalid, so every run rejects the call: %v.", err)
	}
	t, opID := r.tick(), *r.op.ID
	call := withArgs(r.call(0, false), args)
	complete := func(at int64, id scenario.ID) scenario.Step {
		return scenario.Step{At: at, Do: scenario.VerbComplete, ID: &id}
	}
	rid := r.otherID("retry", 1)
	retry := func(at int64) scenario.Step {
		return scenario.Step{At: at, Do: scenario.VerbRetry, ID: &rid, Of: &opID}
	}

	// The stored record.
	sc := r.own()
	sc.Steps = []scenario.Step{call, complete(t, opID)}
	run, err := r.run("ledger-record", fmt.Sprintf("The record stored under key %q", key), sc)
	if err != nil {
		return err
	}
	if recs := run.Trace.Ledger.Records; len(recs) > 0 {
		idem.Record = &recs[0]
	}
	idem.Stored = ledgerEvidence(run, fmt.Sprintf("The call commits %d record(s) in %d execution(s).", len(run.Trace.Ledger.Records), run.Trace.Ledger.Executions))

	// The mismatch fixture: the same key, changed arguments.
	changed, field := changeArgs(args)
	idem.ChangedArguments = changed
	mid := r.otherID("changed", 2)
	sc = r.own()
	sc.Steps = []scenario.Step{call, complete(t, opID), withID(withArgs(r.call(2*t, false), changed), mid), complete(3*t, mid)}
	if run, err = r.run("ledger-mismatch", fmt.Sprintf("Key %q reused with %s changed", key, field), sc); err != nil {
		return err
	}
	idem.Mismatch = ledgerEvidence(run, outcomeOf(run.Trace, mid, fmt.Sprintf("the same key with %s changed", field)), checks.KeyReuseRejected, checks.OneExecutionPerKey)

	// The concurrent same-key race on two connections.
	sc = r.own()
	rc := scenario.Step{ID: r.op.ID, Method: r.op.Method, Name: r.op.Name, Arguments: args}
	sc.Steps = []scenario.Step{{At: 0, Do: scenario.VerbRace, Connections: 2, Call: &rc}}
	if run, err = r.run("ledger-race", fmt.Sprintf("Two connections race key %q", key), sc); err != nil {
		return err
	}
	idem.Race = ledgerEvidence(run, fmt.Sprintf("Two SQLite connections start the same call behind a barrier: %d execution(s), %d committed record(s).", run.Trace.Ledger.Executions, len(run.Trace.Ledger.Records)), checks.OneExecutionPerKey)
	if idem.KeyAdded {
		// The race as the call is sent, without the added key: what the
		// check-then-act card rests on.
		sc = r.own()
		rc := scenario.Step{ID: r.op.ID, Method: r.op.Method, Name: r.op.Name, Arguments: r.op.Arguments}
		sc.Steps = []scenario.Step{{At: 0, Do: scenario.VerbRace, Connections: 2, Call: &rc}}
		if _, err = r.run("ledger-race-no-key", "Two connections send the call as it is, without an idempotency key", sc); err != nil {
			return err
		}
	}

	// The reopen check.
	sc = r.own()
	sc.Steps = []scenario.Step{call, complete(t, opID), lostAnswer(t, opID), {At: 2 * t, Do: scenario.VerbReopenLedger}, retry(3 * t), complete(4*t, rid)}
	if run, err = r.run("ledger-reopen", fmt.Sprintf("Key %q after closing and reopening the ledger", key), sc); err != nil {
		return err
	}
	idem.Reopen = ledgerEvidence(run, fmt.Sprintf("After every connection closes and reopens, the retry %s: %d execution(s).", replayed(run.Trace, rid), run.Trace.Ledger.Executions), checks.OneExecutionPerKey, checks.DefensiveCopy)

	// The mutation-alias check: the caller edits what it got back.
	sc = r.own()
	var changedArgs map[string]json.RawMessage
	_ = json.Unmarshal(changed, &changedArgs)
	set, _ := json.Marshal(map[string]json.RawMessage{field: changedArgs[field]})
	sc.Steps = []scenario.Step{call, complete(t, opID), lostAnswer(t, opID), {At: 2 * t, Do: scenario.VerbMutateResult, Of: &opID, Set: set}, retry(3 * t), complete(4*t, rid)}
	if run, err = r.run("ledger-mutation-alias", fmt.Sprintf("The caller edits the result of key %q, then retries", key), sc); err != nil {
		return err
	}
	idem.MutationAlias = ledgerEvidence(run, fmt.Sprintf("The caller sets %s in what it got back; the retry %s.", compact(set), replayed(run.Trace, rid)), checks.DefensiveCopy)
	return nil
}

func withID(c scenario.Step, id scenario.ID) scenario.Step {
	c.ID = &id
	return c
}

func ledgerEvidence(run *Run, finding string, rules ...trace.RuleID) *Evidence {
	ev := evidence(run, finding, rules...)
	n := run.Trace.Ledger.Executions
	ev.Executions = &n
	return &ev
}

// outcomeOf says what the server answered request id.
func outcomeOf(tr *trace.Trace, id scenario.ID, what string) string {
	req := request(tr, id)
	if req == nil {
		return fmt.Sprintf("The server never saw %s.", what)
	}
	var m struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(req.Response, &m)
	if m.Error != nil {
		return fmt.Sprintf("Request %s, %s, is rejected with error %d (%s): %d execution(s) in all.", id.Raw(), what, m.Error.Code, m.Error.Message, tr.Ledger.Executions)
	}
	return fmt.Sprintf("Request %s, %s, is answered with a result: %d execution(s) in all.", id.Raw(), what, tr.Ledger.Executions)
}

// replayed says whether the ledger replayed or executed request id.
func replayed(tr *trace.Trace, id scenario.ID) string {
	for _, e := range tr.Events {
		if e.Actor != trace.ActorLedger || e.ID == nil || e.ID.Raw() != id.Raw() {
			continue
		}
		switch e.Type {
		case trace.TypeReplay:
			return "replays the stored result " + string(compact(e.Message))
		case trace.TypeEffect:
			return "runs the side effect again"
		}
	}
	return "gets no ledger answer"
}

// changeArgs returns args with one bound field changed and its name: the
// first numeric member (sorted) plus 1, else the first string member with
// "-changed" appended, else a new member "changed".
func changeArgs(args json.RawMessage) (json.RawMessage, string) {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil || m == nil {
		m = map[string]any{}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != "idempotencyKey" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	field := ""
	for _, k := range keys {
		if n, ok := m[k].(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				m[k], field = i+1, k
				break
			}
		}
	}
	if field == "" {
		for _, k := range keys {
			if s, ok := m[k].(string); ok {
				m[k], field = s+"-changed", k
				break
			}
		}
	}
	if field == "" {
		m["changed"], field = true, "changed"
	}
	b, _ := json.Marshal(m)
	return b, field
}

// lostAnswer is the client giving up on request id at t, the moment the
// server commits it and before the response reaches it: the answer is
// lost, so the retry that follows is one a client makes (SCENARIO.md: a
// call that got its answer is never retried; such a retry step would be
// skipped).
func lostAnswer(t int64, id scenario.ID) scenario.Step {
	reason := "the client gave up before the answer arrived"
	return scenario.Step{At: t, Do: scenario.VerbCancel, ID: &id, Reason: &reason}
}
