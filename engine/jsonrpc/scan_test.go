package jsonrpc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// parseSlow is Parse through encoding/json only (decodeMessage), the
// reading scanMessage must equal.
func parseSlow(msg json.RawMessage) (Message, error) {
	if len(msg) == 0 {
		return Parse(msg)
	}
	w, err := decodeMessage(msg)
	if err != nil {
		return Message{}, err
	}
	return fromWire(&w)
}

// hostile are messages whose reading depends on encoding/json's rules:
// case-folded top-level names (the Kelvin sign folds to k), duplicates
// (the last wins), escapes in names (scanMessage declines them), null
// members, nesting and whitespace.
var hostile = []string{
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","_meta":{"progressToken":"p-7"}}}`,
	`{"ID":7,"METHOD":"ping"}`, `{"Id":1,"Id":"2","result":{}}`, `{"id":null,"method":null}`,
	`{"id":1,"error":{"CODE":-32601,"Message":"no"}}`, `{"id":1,"error":{"code":1.5,"message":7}}`,
	`{"id":1,"error":{"code":-1,"messa\u0067e":"escaped name"}}`, `{"id":1,"error":[1]}`,
	`{"\u0069d":3,"method":"x"}`, `{"id":3,"method":"notifications/cancelled","params":{"request\u0049d":3}}`,
	`{"method":"notifications/cancelled","params":{"requestId":7,"requestId":"8","reason":null}}`,
	`{"method":"notifications/cancelled","params":{"reason":"x"}}`, `{"method":"notifications/cancelled","params":null}`,
	`{"method":"notifications/progress","params":{"progressToken":"p","progress":1e400,"total":-0.5}}`,
	`{"method":"notifications/progress","params":{"progressToken":{"a":[1,"}"]},"progress":"1"}}`,
	`{"method":"x","params":{"_meta":{"progressToken":1,"progressToken":2},"_meta":[1]}}`,
	`{"method":"x","params":{"_meta":{"progress\u0054oken":1}}}`,
	`{"method":"x","params":[{"name":"y"}]}`, `{"method":"x","params":{"name":"a\"b\\\u00e9"}}`,
	` { "id" : 1 , "result" : { "a" : [ 1 , { } ] } } `, `{}`, `{"id":1,"method":"\u2028"}`,
	`{"method":"x","paramſ":{"name":"y"}}`, `{"id":1,"reſult":{}}`, `{"id":1,"error":{"meſſage":"s"}}`,
	`null`, `[]`, `"x"`, `1`, `{"id":`, `{"id":1}x`, `{"method":3}`, "\xff",
}

// scanMessage, the fast path, reads every message as encoding/json does:
// the hostile shapes above and every message of the golden traces.
func TestParseFastMatchesSlow(t *testing.T) {
	msgs := append([]string(nil), hostile...)
	files, _ := filepath.Glob(filepath.Join("..", "examples", "testdata", "*.trace.json"))
	if len(files) == 0 {
		t.Fatal("no golden traces found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var tr struct {
			Events []struct {
				Message json.RawMessage `json:"message"`
			} `json:"events"`
		}
		if err := json.Unmarshal(data, &tr); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, e := range tr.Events {
			if len(e.Message) > 0 {
				msgs = append(msgs, string(e.Message))
			}
		}
	}
	fast := 0
	for _, msg := range msgs {
		if _, ok := scanMessage([]byte(msg)); ok {
			fast++
		}
		compareParse(t, []byte(msg))
	}
	if fast < len(msgs)-len(hostile) {
		t.Errorf("scanMessage read %d of %d messages; every golden message should take the fast path", fast, len(msgs))
	}
}

func compareParse(t *testing.T, msg []byte) {
	t.Helper()
	got, gerr := Parse(msg)
	want, werr := parseSlow(msg)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("Parse(%s): error %v, encoding/json's %v", msg, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse(%s) =\n%+v\nencoding/json reads\n%+v", msg, got, want)
	}
	gc, gcerr := got.Cancellation()
	wc, wcerr := want.Cancellation()
	if !reflect.DeepEqual(gc, wc) || (gcerr == nil) != (wcerr == nil) || gcerr != nil && gcerr.Error() != wcerr.Error() {
		t.Fatalf("Parse(%s).Cancellation() = %+v, %v; encoding/json's %+v, %v", msg, gc, gcerr, wc, wcerr)
	}
}

// FuzzParseFastMatchesSlow: for any input, Parse equals the encoding/json
// reading (go test -fuzz=FuzzParseFastMatchesSlow ./engine/jsonrpc).
func FuzzParseFastMatchesSlow(f *testing.F) {
	for _, msg := range hostile {
		f.Add([]byte(msg))
	}
	f.Fuzz(func(t *testing.T, msg []byte) { compareParse(t, msg) })
}
