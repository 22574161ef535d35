package scenario

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A JSON syntax error in a person's words, placed where the fix goes
// (SCENARIO.md, Bad input: an error names where it is). encoding/json
// reports the byte where its scanner stops, which for a missing comma is
// the next member's quote, often on the next line, in its own words
// ("invalid character '"' after object key:value pair"). syntaxReason
// reads the context around that byte and says what is wrong and where:
//
//   - a missing comma: at the end of the value it should follow, "a comma
//     is missing after "at": 420";
//   - a comma before a closing } or ]: at the comma;
//   - a missing colon: at the member name;
//   - a member name not in double quotes, a missing value, a string not
//     closed before its line ends, a bad escape or literal: where it is;
//   - a document that ends inside a string: at the string's opening quote;
//     inside objects or lists: at the end, naming the bracket left open.

// snippetRunes is the most characters of the document an explanation
// quotes (the text before a missing comma, an unclosed string's start).
const snippetRunes = 40

// syntaxReason explains the encoding/json syntax error se, whose
// offending byte is data[off], and returns the span [from, to) of data it
// is about; ok is false for an error it has no words for, which keeps
// encoding/json's.
func syntaxReason(data []byte, off int, se *json.SyntaxError) (text string, from, to int, ok bool) {
	if off < 0 || off >= len(data) {
		return "", 0, 0, false
	}
	msg := se.Error()
	c := data[off]
	prev := skipBackWS(data, off) // data[prev-1] is the last byte before c that is not space
	switch {
	case strings.HasSuffix(msg, "after object key:value pair"), strings.HasSuffix(msg, "after array element"):
		return "a comma is missing after " + lineBefore(data, prev), prev - 1, prev, prev > 0
	case strings.HasSuffix(msg, "after object key"):
		start := stringStart(data, prev)
		return "a colon is missing after the member name " + quoteSnippet(data[start:prev]), start, prev, start >= 0
	case (c == '}' || c == ']') && prev > 0 && data[prev-1] == ',':
		return "the comma after " + lineBefore(data, prev-1) + " has nothing after it: JSON allows no comma before the closing " + string(c), prev - 1, prev, true
	case strings.HasSuffix(msg, "looking for beginning of object key string"):
		return "a member name is a string in double quotes (\"title\"), not " + quoteSnippet(wordAt(data, off)), off, off + len(wordAt(data, off)), true
	case strings.HasSuffix(msg, "looking for beginning of value"):
		return valueMissing(data, off, prev)
	case strings.HasSuffix(msg, "in string literal"):
		start := stringStart(data, off)
		if start < 0 {
			return "", 0, 0, false
		}
		return "the string " + quoteSnippet(data[start:off]) + " is not closed: a \" is missing before the end of its line", start, off, true
	case strings.HasSuffix(msg, "in string escape code"):
		return "a backslash in a string starts an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX), not \\" + string(rune(c)) + ": write \\\\ for a backslash", max(off-1, 0), off + 1, true
	case strings.Contains(msg, "in literal"), strings.Contains(msg, "in numeric literal"):
		start := wordStart(data, off)
		return quoteSnippet(wordAt(data, start)) + " is not a JSON value: a value is a number, a string in double quotes, true, false, null, an object or a list", start, start + len(wordAt(data, start)), true
	}
	return "", 0, 0, false
}

// valueMissing explains an unexpected byte where a value should start:
// after a colon (the member has no value), a comma (a list's element is
// missing) or anything else (the byte cannot start a value).
func valueMissing(data []byte, off, prev int) (string, int, int, bool) {
	c := data[off]
	switch {
	case c == '\'':
		return "a string must be in double quotes (\"), not single quotes (')", off, off + len(wordAt(data, off)), true
	case prev > 0 && data[prev-1] == ':':
		// Where the value goes: here, or after the colon when this
		// byte is on a later line.
		from := off
		if bytes.IndexByte(data[prev:off], '\n') >= 0 {
			from = prev - 1
		}
		return "a value is missing after " + lineBefore(data, prev), from, from + 1, true
	case prev > 0 && (data[prev-1] == ',' || data[prev-1] == '['):
		return "a value is missing before this " + string(c), off, off + 1, true
	}
	return quoteSnippet(wordAt(data, off)) + " cannot start a JSON value: a value is a number, a string in double quotes, true, false, null, an object or a list", off, off + len(wordAt(data, off)), true
}

