package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// Parse's fast path: one pass over a message json.Valid has accepted,
// slicing out the members the lab reads instead of building encoding/json's
// reflection and a map per message (the checks read every message of a
// trace; this was a fifth of a long run). It declines (false) whatever it
// would read differently from encoding/json: input that is not a valid
// object, and member names with escapes at the levels it reads; Parse then
// takes decodeMessage.

// scanMessage reads msg as decodeMessage would, or returns false.
func scanMessage(msg json.RawMessage) (wireMessage, bool) {
	var w wireMessage
	b := trimSpace(msg)
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return w, false
	}
	// One copy for every member kept, as encoding/json's RawMessage makes
	// one per member: the Message never aliases the caller's bytes.
	b = append([]byte(nil), b...)
	ok := members(b, func(key, val []byte) bool {
		switch {
		case bytes.EqualFold(key, []byte("id")):
			w.ID = val
		case bytes.EqualFold(key, []byte("method")):
			w.Method = val
		case bytes.EqualFold(key, []byte("params")):
			w.Params = params{raw: val}
			if val[0] == '{' {
				w.Params.object = true
				return scanParams(&w.Params, val)
			}
		case bytes.EqualFold(key, []byte("result")):
			w.Result = val
		case bytes.EqualFold(key, []byte("error")):
			w.Error = val
		}
		return true
	})
	return w, ok
}

// scanParams reads the members of a params object by exact name, and
// _meta.progressToken into p.meta.
func scanParams(p *params, obj []byte) bool {
	return members(obj, func(key, val []byte) bool {
		switch string(key) {
		case "name":
			p.name = val
		case "arguments":
			p.arguments = val
		case "progressToken":
			p.progressToken = val
		case "progress":
			p.progress = val
		case "total":
			p.total = val
		case "requestId":
			p.requestID = val
		case "reason":
			p.reason = val
		case "_meta":
			p.meta = nil
			if val[0] == '{' {
				return members(val, func(key, val []byte) bool {
					if string(key) == "progressToken" {
						p.meta = val
					}
					return true
				})
			}
		}
		return true
	})
}

// scanError reads error.code and error.message from a valid error object
// (names matched as encoding/json matches struct fields), or returns false.
func scanError(obj []byte) (code, message json.RawMessage, ok bool) {
	ok = members(obj, func(key, val []byte) bool {
		switch {
		case bytes.EqualFold(key, []byte("code")):
			code = val
		case bytes.EqualFold(key, []byte("message")):
			message = val
		}
		return true
	})
	return code, message, ok
}

// members calls f with each member of the valid JSON object obj (its name
// without quotes, its value as written), in order, and returns false as
// soon as a name holds an escape (to be read by encoding/json instead) or
// f returns false.
func members(obj []byte, f func(key, val []byte) bool) bool {
	i := skipSpace(obj, 1)
	if obj[i] == '}' {
		return true
	}
	for {
		end, escaped := stringEnd(obj, i)
		if escaped {
			return false
		}
		key := obj[i+1 : end-1]
		i = skipSpace(obj, end)
		i = skipSpace(obj, i+1) // past ':'
		vend := valueEnd(obj, i)
		if !f(key, obj[i:vend]) {
			return false
		}
		i = skipSpace(obj, vend)
		if obj[i] == '}' {
			return true
		}
		i = skipSpace(obj, i+1) // past ','
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string that starts at b[i]
// (a '"') and whether it holds a backslash escape.
func stringEnd(b []byte, i int) (int, bool) {
	escaped := false
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return len(b), escaped
}

// valueEnd returns the index just past the valid JSON value at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		end, _ := stringEnd(b, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, _ := stringEnd(b, j)
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
		j++
	}
	return j
}
