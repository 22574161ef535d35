package templates

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/examples"
)

// TestIndentScenarioMatchesJSONIndent: down to maxIndentDepth the editor's
// layout is json.Indent's with two spaces (every built-in scenario, empty
// containers, escapes, trailing space kept), and text that is not JSON is
// returned as it is.
func TestIndentScenarioMatchesJSONIndent(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `{"a":[],"b":{},"c":[1, {"d" : "x\"}y,"}]}`, "  [1,2]\n",
		`{"mcplab":1,"steps":[{"do":"complete","result":{"content":[{"type":"text","text":"a\\\"b"}]}}]}`,
	}
	for _, ex := range examples.All() {
		docs = append(docs, string(ex.JSON))
	}
	for _, d := range docs {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(d), "", "  "); err != nil {
			t.Fatalf("json.Indent(%.40q): %v", d, err)
		}
		if got := IndentScenario([]byte(d)); got != want.String() {
			t.Errorf("IndentScenario(%.60q) =\n%s\nwant\n%s", d, got, want.String())
		}
	}
	for _, bad := range []string{`{"a":`, "\ufeff{}", `{"a":1}x`, ``} {
		if got := IndentScenario([]byte(bad)); got != bad {
			t.Errorf("IndentScenario(%q) = %q, want the text unchanged", bad, got)
		}
	}
}

// nested is a document n arrays deep around one number.
func nested(n int) []byte {
	return []byte(strings.Repeat("[", n) + "1" + strings.Repeat("]", n))
}

// TestIndentScenarioDeep: a document nested far past maxIndentDepth is laid
// out in output linear in its size (at most 17 bytes per input byte, the
// bound IndentScenario documents), still valid JSON with the same value.
func TestIndentScenarioDeep(t *testing.T) {
	data := nested(9000)
	got := IndentScenario(data)
	if len(got) > 17*len(data) {
		t.Errorf("18,001-byte document nested 9,000 deep indents to %d bytes, want at most %d", len(got), 17*len(data))
	}
	var c bytes.Buffer
	if err := json.Compact(&c, []byte(got)); err != nil || !bytes.Equal(c.Bytes(), data) {
		t.Errorf("indented deep document does not compact back to its input (err %v)", err)
	}
}

// BenchmarkIndentScenarioGrowth indents documents nested n and 10n deep
// and reports t(10n)/t(n) as "growth" (linear, at most 13;
// json.Indent's per-level indentation gives about 100).
func BenchmarkIndentScenarioGrowth(b *testing.B) {
	const n = 900 // 10n stays under encoding/json's nesting limit (10,000)
	small, large := nested(n), nested(10*n)
	var ts, tl time.Duration
	for b.Loop() {
		t0 := time.Now()
		IndentScenario(small)
		t1 := time.Now()
		IndentScenario(large)
		ts += t1.Sub(t0)
		tl += time.Since(t1)
	}
	b.ReportMetric(float64(tl)/float64(ts), "growth")
}