// unclosedReason explains a document that ends before its value is
// complete: inside a string (placed at its opening quote) or with objects
// or lists left open (placed at the end, naming the innermost opener).
func unclosedReason(data []byte) (text string, from, to int) {
	var open []int // offsets of the open brackets
	str := -1      // offset of the open string's quote, or -1
	for i := 0; i < len(data); i++ {
		b := data[i]
		switch {
		case str >= 0 && b == '\\':
			i++
		case str >= 0 && b == '"':
			str = -1
		case str >= 0:
		case b == '"':
			str = i
		case b == '{' || b == '[':
			open = append(open, i)
		case (b == '}' || b == ']') && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	if str >= 0 {
		return "the string " + quoteSnippet(data[str:]) + " is not closed: the document ends before its closing \"", str, len(data)
	}
	end := len(data)
	if len(open) == 0 {
		return "the document ends before its JSON value is complete (cut short?)", end, end
	}
	o := open[len(open)-1]
	closer := "}"
	if data[o] == '[' {
		closer = "]"
	}
	line, col := lineColumn(data, o)
	return "a " + closer + " is missing at the end, to close the " + string(data[o]) + " at line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + " (the document ends before it is complete: cut short?)", end, end
}

// skipBackWS returns the offset just past the last byte before off that
// is not JSON white space (0 when there is none).
func skipBackWS(data []byte, off int) int {
	for off > 0 && (data[off-1] == ' ' || data[off-1] == '\t' || data[off-1] == '\r' || data[off-1] == '\n') {
		off--
	}
	return off
}

// lineBefore quotes the text of end's line before end, without its
// indentation and shortened from the left to snippetRunes: what a comma
// or a value should follow (`"at": 420`, `}`).
func lineBefore(data []byte, end int) string {
	start := bytes.LastIndexByte(data[:end], '\n') + 1
	s := strings.TrimSpace(string(data[start:end]))
	switch s {
	case "}":
		return "the closing }"
	case "]":
		return "the closing ]"
	}
	if n := utf8.RuneCountInString(s); n > snippetRunes {
		r := []rune(s)
		s = "…" + string(r[n-snippetRunes:])
	}
	return s
}

// stringStart returns the offset of the opening quote of the string that
// ends (or, unclosed, is cut) at end on end's line: the last quote before
// end that no backslash escapes; -1 when there is none.
func stringStart(data []byte, end int) int {
	lineStart := bytes.LastIndexByte(data[:end], '\n') + 1
	i := end - 1
	if i >= lineStart && data[i] == '"' {
		i-- // the closing quote of a complete string
	}
	for ; i >= lineStart; i-- {
		if data[i] != '"' {
			continue
		}
		n := 0
		for j := i - 1; j >= lineStart && data[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return i
		}
	}
	return -1
}

// wordStart returns the start of the word (letters, digits, signs,
// points) that holds data[off].
func wordStart(data []byte, off int) int {
	for off > 0 && isWordByte(data[off-1]) {
		off--
	}
	return off
}

// wordAt returns the word that starts at data[off], or its one byte (a
// whole UTF-8 character) when that byte starts no word.
func wordAt(data []byte, off int) []byte {
	e := off
	for e < len(data) && isWordByte(data[e]) {
		e++
	}
	if e == off {
		_, n := utf8.DecodeRune(data[off:])
		e = off + n
	}
	return data[off:e]
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '+' || b == '.' || b == '_' || b == '\''
}

// quoteSnippet is b as the explanation quotes it: at most snippetRunes
// characters, "…" after a cut, in the document's own characters.
func quoteSnippet(b []byte) string {
	s := string(b)
	if utf8.RuneCountInString(s) > snippetRunes {
		s = string([]rune(s)[:snippetRunes]) + "…"
	}
	return s
}
