package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Encode's layout is json.Indent's ("", "  ") byte for byte: the golden
// traces depend on it.
func TestIndentMatchesStdlib(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[1,2,{"c":null}]}`,
		`{"s":"q\"uo{te}[],:","t":"back\\\\slash\\","u":"\u00e9<>&"}`,
		`[[[[]]],[{}],"x",-1.5e3,true,false]`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(in+"\n"), "", "  "); err != nil {
			t.Fatal(err)
		}
		got, err := indent([]byte(in+"\n"), 32<<20)
		if err != nil || string(got) != want.String() {
			t.Errorf("indent(%s) = %q, %v; want %q", in, got, err, want.String())
		}
	}
}

// Issue 12: a payload nested 9,990 deep indents to about 100 MB; Encode
// stops at 32<<20 with ErrTooLarge instead of writing it.
func TestIndentStopsAtTheBound(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 9990) + `1` + strings.Repeat(`}`, 9990)
	out, err := indent([]byte(deep), 32<<20)
	if !errors.Is(err, ErrTooLarge) || out != nil {
		t.Fatalf("indent of a 9,990-deep value: %d bytes, %v; want ErrTooLarge and no bytes", len(out), err)
	}
}
