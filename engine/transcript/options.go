package transcript

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/trace"
)

// ParseZone reads a time zone as the import page's zone field gives it:
// "" or "UTC" or "Z" for UTC, or an offset ("+02:00", "-0500", "+02").
// Zone names ("Europe/Oslo") need a zone database, which only the native
// command has: the CLI's -zone reads them (time.LoadLocation) and falls
// back to ParseZone.
func ParseZone(s string) (*time.Location, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "Z" || strings.EqualFold(s, "UTC") {
		return time.UTC, nil
	}
	for _, layout := range []string{"-07:00", "-0700", "-07"} {
		if t, err := time.Parse(layout, s); err == nil {
			_, off := t.Zone()
			return time.FixedZone(s, off), nil
		}
	}
	return nil, errors.New("want UTC or an offset such as +02:00 (a zone name such as Europe/Oslo needs the command line: mcplab run -zone)")
}

// MaxGivenMs bounds a round trip or timeout given by the user, in ms: one
// day (86,400,000), far past any client's setting.
const MaxGivenMs = 86_400_000

// OptionsOf reads the import's options as the import page's fields give
// them, the same values the CLI's flags take (site run -side, -observer,
// -zone, -latency, -max-timeout): side "" (or "auto"), "client" or
// "server"; observer "", "client", "server" or "wire"; zone as ParseZone
// reads it ("" for UTC); latency and maxTimeout whole milliseconds, ""
// for none, at most MaxGivenMs. An error names the field.
func OptionsOf(side, observer, zone, latency, maxTimeout string) (Options, error) {
	var o Options
	switch side {
	case "", "auto":
	case string(trace.ActorClient), string(trace.ActorServer):
		o.Side = side
	default:
		return o, fmt.Errorf("side %q: want client, server or empty to infer it", side)
	}
	switch observer {
	case "", trace.ObserverClient, trace.ObserverServer, trace.ObserverWire:
		o.Observer = observer
	default:
		return o, fmt.Errorf("observer %q: want client, server, wire or empty to infer it", observer)
	}
	if strings.TrimSpace(zone) != "" {
		loc, err := ParseZone(zone)
		if err != nil {
			return o, fmt.Errorf("time zone %q: %w", zone, err)
		}
		o.Zone = loc
	}
	var err error
	if o.LatencyMs, err = givenMs("round trip", latency); err != nil {
		return o, err
	}
	if o.MaxTimeoutMs, err = givenMs("maximum timeout", maxTimeout); err != nil {
		return o, err
	}
	return o, nil
}

// givenMs reads a whole number of ms in [0, MaxGivenMs] ("" is 0).
func givenMs(what, s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > MaxGivenMs {
		return 0, fmt.Errorf("%s %q: %w", what, s, errNotMs)
	}
	return n, nil
}

var errNotMs = errors.New("want whole milliseconds from 0 to 86400000 (a day)")
