package jsonrpc

import (
	"strconv"
	"testing"
)

// IDText's integer ids (DOMAIN.md §1: an id is a string or an integer)
// are the integer's decimal text, whatever the digits' path through it:
// 0-99 without allocating, the rest through strconv; a leading zero, a
// lone minus sign and a fraction are no id.
func TestIDTextOfIntegers(t *testing.T) {
	for _, in := range []string{"0", "7", "10", "99", "100", "-0", "-7", "-", "05", "007", "7.5", "1e3", "9223372036854775807", "9223372036854775808"} {
		want, wantOK := "", false
		if n, err := strconv.ParseInt(in, 10, 64); err == nil {
			want, wantOK = strconv.FormatInt(n, 10), true
		}
		if got, ok := IDText([]byte(in)); got != want || ok != wantOK {
			t.Errorf("IDText(%s) = %q, %v; want %q, %v", in, got, ok, want, wantOK)
		}
	}
}
