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
//   - a missing comma: just after the value it should follow (the column
//     where the comma goes), "a comma is missing after "at": 420";
//   - a comma before a closing } or ]: at the comma;
//   - a missing colon: at the member name;
//   - a member name not in double quotes, a missing value, a string not
//     closed before its line ends, a bad escape or literal: where it is;
//   - a document that ends inside a string: at the string's opening quote;
//     inside objects or lists: at the end, naming the bracket left open.

// snippetBytes is the most bytes of the document an explanation quotes
// (the text before a missing comma, an unclosed string's start), cut at a
// character's start: 40.
const snippetBytes = 40

// valueKinds ends an explanation of a value that is not one.
const valueKinds = " (a value is a number, a string in double quotes, true, false, null, an object or a list)"

// syntaxReason explains the encoding/json syntax error se, whose
// offending byte is data[off], and returns the span [from, to) of data it
// is about; ok is false for an error it has no words for, which keeps
// encoding/json's.
func syntaxReason(data []byte, off int, se *json.SyntaxError) (text string, from, to int, ok bool) {
	if off < 0 || off >= len(data) {
		return "", 0, 0, false
	}
	msg, c := se.Error(), data[off]
	prev := off // just past the last byte before c that is not white space
	for prev > 0 && isSpace(data[prev-1]) {
		prev--
	}
	last := byte(0)
	if prev > 0 {
		last = data[prev-1]
	}
	switch {
	case strings.HasSuffix(msg, "pair") || strings.HasSuffix(msg, "element"): // after a member or an element
		// The place is just after the value, where the comma goes: an
		// empty span, so that typing "," there inserts it.
		return "a comma is missing after " + lineBefore(data, prev), prev, prev, prev > 0
	case strings.HasSuffix(msg, "after object key"):
		start := stringStart(data, prev)
		return "a colon is missing after the member name " + snippet(data, start, prev), start, prev, start >= 0
	case (c == '}' || c == ']') && last == ',':
		return "the comma after " + lineBefore(data, prev-1) + " has nothing after it: JSON allows no comma before the closing " + string(data[off:off+1]), prev - 1, prev, true
	case c == '\'':
		return "a string or a member name is written in double quotes (\"), not single quotes (')", off, wordEnd(data, off), true
	case strings.HasSuffix(msg, "key string"):
		return "a member name is a string in double quotes (\"title\"), not " + snippet(data, off, wordEnd(data, off)), off, wordEnd(data, off), true
	case strings.HasSuffix(msg, "of value") && last == ':':
		// Where the value goes: here, or after the colon when this
		// byte is on a later line.
		from := off
		if bytes.IndexByte(data[prev:off], '\n') >= 0 {
			from = prev - 1
		}
		return "a value is missing after " + lineBefore(data, prev), from, from + 1, true
	case strings.HasSuffix(msg, "string literal"):
		start := stringStart(data, off)
		return "the string " + snippet(data, start, off) + " is not closed: a \" is missing before the end of its line", start, off, start >= 0
	case strings.HasSuffix(msg, "escape code"):
		return "a backslash in a string starts an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX): write \\\\ for a backslash", off - 1, off + 1, off > 0
	case strings.HasSuffix(msg, "of value") || strings.Contains(msg, "literal"):
		from := off
		for from > 0 && isWordByte(data[from-1]) && strings.Contains(msg, "literal") {
			from-- // the start of the misspelt word
		}
		end := wordEnd(data, from)
		return snippet(data, from, end) + " is not a JSON value" + valueKinds, from, end, true
	}
	return "", 0, 0, false
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
	end := len(data)
	switch {
	case str >= 0:
		return "the string " + snippet(data, str, end) + " is not closed: the document ends before its closing \"", str, end
	case len(open) == 0:
		return "the document ends before its JSON value is complete (cut short?)", end, end
	}
	o := open[len(open)-1]
	line, col := lineColumn(data, o)
	// { + 2 is }, [ + 2 is ] in ASCII.
	return "a " + string(data[o]+2) + " is missing at the end, to close the " + string(data[o:o+1]) + " at line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + " (the document ends before it is complete: cut short?)", end, end
}

// lineBefore quotes the text of end's line before end, without its
// indentation, its last snippetBytes at most: what a comma or a value
// should follow (`"at": 420`, `the closing }`).
func lineBefore(data []byte, end int) string {
	start := bytes.LastIndexByte(data[:end], '\n') + 1
	for start < end && isSpace(data[start]) {
		start++
	}
	if end-start == 1 && (data[start] == '}' || data[start] == ']') {
		return "the closing " + string(data[start:end])
	}
	if end-start > snippetBytes {
		start = end - snippetBytes
		for start < end && !utf8.RuneStart(data[start]) {
			start++
		}
		return "…" + string(data[start:end])
	}
	return string(data[start:end])
}

// snippet quotes data[from:to], its first snippetBytes at most.
func snippet(data []byte, from, to int) string {
	if from < 0 {
		return ""
	}
	if to-from <= snippetBytes {
		return string(data[from:to])
	}
	to = from + snippetBytes
	for to > from && !utf8.RuneStart(data[to]) {
		to--
	}
	return string(data[from:to]) + "…"
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
		n := 0
		for data[i] == '"' && i-n > lineStart && data[i-n-1] == '\\' {
			n++
		}
		if data[i] == '"' && n%2 == 0 {
			return i
		}
	}
	return -1
}

// wordEnd returns the end of the word (letters, digits, signs, points,
// quotes) that starts at data[off], or of its one character when that
// starts no word.
func wordEnd(data []byte, off int) int {
	e := off
	for e < len(data) && isWordByte(data[e]) {
		e++
	}
	if e == off {
		_, n := utf8.DecodeRune(data[off:])
		e = off + n
	}
	return e
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '+' || b == '.' || b == '_' || b == '\''
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }
