package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sentinel errors: every decoding error wraps exactly one of them, so callers
// can tell the category with errors.Is and the place with *Error.Path.
var (
	ErrSyntax       = errors.New("invalid JSON")
	ErrType         = errors.New("wrong type")
	ErrUnknown      = errors.New("unknown field")
	ErrMissing      = errors.New("is required")
	ErrValue        = errors.New("invalid value")
	ErrLimit        = errors.New("past a limit")
	ErrVersion      = errors.New("unsupported version")
	ErrUnknownID    = errors.New("unknown request id")
	ErrBadID        = errors.New("must be a string or an integer")
	errNotAnInteger = errors.New("must be an integer")
)

// Error is a scenario error located by Path, a JavaScript-like path such as
// `steps[3].at` ("" for the whole document). Err wraps one of the sentinel
// errors above.
type Error struct {
	Path string
	Err  error
}

// Error returns "path: reason", or the reason alone for the whole document.
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

// Unwrap returns the cause, so errors.Is(err, ErrValue) works.
func (e *Error) Unwrap() error { return e.Err }

func errAt(path string, sentinel error, format string, args ...any) *Error {
	if format == "" {
		return &Error{Path: path, Err: sentinel}
	}
	return &Error{Path: path, Err: &reason{category: sentinel, text: fmt.Sprintf(format, args...)}}
}

// reason is a located error's text, in the words a reader needs
// ("must be >= 0"), that still matches its sentinel category with errors.Is.
type reason struct {
	category error
	text     string
}

func (r *reason) Error() string { return r.text }
func (r *reason) Unwrap() error { return r.category }

// Verbs lists the step verbs this version understands, with the fields each
// one accepts beyond "at" and "do". A field not listed for a verb is an
// unknown field (a typo must not silently change a lesson).
var Verbs = map[string][]string{
	// client verbs
	"call":        {"id", "method", "name", "arguments", "progressToken", "idleTimeoutMs", "maxTimeoutMs", "sideEffect", "task", "annotations"},
	"task-get":    {"taskId"},
	"task-cancel": {"taskId"},
	"cancel":      {"id", "reason"},
	"retry":       {"id", "of"},
	"send":        {"message", "from"},
	"disconnect":  {"id"},
	"listen":      {"id", "filter"},
	// server verbs
	"progress":      {"id", "progress", "total", "message"},
	"produce":       {"id", "everyMs", "count", "fromValue", "total"},
	"complete":      {"id", "result"},
	"fail":          {"id", "code", "message"},
	"notify":        {"listen", "method", "params"},
	"end-listen":    {"id", "reason"},
	"drop":          {"id", "affected"},
	"race":          {"connections", "call"},
	"reopen-ledger": {},
	"mutate-result": {"of", "set"},
	"checkpoint":    {"taskId"},
	"finish-task":   {"taskId", "result"},
}

// utf8BOM is the UTF-8 byte order mark some editors (Notepad) put first in
// a file; Decode and Canonical skip it, as it is not JSON.
var utf8BOM = []byte("\xef\xbb\xbf")

// Decode parses, validates and normalizes a scenario. The input is
// untrusted: invalid JSON, a wrong type, an unknown field or verb, an id
// used before the step that creates it, a negative time, maxTimeoutMs <
// idleTimeoutMs, or a size past the limits returns an *Error naming the
// place (first error wins); Decode never panics and never returns a partial
// scenario.
func Decode(data []byte) (*Scenario, error) {
	if len(data) > MaxBytes {
		return nil, errAt("", ErrLimit, "scenario is %d bytes, the limit is %d", len(data), MaxBytes)
	}
	if !utf8.Valid(data) {
		return nil, errAt("", ErrSyntax, "not UTF-8 text")
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	var root map[string]json.RawMessage
	if err := strictUnmarshal(data, &root); err != nil {
		return nil, &Error{Err: syntaxErr(data, err)}
	}
	if root == nil {
		return nil, errAt("", ErrType, "a scenario is a JSON object")
	}
	d := &decoder{}
	s := d.scenario(&object{path: "", m: root})
	if d.err != nil {
		return nil, d.err
	}
	return s, nil
}

// strictUnmarshal decodes exactly one JSON value from data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the scenario object")
	}
	return nil
}

