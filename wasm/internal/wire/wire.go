// Package wire writes the engine worker's replies to the page as JSON
// (wasm/protocol's replies): the values the worker's servers build, maps of
// strings, numbers, booleans and lists, whose strings are mostly HTML.
//
// encoding/json writes the same text, but compiled to js/wasm its
// reflection and its per-byte string escaping are 10-15 times slower than
// natively (24 KB of HTML: 1-3.5 ms under Node against 0.2-0.3 ms
// natively), which on a lesson page was most of a frame's budget (issue
// 11: a change within a frame). Append escapes a string by copying the
// runs between the bytes JSON must escape, about 5 times faster there.
package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Append appends v as JSON to b. v is nil, a bool, a string, an int,
// int64 or float64 (finite), a []any, []string or map[string]any of such
// values (map keys in sorted order), or anything else encoding/json
// writes (which it then writes, slower). A string's bytes are written as
// they are but for '"', '\\' and the control characters below 0x20, which
// JSON escapes: text that is not valid UTF-8 stays so, and the page's
// UTF-8 decoder turns each bad sequence into U+FFFD, as encoding/json
// would have. The error is encoding/json's, or a NaN or infinite float.
func Append(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return AppendString(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return b, fmt.Errorf("wire: %v is not a JSON number", v)
		}
		return strconv.AppendFloat(b, v, 'g', -1, 64), nil
	case []string:
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, s)
		}
		return append(b, ']'), nil
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = Append(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(AppendString(b, k), ':')
			var err error
			if b, err = Append(b, v[k]); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, j...), nil
}

// AppendString appends s as a JSON string to b (Append says how).
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
