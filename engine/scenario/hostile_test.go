package scenario

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// nested returns call arguments nested n arrays deep: {"a":[[...]]}.
func nested(n int) string {
	return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
}

// deepCall is the hostile share link as a document: call arguments
// nested 9,990 deep, under encoding/json's own limit of 10,000.
var deepCall = doc("", `{"at":0,"do":"call","id":1,"arguments":`+nested(9990)+`}`)

// TestDecodeRefusesHostileStructure proves the decoder's structural bounds
// (Bounds): a member name repeated in one object is refused
// wherever it is (ErrDuplicate, located at the second name), and so is a
// value nested deeper than MaxDepth (ErrLimit, located at the bracket that
// goes one level too deep). encoding/json alone accepts both.
func TestDecodeRefusesHostileStructure(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     error
		wantPath string
		line     int
		column   int
	}{
		{"duplicate top-level member", `{"mcplab":1,"steps":[],` + "\n" + `"mcplab":1}`, ErrDuplicate, "mcplab", 2, 1},
		{"duplicate member inside a step", doc("", `{"at":0,"do":"call","id":1,"at":5}`), ErrDuplicate, "steps[0].at", 1, 49},
		{"duplicate member inside arguments", doc("", `{"at":0,"do":"call","id":1,"arguments":{"x":1,"y":{"z":1,"z":2}}}`), ErrDuplicate, "steps[0].arguments.y.z", 1, 79},
		{"duplicate written with an escape", doc(`"title":"a","ti\u0074le":"b"`, ""), ErrDuplicate, "title", 1, 25},
		{"duplicate among many members", doc("", `{"at":0,"do":"send","message":{`+manyMembers(40)+`,"m7":0}}`), ErrDuplicate, "steps[0].message.m7", 0, 0},
		{"65 levels", doc("", `{"at":0,"do":"call","id":1,"arguments":`+nested(MaxDepth-4+1)+`}`), ErrLimit, "steps[0].arguments.a" + strings.Repeat("[0]", MaxDepth-4), 1, 0},
		{"9,990 levels", deepCall, ErrLimit, "steps[0].arguments.a" + strings.Repeat("[0]", MaxDepth-4), 1, 0},
		// Past encoding/json's own limit (10,000 levels, a syntax error
		// to it): still the lab's bound, at the 65th level.
		{"20,000 levels", doc("", `{"at":0,"do":"call","id":1,"arguments":`+nested(20000)+`}`), ErrLimit, "steps[0].arguments.a" + strings.Repeat("[0]", MaxDepth-4), 1, 0},
		{"20,000 levels in the title", `{"mcplab":1,"title":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, ErrLimit, "title" + strings.Repeat("[0]", MaxDepth-1), 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.in))
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, tc.want) || e.Path != tc.wantPath {
				t.Fatalf("err = %v, want %v at %s", err, tc.want, tc.wantPath)
			}
			if tc.line > 0 && e.Line != tc.line {
				t.Errorf("line %d, want %d", e.Line, tc.line)
			}
			if tc.column > 0 && e.Column != tc.column {
				t.Errorf("column %d, want %d", e.Column, tc.column)
			}
			if e.Line == 0 || e.End <= e.Offset || !strings.ContainsAny(tc.in[e.Offset:e.End], `"[{`) {
				t.Errorf("place %d..%d (line %d) is not the name or bracket at fault", e.Offset, e.End, e.Line)
			}
		})
	}
	// The deepest allowed nesting still decodes: the bound is 64, not less.
	if _, err := Decode([]byte(doc("", `{"at":0,"do":"call","id":1,"arguments":`+nested(MaxDepth-4)+`}`))); err != nil {
		t.Errorf("arguments reaching depth %d: %v", MaxDepth, err)
	}
}

func manyMembers(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"m` + string(rune('0'+i/10)) + string(rune('0'+i%10)) + `":0`)
	}
	return strings.Replace(b.String(), `"m07"`, `"m7"`, 1)
}

// TestDeepNestingIsRefusedCheaply bounds the cost of refusing the 9,990
// levels of a hostile share link: at most 1 MiB allocated for a 20 KB
// document (today's main accepts it, and the run then writes 600 MB and
// holds 2.6 GB).
func TestDeepNestingIsRefusedCheaply(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Decode([]byte(deepCall))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want ErrLimit", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing %d bytes allocated %d bytes, want <= 1 MiB", len(deepCall), n)
	}
}

// TestMutateResultNeedsLedger: mutate-result edits a result the ledger
// returned, so without "ledger" it is refused at the step's do (before,
// it passed the decoder and the run dereferenced a nil ledger).
func TestMutateResultNeedsLedger(t *testing.T) {
	_, err := Decode([]byte(`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":1,"do":"mutate-result","of":1}]}`))
	var e *Error
	if !errors.As(err, &e) || e.Path != "steps[1].do" || !errors.Is(err, ErrValue) {
		t.Fatalf("err = %v, want ErrValue at steps[1].do", err)
	}
	if _, err := Decode([]byte(`{"mcplab":1,"ledger":{},"steps":[{"at":0,"do":"call","id":1,"sideEffect":true},{"at":1,"do":"mutate-result","of":1}]}`)); err != nil {
		t.Errorf("with a ledger: %v", err)
	}
}

