package scenario

import "math"

// WholeNumber reads s, a JSON number, exactly (its decimal digits, never a
// float's rounding) and reports whether it is a whole number, however it is
// written: 1000, 1e3, 1E+3, 1000.0, 10.5e2 and -0.0 are; 1.5, 1e-3 and
// 1.0000000000000001 are not, nor is any text that is not a JSON number
// (JSON Schema's "integer" is this: a number with a zero fraction part).
//
// n is the value. A whole number past the int64 range gives n clamped to
// math.MaxInt64 or math.MinInt64 and over +1 or -1 (0 within the range),
// so a caller can say which bound it passed rather than call it not whole.
// Cost: O(len(s)).
func WholeNumber(s string) (n int64, over int, ok bool) {
	i, neg := 0, false
	if i < len(s) && s[i] == '-' {
		neg, i = true, 1
	}
	// int: "0" or a non-zero digit and digits.
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intDigits := s[intStart:i]
	if len(intDigits) == 0 || len(intDigits) > 1 && intDigits[0] == '0' {
		return 0, 0, false
	}
	var frac string
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if frac = s[start:i]; frac == "" {
			return 0, 0, false
		}
	}
	exp := 0 // the exponent, saturated at ±1e9: far past any int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg, i = s[i] == '-', i+1
		}
		start := i
		for ; i < len(s) && isDigit(s[i]); i++ {
			if exp < 1e9 {
				exp = exp*10 + int(s[i]-'0')
			}
		}
		if i == start {
			return 0, 0, false
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(s) {
		return 0, 0, false
	}
	// The value is digits × 10^exp10, digits without leading or trailing
	// zeros.
	digits := intDigits + frac
	exp10 := exp - len(frac)
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits, exp10 = digits[:len(digits)-1], exp10+1
	}
	if digits == "" {
		return 0, 0, true // zero, however written
	}
	if exp10 < 0 {
		return 0, 0, false // a non-zero digit after the point
	}
	// At most 19 digits fit in an int64; more is past the range.
	var u uint64 // the magnitude, at most 1<<63
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	fits := len(digits)+exp10 <= 19
	for k := 0; fits && k < len(digits)+exp10; k++ {
		d := uint64(0)
		if k < len(digits) {
			d = uint64(digits[k] - '0')
		}
		if u > (limit-d)/10 {
			fits = false
		}
		u = u*10 + d
	}
	switch {
	case !fits && neg:
		return math.MinInt64, -1, true
	case !fits:
		return math.MaxInt64, 1, true
	case neg:
		return int64(-u), 0, true // -(1<<63) wraps to MinInt64, as it should
	}
	return int64(u), 0, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
