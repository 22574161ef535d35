package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
)

// ErrTooLarge is the category of a run or an encoding past the engine's
// bounds on events or trace bytes (engine.MaxEvents, engine.MaxTraceBytes).
var ErrTooLarge = errors.New("trace too large")

// Encode returns the canonical JSON encoding of tr (two-space indent,
// trailing newline, HTML characters not escaped: the bytes of the golden
// traces, which are json.Indent(json.Encoder(SetEscapeHTML(false))) of
// tr). It fails with ErrTooLarge, and returns no bytes, when the encoding
// would exceed limit bytes.
//
// It writes the indented form in one pass: the members that grow with a
// run (events, requests, checks) by hand, field by field in declaration
// order with encoding/json's omitempty, string escaping and RawMessage
// compaction; the rest (scenario, ledger, tasks, buffers, reconnects,
// herd, source) through encoding/json, compact, then laid out at their
// depth by indentAt. encoding/json's reflection and a second, indenting
// pass over the whole trace were 40% of a run with thousands of events
// (TestEncodeMatchesEncodingJSON proves the bytes equal).
func Encode(tr *Trace, limit int) ([]byte, error) {
	w := newWriter(tr, limit)
	w.trace(tr)
	if w.err != nil {
		return nil, w.err
	}
	return w.out, nil
}

func tooLarge(n, limit int) error {
	return fmt.Errorf("%w: the trace is more than %d bytes (at least %d); shorten the scenario or its payloads", ErrTooLarge, limit, n)
}

// writer appends the indented trace to out; the first error (a value
// encoding/json refuses, or out passing limit) stops it.
type writer struct {
	out     []byte
	limit   int
	err     error
	scratch bytes.Buffer
	enc     *json.Encoder // compact, HTML not escaped, into scratch
	// scenario is tr.Scenario encoded compact before out is sized (a
	// scenario of thousands of steps is a tenth of its trace), scenarioErr
	// encoding/json's error for it.
	scenario    []byte
	scenarioErr error
	// evs are the trace's events; written[wire] is where the message of
	// the first event on that wire number went in out, so that its
	// delivery copies those bytes (nil when the wire numbers are not the
	// dense 1, 2, ... the engine and the importer write: every message is
	// then laid out where it occurs, the same bytes).
	evs     []Event
	written []span
}

// span is a message written: by event evs[ev], at out[start:end] (end 0:
// none yet).
type span struct{ ev, start, end int32 }

func newWriter(tr *Trace, limit int) *writer {
	w := &writer{limit: limit}
	w.enc = json.NewEncoder(&w.scratch)
	w.enc.SetEscapeHTML(false)
	if w.scenarioErr = w.enc.Encode(tr.Scenario); w.scenarioErr == nil {
		w.scenario = bytes.Clone(w.scratch.Bytes()) // ends with Encode's newline
	}
	// The scenario indented is about twice its compact length (as a message).
	size := 1024 + 2*len(w.scenario) + 512*len(tr.Requests) + 256*len(tr.Checks)
	maxWire := 0
	for i := range tr.Events {
		size += eventSize(&tr.Events[i])
		maxWire = max(maxWire, tr.Events[i].Wire)
	}
	w.out, w.evs = make([]byte, 0, min(size, limit+1)), tr.Events
	if maxWire > 0 && maxWire <= 2*len(tr.Events) && limit <= math.MaxInt32 {
		w.written = make([]span, maxWire+1)
	}
	return w
}

// eventSize is about the bytes event writes for e, so that the output is
// one allocation without one much larger than needed (a fixed 300 bytes an
// event was 30% over for a long progress stream, 3 MB of 11 to zero):
// every member set is a line of 12 bytes besides its name and value
// (newline, six spaces, quotes, ": ", comma), strings counted unescaped,
// numbers as 8 digits, and a message twice its length (indented, the
// golden traces' messages are 1.6 to 2.6 times their compact length, 1.8
// overall).
func eventSize(e *Event) int {
	const line, num = 12, 8
	n := 14 + 4*line + len("seqatactortype") + 2*num + 4 + len(e.Actor) + len(e.Type)
	str := func(name, v string) {
		if v != "" {
			n += line + len(name) + 2 + len(v)
		}
	}
	if e.ID != nil {
		n += line + 2 + len(e.ID.Raw())
	}
	str("taskId", e.TaskID)
	str("from", string(e.From))
	str("to", string(e.To))
	if e.Wire != 0 {
		n += line + 4 + num
	}
	str("eventId", e.EventID)
	if e.SentAt != nil {
		n += line + 6 + num
	}
	str("signal", e.Signal)
	str("status", e.Status)
	str("cause", e.Cause)
	for k, v := range e.Headers {
		n += 2*line + len(k) + len(v)
	}
	if len(e.Message) > 0 {
		n += line + 7 + 2*len(e.Message)
	}
	str("key", e.Key)
	str("fingerprint", e.Fingerprint)
	str("note", e.Note)
	if e.Within != nil {
		n += 4*line + 2*num
	}
	str("session", e.Session)
	if e.Line != 0 {
		n += line + 4 + num
	}
	str("resource", e.Resource)
	if e.Step != nil {
		n += line + 4 + num
	}
	return n
}

