package jsonrpc

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// AppendString escapes as encoding/json does with HTML escaping off, for
// every byte value alone and in runs with multi-byte and invalid UTF-8.
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	var cases []string
	for b := 0; b < 256; b++ {
		cases = append(cases, string(rune(b)), string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	cases = append(cases, "\u2028\u2029", "é€𝄞", "\xe2\x80", "\xed\xa0\x80", "<script>&amp;</script>", "")
	for _, s := range cases {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := string(AppendString(nil, s)) + "\n"; got != want.String() {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want.String())
		}
	}
}

// AppendIndent lays JSON out as json.Indent(dst, src, "", "  ") does when
// no depth is capped, compacts what lies past maxDepth, and stops at limit.
func TestAppendIndent(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `{ }`, `[ ]`, `1`, `"a\"b"`, `{"a":1}`,
		`{"mcplab":1,"steps":[{"at":0,"do":"call","id":"x \" y","args":{"k":[1,2,{}]}},{"at":5, "do" : "cancel"}]}`,
		` [ {"a" : [ ] , "b":{"c":null}} , true ] `,
	}
	for _, d := range docs {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(strings.TrimSpace(d)), "", "  "); err != nil {
			t.Fatal(err)
		}
		got, ok := AppendIndent(nil, []byte(strings.TrimSpace(d)), 0, math.MaxInt, math.MaxInt)
		if !ok || string(got) != want.String() {
			t.Errorf("AppendIndent(%s) = %q, %v; want json.Indent's %q", d, got, ok, want.String())
		}
	}
	for _, tc := range []struct {
		name, src  string
		depth, max int
		want       string
	}{
		{"past maxDepth a container is compact on its line", `{"a":{"b":{"c":1,"d":2}}}`, 0, 2, "{\n  \"a\": {\n    \"b\": {\"c\":1,\"d\":2}\n  }\n}"},
		{"a line deeper than maxDepth is indented maxDepth levels", `[[[1,2]]]`, 0, 1, "[\n  [[1,2]]\n]"},
		{"depth is the level src begins on", `{"a":1}`, 1, math.MaxInt, "{\n    \"a\": 1\n  }"},
	} {
		got, ok := AppendIndent(nil, []byte(tc.src), tc.depth, tc.max, math.MaxInt)
		if !ok || string(got) != tc.want {
			t.Errorf("%s: AppendIndent(%s) = %q, want %q", tc.name, tc.src, got, tc.want)
		}
	}
	if out, ok := AppendIndent(nil, []byte(`[1,2,3,4,5,6]`), 0, math.MaxInt, 10); ok || len(out) <= 10 || len(out) > 14 {
		t.Errorf("past a limit of 10 bytes: %d bytes, ok %v; want false as the output passes 10 bytes (at most one token and its line break past it)", len(out), ok)
	}
}
