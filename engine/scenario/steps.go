package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Verbs lists the step verbs this version understands, with the fields each
// one accepts beyond "at" and "do". A field not listed for a verb is an
// unknown field (a typo must not silently change a lesson).
var Verbs = map[Verb][]string{
	// client verbs
	VerbCall:       {"id", "method", "name", "arguments", "progressToken", "idleTimeoutMs", "maxTimeoutMs", "sideEffect", "task", "annotations"},
	VerbTaskGet:    {"taskId"},
	VerbTaskCancel: {"taskId"},
	VerbCancel:     {"id", "reason"},
	VerbRetry:      {"id", "of"},
	VerbSend:       {"message", "from"},
	VerbDisconnect: {"id"},
	VerbListen:     {"id", "filter"},
	// server verbs
	VerbProgress:     {"id", "progress", "total", "message"},
	VerbProduce:      {"id", "everyMs", "count", "fromValue", "total"},
	VerbComplete:     {"id", "result"},
	VerbFail:         {"id", "code", "message"},
	VerbNotify:       {"listen", "method", "params"},
	VerbEndListen:    {"id", "reason"},
	VerbDrop:         {"id", "affected"},
	VerbRace:         {"connections", "call"},
	VerbReopenLedger: {},
	VerbMutateResult: {"of", "set"},
	VerbCheckpoint:   {"taskId"},
	VerbFinishTask:   {"taskId", "result"},
	VerbEndSession:   {},
}

func (d *decoder) steps(root *object, s *Scenario) {
	raw, ok := root.get("steps")
	if d.err != nil {
		return
	}
	if !ok {
		d.fail(errAt("steps", ErrMissing, ""))
		return
	}
	items, ok := fastArray(raw)
	if !ok && (isNull(raw) || json.Unmarshal(raw, &items) != nil) {
		d.fail(errAt("steps", ErrType, "must be an array"))
		return
	}
	if len(items) > MaxSteps {
		d.fail(errAt("steps", ErrLimit, "more than %s steps, the limit", grouped(MaxSteps)))
		return
	}
	s.Steps = make([]Step, 0, len(items))
	d.s = s
	d.known, d.listens, d.tasks = map[string]int64{}, map[string]bool{}, map[string]int64{}
	for i, item := range items {
		o := d.obj("steps["+strconv.Itoa(i)+"]", item)
		if o == nil {
			return
		}
		s.Steps = append(s.Steps, Step{})
		if d.stepInto(o, &s.Steps[i]); d.err != nil {
			s.Steps = s.Steps[:i]
			return
		}
	}
}

// step reads one step: its time and verb, the id most verbs name, then the
// verb's own members (one method per verb below), then reports any member
// the verb does not take as unknown.
func (d *decoder) step(o *object) Step {
	var st Step
	d.stepInto(o, &st)
	return st
}

