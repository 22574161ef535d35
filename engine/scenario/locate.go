package scenario

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of any JSON value in a scenario document: at
// most 64 arrays and objects enclose one another, counting the document
// itself (so call arguments may nest about 60 levels). A payload nested
// deeper costs time in every event that carries it and says nothing a
// lesson needs; Decode refuses it in one pass, before anything is read.
const MaxDepth = 64

// Location is a place in a document's text: the byte span of one JSON value
// and the line and column where it starts.
type Location struct {
	// Path is the path located: the one asked for, or, when that names a
	// member or element the text does not have, its nearest ancestor that
	// it has ("" for the whole document).
	Path string
	// Offset and End delimit the value's bytes, data[Offset:End].
	Offset, End int
	// Line and Column are 1-based and say where Offset is; Column counts
	// characters (Unicode code points), not bytes.
	Line, Column int
}

// Locate finds the JSON value that path (the notation of Error.Path and
// SetPath: `steps[3].at`) names in the document data and returns its
// place. When the text lacks that value (a missing member, an index past
// the end, a member Decode filled in), it returns the nearest ancestor that
// exists, with Location.Path saying which. A repeated member name finds its
// last occurrence, the one encoding/json keeps. ok is false only when data
// is not JSON where the walk goes, or path is malformed.
//
// Decode uses it to place every error raised after the syntax is known to
// be good; an editor uses it to select the value a control edits.
func Locate(data []byte, path string) (loc Location, ok bool) {
	var segs []segment
	if path != "" {
		var err error
		if segs, err = parsePath(path); err != nil {
			return Location{}, false
		}
	}
	start := 0
	if bytes.HasPrefix(data, utf8BOM) {
		start = len(utf8BOM)
	}
	v := skipWS(data, start)
	e := skipValue(data, v)
	if e < 0 {
		return Location{}, false
	}
	found := ""
	for _, seg := range segs {
		var cv, ce int
		if seg.index >= 0 {
			cv, ce = elementSpan(data, v, seg.index)
		} else {
			cv, ce = memberSpan(data, v, seg.name)
		}
		if cv < 0 {
			break
		}
		v, e, found = cv, ce, seg.path
	}
	line, col := lineColumn(data, v)
	return Location{Path: found, Offset: v, End: e, Line: line, Column: col}, true
}

// memberSpan returns the span of the value of member name (its last
// occurrence) in the object starting at data[v], or -1, -1.
func memberSpan(data []byte, v int, name string) (int, int) {
	if v >= len(data) || data[v] != '{' {
		return -1, -1
	}
	fs, fe := -1, -1
	i := skipWS(data, v+1)
	for i < len(data) && data[i] != '}' {
		if data[i] == ',' {
			i = skipWS(data, i+1)
			continue
		}
		ke := skipString(data, i)
		if ke < 0 {
			return -1, -1
		}
		key := unquote(data[i:ke])
		i = skipWS(data, ke)
		if i >= len(data) || data[i] != ':' {
			return -1, -1
		}
		vs := skipWS(data, i+1)
		ve := skipValue(data, vs)
		if ve < 0 {
			return -1, -1
		}
		if key == name {
			fs, fe = vs, ve
		}
		i = skipWS(data, ve)
	}
	return fs, fe
}

// elementSpan returns the span of element n of the array starting at
// data[v], or -1, -1.
func elementSpan(data []byte, v int, n int) (int, int) {
	if v >= len(data) || data[v] != '[' {
		return -1, -1
	}
	i := skipWS(data, v+1)
	for k := 0; i < len(data) && data[i] != ']'; {
		if data[i] == ',' {
			i = skipWS(data, i+1)
			continue
		}
		e := skipValue(data, i)
		if e < 0 {
			return -1, -1
		}
		if k == n {
			return i, e
		}
		k++
		i = skipWS(data, e)
	}
	return -1, -1
}

func skipWS(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the offset just past the JSON string starting at
// data[i], or -1 when there is none.
func skipString(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the offset just past the JSON value starting at data[i],
// or -1 when the text is not a value there. It counts brackets rather than
// recursing, so depth costs nothing.
func skipValue(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch c := data[i]; c {
		case '"':
			i = skipString(data, i)
			if i < 0 {
				return -1
			}
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			if depth < 0 {
				return -1
			}
			i++
		case ',', ':', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return -1
			}
			i++
		default:
			for i < len(data) && !isDelim(data[i]) {
				i++
			}
		}
		if depth == 0 {
			return i
		}
	}
	return -1
}

