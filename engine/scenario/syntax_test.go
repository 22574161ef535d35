package scenario

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestSyntaxErrorsInWords: the common JSON mistakes are reported where the
// fix goes, in a person's words, never in encoding/json's ("invalid
// character '"' after object key:value pair" one line too low). Each case
// names the mistake, the line (and column) the error must stand on, and
// words the message must hold.
func TestSyntaxErrorsInWords(t *testing.T) {
	cases := []struct {
		rule      string
		doc       string
		line, col int
		want      string
	}{
		{"a missing comma is on the line of the member it should follow",
			"{\n  \"mcplab\": 1,\n  \"title\": \"x\"\n  \"steps\": []\n}", 3, 15, `a comma is missing after "title": "x"`},
		{"a missing comma after a number",
			"{\n  \"mcplab\": 1\n  \"steps\": []\n}", 2, 14, `a comma is missing after "mcplab": 1`},
		{"a missing comma after a closing brace",
			"{\"mcplab\": 1, \"steps\": [\n  {\"at\": 0, \"do\": \"call\", \"id\": 1}\n  {\"at\": 5, \"do\": \"cancel\", \"id\": 1}\n]}", 2, 35, `a comma is missing after {"at": 0, "do": "call", "id": 1}`},
		{"a missing comma between list elements",
			"{\"mcplab\": 1, \"steps\": [\n  1\n  2\n]}", 2, 4, "a comma is missing after 1"},
		{"a trailing comma in an object is the comma's place",
			"{\n  \"mcplab\": 1,\n  \"steps\": [],\n}", 3, 14, `the comma after "steps": [] has nothing after it: JSON allows no comma before the closing }`},
		{"a trailing comma in a list",
			"{\"mcplab\": 1, \"steps\": [\n  {\"at\": 0, \"do\": \"call\", \"id\": 1},\n]}", 2, 35, "JSON allows no comma before the closing ]"},
		{"a string not closed before its line ends is placed at its quote",
			"{\n  \"mcplab\": 1,\n  \"title\": \"cancel wins,\n  \"steps\": []\n}", 3, 12, `the string "cancel wins, is not closed`},
		{"a string the document ends in",
			"{\n  \"mcplab\": 1,\n  \"title\": \"cancel", 3, 12, `the string "cancel is not closed: the document ends before its closing "`},
		{"an unclosed brace is placed at the end and names the opener",
			"{\n  \"mcplab\": 1,\n  \"steps\": [\n    {\"at\": 0", 4, 13, "a } is missing at the end, to close the { at line 4, column 5"},
		{"an unclosed list",
			"{\n  \"mcplab\": 1,\n  \"steps\": [\n", 4, 1, "a ] is missing at the end, to close the [ at line 3, column 12"},
		{"a missing colon is at the member name",
			"{\n  \"mcplab\": 1,\n  \"steps\" []\n}", 3, 3, `a colon is missing after the member name "steps"`},
		{"a member name without quotes",
			"{\n  mcplab: 1\n}", 2, 3, `a member name is a string in double quotes ("title"), not mcplab`},
		{"a string in single quotes",
			"{\"mcplab\": 1, \"title\": 'x'}", 1, 24, "is written in double quotes (\"), not single quotes"},
		{"a member without its value",
			"{\n  \"mcplab\": 1,\n  \"title\":\n}", 3, 10, `a value is missing after "title":`},
		{"a misspelt literal",
			"{\"mcplab\": 1, \"steps\": [], \"x\": tru}", 1, 33, "tru is not a JSON value"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			_, err := Decode([]byte(c.doc))
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("Decode = %v, want a located ErrSyntax *Error", err)
			}
			if e.Line != c.line || e.Column != c.col {
				t.Errorf("placed at line %d, column %d, want line %d, column %d (%v)", e.Line, e.Column, c.line, c.col, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("message %q, want it to say %q", err, c.want)
			}
			if strings.Contains(err.Error(), "invalid character") {
				t.Errorf("message %q is in encoding/json's words", err)
			}
			// Typing "," over the place of a missing comma mends it.
			if strings.HasPrefix(c.want, "a comma is missing") && e.End <= len(c.doc) && e.Offset <= e.End {
				if mended := c.doc[:e.Offset] + "," + c.doc[e.End:]; !json.Valid([]byte(mended)) {
					t.Errorf("typing \",\" over [%d, %d) gives %q, not JSON", e.Offset, e.End, mended)
				}
			}
			if e.Offset < 0 || e.End < e.Offset || e.End > len(c.doc) {
				t.Errorf("span [%d, %d) is outside the document of %d bytes", e.Offset, e.End, len(c.doc))
			}
		})
	}
}
