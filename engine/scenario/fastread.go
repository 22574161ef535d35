package scenario

import (
	"bytes"
	"encoding/json"
)

// Decode's fast paths. By the time the decoder reads a member, the whole
// document has passed strictUnmarshal (valid JSON) and checkStructure (no
// name twice in one object), so an object or array can be sliced into its
// members in one pass instead of a json.Unmarshal each (a fifth of a large
// run went to unmarshalling each step into a map). Each returns false for
// what it would read differently from encoding/json (a name or a string
// with an escape), and the caller then takes encoding/json's path.

// fastPaths turns the fast paths on; TestDecodeFastMatchesSlow turns them
// off to compare the two readings.
var fastPaths = true

// fastObject reads the object raw as json.Unmarshal into a
// map[string]json.RawMessage would, as members in document order, or
// returns false. A slice and not a map: an object has a handful of
// members, and under WebAssembly a map costs a software string hash per
// lookup and a random seed per map (see object).
func fastObject(raw []byte) ([]entry, bool) {
	raw = bytes.TrimSpace(raw)
	if !fastPaths || len(raw) < 2 || raw[0] != '{' {
		return nil, false
	}
	m := make([]entry, 0, 8)
	i := skipSpace(raw, 1)
	if raw[i] == '}' {
		return m, true
	}
	for {
		end := skipString(raw, i)
		if end < 0 || bytes.IndexByte(raw[i:end], '\\') >= 0 {
			return nil, false
		}
		key := string(raw[i+1 : end-1])
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		vend := skipValue(raw, i)
		if vend < 0 {
			return nil, false
		}
		m = append(m, entry{name: key, raw: raw[i:vend:vend]})
		i = skipSpace(raw, vend)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == '}' {
			return m, true
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
	}
}

// fastRoot reads a document json.Valid accepts (one value, nothing after
// it) whose value is an object, as strictUnmarshal would, or returns
// false. Its members point into one copy of body, never into the caller's
// bytes.
func fastRoot(body []byte) ([]entry, bool) {
	if !fastPaths || !json.Valid(body) {
		return nil, false
	}
	return fastObject(bytes.Clone(body))
}

// fastArray reads the array raw as json.Unmarshal into a
// []json.RawMessage would, or returns false.
func fastArray(raw []byte) ([]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if !fastPaths || len(raw) < 2 || raw[0] != '[' {
		return nil, false
	}
	items := []json.RawMessage{}
	i := skipSpace(raw, 1)
	if raw[i] == ']' {
		return items, true
	}
	for {
		vend := skipValue(raw, i)
		if vend < 0 {
			return nil, false
		}
		items = append(items, raw[i:vend:vend])
		i = skipSpace(raw, vend)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == ']' {
			return items, true
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
	}
}

// plainString returns the JSON string raw's value when it holds no escape
// (every other byte of a valid string stands for itself), or false.
func plainString(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if !fastPaths || len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return "", false
	}
	return string(raw[1 : len(raw)-1]), true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// htmlSafeASCII reports whether json.Marshal writes s as it is between
// quotes: printable ASCII with no '"', '\\', '<', '>' or '&'.
func htmlSafeASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// quoteJSON is json.Marshal(s): s between quotes when htmlSafeASCII
// (nothing to escape), encoding/json's encoding otherwise.
func quoteJSON(s string) json.RawMessage {
	if htmlSafeASCII(s) {
		b := make([]byte, 0, len(s)+2)
		return append(append(append(b, '"'), s...), '"')
	}
	b, _ := json.Marshal(s) // a string always encodes
	return b
}
