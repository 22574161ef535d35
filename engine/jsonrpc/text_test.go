package jsonrpc

import (
	"bytes"
	"encoding/json"
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
