package loadavg

import (
	"errors"
	"testing"
)

// Read gives /proc/loadavg's three load averages as written, and
// "unknown" for a file that cannot be read or is cut short.
func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		err  error
		want string
	}{
		{"1.85 2.24 2.85 3/712 12345\n", nil, "1.85 2.24 2.85"},
		{"0.00 0.01 0.05", nil, "0.00 0.01 0.05"},
		{"1.85 2.24", nil, "unknown"},
		{"", errors.New("no such file"), "unknown"},
	}
	for _, c := range cases {
		if got := parse([]byte(c.in), c.err); got != c.want {
			t.Errorf("parse(%q, %v) = %q, want %q", c.in, c.err, got, c.want)
		}
	}
}