// blanks are the spaces newline copies from, 64 at a time.
const blanks = "                                                                "

// newline ends the line and indents the next one at depth.
func (w *writer) newline(depth int) { w.out = appendNewline(w.out, depth) }

// appendNewline appends a newline and 2*depth spaces.
func appendNewline(out []byte, depth int) []byte {
	out = append(out, '\n')
	for n := 2 * depth; n > 0; n -= len(blanks) {
		out = append(out, blanks[:min(n, len(blanks))]...)
	}
	return out
}

// check records ErrTooLarge once out has passed the limit.
func (w *writer) check() bool {
	if w.err == nil && len(w.out) > w.limit {
		w.err = tooLarge(len(w.out), w.limit)
	}
	return w.err == nil
}

// object writes one JSON object or array whose opening bracket sits on a
// line indented at depth: begin, then member (or elem) before each value,
// then end.
type object struct {
	w     *writer
	depth int
	n     int
}

func (w *writer) begin(depth int, open byte) object {
	w.out = append(w.out, open)
	return object{w: w, depth: depth}
}

// member starts the member named name (a plain ASCII key).
func (o *object) member(name string) {
	o.elem()
	o.w.out = append(o.w.out, '"')
	o.w.out = append(o.w.out, name...)
	o.w.out = append(o.w.out, '"', ':', ' ')
}

// elem starts the next element of an array (or member of an object).
func (o *object) elem() {
	if o.n > 0 {
		o.w.out = append(o.w.out, ',')
	}
	o.n++
	o.w.newline(o.depth + 1)
}

func (o *object) end(close byte) {
	if o.n > 0 {
		o.w.newline(o.depth)
	}
	o.w.out = append(o.w.out, close)
}

func (w *writer) str(s string) { w.out = jsonrpc.AppendString(w.out, s) }

func (w *writer) int(n int64) { w.out = strconv.AppendInt(w.out, n, 10) }

func (w *writer) id(id scenario.ID) {
	// An ID's JSON is compact already (json.Marshal's, via NewIntID and
	// NewStringID); ID.MarshalJSON writes null for the zero ID.
	if id.IsZero() {
		w.out = append(w.out, "null"...)
		return
	}
	w.out = append(w.out, id.Raw()...)
}

// raw writes a json.RawMessage as encoding/json does (null when nil,
// compacted, HTML not escaped), laid out at depth.
func (w *writer) raw(m json.RawMessage, depth int) {
	if m == nil {
		w.out = append(w.out, "null"...)
		return
	}
	if !json.Valid(m) {
		w.scratch.Reset()
		w.fail(json.Compact(&w.scratch, m)) // encoding/json's error for it
		return
	}
	w.indented(m, depth)
}

// message writes event i's message at depth 3. A message's send and its
// delivery (or drop) share one wire number and one backing array: the
// second is a copy of the bytes the first wrote, not a second validation
// and layout.
func (w *writer) message(i int) {
	e := &w.evs[i]
	m := e.Message
	var at *span
	if e.Wire > 0 && e.Wire < len(w.written) {
		at = &w.written[e.Wire]
		if prev := w.evs[at.ev].Message; at.end > 0 && len(prev) == len(m) && &prev[0] == &m[0] {
			w.out = append(w.out, w.out[at.start:at.end]...)
			return
		}
	}
	start := len(w.out)
	w.raw(m, 3)
	if at != nil && at.end == 0 && w.err == nil {
		*at = span{int32(i), int32(start), int32(len(w.out))}
	}
}

// value writes v through encoding/json, laid out at depth.
func (w *writer) value(v any, depth int) {
	w.scratch.Reset()
	if err := w.enc.Encode(v); err != nil {
		w.fail(err)
		return
	}
	b := w.scratch.Bytes()
	w.indented(b[:len(b)-1], depth) // Encode ends the value with a newline
}

