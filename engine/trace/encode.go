package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrTooLarge is the category of a run or an encoding past the engine's
// bounds on events or trace bytes (engine.MaxEvents, engine.MaxTraceBytes).
var ErrTooLarge = errors.New("trace too large")

// Encode returns the canonical JSON encoding of tr (two-space indent,
// trailing newline, HTML characters not escaped: the bytes of the golden
// traces). It fails with ErrTooLarge, and returns no bytes, when the
// encoding would exceed limit bytes.
//
// encoding/json writes the compact form; indent then lays it out in one
// linear pass that stops at the bound (json.Indent's scanner cost 61% of
// encoding, and a payload nested thousands deep would indent to hundreds
// of MB before anything could stop it).
func Encode(tr *Trace, limit int) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(tr); err != nil {
		return nil, fmt.Errorf("encoding trace: %w", err)
	}
	if buf.Len() > limit {
		return nil, tooLarge(buf.Len(), limit)
	}
	return indent(buf.Bytes(), limit)
}

func tooLarge(n, limit int) error {
	return fmt.Errorf("%w: the trace is more than %d bytes (at least %d); shorten the scenario or its payloads", ErrTooLarge, limit, n)
}

// indent lays out compact JSON (as encoding/json writes it) with two-space
// indentation, exactly as json.Indent(dst, src, "", "  ") does, in one pass;
// it fails with ErrTooLarge once the output passes limit bytes.
func indent(src []byte, limit int) ([]byte, error) {
	out := make([]byte, 0, min(2*len(src), limit+1)) // indentation about doubles a trace
	pad := []byte("\n")
	depth := 0
	newline := func() {
		for len(pad) < 1+2*depth {
			pad = append(pad, ' ', ' ')
		}
		out = append(out, pad[:1+2*depth]...)
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := i + 1
			for ; j < len(src); j++ {
				if src[j] == '\\' {
					j++
					continue
				}
				if src[j] == '"' {
					break
				}
			}
			out = append(out, src[i:j+1]...)
			i = j
		case '{', '[':
			out = append(out, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				out = append(out, src[i+1])
				i++
				break
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
		case ':':
			out = append(out, ':', ' ')
		default:
			out = append(out, c)
		}
		if len(out) > limit {
			return nil, tooLarge(len(out), limit)
		}
	}
	return out, nil
}