func syntaxErr(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(data, se.Offset)
		return fmt.Errorf("%w at line %d, column %d: %s", ErrSyntax, line, col, strings.TrimPrefix(se.Error(), "json: "))
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%w: a scenario is a JSON object, not %s", ErrType, te.Value)
	}
	if errors.Is(err, ErrSyntax) {
		return err
	}
	return fmt.Errorf("%w: %s", ErrSyntax, strings.TrimPrefix(err.Error(), "json: "))
}

func position(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(data) && int64(i) < off-1; i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// object is one JSON object being read, with the members read so far, so
// that what is left over can be reported as unknown.
type object struct {
	path string
	m    map[string]json.RawMessage
	used map[string]bool
}

func (o *object) sub(name string) string {
	if o.path == "" {
		return name
	}
	return o.path + "." + name
}

func (o *object) get(name string) (json.RawMessage, bool) {
	v, ok := o.m[name]
	if ok {
		if o.used == nil {
			o.used = map[string]bool{}
		}
		o.used[name] = true
	}
	return v, ok
}

// decoder keeps the first error; every method is a no-op after it.
type decoder struct{ err error }

func (d *decoder) fail(e *Error) {
	if d.err == nil {
		d.err = e
	}
}

// unknown reports the first (in sorted order) member of o that was not read.
func (d *decoder) unknown(o *object) {
	var names []string
	for k := range o.m {
		if !o.used[k] {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	d.fail(errAt(o.sub(names[0]), ErrUnknown, ""))
}

func (d *decoder) obj(path string, raw json.RawMessage) *object {
	if d.err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &m) != nil || m == nil {
		d.fail(errAt(path, ErrType, "must be an object"))
		return nil
	}
	return &object{path: path, m: m}
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// integer reads member name as an integer in [lo, hi]; ok is false if absent.
func (d *decoder) integer(o *object, name string, lo, hi int64) (v int64, ok bool) {
	raw, ok := o.get(name)
	if !ok || d.err != nil {
		return 0, false
	}
	p := o.sub(name)
	n, err := parseInt(raw)
	if err != nil {
		d.fail(errAt(p, ErrType, "%v", err))
		return 0, false
	}
	if n < lo {
		d.fail(errAt(p, ErrValue, "must be >= %d", lo))
		return 0, false
	}
	if n > hi {
		d.fail(errAt(p, ErrLimit, "must be <= %d", hi))
		return 0, false
	}
	return n, true
}

func parseInt(raw json.RawMessage) (int64, error) {
	s := string(bytes.TrimSpace(raw))
	n, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		return n, nil
	}
	// Accept integral numbers written with an exponent or ".0".
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 && !strings.HasPrefix(s, "\"") {
		return int64(f), nil
	}
	return 0, errNotAnInteger
}

func (d *decoder) number(o *object, name string) (*float64, bool) {
	raw, ok := o.get(name)
	if !ok || d.err != nil {
		return nil, false
	}
	var f float64
	if isNull(raw) || json.Unmarshal(raw, &f) != nil {
		d.fail(errAt(o.sub(name), ErrType, "must be a number"))
		return nil, false
	}
	return &f, true
}

func (d *decoder) str(o *object, name string, maxLen int) (string, bool) {
	raw, ok := o.get(name)
	if !ok || d.err != nil {
		return "", false
	}
	var s string
	if isNull(raw) || json.Unmarshal(raw, &s) != nil {
		d.fail(errAt(o.sub(name), ErrType, "must be a string"))
		return "", false
	}
	if utf8.RuneCountInString(s) > maxLen {
		d.fail(errAt(o.sub(name), ErrLimit, "longer than %d characters", maxLen))
		return "", false
	}
	return s, true
}

func (d *decoder) boolean(o *object, name string) (v, ok bool) {
	raw, ok := o.get(name)
	if !ok || d.err != nil {
		return false, false
	}
	if isNull(raw) || json.Unmarshal(raw, &v) != nil {
		d.fail(errAt(o.sub(name), ErrType, "must be true or false"))
		return false, false
	}
	return v, true
}

func (d *decoder) oneOf(o *object, name string, def string, allowed ...string) string {
	s, ok := d.str(o, name, MaxTextLen)
	if !ok {
		return def
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	d.fail(errAt(o.sub(name), ErrValue, "must be one of %s", quoteList(allowed)))
	return def
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}

func (d *decoder) id(o *object, name string) (*ID, bool) {
	raw, ok := o.get(name)
	if !ok || d.err != nil {
		return nil, false
	}
	v, err := parseID(raw)
	if err != nil {
		d.fail(&Error{Path: o.sub(name), Err: err})
		return nil, false
	}
	return &v, true
}

// parseID accepts a JSON string or integer.
func parseID(raw []byte) (ID, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return ID{}, ErrBadID
		}
		if utf8.RuneCountInString(s) > 256 {
			return ID{}, fmt.Errorf("%w: longer than 256 characters", ErrLimit)
		}
		return NewStringID(s), nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return ID{}, ErrBadID
	}
	return NewIntID(n), nil
}

// rawJSON reads member name as any JSON value, compacted.
func (d *decoder) rawJSON(o *object, name string) (json.RawMessage, bool) {
	raw, ok := o.get(name)
	if !ok || d.err != nil {
		return nil, false
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		d.fail(errAt(o.sub(name), ErrSyntax, ""))
		return nil, false
	}
	return json.RawMessage(b.Bytes()), true
}

func (d *decoder) scenario(root *object) *Scenario {
	s := &Scenario{Mcplab: Version, Protocol: Protocol20260728, Transport: TransportStdio}
	v, ok := d.integer(root, "mcplab", math.MinInt64, math.MaxInt64)
	if d.err == nil && !ok {
		d.fail(errAt("mcplab", ErrMissing, "a scenario starts with \"mcplab\": %d", Version))
	}
	if d.err == nil && v != Version {
		d.fail(errAt("mcplab", ErrVersion, "this lab reads version %d, not %d", Version, v))
	}
	s.Title, _ = d.str(root, "title", MaxTextLen)
	s.Notes, _ = d.str(root, "notes", 4*MaxTextLen)
	s.Protocol = d.oneOf(root, "protocol", Protocol20260728, Protocol20260728, Protocol20251125)
	s.Transport = d.oneOf(root, "transport", TransportStdio, TransportStdio, TransportHTTP)
	if raw, ok := root.get("latencyMs"); ok {
		if o := d.obj("latencyMs", raw); o != nil {
			s.LatencyMs.Up, _ = d.integer(o, "up", 0, MaxDurationMs)
			s.LatencyMs.Down, _ = d.integer(o, "down", 0, MaxDurationMs)
			d.unknown(o)
		}
	}
	d.client(root, s)
	d.server(root, s)
	d.herd(root, s)
	d.flow(root, s)
	d.ledger(root, s)
	d.steps(root, s)
	d.unknown(root)
	if d.err != nil {
		return nil
	}
	return s
}

func (d *decoder) client(root *object, s *Scenario) {
	s.Client.ID = "client-0"
	if s.Transport == TransportHTTP && s.Protocol == Protocol20251125 {
		s.Client.Policy.HTTPCancel = HTTPCancelPostNotification
	} else {
		s.Client.Policy.HTTPCancel = HTTPCancelCloseStream
	}
	raw, ok := root.get("client")
	if !ok {
		return
	}
	o := d.obj("client", raw)
	if o == nil {
		return
	}
	if id, ok := d.str(o, "id", 256); ok {
		if id == "" {
			d.fail(errAt("client.id", ErrValue, "must not be empty"))
		}
		s.Client.ID = id
	}
	s.Client.IdleTimeoutMs, s.Client.MaxTimeoutMs = d.timeouts(o, 0, 0)
	if raw, ok := o.get("policy"); ok {
		if p := d.obj("client.policy", raw); p != nil {
			s.Client.Policy.HTTPCancel = d.oneOf(p, "httpCancel", s.Client.Policy.HTTPCancel, HTTPCancelCloseStream, HTTPCancelPostNotification)
			s.Client.Policy.ProgressResetsMax, _ = d.boolean(p, "progressResetsMax")
			s.Client.Policy.AcceptNonIncreasingProgress, _ = d.boolean(p, "acceptNonIncreasingProgress")
			s.Client.Policy.SendLastEventID, _ = d.boolean(p, "sendLastEventId")
			s.Client.Policy.TreatTaskAckAsFinal, _ = d.boolean(p, "treatTaskAckAsFinal")
			d.unknown(p)
		}
	}
	d.unknown(o)
}

// timeouts reads idleTimeoutMs and maxTimeoutMs from o over the defaults and
// enforces DOMAIN.md §2: idle > 0, max > 0, and max >= idle when both are set.
func (d *decoder) timeouts(o *object, idle, max int64) (int64, int64) {
	if v, ok := d.integer(o, "idleTimeoutMs", 1, MaxDurationMs); ok {
		idle = v
	}
	if v, ok := d.integer(o, "maxTimeoutMs", 1, MaxDurationMs); ok {
		max = v
	}
	if d.err == nil && idle > 0 && max > 0 && max < idle {
		d.fail(errAt(o.sub("maxTimeoutMs"), ErrValue, "must be >= idleTimeoutMs (%d)", idle))
	}
	return idle, max
}

func (d *decoder) server(root *object, s *Scenario) {
	raw, ok := root.get("server")
	if !ok {
		return
	}
	o := d.obj("server", raw)
	if o == nil {
		return
	}
	if raw, ok := o.get("policy"); ok {
		if p := d.obj("server.policy", raw); p != nil {
			s.Server.Policy.RespondAfterCancel, _ = d.boolean(p, "respondAfterCancel")
			if v := d.oneOf(p, "dedupeBy", "idempotency-key", "idempotency-key", "rpc-id", "none"); v != "idempotency-key" {
				s.Server.Policy.DedupeBy = v
			}
			for _, sw := range []struct {
				name string
				dst  **bool
			}{{"atomicLedger", &s.Server.Policy.AtomicLedger}, {"defensiveCopy", &s.Server.Policy.DefensiveCopy}, {"fingerprint", &s.Server.Policy.Fingerprint}} {
				if v, ok := d.boolean(p, sw.name); ok && !v {
					*sw.dst = &v
				}
			}
			d.unknown(p)
		}
	}
	if v, ok := d.boolean(o, "sseHeaders"); ok && !v {
		s.Server.SSEHeaders = &v
	}
	if v, ok := d.integer(o, "pollIntervalMs", 1, MaxDurationMs); ok {
		s.Server.PollIntervalMs = v
	}
	if v, ok := d.integer(o, "keepaliveEveryMs", MinKeepaliveMs, MaxDurationMs); ok {
		if s.Transport != TransportHTTP {
			d.fail(errAt("server.keepaliveEveryMs", ErrValue, "keep-alive comments exist only on streamable-http"))
		}
		s.Server.KeepaliveEveryMs = v
	}
	d.unknown(o)
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
	var items []json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &items) != nil {
		d.fail(errAt("steps", ErrType, "must be an array"))
		return
	}
	if len(items) > MaxSteps {
		d.fail(errAt("steps", ErrLimit, "%d steps, the limit is %d", len(items), MaxSteps))
		return
	}
	s.Steps = make([]Step, 0, len(items))
	known := map[string]int64{}  // request ids created by call or retry so far → when
	listens := map[string]bool{} // request ids that are listen streams
	tasks := map[string]int64{}  // task ids created by calls → when
	for i, item := range items {
		o := d.obj(fmt.Sprintf("steps[%d]", i), item)
		if o == nil {
			return
		}
		st := d.step(o, s, known, listens, tasks)
		if d.err != nil {
			return
		}
		s.Steps = append(s.Steps, st)
	}
}