// stepInto is step writing into *st (a zero Step): Decode's steps go
// straight into the scenario's slice, not through a copy on the heap each
// (427 bytes a step).
func (d *decoder) stepInto(o *object, st *Step) {
	at, ok := d.integer(o, "at", 0, MaxDurationMs)
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("at"), ErrMissing, ""))
	}
	st.At = at
	text, ok := d.str(o, "do", 64)
	verb := Verb(text)
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("do"), ErrMissing, ""))
	}
	fields, isVerb := Verbs[verb]
	if d.err == nil && !isVerb {
		names := make([]string, 0, len(Verbs))
		for k := range Verbs {
			names = append(names, string(k))
		}
		sort.Strings(names)
		d.fail(errAt(o.sub("do"), ErrValue, "unknown verb %q (known: %s)", verb, strings.Join(names, ", ")))
	}
	if d.err != nil {
		return
	}
	st.Do = verb
	// Members not allowed for this verb are left unread and reported as unknown.
	if slices.Contains(fields, "id") {
		st.ID, _ = d.id(o, "id")
		if d.err == nil && st.ID == nil {
			d.fail(errAt(o.sub("id"), ErrMissing, ""))
		}
		if d.err != nil {
			return
		}
	}
	switch verb {
	case VerbCall:
		d.call(o, st)
	case VerbRetry:
		d.retry(o, st)
	case VerbCancel, VerbEndListen:
		if r, ok := d.str(o, "reason", MaxTextLen); ok {
			st.Reason = &r
		}
	case VerbListen:
		d.listen(o, st)
	case VerbNotify:
		d.notify(o, st)
	case VerbRace:
		d.race(o, st)
	case VerbMutateResult:
		d.mutateResult(o, st)
	case VerbReopenLedger:
		if d.err == nil && d.s.Ledger == nil {
			d.fail(errAt(o.sub("do"), ErrValue, "there is no ledger to reopen; add \"ledger\": {} to the scenario"))
		}
	case VerbTaskGet, VerbTaskCancel, VerbCheckpoint, VerbFinishTask:
		d.taskStep(o, st)
	case VerbDrop:
		d.drop(o, st)
	case VerbSend:
		d.send(o, st)
	case VerbEndSession:
		if d.err == nil && (d.s.Transport != TransportHTTP || d.s.Protocol != Protocol20251125) {
			d.fail(errAt(o.sub("do"), ErrValue, "end-session retires a 2025-11-25 Streamable HTTP session; this scenario is %s on %s", d.s.Protocol, d.s.Transport))
		}
	case VerbDisconnect:
		if d.err == nil && d.s.Transport != TransportHTTP {
			d.fail(errAt(o.sub("do"), ErrValue, "disconnect closes an HTTP stream; this scenario's transport is %s", d.s.Transport))
		}
	case VerbProgress:
		d.progress(o, st)
	case VerbProduce:
		d.produce(o, st)
	case VerbComplete:
		st.Result, _ = d.rawJSON(o, "result")
	case VerbFail:
		d.failStep(o, st)
	}
	if st.ID != nil && verb != VerbCall && verb != VerbRetry && verb != VerbListen {
		d.sentBy(o, "id", st.ID, st.At)
	}
	d.unknown(o)
	return
}

// newRequest checks that the id a call, retry or listen creates is unused,
// and is none client.policy.retry may give an earlier call's retry
// (RetryID): the policy's retry would otherwise vanish, its id taken.
func (d *decoder) newRequest(o *object, id *ID) {
	if _, dup := d.known[id.Raw()]; d.err == nil && dup {
		d.fail(errAt(o.sub("id"), ErrValue, "request id %s is already in use", id))
	}
	if _, taken := d.retried(*id); d.err == nil && taken {
		var text string
		_ = json.Unmarshal([]byte(id.Raw()), &text) // retried: a string
		cut := strings.LastIndex(text, "-r")
		n, _ := strconv.Atoi(text[cut+2:])
		d.fail(errAt(o.sub("id"), ErrValue, "%s is the id client.policy.retry gives request %s's %s retry", id, text[:cut], ordinal(n)))
	}
}

// ordinal is n (1..MaxRetries) as an English ordinal word, else "n-th".
func ordinal(n int) string {
	words := []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if n >= 1 && n <= len(words) {
		return words[n-1]
	}
	return strconv.Itoa(n) + "-th"
}

// call reads a call: the request's method, tool, arguments, progress token,
// timeouts (DOMAIN.md §2: max >= idle), side effect, task and annotations.
func (d *decoder) call(o *object, st *Step) {
	d.newRequest(o, st.ID)
	st.Method, _ = d.str(o, "method", 256)
	st.Name, _ = d.str(o, "name", 256)
	if st.Method == "" {
		st.Method = "tools/call"
	}
	st.Arguments, _ = d.rawJSON(o, "arguments")
	if st.Arguments != nil && (len(st.Arguments) == 0 || st.Arguments[0] != '{') && d.err == nil {
		d.fail(errAt(o.sub("arguments"), ErrType, "must be an object"))
	}
	st.ProgressToken, _ = d.id(o, "progressToken")
	if v, ok := d.integer(o, "idleTimeoutMs", 1, MaxDurationMs); ok {
		st.IdleTimeoutMs = &v
	}
	if v, ok := d.integer(o, "maxTimeoutMs", 1, MaxDurationMs); ok {
		st.MaxTimeoutMs = &v
	}
	if d.err == nil {
		idle, max := d.s.Client.IdleTimeoutMs, d.s.Client.MaxTimeoutMs
		if st.IdleTimeoutMs != nil {
			idle = *st.IdleTimeoutMs
		}
		if st.MaxTimeoutMs != nil {
			max = *st.MaxTimeoutMs
		}
		if idle > 0 && max > 0 && max < idle {
			d.fail(errAt(o.sub("maxTimeoutMs"), ErrValue, "must be >= idleTimeoutMs (%d)", idle))
		}
	}
	if v, ok := d.boolean(o, "sideEffect"); ok {
		st.SideEffect = &v
	}
	if o.has("annotations") {
		st.Annotations = d.object(o, "annotations", `{}`)
	}
	if v, ok := d.str(o, "task", 256); ok {
		if v == "" {
			d.fail(errAt(o.sub("task"), ErrValue, "must not be empty"))
		} else if _, dup := d.tasks[v]; dup {
			d.fail(errAt(o.sub("task"), ErrValue, "task %q is already created by an earlier call", v))
		}
		st.Task = v
		if d.err == nil {
			d.tasks[v] = st.At
		}
	}
	if d.err == nil {
		d.known[st.ID.Raw()] = st.At
	}
}

