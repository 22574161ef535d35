package templates

// Formatting shared by every component: numbers written into SVG and
// tables, text widths and how a label is cut to fit, the 1-2-5 axis step.

import (
	"bytes"
	"context"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
)

// fitLabel shortens label to at most maxW units (textWidth): first by
// dropping the leading segments of its method ("notifications/tasks/status
// (7)" becomes "…/tasks/status (7)", then "…/status (7)"), then by cutting
// its end at an ellipsis. A label that fits is returned as it is; the
// arrow's or mark's title always carries the whole text.
func fitLabel(label string, maxW float64) string {
	if textWidth(label) <= maxW {
		return label
	}
	s := label
	for textWidth(s) > maxW {
		head, rest, _ := strings.Cut(s, " ")
		head = strings.TrimPrefix(head, "…/")
		_, tail, ok := strings.Cut(head, "/")
		if !ok {
			break
		}
		s = "…/" + tail
		if rest != "" {
			s += " " + rest
		}
	}
	if textWidth(s) <= maxW {
		return s
	}
	r := []rune(s)
	n := max(1, int(maxW/charW)-1)
	if n >= len(r) {
		return s
	}
	return string(r[:n]) + "…"
}

// shownJSON is wire JSON as a tooltip shows it: the escapes \u003c, \u003e
// and \u0026 (either case), which encoding/json writes for <, > and & so
// that JSON can sit in HTML, become those characters again; the template
// escapes the text for HTML once, where it is written. Every other byte,
// and an escaped backslash followed by "u003c" (the text \u003c inside a
// string), stays as it is: the tooltip still reads as the JSON on the wire,
// whose bytes the trace and the events table keep unchanged. Cost:
// O(len(msg)).
func shownJSON(msg []byte) string {
	if !bytes.Contains(msg, []byte(`\u00`)) {
		return string(msg)
	}
	var b strings.Builder
	b.Grow(len(msg))
	for i := 0; i < len(msg); i++ {
		if msg[i] != '\\' || i+1 == len(msg) {
			b.WriteByte(msg[i])
			continue
		}
		if msg[i+1] == 'u' && i+6 <= len(msg) {
			switch strings.ToLower(string(msg[i+2 : i+6])) {
			case "003c":
				b.WriteByte('<')
				i += 5
				continue
			case "003e":
				b.WriteByte('>')
				i += 5
				continue
			case "0026":
				b.WriteByte('&')
				i += 5
				continue
			}
		}
		b.WriteByte(msg[i]) // the backslash and the byte it escapes
		b.WriteByte(msg[i+1])
		i++
	}
	return b.String()
}

// clipText is s cut to at most maxW (textWidth) with an ellipsis, or s
// when it fits.
func clipText(s string, maxW float64) string {
	if textWidth(s) <= maxW {
		return s
	}
	r := []rune(s)
	n := max(0, int(maxW/charW)-1)
	return string(r[:min(n, len(r))]) + "…"
}

// textWidth estimates the width of a label in the timeline's monospace font.
func textWidth(s string) float64 {
	return float64(len([]rune(s))) * charW
}

// overlaps reports whether [lo,hi] meets any interval of occ (pairs).
func overlaps(occ [][2]float64, lo, hi float64) bool {
	for _, iv := range occ {
		if lo < iv[1] && iv[0] < hi {
			return true
		}
	}
	return false
}

// niceStep returns a 1-2-5 tick step giving at most 10 ticks up to maxMs.
func niceStep(maxMs int64) int64 { return niceStepN(maxMs, 10) }

// niceStepN returns a 1-2-5 tick step giving at most n ticks up to maxMs.
func niceStepN(maxMs, n int64) int64 {
	if maxMs <= 0 {
		return 100
	}
	for p := int64(1); ; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if s := m * p; maxMs/s < n {
				return s
			}
		}
	}
}

const (
	charW = 7.3 // width of one character of the 12px monospace labels
)

// maxCellJSON is the most of a message or response (bytes) a table
// cell shows. A scenario's payload may be 64 KB (scenario.MaxPayloadBytes);
// three such cells of unbroken JSON took 77 ms of layout in one frame
// (TestPlaygroundLongLinePasteStaysResponsive), and no
// reader reads 64 KB in a cell. The timeline's tooltip keeps the whole
// message.
const maxCellJSON = 4096

// cellJSON is s, or its first maxCellJSON bytes (whole characters) and
// a note of how many bytes are left out.
func cellJSON(s string) string {
	if len(s) <= maxCellJSON {
		return s
	}
	cut := maxCellJSON
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)-cut) + " more bytes; the timeline's tooltip shows the whole message)"
}

// cmp returns a if it is not empty, else b.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// formatNum prints an SVG coordinate deterministically: rounded to one
// decimal, shortest form, never "-0".
func formatNum(v float64) string {
	r := math.Round(v*10) / 10
	if r == 0 {
		return "0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// i64 formats an integer attribute value.
func i64(n int64) string { return strconv.FormatInt(n, 10) }

// orNone returns s, or "none" when s is empty.
func orNone(s string) string { return cmp(s, "none") }

// slashBreaks writes s, escaped, with a line-break opportunity (<wbr>)
// after each slash, so a method name (notifications/cancelled) can wrap in
// a narrow table column instead of widening it.
func slashBreaks(s string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		for i, part := range strings.SplitAfter(s, "/") {
			if i > 0 {
				if _, err := io.WriteString(w, "<wbr/>"); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, templ.EscapeString(part)); err != nil {
				return err
			}
		}
		return nil
	})
}

// orPending returns s, or "pending" when s is empty.
func orPending(s string) string { return cmp(s, "pending") }
