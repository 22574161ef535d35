package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrBadPath is the sentinel of every SetPath error: a malformed path, a path
// that walks into a value of the wrong kind, an array index out of range, or
// a replacement value that is not JSON.
var ErrBadPath = errors.New("bad path")

// SetPath returns a copy of the JSON document data with the member at path
// replaced by value, which must be one JSON value. Path is the same
// JavaScript-like notation that scenario errors use: dot-separated member
// names with [n] array indexes, e.g. `transport`, `latencyMs.up`,
// `steps[2].at` or `client.policy.progressResetsMax`.
//
// Missing objects along the path are created (`client.policy.httpCancel`
// works on a scenario with no "client"); arrays are never created or grown,
// so an index must address an existing element. Every other byte of data is
// kept as it was: member order, formatting and unknown members survive, and
// a new member is appended at the end of its object.
//
// SetPath knows no scenario rules; it edits JSON. Validate the result with
// Decode. Errors are *Error values wrapping ErrBadPath, located at the part
// of the path that failed (`steps[9]: index out of range, steps has 4
// elements`).
//
// It is how the page's controls edit a scenario: each control names its
// path, so no editing logic lives in the browser glue.
func SetPath(data []byte, path string, value json.RawMessage) ([]byte, error) {
	segs, err := parsePath(path)
	if err != nil {
		return nil, err
	}
	if !json.Valid(value) {
		return nil, &Error{Path: path, Err: fmt.Errorf("%w: the new value is not one JSON value", ErrBadPath)}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, value); err != nil {
		return nil, &Error{Path: path, Err: fmt.Errorf("%w: %v", ErrBadPath, err)}
	}
	if !json.Valid(data) {
		return nil, &Error{Err: fmt.Errorf("%w: the document is not valid JSON", ErrSyntax)}
	}
	return setIn(data, segs, 0, compact.Bytes())
}

// DeletePath returns a copy of the JSON document data without the member
// at path (same notation as SetPath), so the scenario falls back to that
// member's default: it is how a control says "none" for an optional
// setting such as client.idleTimeoutMs. A path that does not exist, or
// whose parent objects do not, leaves data unchanged. The object that held
// the member is rewritten compactly; every other byte is kept. Array
// elements cannot be deleted. Errors are *Error values wrapping ErrBadPath.
func DeletePath(data []byte, path string) ([]byte, error) {
	segs, err := parsePath(path)
	if err != nil {
		return nil, err
	}
	if !json.Valid(data) {
		return nil, &Error{Err: fmt.Errorf("%w: the document is not valid JSON", ErrSyntax)}
	}
	if segs[len(segs)-1].index >= 0 {
		return nil, &Error{Path: path, Err: fmt.Errorf("%w: array elements cannot be deleted", ErrBadPath)}
	}
	return deleteIn(data, segs, 0)
}

// deleteIn removes, inside the JSON value doc, the member addressed by
// segs[k:], and returns the new bytes of doc.
func deleteIn(doc []byte, segs []segment, k int) ([]byte, error) {
	seg := segs[k]
	trimmed := bytes.TrimSpace(doc)
	lead := len(doc) - len(bytes.TrimLeft(doc, " \t\r\n"))
	if string(trimmed) == "null" {
		return doc, nil // nothing there to delete
	}
	var start, end int
	if seg.index >= 0 {
		if trimmed[0] != '[' {
			return nil, &Error{Path: parentPath(segs, k), Err: fmt.Errorf("%w: %s is not an array", ErrBadPath, kindOf(trimmed))}
		}
		s, e, _, err := element(trimmed, seg.index)
		if err != nil {
			return nil, &Error{Path: seg.path, Err: fmt.Errorf("%w: %v", ErrBadPath, err)}
		}
		start, end = s, e
	} else {
		if trimmed[0] != '{' {
			return nil, &Error{Path: parentPath(segs, k), Err: fmt.Errorf("%w: %s is not an object", ErrBadPath, kindOf(trimmed))}
		}
		if k == len(segs)-1 {
			obj, err := withoutMember(trimmed, seg.name)
			if err != nil {
				return nil, &Error{Path: seg.path, Err: fmt.Errorf("%w: %v", ErrBadPath, err)}
			}
			out := append([]byte{}, doc[:lead]...)
			out = append(out, obj...)
			return append(out, doc[lead+len(trimmed):]...), nil
		}
		s, e, _, err := member(trimmed, seg.name)
		if err != nil {
			return nil, &Error{Path: seg.path, Err: fmt.Errorf("%w: %v", ErrBadPath, err)}
		}
		start, end = s, e
	}
	if start < 0 {
		return doc, nil // missing: nothing to delete
	}
	repl, err := deleteIn(trimmed[start:end], segs, k+1)
	if err != nil {
		return nil, err
	}
	out := append([]byte{}, doc[:lead+start]...)
	out = append(out, repl...)
	return append(out, doc[lead+end:]...), nil
}