func isDelim(c byte) bool {
	switch c {
	case ',', ':', '{', '}', '[', ']', '"', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// unquote returns the text of the JSON string literal q, undoing escapes
// only when there are some.
func unquote(q []byte) string {
	if bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1])
	}
	var s string
	if json.Unmarshal(q, &s) != nil {
		return string(q)
	}
	return s
}

// lineColumn returns the 1-based line and column (in characters) of byte
// offset off in data.
func lineColumn(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, 1 + utf8.RuneCount(before)
}

// frame is one open array or object of checkStructure's walk.
type frame struct {
	object  bool
	wantKey bool   // an object expecting a member name next
	key     []byte // the current member's name, unquoted
	index   int    // the current element's index
	first   int    // where the object's names start in checkStructure's names
	set     map[string]bool
}

// seen records name in the object f, whose names so far are
// (*names)[f.first:] (or f.set once there are more than 16), and reports
// whether it was already there. The names are slices of the document, not
// copies: a lesson's scenario has a hundred of them, and under WebAssembly
// each allocation costs ten times what it does natively.
func (f *frame) seen(names *[][]byte, name []byte) bool {
	if f.set != nil {
		if f.set[string(name)] {
			return true
		}
		f.set[string(name)] = true
		return false
	}
	for _, k := range (*names)[f.first:] {
		if bytes.Equal(k, name) {
			return true
		}
	}
	*names = append(*names, name)
	if len(*names)-f.first > 16 {
		f.set = make(map[string]bool, 2*(len(*names)-f.first))
		for _, k := range (*names)[f.first:] {
			f.set[string(k)] = true
		}
		*names = (*names)[:f.first]
	}
	return false
}

// CheckStructure applies the scenario decoder's structural bounds to any
// valid JSON text data (a transcript's messages use it too): it returns a
// located *Error (Path inside data, Line and Column within data) for the
// first value nested deeper than MaxDepth (64, ErrLimit) or the first
// member name repeated in its object (ErrDuplicate), or nil. It does not
// check the syntax: on text that is not JSON it may return nil.
func CheckStructure(data []byte) error {
	if err := checkStructure(data); err != nil {
		return err
	}
	return nil
}

// checkStructure walks the valid JSON document data once and returns a
// located error for the first value nested deeper than MaxDepth (ErrLimit)
// or the first member name repeated in its object (ErrDuplicate), or nil.
// encoding/json would keep the last of two equal names; a scenario with two
// is ambiguous to anyone reading it, so it is refused, at any depth.
func checkStructure(data []byte) *Error {
	stack := make([]frame, 0, 8)
	names := make([][]byte, 0, 32)
	for i := 0; i < len(data); {
		switch data[i] {
		case '{', '[':
			if len(stack) == MaxDepth {
				return located(data, stackPath(stack), i, errAt("", ErrLimit, "nested deeper than %d arrays and objects", MaxDepth).Err)
			}
			stack = append(stack, frame{object: data[i] == '{', wantKey: data[i] == '{', first: len(names)})
			i++
		case '}', ']':
			if len(stack) == 0 {
				return nil // not JSON: Decode checks the syntax first
			}
			names = names[:stack[len(stack)-1].first]
			stack = stack[:len(stack)-1]
			i++
		case ',':
			if len(stack) == 0 {
				return nil
			}
			if top := &stack[len(stack)-1]; top.object {
				top.wantKey = true
			} else {
				top.index++
			}
			i++
		case '"':
			e := skipString(data, i)
			if e < 0 {
				return nil
			}
			if top := len(stack) - 1; top >= 0 && stack[top].wantKey {
				f := &stack[top]
				f.wantKey = false
				if f.key = data[i+1 : e-1]; bytes.IndexByte(f.key, '\\') >= 0 {
					f.key = []byte(unquote(data[i:e]))
				}
				if f.seen(&names, f.key) {
					return located(data, stackPath(stack), i, errAt("", ErrDuplicate, "the member %s appears twice in one object", strconv.Quote(string(f.key))).Err)
				}
			}
			i = e
		default:
			i++
		}
	}
	return nil
}

// stackPath is the path of the value checkStructure is at.
func stackPath(stack []frame) string {
	var b []byte
	for _, f := range stack {
		if f.object {
			if len(b) > 0 {
				b = append(b, '.')
			}
			b = append(b, f.key...)
		} else {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(f.index), 10)
			b = append(b, ']')
		}
	}
	return string(b)
}

// located returns an *Error at path whose place is byte offset off of data.
func located(data []byte, path string, off int, err error) *Error {
	line, col := lineColumn(data, off)
	return &Error{Path: path, Err: err, Offset: off, End: off + 1, Line: line, Column: col}
}
