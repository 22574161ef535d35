package live

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Fault names of a -faults spec (SCENARIO.md, Live: proxy), the
// intermediary failures real proxies show (DOMAIN.md §8).
const (
	// FaultBuffer holds a response stream until its final JSON-RPC response
	// (buffer=final) or N bytes (buffer=N), as a buffering proxy does.
	FaultBuffer = "buffer"
	// FaultIdleClose breaks a response stream after MS ms without a byte.
	FaultIdleClose = "idle-close"
	// FaultLatency delays every message by MS ms, each way.
	FaultLatency = "latency"
	// FaultDropStream breaks a response stream MS ms after it opens.
	FaultDropStream = "drop-stream"
	// FaultStrip removes a response header the server sent; only
	// x-accel-buffering is known.
	FaultStrip = "strip"
)

// bufferFinal is buffer's value that holds until the final response.
const bufferFinal = "final"

// strippable are the headers strip= may name (lower case).
var strippable = []string{"x-accel-buffering"}

// MaxFaultMs bounds every fault's time: one hour (3,600,000 ms).
const MaxFaultMs = 3_600_000

// MaxBufferBytes bounds buffer=N: 64 MiB (67,108,864 bytes).
const MaxBufferBytes = 64 << 20

// Faults are the intermediary faults a proxy injects; the zero value
// passes every byte through at once.
type Faults struct {
	// BufferFinal holds each response stream until its final response.
	BufferFinal bool
	// BufferBytes holds each response stream until this many bytes are
	// held (0: no byte threshold); the final response flushes too.
	BufferBytes int
	// IdleCloseMs breaks a response stream after this many ms without a
	// byte from the server (0: never).
	IdleCloseMs int64
	// LatencyMs delays every message this many ms, each way (0: none).
	LatencyMs int64
	// DropStreamMs breaks a response stream this many ms after it opens
	// (0: never).
	DropStreamMs int64
	// Strip lists the response headers removed (canonical names).
	Strip []string
	// spec is the spec as given, for String.
	spec string
}

// ErrFaults is the category of every -faults error; the message names the
// bad item.
var ErrFaults = errors.New("bad -faults")

// ParseFaults reads a -faults spec: a comma-separated list of buffer=final
// or buffer=N (bytes), idle-close=MS, latency=MS, drop-stream=MS and
// strip=x-accel-buffering; "" is no fault. An error names the bad item
// ("-faults item 2 \"latency=-1\": ...").
func ParseFaults(spec string) (Faults, error) {
	f := Faults{spec: spec}
	if strings.TrimSpace(spec) == "" {
		return f, nil
	}
	seen := map[string]bool{}
	for i, item := range strings.Split(spec, ",") {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: item %d %q: %s", ErrFaults, i+1, item, fmt.Sprintf(format, args...))
		}
		name, value, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || value == "" {
			return Faults{}, bad("want NAME=VALUE (buffer=final, buffer=N, idle-close=MS, latency=MS, drop-stream=MS, strip=x-accel-buffering)")
		}
		if seen[name] {
			return Faults{}, bad("%s is given twice", name)
		}
		seen[name] = true
		ms := func() (int64, error) {
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n <= 0 || n > MaxFaultMs {
				return 0, bad("%s takes whole milliseconds from 1 to %d", name, MaxFaultMs)
			}
			return n, nil
		}
		var err error
		switch name {
		case FaultBuffer:
			if value == bufferFinal {
				f.BufferFinal = true
				break
			}
			n, perr := strconv.Atoi(value)
			if perr != nil || n <= 0 || n > MaxBufferBytes {
				return Faults{}, bad("buffer takes final or a number of bytes from 1 to %d", MaxBufferBytes)
			}
			f.BufferBytes = n
		case FaultIdleClose:
			f.IdleCloseMs, err = ms()
		case FaultLatency:
			f.LatencyMs, err = ms()
		case FaultDropStream:
			f.DropStreamMs, err = ms()
		case FaultStrip:
			h := strings.ToLower(value)
			known := false
			for _, s := range strippable {
				known = known || s == h
			}
			if !known {
				return Faults{}, bad("strip knows %s only", strings.Join(strippable, ", "))
			}
			f.Strip = append(f.Strip, "X-Accel-Buffering")
		default:
			return Faults{}, bad("unknown fault %q: want buffer, idle-close, latency, drop-stream or strip", name)
		}
		if err != nil {
			return Faults{}, err
		}
	}
	return f, nil
}

// Buffering reports whether response streams are held (buffer=).
func (f Faults) Buffering() bool { return f.BufferFinal || f.BufferBytes > 0 }

// CheckStdio returns an error naming the first fault that needs Streamable
// HTTP's response streams or headers (idle-close, drop-stream, strip): a
// stdio tee injects latency and buffer only.
func (f Faults) CheckStdio() error {
	switch {
	case f.IdleCloseMs > 0:
		return fmt.Errorf("%w: idle-close needs Streamable HTTP (a stdio server has no response streams)", ErrFaults)
	case f.DropStreamMs > 0:
		return fmt.Errorf("%w: drop-stream needs Streamable HTTP (a stdio server has no response streams)", ErrFaults)
	case len(f.Strip) > 0:
		return fmt.Errorf("%w: strip needs Streamable HTTP (stdio has no headers)", ErrFaults)
	}
	return nil
}

// String is the spec as given ("" for none).
func (f Faults) String() string { return f.spec }