func (w *writer) indented(compact []byte, depth int) {
	if w.err != nil {
		return
	}
	w.out, w.err = indentAt(w.out, compact, depth, w.limit)
	if w.err != nil {
		w.out = nil
	}
}

func (w *writer) fail(err error) {
	if w.err == nil {
		w.err = fmt.Errorf("encoding trace: %w", err)
	}
}

func (w *writer) trace(tr *Trace) {
	o := w.begin(0, '{')
	o.member("mcplab")
	w.int(int64(tr.Mcplab))
	o.member("scenario")
	if w.scenarioErr != nil {
		w.fail(w.scenarioErr)
	} else {
		w.indented(w.scenario[:len(w.scenario)-1], 1)
	}
	o.member("events")
	w.events(tr.Events)
	o.member("requests")
	w.requests(tr.Requests)
	o.member("ledger")
	w.value(&tr.Ledger, 1)
	o.member("tasks")
	w.value(tr.Tasks, 1)
	o.member("buffers")
	w.value(tr.Buffers, 1)
	o.member("reconnects")
	w.value(tr.Reconnects, 1)
	o.member("herd")
	w.value(tr.Herd, 1)
	if len(tr.HerdCompare) > 0 {
		o.member("herdCompare")
		w.value(tr.HerdCompare, 1)
	}
	o.member("checks")
	w.checks(tr.Checks)
	o.member("endMs")
	w.int(tr.EndMs)
	if tr.Source != nil {
		o.member("source")
		w.value(tr.Source, 1)
	}
	if len(tr.Skipped) > 0 {
		o.member("skipped")
		w.value(tr.Skipped, 1)
	}
	o.end('}')
	w.out = append(w.out, '\n')
	w.check()
}

// events writes tr.Events at depth 1 (a member of the trace).
func (w *writer) events(events []Event) {
	if events == nil {
		w.out = append(w.out, "null"...)
		return
	}
	a := w.begin(1, '[')
	for i := range events {
		if !w.check() {
			return
		}
		a.elem()
		w.event(&events[i], i)
	}
	a.end(']')
}

// event writes one event at depth 2, its members at 3.
func (w *writer) event(e *Event, i int) {
	o := w.begin(2, '{')
	o.member("seq")
	w.int(int64(e.Seq))
	o.member("at")
	w.int(e.At)
	o.member("actor")
	w.str(string(e.Actor))
	o.member("type")
	w.str(string(e.Type))
	if e.ID != nil {
		o.member("id")
		w.id(*e.ID)
	}
	w.omitEmpty(&o, "taskId", e.TaskID)
	w.omitEmpty(&o, "from", string(e.From))
	w.omitEmpty(&o, "to", string(e.To))
	if e.Wire != 0 {
		o.member("wire")
		w.int(int64(e.Wire))
	}
	w.omitEmpty(&o, "eventId", e.EventID)
	if e.SentAt != nil {
		o.member("sentAt")
		w.int(*e.SentAt)
	}
	w.omitEmpty(&o, "signal", e.Signal)
	w.omitEmpty(&o, "status", e.Status)
	w.omitEmpty(&o, "cause", e.Cause)
	w.omitEmpty(&o, "restarts", e.Restarts)
	w.omitEmpty(&o, "httpMethod", e.HTTPMethod)
	if len(e.Headers) > 0 {
		o.member("headers")
		w.headers(e.Headers)
	}
	if len(e.Message) > 0 {
		o.member("message")
		w.message(i)
	}
	w.omitEmpty(&o, "key", e.Key)
	w.omitEmpty(&o, "fingerprint", e.Fingerprint)
	w.omitEmpty(&o, "note", e.Note)
	if e.Within != nil {
		o.member("within")
		span := w.begin(3, '{')
		span.member("from")
		w.int(e.Within.From)
		span.member("to")
		w.int(e.Within.To)
		span.end('}')
	}
	w.omitEmpty(&o, "session", e.Session)
	if e.Line != 0 {
		o.member("line")
		w.int(int64(e.Line))
	}
	w.omitEmpty(&o, "resource", e.Resource)
	if e.Step != nil {
		o.member("step")
		w.int(int64(*e.Step))
	}
	o.end('}')
}

// headers writes an event's headers at depth 3, keys sorted as
// encoding/json sorts a map's.
func (w *writer) headers(h map[string]string) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	o := w.begin(3, '{')
	for _, k := range keys {
		o.elem()
		w.str(k)
		w.out = append(w.out, ':', ' ')
		w.str(h[k])
	}
	o.end('}')
}

