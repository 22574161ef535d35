package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// utf8BOM is the UTF-8 byte order mark some editors (Notepad) put first in
// a file; Decode and Canonical skip it, as it is not JSON.
var utf8BOM = []byte("\xef\xbb\xbf")

// Decode parses, validates and normalizes a scenario. The input is
// untrusted: invalid JSON, a member name repeated in one object, a value
// nested deeper than MaxDepth, a wrong type, an unknown field or verb, an id
// used before the step that creates it, a negative time, maxTimeoutMs <
// idleTimeoutMs, or a size past the limits returns an *Error naming the
// place, by path and by offset, line and column in data (first error wins);
// Decode never panics and never returns a partial scenario. Its cost is
// linear in len(data), at most MaxBytes.
func Decode(data []byte) (*Scenario, error) {
	if len(data) > MaxBytes {
		return nil, errAt("", ErrLimit, "the scenario is over the limit of %s bytes (1 MiB)", grouped(MaxBytes))
	}
	if !utf8.Valid(data) {
		return nil, errAt("", ErrSyntax, "not UTF-8 text")
	}
	body := bytes.TrimPrefix(data, utf8BOM)
	root, ok := fastRoot(body)
	if !ok {
		var m map[string]json.RawMessage
		if off, err := strictUnmarshal(body, &m); err != nil {
			// A value nested past MaxDepth (64) is refused with that
			// bound where it passes it, not as a syntax error where
			// encoding/json's own limit (10,000 levels) stops it.
			if e := checkStructure(data); e != nil && errors.Is(e, ErrLimit) && e.Offset < len(data)-len(body)+off {
				return nil, e
			}
			return nil, syntaxErr(data, len(data)-len(body)+off, err)
		}
		root = entries(m)
	}
	if e := checkStructure(data); e != nil {
		return nil, e
	}
	if root == nil {
		return nil, errAt("", ErrType, "a scenario is a JSON object")
	}
	d := &decoder{}
	s := d.scenario(&object{path: "", members: root})
	if d.err == nil && s.Explore != nil {
		d.err = checkExplorePaths(body, s.Explore)
	}
	if d.err != nil {
		d.err.locate(data)
		return nil, d.err
	}
	return s, nil
}

// strictUnmarshal decodes exactly one JSON value from data. On an error it
// returns the byte offset in data where the error is, -1 when none.
func strictUnmarshal(data []byte, v any) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return max(int(se.Offset)-1, 0), err
		}
		return -1, err
	}
	// Decoder.More is false before a stray '}' or ']', so look at the bytes.
	if rest := skipWS(data, int(dec.InputOffset())); rest < len(data) {
		return rest, fmt.Errorf("%w: unexpected data after the scenario object", ErrSyntax)
	}
	return -1, nil
}

// syntaxErr turns an encoding/json error at byte off of data (-1: nowhere
// in particular) into a located *Error.
func syntaxErr(data []byte, off int, err error) *Error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &Error{Err: fmt.Errorf("%w: a scenario is a JSON object, not %s", ErrType, te.Value)}
	}
	e := &Error{}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		text, from, to, ok := syntaxReason(data, off, se)
		if !ok {
			text, from, to = strings.TrimPrefix(se.Error(), "json: "), off, min(off+1, len(data))
		}
		return syntaxAt(data, from, to, text)
	case errors.Is(err, ErrSyntax):
		e.Err = err
	case errors.Is(err, io.EOF) && len(bytes.TrimSpace(data)) == 0:
		// An empty editor or file: not "invalid JSON: EOF".
		e.Err = &reason{category: ErrSyntax, text: `the scenario is empty: a scenario is a JSON object that starts with "mcplab": 1`}
		off = -1
	case errors.Is(err, io.ErrUnexpectedEOF):
		// A truncated document (a file cut short, a link pasted in part):
		// located at its end, where the missing part would go, or at the
		// string left open.
		text, from, to := unclosedReason(data)
		return syntaxAt(data, from, to, text)
	default:
		e.Err = fmt.Errorf("%w: %s", ErrSyntax, strings.TrimPrefix(err.Error(), "json: "))
	}
	if off >= 0 && off <= len(data) {
		e.Offset, e.End = off, min(off+1, len(data))
		e.Line, e.Column = lineColumn(data, off)
	}
	return e
}

// syntaxAt is a syntax error about data[from:to], saying text after its
// line and column.
func syntaxAt(data []byte, from, to int, text string) *Error {
	line, col := lineColumn(data, from)
	return &Error{
		Err:    fmt.Errorf("%w at line %d, column %d: %s", ErrSyntax, line, col, text),
		Offset: from, End: to, Line: line, Column: col,
	}
}

// object is one JSON object being read, with the members read so far, so
// that what is left over can be reported as unknown. Its members are a
// slice searched in order, not a map: objects have a handful of members
// (no name twice, checkStructure), and under WebAssembly every map lookup
// hashes its string in software and every new map draws a random seed,
// which made maps 5% of a lesson's run there against 4% natively.
type object struct {
	path    string
	members []entry
}

// entry is one member of an object: its name, its raw value and whether
// the decoder has read it.
type entry struct {
	name string
	raw  json.RawMessage
	used bool
}

