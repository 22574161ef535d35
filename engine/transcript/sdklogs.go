package transcript

// Readers of the server-side SDK debug logs that carry message bodies
// (the SDKs' debug logs): the Python SDK's, the C# SDK's trace lines and
// the Java SDK's. Each line that quotes a message is read; every other line
// (the logger's own chatter, a framework's access log) is skipped. A line's
// time is the first date and time in its first 80 characters, or the last
// one seen on an earlier line (the .NET console logger puts it on the
// line above the message); times without a zone are read in Options.Zone,
// UTC by default, as VS Code's are.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/trace"
)

// The server-side SDK formats (trace.Source.Format), detected by Sniff from
// the lines that quote messages, anywhere in the first MaxSniffBytes.
const (
	// FormatPython: the Python SDK at DEBUG ("2025-06-09 23:52:01,694 -
	// mcp.server.sse - DEBUG - Received JSON: b'{json}'"): a message the
	// server read, as a Python bytes literal; what it wrote is sse_starlette's
	// "chunk: b'event: message\r\ndata: {json}\r\n\r\n'" (the SDK's own
	// "Sending message via SSE: SessionMessage(...)" is a Python repr, not
	// JSON, and is skipped). Observer server.
	FormatPython = "python-sdk-debug"
	// FormatCSharp: the C# SDK at Trace level with sensitive data logged:
	// "ENDPOINT transport received message. Message: '{json}'." and
	// "ENDPOINT sending message. Message: '{json}'."; ENDPOINT starts with
	// "Server" or "Client", which says who wrote the log.
	FormatCSharp = "csharp-sdk-trace"
	// FormatJava: the Java SDK at DEBUG: "Received JSON message: {json}",
	// every message the logging side read (it logs no sends); the side is
	// inferred from who sends the requests, or given (Options.Side).
	FormatJava = "java-sdk-debug"
)

// MaxSniffBytes is how far into data Sniff looks for a server-side SDK
// log's message lines: 64 KiB.
const MaxSniffBytes = 64 << 10

// Markers of the server-side SDK formats in Sniff's order.
var sdkMarkers = []struct{ marker, format string }{
	{"Received JSON: b'", FormatPython},
	{"Received JSON: b\"", FormatPython},
	{"- chunk: b'event: message", FormatPython},
	{"transport received message. Message: '", FormatCSharp},
	{"sending message. Message: '", FormatCSharp},
	{"Received JSON message: ", FormatJava},
}

// sniffSDK names the server-side SDK format data's first MaxSniffBytes
// show, or FormatUnknown.
func sniffSDK(data []byte) Format {
	head := string(data[:min(len(data), MaxSniffBytes)])
	for _, m := range sdkMarkers {
		if strings.Contains(head, m.marker) {
			return m.format
		}
	}
	return FormatUnknown
}

// logTime finds a line's date and time: "2025-06-09 23:52:01,694",
// "2025-06-09T23:52:01.694Z", "2026-02-09 21:02:06".
var logTime = regexp.MustCompile(`(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?`)

