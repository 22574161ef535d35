package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fuzzSeeds are valid and invalid scenarios covering every verb, policy and
// error category; testdata/fuzz/FuzzDecode holds more, and the built-in
// scenarios in ../examples are added when present.
var fuzzSeeds = []string{
	scenarioMDExample,
	`{"mcplab":1,"steps":[]}`,
	`{"mcplab":1,"transport":"streamable-http","server":{"keepaliveEveryMs":100},"client":{"idleTimeoutMs":500},"steps":[{"at":0,"do":"call","id":"a"},{"at":50,"do":"disconnect","id":"a"}]}`,
	`{"mcplab":1,"protocol":"2025-11-25","transport":"streamable-http","client":{"policy":{"httpCancel":"close-stream","progressResetsMax":true,"acceptNonIncreasingProgress":true}},"server":{"policy":{"respondAfterCancel":true}},"steps":[{"at":0,"do":"call","id":1,"method":"initialize"},{"at":5,"do":"retry","id":2,"of":1},{"at":9,"do":"fail","id":2,"code":-32000,"message":"x"}]}`,
	`{"mcplab":1,"steps":[{"at":0,"do":"send","from":"server","message":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":42}}}]}`,
	`{"mcplab":1,"steps":[{"at":0,"do":"call","id":7,"arguments":{"a":"<&>"},"sideEffect":true},{"at":1,"do":"progress","id":7,"progress":1e-7,"total":2,"message":"\u003c\ud800"}]}`,
	`{"mcplab":1,"steps":[{"at":1e3,"do":"call","id":7}]}`,
	`{"mcplab":1,"steps":[{"at":-1,"do":"call","id":7}]}`,
	`{"mcplab":2,"steps":[]}`,
	`{"mcplab":1,"steps":[{"at":0,"do":"cancel","id":7}]}`,
	`{"mcplab":1,"client":{"idleTimeoutMs":500,"maxTimeoutMs":400},"steps":[]}`,
	`{"mcplab":1,"steps":[{"at":0,"do":"call","id":7,"bogus":1}]}`,
	`{"mcplab":1,`,
	`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1},{"at":1,"do":"mutate-result","of":1}]}`,
	`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1,"at":2}]}`,
	`{"mcplab":1,"steps":[{"at":0,"do":"call","id":1,"arguments":{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}]}`,
	`[]`,
	`null`,
	``,
}

// FuzzDecode proves the decoder's contract on untrusted input (SCENARIO.md,
// Bad input): Decode never panics; an error is a located *Error and comes
// without a scenario; a scenario that decodes is normalized, so encoding it
// and decoding the result gives the same scenario (the trace's "scenario"
// member and the canonical share URL depend on it). An error's place, when
// it has one, lies inside the input.
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	if files, _ := filepath.Glob(filepath.Join("..", "examples", "*.json")); len(files) > 0 {
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not a *scenario.Error", err, err)
			}
			if e.Err == nil || err.Error() == "" {
				t.Fatalf("error without a cause: %#v", e)
			}
			if s != nil {
				t.Fatalf("Decode returned a scenario with its error %v", err)
			}
			if e.Line > 0 && (e.Offset < 0 || e.Offset > e.End || e.End > len(data) || e.Column < 1) {
				t.Fatalf("error %v placed at %d..%d (line %d, column %d) outside the %d-byte input", err, e.Offset, e.End, e.Line, e.Column, len(data))
			}
			return
		}
		if s == nil {
			t.Fatal("Decode returned neither a scenario nor an error")
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatalf("encoding the normalized scenario: %v", err)
		}
		if buf.Len() > MaxBytes {
			// Defaults can make the normalized form longer than the input;
			// past the size limit it is rightly refused.
			t.Skipf("normalized form is %d bytes, past MaxBytes", buf.Len())
		}
		s2, err := Decode(buf.Bytes())
		if err != nil {
			t.Fatalf("the normalized scenario does not decode: %v\ninput: %s\nnormalized: %s", err, data, buf.Bytes())
		}
		// The normalized form leaves out explore (running ignores it), so
		// the round trip keeps everything but it.
		s.Explore = nil
		if !reflect.DeepEqual(s, s2) {
			t.Fatalf("decode(encode(s)) != s\ninput: %s\nnormalized: %s", data, buf.Bytes())
		}
	})
}
