package scenario

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestWholeNumber: a JSON number is whole when its exact decimal value has
// no fraction, however it is written (JSON Schema's "integer"); past the
// int64 range it is clamped and says which way.
func TestWholeNumber(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int64
		over int
		ok   bool
	}{
		{"1000", 1000, 0, true},
		{"1e3", 1000, 0, true},
		{"1E+3", 1000, 0, true},
		{"1000.0", 1000, 0, true},
		{"10.5e2", 1050, 0, true},
		{"1500e-1", 150, 0, true},
		{"-0.0", 0, 0, true},
		{"0e999999999999", 0, 0, true},
		{"-25.0e0", -25, 0, true},
		{"9223372036854775807", math.MaxInt64, 0, true},
		{"9.223372036854775807e18", math.MaxInt64, 0, true},
		{"-9223372036854775808", math.MinInt64, 0, true},
		{"9223372036854775808", math.MaxInt64, 1, true},
		{"-9223372036854775809", math.MinInt64, -1, true},
		{"1e30", math.MaxInt64, 1, true},
		{"-1e30", math.MinInt64, -1, true},
		{"1e999999999999", math.MaxInt64, 1, true},
		// not whole
		{"1.5", 0, 0, false},
		{"1e-3", 0, 0, false},
		{"1.0000000000000001", 0, 0, false}, // a float would round it to 1
		{"1e-999999999999", 0, 0, false},
		// not JSON numbers
		{"", 0, 0, false},
		{"-", 0, 0, false},
		{"01", 0, 0, false},
		{"1.", 0, 0, false},
		{".5", 0, 0, false},
		{"1e", 0, 0, false},
		{"+1", 0, 0, false},
		{"0x10", 0, 0, false},
		{`"7"`, 0, 0, false},
		{"1 ", 0, 0, false},
	} {
		n, over, ok := WholeNumber(c.in)
		if n != c.n || over != c.over || ok != c.ok {
			t.Errorf("WholeNumber(%q) = %d, %d, %v; want %d, %d, %v", c.in, n, over, ok, c.n, c.over, c.ok)
		}
	}
}

// A scenario whose whole-number fields are written with an exponent or a
// zero fraction (1e3, 1000.0) decodes to the same scenario as one written
// with plain integers ("steps[1].at: 1e3" was refused), and its
// canonical form keeps the numbers as written (share links of existing
// scenarios do not change).
func TestDecodeWholeNumbersAnyForm(t *testing.T) {
	plain := doc(`"latencyMs":{"up":10,"down":10},"client":{"idleTimeoutMs":1000,"maxTimeoutMs":60000}`,
		`{"at":0,"do":"call","id":7,"progressToken":"p"},{"at":1000,"do":"produce","id":7,"count":100,"everyMs":10},{"at":2500,"do":"complete","id":7}`)
	written := doc(`"latencyMs":{"up":1e1,"down":10.0},"client":{"idleTimeoutMs":1e3,"maxTimeoutMs":6.0e4}`,
		`{"at":0,"do":"call","id":7,"progressToken":"p"},{"at":1E3,"do":"produce","id":7,"count":1e2,"everyMs":100e-1},{"at":2.5e3,"do":"complete","id":7}`)
	want, err := Decode([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode([]byte(written))
	if err != nil {
		t.Fatalf("Decode of 1e3-style whole numbers: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("1e3-style whole numbers decode to\n%+v\nwant\n%+v", got, want)
	}
	canon, err := Canonical([]byte(written))
	if err != nil || !strings.Contains(string(canon), `"idleTimeoutMs":1e3`) || !strings.Contains(string(canon), `"at":2.5e3`) {
		t.Errorf("Canonical = %s, %v; want the numbers kept as written", canon, err)
	}
}

// A fraction is still refused as "must be an integer", and a whole number
// past a field's range (even past int64) names the bound it passed; both
// located at the value.
func TestDecodeWholeNumberErrors(t *testing.T) {
	for _, c := range []struct {
		at, msg string
		want    error
	}{
		{"1.5", "steps[1].at: must be an integer", ErrType},
		{"1e-3", "steps[1].at: must be an integer", ErrType},
		{"8.64e7", "", nil}, // MaxDurationMs itself
		{"8.6400001e7", "steps[1].at: must be <= 86400000", ErrLimit},
		{"1e30", "steps[1].at: must be <= 86400000", ErrLimit},
		{"-1e30", "steps[1].at: must be >= 0", ErrValue},
	} {
		in := doc("", call7+`,{"at":`+c.at+`,"do":"complete","id":7}`)
		_, err := Decode([]byte(in))
		if c.want == nil {
			if err != nil {
				t.Errorf("at %s: %v, want it decoded", c.at, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, c.want) || err.Error() != c.msg {
			t.Errorf("at %s: %v, want %q (%v)", c.at, err, c.msg, c.want)
			continue
		}
		if line, col := e.Line, e.Column; line != 1 || in[e.Offset:e.End] != c.at || col != e.Offset+1 {
			t.Errorf("at %s: located at line %d, column %d, %q; want the value %q", c.at, line, col, in[e.Offset:e.End], c.at)
		}
	}
}

// The controls' path: a number input holding 1e3 edits the scenario to
// 1000, and one holding 1e30 gives Decode's located bound, not "not a
// whole number".
func TestEditWholeNumberThenDecode(t *testing.T) {
	data := []byte(doc("", call7))
	got, err := Edit(data, "steps[0].at", ValueInteger, "1e3", false)
	if err != nil || !strings.Contains(string(got), `"at":1000`) {
		t.Fatalf("Edit to 1e3 = %s, %v; want at 1000", got, err)
	}
	big, err := Edit(data, "steps[0].at", ValueInteger, "1e30", false)
	if err != nil {
		t.Fatalf("Edit to 1e30: %v", err)
	}
	if _, err := Decode(big); err == nil || err.Error() != "steps[0].at: must be <= 86400000" {
		t.Errorf("Decode after an edit to 1e30: %v, want steps[0].at: must be <= 86400000", err)
	}
	if _, err := Edit(data, "steps[0].at", ValueInteger, "1.5", false); err == nil || err.Error() != `steps[0].at: "1.5" is not a whole number` {
		t.Errorf("Edit to 1.5: %v, want it refused as not a whole number", err)
	}
}