// retry reads a retry: a new request id for the request "of" names.
func (d *decoder) retry(o *object, st *Step) {
	st.Of, _ = d.id(o, "of")
	if d.err == nil && st.Of == nil {
		d.fail(errAt(o.sub("of"), ErrMissing, ""))
	}
	d.sentBy(o, "of", st.Of, st.At)
	d.newRequest(o, st.ID)
	if d.err == nil {
		d.known[st.ID.Raw()] = st.At
	}
}

// listen reads a listen stream's request: its id and filter.
func (d *decoder) listen(o *object, st *Step) {
	d.newRequest(o, st.ID)
	st.Filter = d.object(o, "filter", `{}`)
	if d.err == nil {
		d.known[st.ID.Raw()] = st.At
		d.listens[st.ID.Raw()] = true
	}
}

// notify reads a notification on a listen stream.
func (d *decoder) notify(o *object, st *Step) {
	st.Listen, _ = d.id(o, "listen")
	if d.err == nil && st.Listen == nil {
		d.fail(errAt(o.sub("listen"), ErrMissing, ""))
	}
	if d.err == nil {
		d.sentBy(o, "listen", st.Listen, st.At)
		if d.err == nil && !d.listens[st.Listen.Raw()] {
			d.fail(errAt(o.sub("listen"), ErrValue, "request %s is not a listen stream", st.Listen))
		}
	}
	m, ok := d.str(o, "method", 256)
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("method"), ErrMissing, ""))
	}
	if d.err == nil && !strings.HasPrefix(m, "notifications/") {
		d.fail(errAt(o.sub("method"), ErrValue, "a notification method starts with \"notifications/\""))
	}
	st.Method = m
	st.Params = d.object(o, "params", `{}`)
}

// race reads a race: connections ledger connections sending one call,
// which is read as a call step at the race's time; connection i takes the
// id RaceID gives, each of which must be unused.
func (d *decoder) race(o *object, st *Step) {
	if d.err == nil && d.s.Ledger == nil {
		d.fail(errAt(o.sub("do"), ErrValue, "a race runs ledger connections; add \"ledger\": {} to the scenario"))
	}
	n, ok := d.integer(o, "connections", 2, 16)
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("connections"), ErrMissing, ""))
	}
	st.Connections = int(n)
	raw, ok := o.get("call")
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("call"), ErrMissing, ""))
	}
	if d.err != nil {
		return
	}
	co := d.obj(o.sub("call"), raw)
	if co == nil {
		return
	}
	co.set("at", json.RawMessage(strconv.FormatInt(st.At, 10)))
	co.set("do", json.RawMessage(strconv.Quote(string(VerbCall))))
	call := d.step(co)
	if d.err != nil {
		return
	}
	// The other connections' requests take the ids after the given one.
	for i := 1; i < st.Connections; i++ {
		id := RaceID(*call.ID, i)
		if _, dup := d.known[id.Raw()]; dup {
			d.fail(errAt(o.sub("call.id"), ErrValue, "the race's request id %s (connection %d) is already in use", id, i+1))
			return
		}
		d.known[id.Raw()] = st.At
	}
	call.At, call.Do = 0, ""
	st.Call = &call
}

// mutateResult reads a caller's edit of the result a ledger returned; it
// needs a ledger (there is no stored result to edit without one).
func (d *decoder) mutateResult(o *object, st *Step) {
	if d.err == nil && d.s.Ledger == nil {
		d.fail(errAt(o.sub("do"), ErrValue, "mutate-result edits a result the ledger returned; add \"ledger\": {} to the scenario"))
	}
	st.Of, _ = d.id(o, "of")
	if d.err == nil && st.Of == nil {
		d.fail(errAt(o.sub("of"), ErrMissing, ""))
	}
	d.sentBy(o, "of", st.Of, st.At)
	st.Set = d.object(o, "set", `{}`)
}