// entries turns the map encoding/json's slow path decodes into members
// (in no particular order: get looks them up by name, unknown sorts).
// A nil map (the JSON null) stays nil.
func entries(m map[string]json.RawMessage) []entry {
	if m == nil {
		return nil
	}
	ms := make([]entry, 0, len(m))
	for k, v := range m {
		ms = append(ms, entry{name: k, raw: v})
	}
	return ms
}

// has reports whether o has member name, without marking it read.
func (o *object) has(name string) bool {
	for i := range o.members {
		if o.members[i].name == name {
			return true
		}
	}
	return false
}

// set gives member name the value raw, in place of its own if it has one,
// unread.
func (o *object) set(name string, raw json.RawMessage) {
	for i := range o.members {
		if o.members[i].name == name {
			o.members[i] = entry{name: name, raw: raw}
			return
		}
	}
	o.members = append(o.members, entry{name: name, raw: raw})
}

func (o *object) sub(name string) string {
	if o.path == "" {
		return name
	}
	return o.path + "." + name
}

// get returns member name's raw value and marks it read.
func (o *object) get(name string) (json.RawMessage, bool) {
	for i := range o.members {
		if m := &o.members[i]; m.name == name {
			m.used = true
			return m.raw, true
		}
	}
	return nil, false
}

// decoder keeps the first error; every method is a no-op after it.
type decoder struct {
	err *Error
	s   *Scenario
	// known maps the request ids created so far (call, retry, listen, race)
	// to the time of their step; listens marks those that are listen
	// streams; tasks maps task ids created by calls to their time.
	known   map[string]int64
	listens map[string]bool
	tasks   map[string]int64
}

func (d *decoder) fail(e *Error) {
	if d.err == nil {
		d.err = e
	}
}

// unknown reports the first (in sorted order) member of o that was not read.
func (d *decoder) unknown(o *object) {
	var names []string
	for _, m := range o.members {
		if !m.used {
			names = append(names, m.name)
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
	ms, ok := fastObject(raw)
	if !ok {
		var m map[string]json.RawMessage
		if isNull(raw) || json.Unmarshal(raw, &m) != nil || m == nil {
			d.fail(errAt(path, ErrType, "must be an object"))
			return nil
		}
		ms = entries(m)
	}
	return &object{path: path, members: ms}
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// integer reads member name as an integer in [lo, hi]; ok is false if absent.
// A whole number is one however it is written (1000, 1e3, 1000.0:
// WholeNumber); a fraction (1.5) is ErrType "must be an integer", and a
// whole number out of [lo, hi], even past the int64 range, the bound it
// passed.
func (d *decoder) integer(o *object, name string, lo, hi int64) (v int64, ok bool) {
	raw, ok := o.get(name)
	if !ok || d.err != nil {
		return 0, false
	}
	n, over, err := parseInt(raw)
	if err != nil {
		d.fail(errAt(o.sub(name), ErrType, "%v", err))
		return 0, false
	}
	if n < lo || over < 0 {
		d.fail(errAt(o.sub(name), ErrValue, "must be >= %d", lo))
		return 0, false
	}
	if n > hi || over > 0 {
		d.fail(errAt(o.sub(name), ErrLimit, "must be <= %d", hi))
		return 0, false
	}
	return n, true
}

// parseInt reads raw as a whole number (WholeNumber: 1e3 and 1000.0 are
// 1000), clamped to the int64 range with over +1 or -1 past it, or fails
// with errNotAnInteger.
func parseInt(raw json.RawMessage) (n int64, over int, err error) {
	s := string(bytes.TrimSpace(raw))
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, 0, nil
	}
	if n, over, ok := WholeNumber(s); ok {
		return n, over, nil
	}
	return 0, 0, errNotAnInteger
}

func (d *decoder) number(o *object, name string) (*float64, bool) {
	raw, ok := o.get(name)
	if !ok || d.err != nil {
		return nil, false
	}
	// raw is one valid JSON value (the document passed json.Valid or
	// encoding/json), so ParseFloat accepts exactly the numbers
	// json.Unmarshal into a float64 does (it calls ParseFloat), and fails
	// on what is not a number or is out of the float64 range.
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil {
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
	s, plain := plainString(raw)
	if !plain && (isNull(raw) || json.Unmarshal(raw, &s) != nil) {
		d.fail(errAt(o.sub(name), ErrType, "must be a string"))
		return "", false
	}
	if len(s) > maxLen && utf8.RuneCountInString(s) > maxLen {
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
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	d.fail(errAt(o.sub(name), ErrType, "must be true or false"))
	return false, false
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
	if s, ok := plainString(raw); ok && len(s) <= 256 && htmlSafeASCII(s) {
		return ID{string(raw)}, nil // what NewStringID(s) makes of it
	}
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
	if b.Len() > MaxPayloadBytes {
		d.fail(errAt(o.sub(name), ErrLimit, "%d bytes of JSON, the limit is %d", b.Len(), MaxPayloadBytes))
		return nil, false
	}
	return json.RawMessage(b.Bytes()), true
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
