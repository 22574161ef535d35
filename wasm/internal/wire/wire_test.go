package wire

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestAppendReadsAsEncodingJSON proves Append writes JSON that parses to
// what encoding/json's text of the same value parses to, for the values
// the worker's replies are made of: HTML with quotes and non-ASCII text,
// every control character, text that is not valid UTF-8 (both read as
// U+FFFD), nested lists and maps, numbers and booleans.
func TestAppendReadsAsEncodingJSON(t *testing.T) {
	var ctl strings.Builder
	for c := 0; c < 0x20; c++ {
		ctl.WriteByte(byte(c))
	}
	values := []any{
		nil, true, false, "", 0, -7, int64(1) << 53, 0.25, 1e21, -3.5e-7, 12.5,
		`<svg class="t" data-x='1'><text>tools/call → “ok” ✓ 😀</text></svg>`,
		ctl.String(), `back\slash "quoted"`, "bad \xff\xfe utf-8 \xc3", "line\u2028sep\u2029",
		[]string{"a", `"b"`, ""},
		[]any{1, "two", []any{3.5, nil}, map[string]any{"z": 1, "a": []any{}}},
		map[string]any{"out": map[string]any{"attrs": []any{[]any{"data-end-ms", "120"}}, "shell": `<div id="output"></div>`,
			"parts": []any{map[string]any{"key": "timeline", "later": false, "html": "<g>\n</g>", "sum": "9:1f", "views": []any{}}}}, "ms": 3.25},
		map[string]any{},
		[]int{1, 2}, // not one of Append's own kinds: encoding/json writes it
	}
	for _, v := range values {
		got, err := Append(nil, v)
		if err != nil {
			t.Fatalf("Append(%#v): %v", v, err)
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("Append(%#v) wrote %s, not JSON: %v", v, got, err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("Append(%#v) reads as %#v, encoding/json's text as %#v", v, g, w)
		}
	}
}

// TestAppendSortsKeys proves a map's keys are written in sorted order, so
// the same reply is the same bytes (as encoding/json writes them).
func TestAppendSortsKeys(t *testing.T) {
	got, err := Append(nil, map[string]any{"views": 1, "html": 2, "key": 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"html":2,"key":3,"views":1}`; string(got) != want {
		t.Errorf("Append wrote %s, want %s", got, want)
	}
}

// TestAppendRefusesNonNumbers proves a NaN or an infinity is an error,
// as in encoding/json, not text that is not JSON.
func TestAppendRefusesNonNumbers(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := Append(nil, []any{f}); err == nil {
			t.Errorf("Append(%v) gave no error", f)
		}
	}
}

func BenchmarkAppendReply(b *testing.B) {
	html := strings.Repeat(`<g class="mark" data-at="120"><circle cx="12.5" cy="40" r="3"></circle><text x="14" y="38">tools/call →</text></g>`, 25)
	parts := []any{}
	for i := 0; i < 8; i++ {
		parts = append(parts, map[string]any{"key": "k", "later": false, "html": html, "sum": "123:abc", "views": []any{}})
	}
	r := map[string]any{"out": map[string]any{"attrs": []any{[]any{"a", "b"}}, "shell": "<div></div>", "parts": parts}}
	var buf []byte
	for b.Loop() {
		buf, _ = Append(buf[:0], r)
	}
}
