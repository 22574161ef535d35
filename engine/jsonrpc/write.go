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

// member appends `,"name":` (or without the comma as an object's first).
func (w *writer) member(first bool, name string) {
	if !first {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, name...)
	w.b = append(w.b, '"', ':')
}

// envelope writes the envelope json.Marshal writes for
// envelope{JSONRPC: "2.0", ID: id, Method: method, Params: params,
// Result: result}, or reports false.
func writeEnvelope(id, method string, params, result json.RawMessage) (json.RawMessage, bool) {
	w := newWriter(32 + len(id) + len(method) + len(params) + len(result))
	w.b = append(w.b, `{"jsonrpc":"2.0"`...)
	if id != "" {
		w.member(false, "id")
		w.raw([]byte(id))
	}
	if method != "" {
		w.member(false, "method")
		w.str(method)
	}
	if len(params) > 0 {
		w.member(false, "params")
		w.raw(params)
	}
	if len(result) > 0 {
		w.member(false, "result")
		w.raw(result)
	}
	w.b = append(w.b, '}')
	return w.b, w.ok
}