// parseSDKDebug reads FormatPython, FormatCSharp and FormatJava.
func parseSDKDebug(data []byte, format string, zone *time.Location, md *meta) ([]entry, error) {
	switch format {
	case FormatPython:
		md.observer = trace.ObserverServer
		md.notes = append(md.notes, "Python SDK debug log: \"Received JSON\" lines are what the server read, sse_starlette's \"chunk\" lines what it wrote.")
	case FormatJava:
		md.readsOnly = true
		md.notes = append(md.notes, "Java SDK debug log: it records only the messages its side read, so no rule passes or fails for want of what that side sent.")
	}
	if zone == nil {
		zone = time.UTC
	}
	var out []entry
	at, timed, zoned, anyTime, whole := int64(0), false, false, false, false
	err := scanLines(data, func(n int, line string) error {
		if m := logTime.FindStringSubmatchIndex(line); m != nil && m[0] < 80 {
			t, z, err := readLogTime(line, m, zone)
			if err != nil {
				return lineErr(n, "time: %v", err)
			}
			at, timed, anyTime, whole = t, true, true, m[6] < 0 // no fraction of a second
			zoned = zoned || z
		}
		e := entry{line: n, at: at, timed: timed, whole: whole}
		var text string
		switch format {
		case FormatPython:
			e.side = trace.ActorServer
			if i := strings.Index(line, "Received JSON: b"); i >= 0 {
				e.dir, e.from = dirRead, trace.ActorClient
				body, ok := pyBytes(line[i+len("Received JSON: "):])
				if !ok {
					return lineErr(n, "the bytes after \"Received JSON:\" do not end (a truncated line?)")
				}
				text = body
			} else if i := strings.Index(line, "chunk: b"); i >= 0 {
				body, ok := pyBytes(line[i+len("chunk: "):])
				if !ok {
					return lineErr(n, "the bytes after \"chunk:\" do not end (a truncated line?)")
				}
				for _, msg := range sseMessages(body) {
					w := e
					w.dir, w.from, w.message = dirWrite, trace.ActorServer, msg
					out = append(out, w)
				}
				return nil
			} else {
				return nil
			}
		case FormatCSharp:
			i := strings.Index(line, " transport received message. Message: '")
			j := strings.Index(line, " sending message. Message: '")
			switch {
			case i >= 0:
				e.dir, text = dirRead, line[i+len(" transport received message. Message: '"):]
			case j >= 0:
				e.dir, text = dirWrite, line[j+len(" sending message. Message: '"):]
				i = j
			default:
				return nil
			}
			e.side = endpointSide(line[:i])
			if e.side == "" {
				return lineErr(n, "the endpoint before %q names neither a Server nor a Client", "transport received message")
			}
			text = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(text), "."), "'")
			e.from = other(e.side, e.dir)
		case FormatJava:
			i := strings.Index(line, "Received JSON message: ")
			if i < 0 {
				return nil
			}
			e.dir, text = dirRead, line[i+len("Received JSON message: "):]
		}
		msgs := splitBatch([]byte(strings.TrimSpace(text)))
		if msgs == nil {
			return lineErr(n, "the message is not valid JSON (a truncated line?)")
		}
		for _, m := range msgs {
			e.message = m
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A log whose first messages came before any time was seen: those are
	// untimed, the rest timed; keep the order instead.
	if len(out) > 0 && !out[0].timed {
		for i := range out {
			out[i].timed = false
		}
	}
	if format == FormatPython && !slices.ContainsFunc(out, func(e entry) bool { return e.dir == dirWrite }) {
		// A stdio server logs what it read and nothing of what it wrote
		// (the "chunk" lines are the SSE transport's): no rule can pass on
		// the absence of what it sent.
		md.readsOnly = true
		md.notes = append(md.notes, "The log holds no \"chunk\" line, so nothing the server wrote (a stdio server logs only what it read): a rule about what the server sent can fail on what it read but never pass.")
	}
	if format == FormatCSharp && len(out) > 0 {
		md.observer = string(out[0].side)
		md.notes = append(md.notes, fmt.Sprintf("C# SDK trace log written by the %s (its endpoint name says so).", out[0].side))
	}
	if anyTime && !zoned && len(out) > 0 && out[0].timed {
		md.zone = zone.String()
		md.notes = append(md.notes, fmt.Sprintf("The log's times carry no zone: read in %s (give the zone to place them exactly; differences between times are right either way).", zone))
	}
	return out, nil
}

// readLogTime reads the time logTime matched at m in line: in its own zone
// when it has one (zoned), else in zone.
func readLogTime(line string, m []int, zone *time.Location) (int64, bool, error) {
	part := func(k int) string {
		if m[2*k] < 0 {
			return ""
		}
		return line[m[2*k]:m[2*k+1]]
	}
	s := part(1) + "T" + part(2)
	if f := part(3); f != "" {
		s += "." + f
	}
	if z := part(4); z != "" {
		if z != "Z" && !strings.Contains(z, ":") {
			z = z[:3] + ":" + z[3:]
		}
		t, err := time.Parse(time.RFC3339Nano, s+z)
		return t.UnixMilli(), true, err
	}
	t, err := time.ParseInLocation("2006-01-02T15:04:05.999999999", s, zone)
	return t.UnixMilli(), false, err
}

// endpointSide reads who logged a C# SDK line from its endpoint name (the
// last "Server (" or "Client (" before the message), "" if neither.
func endpointSide(prefix string) trace.Actor {
	s, c := strings.LastIndex(prefix, "Server ("), strings.LastIndex(prefix, "Client (")
	switch {
	case s < 0 && c < 0:
		return ""
	case s > c:
		return trace.ActorServer
	}
	return trace.ActorClient
}

// pyBytes decodes the Python bytes literal at the start of s (b'...' or
// b"..."), reporting false when it does not end.
func pyBytes(s string) (string, bool) {
	if len(s) < 3 || s[0] != 'b' || (s[1] != '\'' && s[1] != '"') {
		return "", false
	}
	q := s[1]
	var b strings.Builder
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), true
		case c != '\\' || i+1 >= len(s):
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'x':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteString(`\x`)
		default: // \\ \' \" and anything else: the character itself
			b.WriteByte(s[i])
		}
	}
	return "", false
}