// taskStep reads task-get, task-cancel, checkpoint and finish-task: the
// task an earlier call created, at or after its creation.
func (d *decoder) taskStep(o *object, st *Step) {
	v, ok := d.str(o, "taskId", 256)
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("taskId"), ErrMissing, ""))
	}
	if created, known := d.tasks[v]; d.err == nil && !known {
		d.fail(errAt(o.sub("taskId"), ErrUnknownID, "no earlier call creates task %q", v))
	} else if d.err == nil && st.At < created {
		d.fail(errAt(o.sub("at"), ErrValue, "must be >= %d: task %q is only requested at %d ms", created, v, created))
	}
	st.TaskID = v
	if st.Do == VerbFinishTask {
		st.Result, _ = d.rawJSON(o, "result")
	}
}

// drop reads a listen stream's drop and what its client must refetch.
func (d *decoder) drop(o *object, st *Step) {
	raw, ok := o.get("affected")
	if !ok || d.err != nil {
		return
	}
	if isNull(raw) || json.Unmarshal(raw, &st.Affected) != nil {
		d.fail(errAt(o.sub("affected"), ErrType, "must be an array of strings"))
	} else if len(st.Affected) > MaxAffected {
		d.fail(errAt(o.sub("affected"), ErrLimit, "more than %d ids", MaxAffected))
	} else if len(st.Affected) == 0 {
		st.Affected = nil // [] means what absent means; normalized, it is omitted
	}
}

// send reads a raw message and who puts it on the wire.
func (d *decoder) send(o *object, st *Step) {
	if from, ok := d.str(o, "from", 16); ok {
		if from != SendFromClient && from != SendFromServer {
			d.fail(errAt(o.sub("from"), ErrValue, "must be \"client\" or \"server\""))
		}
		st.From = from
	}
	if st.From == "" {
		st.From = SendFromClient
	}
	st.Message, _ = d.rawJSON(o, "message")
	if d.err == nil && st.Message == nil {
		d.fail(errAt(o.sub("message"), ErrMissing, ""))
	}
}

// progress reads one progress notification's value, total and message.
func (d *decoder) progress(o *object, st *Step) {
	st.Progress, _ = d.number(o, "progress")
	if d.err == nil && st.Progress == nil {
		d.fail(errAt(o.sub("progress"), ErrMissing, ""))
	}
	st.Total, _ = d.number(o, "total")
	if m, ok := d.str(o, "message", MaxTextLen); ok {
		st.Message = quoteJSON(m)
	}
}

// produce reads a stream of count progress values every everyMs; the last
// must come by MaxDurationMs.
func (d *decoder) produce(o *object, st *Step) {
	if v, ok := d.integer(o, "everyMs", 1, MaxDurationMs); ok {
		st.EveryMs = v
	} else if d.err == nil {
		d.fail(errAt(o.sub("everyMs"), ErrMissing, ""))
	}
	if v, ok := d.integer(o, "count", 1, MaxProduceCount); ok {
		st.Count = int(v)
	} else if d.err == nil {
		d.fail(errAt(o.sub("count"), ErrMissing, ""))
	}
	st.FromValue, _ = d.number(o, "fromValue")
	st.Total, _ = d.number(o, "total")
	if d.err == nil && st.At+st.EveryMs*int64(st.Count-1) > MaxDurationMs {
		d.fail(errAt(o.sub("count"), ErrLimit, "the last value would come after %d ms", MaxDurationMs))
	}
}

// failStep reads an error response: a 32-bit code and an optional message.
func (d *decoder) failStep(o *object, st *Step) {
	if c, ok := d.integer(o, "code", math.MinInt32, math.MaxInt32); ok {
		st.Code = &c
	} else if d.err == nil {
		d.fail(errAt(o.sub("code"), ErrMissing, ""))
	}
	if m, ok := d.str(o, "message", MaxTextLen); ok {
		st.Message = quoteJSON(m)
	}
}

// sentBy checks that the request id named by member field was created by an
// earlier call or retry step, at or before at (a step cannot act on a
// request before the client has sent it).
func (d *decoder) sentBy(o *object, field string, id *ID, at int64) {
	if d.err != nil {
		return
	}
	sent, ok := d.known[id.Raw()]
	if !ok {
		sent, ok = d.retried(*id)
	}
	if !ok {
		d.fail(errAt(o.sub(field), ErrUnknownID, "no earlier call has id %s", id))
		return
	}
	if at < sent {
		d.fail(errAt(o.sub("at"), ErrValue, "must be >= %d: request %s is only sent at %d ms", sent, id, sent))
	}
}