func (d *decoder) step(o *object, s *Scenario, known map[string]int64, listens map[string]bool, tasks map[string]int64) Step {
	var st Step
	at, ok := d.integer(o, "at", 0, MaxDurationMs)
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("at"), ErrMissing, ""))
	}
	st.At = at
	verb, ok := d.str(o, "do", 64)
	if d.err == nil && !ok {
		d.fail(errAt(o.sub("do"), ErrMissing, ""))
	}
	fields, known0 := Verbs[verb]
	if d.err == nil && !known0 {
		names := make([]string, 0, len(Verbs))
		for k := range Verbs {
			names = append(names, k)
		}
		sort.Strings(names)
		d.fail(errAt(o.sub("do"), ErrValue, "unknown verb %q (known: %s)", verb, strings.Join(names, ", ")))
	}
	if d.err != nil {
		return st
	}
	st.Do = verb
	allowed := map[string]bool{}
	for _, f := range fields {
		allowed[f] = true
	}
	// Members not allowed for this verb are left unread and reported as unknown.
	read := func(name string) bool { return allowed[name] }
	if read("id") {
		st.ID, _ = d.id(o, "id")
		if d.err == nil && st.ID == nil {
			d.fail(errAt(o.sub("id"), ErrMissing, ""))
		}
		if d.err != nil {
			return st
		}
	}
	switch verb {
	case "call":
		if _, dup := known[st.ID.Raw()]; d.err == nil && dup {
			d.fail(errAt(o.sub("id"), ErrValue, "request id %s is already in use", st.ID))
		}
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
			idle, max := s.Client.IdleTimeoutMs, s.Client.MaxTimeoutMs
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
		if _, ok := o.m["annotations"]; ok {
			st.Annotations = d.object(o, "annotations", `{}`)
		}
		if v, ok := d.str(o, "task", 256); ok {
			if v == "" {
				d.fail(errAt(o.sub("task"), ErrValue, "must not be empty"))
			} else if _, dup := tasks[v]; dup {
				d.fail(errAt(o.sub("task"), ErrValue, "task %q is already created by an earlier call", v))
			}
			st.Task = v
			if d.err == nil {
				tasks[v] = st.At
			}
		}
		if d.err == nil {
			known[st.ID.Raw()] = st.At
		}
	case "retry":
		st.Of, _ = d.id(o, "of")
		if d.err == nil && st.Of == nil {
			d.fail(errAt(o.sub("of"), ErrMissing, ""))
		}
		d.sentBy(o, "of", st.Of, st.At, known)
		if _, dup := known[st.ID.Raw()]; d.err == nil && dup {
			d.fail(errAt(o.sub("id"), ErrValue, "request id %s is already in use", st.ID))
		}
		if d.err == nil {
			known[st.ID.Raw()] = st.At
		}
	case "cancel", "end-listen":
		if r, ok := d.str(o, "reason", MaxTextLen); ok {
			st.Reason = &r
		}
	case "listen":
		if _, dup := known[st.ID.Raw()]; d.err == nil && dup {
			d.fail(errAt(o.sub("id"), ErrValue, "request id %s is already in use", st.ID))
		}
		st.Filter = d.object(o, "filter", `{}`)
		if d.err == nil {
			known[st.ID.Raw()] = st.At
			listens[st.ID.Raw()] = true
		}
	case "notify":
		st.Listen, _ = d.id(o, "listen")
		if d.err == nil && st.Listen == nil {
			d.fail(errAt(o.sub("listen"), ErrMissing, ""))
		}
		if d.err == nil {
			d.sentBy(o, "listen", st.Listen, st.At, known)
			if d.err == nil && !listens[st.Listen.Raw()] {
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
	case "race":
		if d.err == nil && s.Ledger == nil {
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
			return st
		}
		co := d.obj(o.sub("call"), raw)
		if co == nil {
			return st
		}
		co.m["at"], co.m["do"] = json.RawMessage(fmt.Sprint(st.At)), json.RawMessage(`"call"`)
		call := d.step(co, s, known, listens, tasks)
		if d.err != nil {
			return st
		}
		// The other connections' requests take the ids after the given one.
		for i := 1; i < st.Connections; i++ {
			id := RaceID(*call.ID, i)
			if _, dup := known[id.Raw()]; dup {
				d.fail(errAt(o.sub("call.id"), ErrValue, "the race's request id %s (connection %d) is already in use", id, i+1))
				return st
			}
			known[id.Raw()] = st.At
		}
		call.At, call.Do = 0, ""
		st.Call = &call
	case "mutate-result":
		st.Of, _ = d.id(o, "of")
		if d.err == nil && st.Of == nil {
			d.fail(errAt(o.sub("of"), ErrMissing, ""))
		}
		d.sentBy(o, "of", st.Of, st.At, known)
		st.Set = d.object(o, "set", `{}`)
	case "reopen-ledger":
		if d.err == nil && s.Ledger == nil {
			d.fail(errAt(o.sub("do"), ErrValue, "there is no ledger to reopen; add \"ledger\": {} to the scenario"))
		}
	case "task-get", "task-cancel", "checkpoint", "finish-task":
		v, ok := d.str(o, "taskId", 256)
		if d.err == nil && !ok {
			d.fail(errAt(o.sub("taskId"), ErrMissing, ""))
		}
		if created, known := tasks[v]; d.err == nil && !known {
			d.fail(errAt(o.sub("taskId"), ErrUnknownID, "no earlier call creates task %q", v))
		} else if d.err == nil && st.At < created {
			d.fail(errAt(o.sub("at"), ErrValue, "must be >= %d: task %q is only requested at %d ms", created, v, created))
		}
		st.TaskID = v
		if verb == "finish-task" {
			st.Result, _ = d.rawJSON(o, "result")
		}
	case "drop":
		if raw, ok := o.get("affected"); ok && d.err == nil {
			if isNull(raw) || json.Unmarshal(raw, &st.Affected) != nil {
				d.fail(errAt(o.sub("affected"), ErrType, "must be an array of strings"))
			} else if len(st.Affected) > 1000 {
				d.fail(errAt(o.sub("affected"), ErrLimit, "more than 1000 ids"))
			} else if len(st.Affected) == 0 {
				st.Affected = nil // [] means what absent means; normalized, it is omitted
			}
		}
	case "send":
		if from, ok := d.str(o, "from", 16); ok {
			if from != "client" && from != "server" {
				d.fail(errAt(o.sub("from"), ErrValue, "must be \"client\" or \"server\""))
			}
			st.From = from
		}
		if st.From == "" {
			st.From = "client"
		}
		st.Message, _ = d.rawJSON(o, "message")
		if d.err == nil && st.Message == nil {
			d.fail(errAt(o.sub("message"), ErrMissing, ""))
		}
	case "disconnect":
		if d.err == nil && s.Transport != TransportHTTP {
			d.fail(errAt(o.sub("do"), ErrValue, "disconnect closes an HTTP stream; this scenario's transport is %s", s.Transport))
		}
	case "progress":
		st.Progress, _ = d.number(o, "progress")
		if d.err == nil && st.Progress == nil {
			d.fail(errAt(o.sub("progress"), ErrMissing, ""))
		}
		st.Total, _ = d.number(o, "total")
		if m, ok := d.str(o, "message", MaxTextLen); ok {
			st.Message, _ = json.Marshal(m)
		}
	case "produce":
		if v, ok := d.integer(o, "everyMs", 1, MaxDurationMs); ok {
			st.EveryMs = v
		} else if d.err == nil {
			d.fail(errAt(o.sub("everyMs"), ErrMissing, ""))
		}
		if v, ok := d.integer(o, "count", 1, 1000); ok {
			st.Count = int(v)
		} else if d.err == nil {
			d.fail(errAt(o.sub("count"), ErrMissing, ""))
		}
		st.FromValue, _ = d.number(o, "fromValue")
		st.Total, _ = d.number(o, "total")
		if d.err == nil && st.At+st.EveryMs*int64(st.Count-1) > MaxDurationMs {
			d.fail(errAt(o.sub("count"), ErrLimit, "the last value would come after %d ms", MaxDurationMs))
		}
	case "complete":
		st.Result, _ = d.rawJSON(o, "result")
	case "fail":
		if c, ok := d.integer(o, "code", math.MinInt32, math.MaxInt32); ok {
			st.Code = &c
		} else if d.err == nil {
			d.fail(errAt(o.sub("code"), ErrMissing, ""))
		}
		if m, ok := d.str(o, "message", MaxTextLen); ok {
			st.Message, _ = json.Marshal(m)
		}
	}
	if st.ID != nil && verb != "call" && verb != "retry" && verb != "listen" {
		d.sentBy(o, "id", st.ID, st.At, known)
	}
	d.unknown(o)
	return st
}

// sentBy checks that the request id named by member field was created by an
// earlier call or retry step, at or before at (a step cannot act on a
// request before the client has sent it).
func (d *decoder) sentBy(o *object, field string, id *ID, at int64, known map[string]int64) {
	if d.err != nil {
		return
	}
	sent, ok := known[id.Raw()]
	if !ok {
		d.fail(errAt(o.sub(field), ErrUnknownID, "no earlier call has id %s", id))
		return
	}
	if at < sent {
		d.fail(errAt(o.sub("at"), ErrValue, "must be >= %d: request %s is only sent at %d ms", sent, id, sent))
	}
}

// object reads member name as a JSON object (compacted), def when absent.
func (d *decoder) object(o *object, name, def string) json.RawMessage {
	v, ok := d.rawJSON(o, name)
	if !ok {
		if d.err != nil {
			return nil
		}
		return json.RawMessage(def)
	}
	if len(v) == 0 || v[0] != '{' {
		d.fail(errAt(o.sub(name), ErrType, "must be an object"))
		return nil
	}
	return v
}

// herd reads the herd experiment with its defaults (SCENARIO.md).
func (d *decoder) herd(root *object, s *Scenario) {
	raw, ok := root.get("herd")
	if !ok || d.err != nil {
		return
	}
	o := d.obj("herd", raw)
	if o == nil {
		return
	}
	h := &Herd{Clients: 10000, Strategy: "reference", BaseMs: 250, CapMs: 8000, ServerCapacityPerSecond: 2000, MaxAttempts: 10, BucketMs: 100}
	if v, ok := d.integer(o, "clients", 1, 100_000); ok {
		h.Clients = int(v)
	}
	h.Strategy = d.oneOf(o, "strategy", h.Strategy, "reference", "none", "full-jitter", "equal-jitter", "decorrelated-jitter")
	if v, ok := d.integer(o, "baseMs", 1, 60_000); ok {
		h.BaseMs = v
	}
	if v, ok := d.integer(o, "capMs", 1, 60_000); ok {
		h.CapMs = v
	}
	if d.err == nil && h.CapMs < h.BaseMs {
		d.fail(errAt("herd.capMs", ErrValue, "must be >= baseMs (%d)", h.BaseMs))
	}
	if v, ok := d.integer(o, "serverCapacityPerSecond", 1, 10_000_000); ok {
		h.ServerCapacityPerSecond = int(v)
	}
	if v, ok := d.integer(o, "maxAttempts", 1, 20); ok {
		h.MaxAttempts = int(v)
	}
	if v, ok := d.integer(o, "bucketMs", 1, 60_000); ok {
		h.BucketMs = v
	}
	h.Compare, _ = d.boolean(o, "compare")
	// Bound the work and the drawing a link can ask for (SCENARIO.md, Bad
	// input): at most a million reconnect draws and MaxHerdBuckets buckets.
	if d.err == nil && int64(h.Clients)*int64(h.MaxAttempts) > MaxHerdDraws {
		d.fail(errAt("herd.maxAttempts", ErrLimit, "clients x maxAttempts must be <= %d (%d clients allow at most %d attempts)", MaxHerdDraws, h.Clients, MaxHerdDraws/int64(h.Clients)))
	}
	if horizon := int64(h.MaxAttempts+1) * h.CapMs; d.err == nil && horizon/h.BucketMs > MaxHerdBuckets {
		d.fail(errAt("herd.bucketMs", ErrLimit, "must be >= %d: this herd spans up to %d ms, drawn in at most %d buckets", (horizon+MaxHerdBuckets-1)/MaxHerdBuckets, horizon, MaxHerdBuckets))
	}
	d.unknown(o)
	s.Herd = h
}

// flow reads proxy, buffer and consumer (Streamable HTTP only).
func (d *decoder) flow(root *object, s *Scenario) {
	for _, name := range []string{"proxy", "buffer", "consumer"} {
		if _, ok := root.m[name]; ok && d.err == nil && s.Transport != TransportHTTP {
			d.fail(errAt(name, ErrValue, "exists only on streamable-http; this scenario's transport is %s", s.Transport))
		}
	}
	if raw, ok := root.get("proxy"); ok && d.err == nil {
		if o := d.obj("proxy", raw); o != nil {
			p := &Proxy{FlushBytes: 4096}
			p.Buffering, _ = d.boolean(o, "buffering")
			if v, ok := d.integer(o, "flushBytes", 1, 1<<30); ok {
				p.FlushBytes = int(v)
			}
			if v, ok := d.integer(o, "idleCloseMs", 0, MaxDurationMs); ok {
				p.IdleCloseMs = v
			}
			if v, ok := d.boolean(o, "honorsNoBuffering"); ok && !v {
				p.HonorsNoBuffering = &v
			}
			d.unknown(o)
			s.Proxy = p
		}
	}
	if raw, ok := root.get("buffer"); ok && d.err == nil {
		if o := d.obj("buffer", raw); o != nil {
			b := &Buffer{Capacity: 3, Policy: "evict-progress"}
			if v, ok := d.integer(o, "capacity", 0, 100_000); ok {
				if v == 1 {
					d.fail(errAt("buffer.capacity", ErrValue, "must be >= 2 (or 0 for unbounded)"))
				}
				b.Capacity = int(v)
			}
			b.Policy = d.oneOf(o, "policy", b.Policy, "evict-progress", "drop-newest")
			d.unknown(o)
			s.Buffer = b
		}
	}
	if raw, ok := root.get("consumer"); ok && d.err == nil {
		if s.Buffer == nil {
			d.fail(errAt("consumer", ErrValue, "needs a buffer: the consumer drains the server's SSE buffer"))
			return
		}
		if o := d.obj("consumer", raw); o != nil {
			c := &Consumer{DrainEveryMs: 100, Batch: 1}
			if v, ok := d.integer(o, "drainEveryMs", 1, MaxDurationMs); ok {
				c.DrainEveryMs = v
			}
			if v, ok := d.integer(o, "batch", 1, 100_000); ok {
				c.Batch = int(v)
			}
			d.unknown(o)
			s.Consumer = c
		}
	}
	if s.Buffer != nil && s.Consumer == nil {
		s.Consumer = &Consumer{DrainEveryMs: 100, Batch: 1}
	}
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

// ledger reads the ledger configuration.
func (d *decoder) ledger(root *object, s *Scenario) {
	raw, ok := root.get("ledger")
	if !ok || d.err != nil {
		return
	}
	o := d.obj("ledger", raw)
	if o == nil {
		return
	}
	l := &Ledger{Replicas: 1, Shared: true}
	if v, ok := d.integer(o, "replicas", 1, 8); ok {
		l.Replicas = int(v)
	}
	if v, ok := d.boolean(o, "shared"); ok {
		l.Shared = v
	}
	d.unknown(o)
	s.Ledger = l
}