// withoutMember rewrites the JSON object obj compactly without the members
// named name, keeping the others in order with their values' bytes.
func withoutMember(obj []byte, name string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	n := 0
	found := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if key == name {
			found = true
			continue
		}
		if n > 0 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(key)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(raw)
		n++
	}
	if !found {
		return obj, nil
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// segment is one step of a path: a member name, or an array index when
// name is empty and index >= 0.
type segment struct {
	name  string
	index int
	path  string // the path up to and including this segment, for errors
}

// parsePath splits `a.b[2].c` into segments; every name is non-empty and
// every index a non-negative decimal integer.
func parsePath(path string) ([]segment, error) {
	bad := func(reason string) error {
		return &Error{Path: path, Err: fmt.Errorf("%w: %s", ErrBadPath, reason)}
	}
	if path == "" {
		return nil, bad("empty path")
	}
	var segs []segment
	i := 0
	for i < len(path) {
		switch {
		case path[i] == '[':
			end := strings.IndexByte(path[i:], ']')
			if end < 0 {
				return nil, bad("unclosed [")
			}
			digits := path[i+1 : i+end]
			n, err := strconv.Atoi(digits)
			if err != nil || n < 0 || digits == "" || (len(digits) > 1 && digits[0] == '0') || digits[0] == '+' {
				return nil, bad(fmt.Sprintf("index %q is not a non-negative integer", digits))
			}
			i += end + 1
			segs = append(segs, segment{index: n, path: path[:i]})
		default:
			if len(segs) > 0 {
				if path[i] != '.' {
					return nil, bad(fmt.Sprintf("expected . or [ at offset %d", i))
				}
				i++
			}
			start := i
			for i < len(path) && path[i] != '.' && path[i] != '[' && path[i] != ']' {
				i++
			}
			if i == start {
				return nil, bad(fmt.Sprintf("empty member name at offset %d", start))
			}
			segs = append(segs, segment{name: path[start:i], index: -1, path: path[:i]})
		}
	}
	return segs, nil
}

// setIn replaces, inside the JSON value doc, the value addressed by
// segs[k:] with value, and returns the new bytes of doc.
func setIn(doc []byte, segs []segment, k int, value []byte) ([]byte, error) {
	if k == len(segs) {
		return value, nil
	}
	seg := segs[k]
	trimmed := bytes.TrimSpace(doc)
	lead := len(doc) - len(bytes.TrimLeft(doc, " \t\r\n"))
	if seg.index >= 0 {
		if len(trimmed) == 0 || trimmed[0] != '[' {
			return nil, &Error{Path: parentPath(segs, k), Err: fmt.Errorf("%w: %s is not an array", ErrBadPath, kindOf(trimmed))}
		}
		start, end, n, err := element(trimmed, seg.index)
		if err != nil {
			return nil, &Error{Path: seg.path, Err: fmt.Errorf("%w: %v", ErrBadPath, err)}
		}
		if start < 0 {
			return nil, &Error{Path: seg.path, Err: fmt.Errorf("%w: index out of range, %s has %d elements", ErrBadPath, displayPath(parentPath(segs, k)), n)}
		}
		return splice(doc, lead+start, lead+end, trimmed[start:end], segs, k, value)
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		if string(trimmed) == "null" {
			// A null member is replaced by a fresh object.
			return setIn([]byte("{}"), segs, k, value)
		}
		return nil, &Error{Path: parentPath(segs, k), Err: fmt.Errorf("%w: %s is not an object", ErrBadPath, kindOf(trimmed))}
	}
	start, end, members, err := member(trimmed, seg.name)
	if err != nil {
		return nil, &Error{Path: seg.path, Err: fmt.Errorf("%w: %v", ErrBadPath, err)}
	}
	if start >= 0 {
		return splice(doc, lead+start, lead+end, trimmed[start:end], segs, k, value)
	}
	// Append a new member before the closing brace.
	var fresh []byte
	if k+1 < len(segs) && segs[k+1].index >= 0 {
		return nil, &Error{Path: seg.path, Err: fmt.Errorf("%w: no such array", ErrBadPath)}
	}
	fresh, err = setIn([]byte("{}"), segs, k+1, value)
	if err != nil {
		return nil, err
	}
	key, _ := json.Marshal(seg.name)
	closing := lead + len(trimmed) - 1
	var out bytes.Buffer
	out.Write(doc[:closing])
	if members > 0 {
		out.WriteByte(',')
	}
	out.Write(key)
	out.WriteByte(':')
	out.Write(fresh)
	out.Write(doc[closing:])
	return out.Bytes(), nil
}

// splice replaces doc[start:end], whose bytes are old, with old edited at
// segs[k+1:].
func splice(doc []byte, start, end int, old []byte, segs []segment, k int, value []byte) ([]byte, error) {
	repl, err := setIn(old, segs, k+1, value)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(doc)-len(old)+len(repl))
	out = append(out, doc[:start]...)
	out = append(out, repl...)
	out = append(out, doc[end:]...)
	return out, nil
}

// member finds the value of the member named name in the JSON object obj
// and returns its byte range, or start = -1 when there is none, with the
// number of members. A repeated name addresses its last occurrence, the one
// encoding/json keeps.
func member(obj []byte, name string) (start, end, members int, err error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return 0, 0, 0, err
	}
	start = -1
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, 0, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, 0, err
		}
		members++
		if key == name {
			end = int(dec.InputOffset())
			start = end - len(raw)
		}
	}
	return start, end, members, nil
}

// element finds element i of the JSON array arr and returns its byte range,
// or start = -1 when the array is shorter, with the number of elements.
func element(arr []byte, i int) (start, end, n int, err error) {
	dec := json.NewDecoder(bytes.NewReader(arr))
	if _, err := dec.Token(); err != nil { // [
		return 0, 0, 0, err
	}
	start = -1
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if err == io.EOF {
				break
			}
			return 0, 0, 0, err
		}
		if n == i {
			end = int(dec.InputOffset())
			start = end - len(raw)
		}
		n++
	}
	return start, end, n, nil
}

// parentPath is the path of the value that segs[k] steps into.
func parentPath(segs []segment, k int) string {
	if k == 0 {
		return ""
	}
	return segs[k-1].path
}

func displayPath(p string) string {
	if p == "" {
		return "the document"
	}
	return p
}

// kindOf names the kind of the JSON value v for an error message.
func kindOf(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