// Raced reports whether the JSON-RPC id whose JSON text is raw is one a
// race step's connections send (RaceID of the step's call id, for each of
// its Connections). A race's connections are independent clients of the
// ledger (DOMAIN.md §4), not the scenario's client: the client's
// timeouts do not apply to them, and rule request-has-timeout does not
// judge them. Cost: O(steps + connections).
func (s *Scenario) Raced(raw string) bool {
	if s == nil {
		return false
	}
	for _, st := range s.Steps {
		if st.Do != VerbRace || st.Call == nil || st.Call.ID == nil {
			continue
		}
		for i := range st.Connections {
			if RaceID(*st.Call.ID, i).Raw() == raw {
				return true
			}
		}
	}
	return false
}

// RaceID is the JSON-RPC id of connection i (from 0) of a race whose call
// has id: the id itself for i = 0, then id+i for an integer id, or
// "<id>-<i+1>" for a string id.
func RaceID(id ID, i int) ID {
	if i == 0 {
		return id
	}
	if n, err := strconv.ParseInt(id.Raw(), 10, 64); err == nil {
		return NewIntID(n + int64(i))
	}
	var s string
	_ = json.Unmarshal([]byte(id.Raw()), &s)
	return NewStringID(fmt.Sprintf("%s-%d", s, i+1))
}

// Produced is the k-th of the progress steps (0 <= k < Count) a produce
// step stands for: Count values counting up by one from FromValue (0 when
// absent), one every EveryMs ms from At (ProducedAt), each a "progress"
// step on the same request with the same total. At most MaxProduceCount,
// as Decode bounds Count. One at a time, so that a runner need not hold
// all of them (10,000 steps of a long stream were 4 MB).
func (st *Step) Produced(k int) Step {
	v := float64(k)
	if st.FromValue != nil {
		v += *st.FromValue
	}
	return Step{At: st.ProducedAt(k), Do: VerbProgress, ID: st.ID, Progress: &v, Total: st.Total}
}

// ProducedAt is when the k-th progress step of a produce step is due:
// At + k*EveryMs (ms).
func (st *Step) ProducedAt(k int) int64 { return st.At + int64(k)*st.EveryMs }

// Text is a progress or fail step's message as text (Message holds a JSON
// string), nil when the step has none.
func (st Step) Text() *string {
	if st.Message == nil {
		return nil
	}
	var s string
	_ = json.Unmarshal(st.Message, &s) // Decode checked it is a string
	return &s
}

// SentRaw is what a send step puts on the wire as written (its Message:
// a malformed or unknown cancellation, bad progress), nil for a step of
// another verb. Rules on a side's own conduct leave it out (checks.RawSends).
func (st Step) SentRaw() json.RawMessage {
	if st.Do != VerbSend || len(st.Message) == 0 {
		return nil
	}
	return st.Message
}

// Failure is a fail step's JSON-RPC error: its code, and its message (Text,
// "" when the step gives none). Decode requires the code of a fail step;
// another step has code 0.
func (st Step) Failure() (code int64, message string) {
	if st.Code != nil {
		code = *st.Code
	}
	if t := st.Text(); t != nil {
		message = *t
	}
	return code, message
}

// retried reports whether id is one client.policy.retry may create, the
// string "<orig>-r<n>" (RetryID) of an earlier call orig with 1 <= n <=
// retry.max, and when orig was sent: a step may name a retry before the
// run decides whether it happens (a retry that never happens makes the
// step one that cannot happen).
func (d *decoder) retried(id ID) (int64, bool) {
	p := d.s.Client.Policy.Retry
	var text string
	if p == nil || json.Unmarshal([]byte(id.Raw()), &text) != nil {
		return 0, false
	}
	cut := strings.LastIndex(text, "-r")
	if cut < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(text[cut+2:])
	if err != nil || n < 1 || n > p.Max || RetryID(NewStringID(text[:cut]), n) != id {
		return 0, false
	}
	orig := NewStringID(text[:cut])
	if sent, ok := d.known[orig.Raw()]; ok {
		return sent, true
	}
	if num, err := parseID([]byte(text[:cut])); err == nil {
		sent, ok := d.known[num.Raw()]
		return sent, ok
	}
	return 0, false
}
