package jsonrpc

import "unicode/utf8"

// AppendString appends s to dst as a JSON string exactly as encoding/json
// writes it with HTML escaping off (the one string escaper of the traces
// and of the worker's replies): '"' and '\\' escaped, control characters as
// \b \f \n \r \t or \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 as
// \u2028 and \u2029; everything else as it is.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				const hex = "0123456789abcdef"
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', "89"[c&1])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendIndent appends valid JSON src to dst laid out as json.Indent(dst,
// src, "", "  ") lays it out, in one pass (the one indenter of the traces
// and the playground's editor): whitespace between tokens dropped, each
// member and element on its own line indented two spaces a level, empty
// containers kept as "{}" and "[]". depth is the level of the line src
// begins on (a member of a top-level object is at 1). Containers nested
// deeper than maxDepth are written compact on their line, so a document
// nested n deep costs at most maxDepth indents a line, not n. It stops
// and reports false, with what it wrote so far, once dst passes limit
// bytes.
func AppendIndent(dst, src []byte, depth, maxDepth, limit int) ([]byte, bool) {
	out := dst
	newline := func() {
		out = append(out, '\n')
		for range min(depth, maxDepth) {
			out = append(out, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			out = append(out, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			out = append(out, c)
			k := i + 1
			for k < len(src) && isSpace(src[k]) {
				k++
			}
			if k < len(src) && (src[k] == '}' || src[k] == ']') {
				out = append(out, src[k])
				i = k
				break
			}
			if depth++; depth <= maxDepth {
				newline()
			}
		case '}', ']':
			if depth--; depth < maxDepth {
				newline()
			}
			out = append(out, c)
		case ',':
			out = append(out, c)
			if depth <= maxDepth {
				newline()
			}
		case ':':
			out = append(out, c)
			if depth <= maxDepth {
				out = append(out, ' ')
			}
		case ' ', '\t', '\r', '\n':
		default:
			out = append(out, c)
		}
		if len(out) > limit {
			return out, false
		}
	}
	return out, true
}

// isSpace reports whether c is whitespace between JSON tokens.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
