package jsonrpc

import (
	"encoding/json"
	"math"
	"strconv"
)

// The builders write the messages the runner sends most (requests,
// results, notifications, progress, cancellations) byte by byte instead of
// through encoding/json's reflection, which was an eighth of a long
// progress stream's run and four allocations a message. They write
// exactly what json.Marshal writes for the same envelope (members in
// declaration order, omitempty, raw parts compacted with <, >, & and
// U+2028/U+2029 escaped, floats as encoding/json formats them); any part
// they cannot vouch for (raw JSON with whitespace between tokens or a
// character json.Marshal would escape, a string outside printable ASCII,
// a float that is not finite) sends the whole message through
// encoding/json instead (TestBuildersMatchEncodingJSON).

// writer appends one message; ok turns false at the first part it cannot
// write as json.Marshal would.
type writer struct {
	b  []byte
	ok bool
}

func newWriter(size int) writer { return writer{b: make([]byte, 0, size), ok: true} }

// raw appends JSON text that is valid, compact and free of the characters
// json.Marshal escapes in a json.RawMessage.
func (w *writer) raw(raw []byte) {
	inString := false
	for i := 0; i < len(raw) && w.ok; i++ {
		switch c := raw[i]; {
		case c == '<' || c == '>' || c == '&':
			w.ok = false
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8: // U+2028, U+2029
			w.ok = false
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			w.ok = false
		}
	}
	if w.ok && !json.Valid(raw) {
		w.ok = false
	}
	if w.ok {
		w.b = append(w.b, raw...)
	}
}

// str appends s as a JSON string when it is printable ASCII without a
// character json.Marshal escapes (quote, backslash, <, >, &).
func (w *writer) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\\' || c == '"' || c == '<' || c == '>' || c == '&' {
			w.ok = false
			return
		}
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

// float appends f as encoding/json writes a float64: 'f' format, or 'e'
// below 1e-6 or from 1e21 on with a two-digit exponent's leading zero cut.
func (w *writer) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.ok = false
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if n := len(w.b); format == 'e' && n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
		w.b[n-2] = w.b[n-1]
		w.b = w.b[:n-1]
	}
}

// member appends `,"name":`, a member after the first.
func (w *writer) member(name string) {
	w.b = append(w.b, ',', '"')
	w.b = append(w.b, name...)
	w.b = append(w.b, '"', ':')
}

// optionalStr appends the member name with the string s, unless s is nil
// (omitempty).
func (w *writer) optionalStr(name string, s *string) {
	if s != nil {
		w.member(name)
		w.str(*s)
	}
}

// optionalRaw appends the member name with the JSON text raw, unless raw
// is empty (omitempty).
func (w *writer) optionalRaw(name string, raw []byte) {
	if len(raw) > 0 {
		w.member(name)
		w.raw(raw)
	}
}

// head appends an envelope's first members: `{"jsonrpc":"2.0"`, then "id"
// (JSON text) and "method" unless "".
func (w *writer) head(id, method string) {
	w.b = append(w.b, `{"jsonrpc":"2.0"`...)
	if plainID(id) {
		w.member("id")
		w.b = append(w.b, id...)
	} else {
		w.optionalRaw("id", []byte(id))
	}
	if method != "" {
		w.member("method")
		w.str(method)
	}
}

// plainID reports whether id is JSON text raw would append unchanged
// without needing json.Valid to say so: an integer (-?[1-9][0-9]*|0) or a
// string of printable ASCII with no quote, backslash, <, > or &, which is
// what the lab's ids are (scenario.NewIntID, NewStringID). Every message
// with an id passed through json.Valid here, whose fixed cost (a scanner
// from a sync.Pool, a defer) is most of the work for a few bytes and
// costs more under WebAssembly.
func plainID(id string) bool {
	if len(id) >= 2 && id[0] == '"' && id[len(id)-1] == '"' {
		for i := 1; i < len(id)-1; i++ {
			if c := id[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return false
			}
		}
		return true
	}
	digits := id
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 1 && digits[0] == '0' {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// params appends `,"params":{"first":`, the params object up to its first
// member's value.
func (w *writer) params(first string) {
	w.b = append(w.b, `,"params":{"`...)
	w.b = append(w.b, first...)
	w.b = append(w.b, '"', ':')
}

// envelope appends the envelope json.Marshal writes for
// envelope{JSONRPC: "2.0", ID: id, Method: method, Params: params,
// Result: result}.
func (w *writer) envelope(id, method string, params, result json.RawMessage) {
	w.head(id, method)
	w.optionalRaw("params", params)
	w.optionalRaw("result", result)
	w.b = append(w.b, '}')
}

// build returns the message write appends to a writer of size bytes'
// capacity when the writer vouched for every part, else slow(): the same
// message through encoding/json.
func build(size int, write func(w *writer), slow func() json.RawMessage) json.RawMessage {
	w := newWriter(size)
	write(&w)
	if w.ok {
		return w.b
	}
	return slow()
}