// TestPayloadLimit: one payload is at most MaxPayloadBytes compacted.
func TestPayloadLimit(t *testing.T) {
	big := `{"s":"` + strings.Repeat("x", MaxPayloadBytes) + `"}`
	_, err := Decode([]byte(doc("", `{"at":0,"do":"call","id":1,"arguments":`+big+`}`)))
	var e *Error
	if !errors.As(err, &e) || e.Path != "steps[0].arguments" || !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want ErrLimit at steps[0].arguments", err)
	}
	fits := `{"s":"` + strings.Repeat("x", MaxPayloadBytes-8) + `"}`
	if _, err := Decode([]byte(doc("", `{"at":0,"do":"call","id":1,"arguments":`+fits+`}`))); err != nil {
		t.Errorf("a %d-byte payload: %v", MaxPayloadBytes, err)
	}
}

// TestErrorsCarryTheirPlace proves every decoding error names its place in
// the text as fields (the position no longer lives only in the
// message): the value the path names, its nearest ancestor for a missing
// member, and for a syntax error the line and column its message says.
func TestErrorsCarryTheirPlace(t *testing.T) {
	text := "{\n  \"mcplab\": 1,\n  \"title\": \"é\", \"steps\": [\n    {\"at\": 0, \"do\": \"call\", \"id\": 1},\n    {\"at\": -5, \"do\": \"cancel\", \"id\": 1},\n    {\"at\": 9, \"do\": \"cancel\"}\n  ]\n}"
	tests := []struct {
		name, in, path, text string
		line, column         int
	}{
		{"a value", text, "steps[1].at", "-5", 5, 12},
		{"a missing member: its step", strings.Replace(text, "-5", "5", 1), "steps[2].id", `{"at": 9, "do": "cancel"}`, 6, 5},
		{"after a non-ASCII character", strings.Replace(text, `"é"`, `7`, 1), "title", "7", 3, 12},
		{"a syntax error", "{\"mcplab\": 1,\n \"é\": ,}", "", ",", 2, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.in))
			var e *Error
			if !errors.As(err, &e) || e.Path != tc.path {
				t.Fatalf("err = %v, want an *Error at %q", err, tc.path)
			}
			if e.Line != tc.line || e.Column != tc.column || tc.in[e.Offset:e.End] != tc.text {
				t.Errorf("place line %d column %d %q, want line %d column %d %q", e.Line, e.Column, tc.in[e.Offset:e.End], tc.line, tc.column, tc.text)
			}
			if tc.path == "" && !strings.Contains(err.Error(), "at line 2, column 7:") {
				t.Errorf("message %q does not say the same place", err)
			}
		})
	}
}

// TestLocate: a path finds its value's span; a path the text lacks finds
// its nearest ancestor, which Location.Path names; the last of two equal
// names wins, as in encoding/json.
func TestLocate(t *testing.T) {
	data := []byte(`{"a": {"b": [10, {"c": "x"}]}, "d": 1, "d": 2}`)
	for _, tc := range []struct{ path, found, text string }{
		{"", "", string(data)},
		{"a.b[1].c", "a.b[1].c", `"x"`},
		{"a.b[0]", "a.b[0]", "10"},
		{"a.b[7].c", "a.b", `[10, {"c": "x"}]`},
		{"a.z.y", "a", `{"b": [10, {"c": "x"}]}`},
		{"d", "d", "2"},
	} {
		loc, ok := Locate(data, tc.path)
		if !ok || loc.Path != tc.found || string(data[loc.Offset:loc.End]) != tc.text || loc.Line != 1 || loc.Column != loc.Offset+1 {
			t.Errorf("Locate(%q) = %+v %v, want %q at %q", tc.path, loc, ok, tc.text, tc.found)
		}
	}
	for _, bad := range []string{`{"a": [1, 2`, `]`, ``} {
		if _, ok := Locate([]byte(bad), "a[1]"); ok {
			t.Errorf("Locate in malformed %q reports a place", bad)
		}
	}
}

// BenchmarkDecodeDeepNesting is the cost of refusing a 9,990-deep
// arguments (20 KB).
func BenchmarkDecodeDeepNesting(b *testing.B) {
	data := []byte(deepCall)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data); !errors.Is(err, ErrLimit) {
			b.Fatal(err)
		}
	}
}

// TestTruncatedDocumentLocated proves the rule of SCENARIO.md "Bad input"
// (an error names where it is) for a document cut short: the error points
// at its end (line and column of the missing part), never a bare
// "unexpected EOF".
func TestTruncatedDocumentLocated(t *testing.T) {
	data := []byte("{\"mcplab\":1,\n\"steps\":[{\"at\":0,\"do\":\"call\",\"id\":1}")
	_, err := Decode(data)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Decode of a truncated document: %v, want a located *Error", err)
	}
	if !errors.Is(err, ErrSyntax) {
		t.Errorf("error %v is not ErrSyntax", err)
	}
	if e.Line != 2 || e.Column != 37 || e.Offset != len(data) {
		t.Errorf("located at line %d, column %d, offset %d; want line 2, column 37 (just after the last character), offset %d (the end)", e.Line, e.Column, e.Offset, len(data))
	}
	if strings.Contains(err.Error(), "unexpected EOF") || !strings.Contains(err.Error(), "line 2, column 37") {
		t.Errorf("message %q does not say where the document ends", err)
	}
}