func (w *writer) omitEmpty(o *object, name, s string) {
	if s != "" {
		o.member(name)
		w.str(s)
	}
}

func (w *writer) nullable(s *string) {
	if s == nil {
		w.out = append(w.out, "null"...)
		return
	}
	w.str(*s)
}

// requests writes tr.Requests at depth 1.
func (w *writer) requests(reqs []Request) {
	if reqs == nil {
		w.out = append(w.out, "null"...)
		return
	}
	a := w.begin(1, '[')
	for i := range reqs {
		if !w.check() {
			return
		}
		a.elem()
		w.request(&reqs[i])
	}
	a.end(']')
}

func (w *writer) request(r *Request) {
	o := w.begin(2, '{')
	o.member("id")
	w.id(r.ID)
	o.member("method")
	w.str(r.Method)
	w.omitEmpty(&o, "name", r.Name)
	o.member("state")
	w.str(r.State)
	o.member("cause")
	w.nullable(r.Cause)
	o.member("reason")
	w.nullable(r.Reason)
	o.member("signal")
	w.nullable(r.Signal)
	o.member("response")
	w.raw(r.Response, 3)
	o.member("clientOutcome")
	w.str(r.ClientOutcome)
	o.member("retryClass")
	w.str(r.RetryClass)
	o.member("sentAt")
	w.int(r.SentAt)
	o.member("endedAt")
	if r.EndedAt == nil {
		w.out = append(w.out, "null"...)
	} else {
		w.int(*r.EndedAt)
	}
	if len(r.Hints) > 0 {
		o.member("hints")
		w.raw(r.Hints, 3)
	}
	if r.RetryOf != nil {
		o.member("retryOf")
		w.id(*r.RetryOf)
	}
	if r.IdleTimeoutMs != 0 {
		o.member("idleTimeoutMs")
		w.int(r.IdleTimeoutMs)
	}
	if r.MaxTimeoutMs != 0 {
		o.member("maxTimeoutMs")
		w.int(r.MaxTimeoutMs)
	}
	if r.WastedWorkMs != 0 {
		o.member("wastedWorkMs")
		w.int(r.WastedWorkMs)
	}
	o.member("outcome")
	w.str(string(r.Outcome))
	o.member("clientStates")
	w.states(r.ClientStates)
	o.member("serverStates")
	w.states(r.ServerStates)
	o.end('}')
}

// states writes a request's state changes at depth 3, each at 4.
func (w *writer) states(changes []StateChange) {
	if changes == nil {
		w.out = append(w.out, "null"...)
		return
	}
	a := w.begin(3, '[')
	for _, c := range changes {
		a.elem()
		o := w.begin(4, '{')
		o.member("at")
		w.int(c.At)
		o.member("state")
		w.str(c.State)
		o.end('}')
	}
	a.end(']')
}

// checks writes tr.Checks at depth 1.
func (w *writer) checks(checks []Check) {
	if checks == nil {
		w.out = append(w.out, "null"...)
		return
	}
	a := w.begin(1, '[')
	for i := range checks {
		if !w.check() {
			return
		}
		c := &checks[i]
		a.elem()
		o := w.begin(2, '{')
		o.member("rule")
		w.str(string(c.Rule))
		o.member("ok")
		switch {
		case c.OK == nil:
			w.out = append(w.out, "null"...)
		case *c.OK:
			w.out = append(w.out, "true"...)
		default:
			w.out = append(w.out, "false"...)
		}
		o.member("detail")
		w.str(c.Detail)
		if len(c.Events) > 0 {
			o.member("events")
			e := w.begin(3, '[')
			for _, seq := range c.Events {
				e.elem()
				w.int(int64(seq))
			}
			e.end(']')
		}
		o.end('}')
	}
	a.end(']')
}

// indent lays out valid JSON with two-space indentation, exactly as
// json.Indent(dst, src, "", "  ") does; it fails with ErrTooLarge once the
// output passes limit bytes.
func indent(src []byte, limit int) ([]byte, error) {
	return indentAt(make([]byte, 0, min(2*len(src), limit+1)), src, 0, limit)
}

// indentAt appends valid JSON src to dst laid out as json.Indent would lay
// it out at depth (jsonrpc.AppendIndent), and fails with ErrTooLarge, and
// no bytes, once dst passes limit bytes.
func indentAt(dst, src []byte, depth, limit int) ([]byte, error) {
	out, ok := jsonrpc.AppendIndent(dst, src, depth, math.MaxInt, limit)
	if !ok {
		return nil, tooLarge(len(out), limit)
	}
	return out, nil
}
