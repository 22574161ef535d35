// Package transcript turns a recording of real MCP traffic into a trace, so
// the same templates draw it and the same checks judge it as a simulated
// one (ARCHITECTURE.md: checks are functions of the events).
//
// Formats, detected from their content by [Sniff] (no flag needed):
//   - Claude Desktop's mcp-server-NAME.log / mcp.log (observer client;
//     logs.go);
//   - VS Code's MCP output channel at debug level (observer client; local
//     times read in Options.Zone, UTC by default);
//   - tees of a stdio server's pipes, "[STDIN] {json}" / "[STDOUT] {json}"
//     (observer wire);
//   - HAR 1.2 files (observer client) and raw HTTP/SSE dumps (observer
//     wire) of Streamable HTTP (http.go); a HAR times each exchange, so a
//     message streamed in a response carries the exchange's interval
//     (trace.Event.Within) and is ordered against another exchange's only
//     when the intervals are apart;
//   - server-side SDK debug logs with message bodies (sdklogs.go): the
//     Python SDK's (observer server), the C# SDK's trace lines (the side
//     its endpoint name says), the Java SDK's reads (side inferred);
//   - the Go SDK's mcp.LoggingTransport output: "read: {json}" and
//     "write: {json}" lines from one side (the observer), or from both
//     sides when each line starts with "client " or "server " ("server
//     read: {...}"), with or without the log package's date and time;
//   - JSON Lines in the lab's own format, one object per line:
//     {"t": <ms number or RFC 3339 time>, "from": "client"|"server",
//     "message": {...}}, after an optional header line {"observer":
//     "client"|"server"|"wire", "transport": "stdio"|"streamable-http",
//     "protocol": "...", "session": "..."} (JSON Schema: Schema). Without
//     the header the observer is the wire. A recording intermediary
//     (mcplab proxy) writes each message on both hops, "hop":
//     "client-proxy" | "proxy-server" with one "wire" number, and its own
//     events as lines {"t", "actor", "type", "id", "wire", "headers",
//     "note", "status"}: the server opening a stream, the proxy's hold,
//     flush, drop and close-stream (hops.go). A line's "session" names
//     the Mcp-Session-Id of the exchange it was seen in, so a recorder of
//     several sessions keeps their ids apart. A mock (mcplab mock) writes
//     what a server sees over HTTP the same way: a listen stream's end
//     (the server's close-stream, or the network's), the client's
//     reconnect, the server's reject with its HTTP status (a retired
//     session's 404).
//
// Judge only what the observer could see. A server's own log shows what
// the server read before it wrote, so a response written after the server
// read a valid cancellation for that request is a violation. A client or a
// wire view cannot see the server's reads: a cancellation and a response
// observed within the path's round trip of each other (trace.Source
// LatencyMs: the fastest answered exchange, or given) are
// undecided, the legitimate race (package checks). Requests are keyed by
// (session, id): an initialize after an answer starts a new session, as a
// bridge's second initialize id 0 does. A tools/call repeating an earlier
// one that ended without a result (same tool, same arguments, a new id) is
// linked as its retry when a tools/list annotates the tool (retry.go).
// The protocol revision and
// transport are inferred from initialize and the headers, a cancellation's
// cause from its reason text; trace.Source.Note gives every reason.
// Without timestamps events keep their order (Trace.Clock "order") and
// time-based checks are not judged.
package transcript

import (
	"bufio"
	"bytes"
	_ "embed" // Schema
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Limits on a transcript (a pasted or dropped file is untrusted input).
// Every recorded message also nests at most scenario.MaxDepth (64) arrays
// and objects and names no member twice in one object, the scenario
// decoder's own bounds (an error on its line otherwise), and a JSON-RPC
// batch where a format records one message per line is refused, saying so.
const (
	MaxBytes = 4 << 20 // 4 MiB
	MaxLines = 20_000  // lines of a transcript; entries of a HAR
)

// Formats (trace.Source.Format; the vocabulary is trace's).
const (
	FormatGoSDK = trace.FormatGoSDK
	FormatJSONL = trace.FormatJSONL
)

// ErrTranscript is the category of every import error; the *Error says the line.
var ErrTranscript = errors.New("bad transcript")

// Error locates an import error at a 1-based line ("line 3: ...").
type Error struct {
	Line int
	// Column is the column (1-based, in characters) within Line, for an
	// error of a JSON document (a HAR file); 0 when the line is enough.
	Column int
	Err    error
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Err.Error()
	}
	if e.Column > 0 {
		return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

func lineErr(n int, format string, args ...any) *Error {
	return &Error{Line: n, Err: fmt.Errorf("%w: %s", ErrTranscript, fmt.Sprintf(format, args...))}
}

// Options steer an import.
type Options struct {
	// Side is who wrote a one-sided Go SDK log, "client" or "server"; ""
	// infers it from who sends the requests.
	Side string
	// Observer overrides who recorded the transcript (trace.Observer*),
	// "" to infer it from the format (Formats) or the JSON Lines header.
	Observer string
	// Zone is the time zone of a log whose times carry none (VS Code's
	// output channel); nil means UTC, and the trace's source note says so.
	Zone *time.Location
	// LatencyMs is the path's round trip in ms, 0 to infer it from the
	// fastest answered exchange (trace.Source.LatencyMs).
	LatencyMs int64
	// MaxTimeoutMs is the client's maximum total timeout per request in ms
	// (as the user configured it; a log does not say), 0 for none: every
	// request the client sent gets it, so max-timeout-enforced judges
	// whether the client stopped waiting (a response, or its cancellation)
	// by start + maximum.
	MaxTimeoutMs int64
	// IdleTimeoutMs is the client's idle timeout per request in ms (as the
	// user configured it), 0 for none: from a server's or a wire's view,
	// progress-resets-idle judges whether a cancellation came a full idle
	// timeout after the last progress the server sent
	// (trace.Source.IdleTimeoutMs).
	IdleTimeoutMs int64
}

// meta is what a format says about the whole transcript.
type meta struct {
	observer, transport, protocol, session string
	// protocolFrom says where protocol was read (trace.Source.ProtocolFrom).
	protocolFrom string
	notes        []string
	// readsOnly: the log records only what its side read (the Java SDK's),
	// so no rule can pass on the absence of what that side sent, nor fail
	// on it (failsForWantOf).
	readsOnly bool
	// zone names the zone local times were read in ("" if none were).
	zone string
}

// Directions of a logged line: the logging side read the message or wrote it.
const (
	dirRead  = "read"
	dirWrite = "write"
)

// methodResourcesRead is a request only a client sends (inferSide); jsonrpc
// names no constant for it.
const methodResourcesRead = "resources/read"

// Kinds of entries besides a message.
const (
	kindIgnore = "ignore" // the client logged that it ignored a message for ref
	kindClose  = "close"  // the client closed the HTTP response stream of ref
)

// entry is one recorded message (or a client's reaction, by kind).
type entry struct {
	line    int
	side    trace.Actor // the side that logged it ("" for a wire view)
	dir     string      // "read" or "write" (JSONL: "write" by From)
	from    trace.Actor // the sender
	at      int64
	timed   bool
	whole   bool // its time is in whole seconds (no fraction written)
	message json.RawMessage
	msg     jsonrpc.Message // message read by jsonrpc.Parse, once
	kind    string          // "" for a message, kindIgnore or kindClose
	ref     string          // the request id text an ignore or close concerns
	session string          // the HTTP session (Mcp-Session-Id), "" if unknown
	within  *trace.Span     // the HAR exchange a response streamed in (absolute ms), nil when at is exact
	note    string          // what the line was, for the event's note
	// hop is the hop of the path a recording intermediary saw the message
	// on (HopClient, HopServer), "" when the transcript has one view; wire
	// numbers the message on both its hops (hops.go). A message line's
	// ref is then the request whose response stream carries it.
	hop  string
	wire int
	// actor, typ, headers and status are an event line's (kindEvent);
	// status is a reject's HTTP status code ("404").
	actor   trace.Actor
	typ     trace.EventType
	status  string
	headers map[string]string
}

// Import parses data, in any format [Sniff] names, and returns its trace
// (Trace.Scenario is nil; Trace.Source says the format, the observer and
// what was inferred, with the reasons in its note).
func Import(data []byte, opts Options) (*trace.Trace, error) {
	if len(data) > MaxBytes {
		return nil, &Error{Err: fmt.Errorf("%w: %s bytes, the limit is %s (4 MiB)", ErrTranscript, trace.Thousands(int64(len(data))), trace.Thousands(MaxBytes))}
	}
	// A byte order mark, as some Windows editors write, is not a line.
	data = bytes.TrimPrefix(data, bom)
	entries, format, md, err := parse(data, opts)
	if err != nil {
		return nil, err
	}
	side := trace.Actor(opts.Side)
	oneSided := (format == FormatGoSDK || format == FormatJava) && entries[0].side == ""
	if oneSided {
		if side == "" {
			side = inferSide(entries)
		}
		if side != trace.ActorClient && side != trace.ActorServer {
			return nil, &Error{Err: fmt.Errorf("%w: cannot tell which side wrote this log (nobody sends a request); say client or server", ErrTranscript)}
		}
		for i := range entries {
			entries[i].side = side
			entries[i].from = other(side, entries[i].dir)
		}
		md.observer = string(side)
	}
	if format == FormatGoSDK && !oneSided {
		md.observer = trace.ObserverServer
		md.notes = append(md.notes, "Both sides' logs: the server's reads are recorded, so its own order of events is judged.")
	}
	if opts.Observer != "" {
		md.observer = opts.Observer
	}
	switch md.observer {
	case trace.ObserverClient, trace.ObserverServer, trace.ObserverWire:
	default:
		return nil, &Error{Err: fmt.Errorf("%w: observer must be client, server or wire, not %q", ErrTranscript, md.observer)}
	}
	if !oneSided && md.observer != trace.ObserverWire && format != FormatGoSDK && format != FormatJSONL {
		side = trace.Actor(md.observer)
	}
	if !entries[0].timed {
		if note := placeEarlyResponses(entries); note != "" {
			md.notes = append(md.notes, note)
		}
	}
	tr := build(entries, format, string(side), md, opts)
	coordinator.Decide(tr, nil)
	tr.Checks = checks.Evaluate(tr)
	if md.readsOnly {
		for i, c := range tr.Checks {
			switch {
			case c.OK != nil && *c.OK:
				tr.Checks[i] = trace.Check{Rule: c.Rule, Detail: fmt.Sprintf("Undecided: this log records only the messages the %s read, never what it sent, so a rule cannot hold for want of a message (it would have said: %s)", md.observer, c.Detail)}
			case c.OK != nil && failsForWantOf(c.Rule) == md.observer:
				tr.Checks[i] = trace.Check{Rule: c.Rule, Detail: fmt.Sprintf("Undecided: this log records only the messages the %s read, never what it sent, so a rule cannot fail for want of a message the %s sent (it would have said: %s)", md.observer, md.observer, c.Detail)}
			}
		}
	}
	return tr, nil
}

// serverRequest reports whether method is a request only a server sends
// (MCP 2025-11-25: roots, sampling, elicitation), for inferSide.
func serverRequest(method string) bool {
	return method == "roots/list" || method == "sampling/createMessage" || method == "elicitation/create"
}

// failsForWantOf names the rules that fail for want of a message one side
// sends, and that side: progress-token-known fails when no client request
// carried the token, which a log of only what the client read never shows
// (a Java SDK client's). A reads-only log of that side leaves them
// undecided, as it does every pass. "" for every other rule.
func failsForWantOf(rule trace.RuleID) string {
	if rule == checks.ProgressTokenKnown {
		return trace.ObserverClient
	}
	return ""
}

// isScenario reports whether data, whose first line that is not blank is
// line, is a scenario document: a JSON object with an "mcplab" member, on
// that line or spread over many.
func isScenario(data []byte, line string) bool {
	var head map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &head) != nil && json.NewDecoder(bytes.NewReader(data)).Decode(&head) != nil {
		return false
	}
	_, ok := head["mcplab"]
	return ok
}

func other(side trace.Actor, dir string) trace.Actor {
	if dir == dirWrite {
		return side
	}
	if side == trace.ActorClient {
		return trace.ActorServer
	}
	return trace.ActorClient
}

// parse reads data in the format Sniff names, then checks the times.
func parse(data []byte, opts Options) ([]entry, string, meta, error) {
	format := Sniff(data)
	var es []entry
	md := meta{observer: trace.ObserverWire}
	var err error
	switch format {
	case FormatGoSDK, FormatJSONL:
		es, err = parseLines(data, format, &md)
	case FormatClaude:
		es, err = parseClaude(data, &md)
	case FormatVSCode:
		es, err = parseVSCode(data, opts.Zone, &md)
	case FormatTee:
		es, err = parseTee(data, &md)
	case FormatHAR:
		es, err = parseHAR(data, &md)
	case FormatSSE:
		es, err = parseHTTPDump(data, &md)
	case FormatPython, FormatCSharp, FormatJava:
		es, err = parseSDKDebug(data, format, opts.Zone, &md)
	case FormatScenario:
		n := 1 + bytes.Count(data[:len(data)-len(bytes.TrimLeft(data, " \t\r\n"))], []byte("\n"))
		if isScenario(data, firstLine(data)) {
			return nil, "", md, lineErr(n, "this is a scenario (the lab's own format), not a transcript: run it as a scenario")
		}
		return nil, "", md, lineErr(n, "not a transcript line: a JSON object with \"from\" and \"message\" (the lab's JSON Lines), or a HAR file with \"log\"")
	default:
		n := 1 + bytes.Count(data[:len(data)-len(bytes.TrimLeft(data, " \t\r\n"))], []byte("\n"))
		if strings.TrimSpace(string(data)) == "" {
			return nil, "", md, &Error{Err: fmt.Errorf("%w: no messages", ErrTranscript)}
		}
		if file, ok := probeIndex(data); ok {
			return nil, "", md, lineErr(n, "this is the probe's index (probe.json), not a transcript: open one of the transcripts it lists, such as %s", file)
		}
		return nil, "", md, lineErr(n, "unknown format. Known: %s. The first line was %q", knownFormats, excerpt(firstLine(data)))
	}
	if err != nil {
		return nil, "", md, err
	}
	if len(es) == 0 {
		n := 1 + bytes.Count(data[:len(data)-len(bytes.TrimLeft(data, " \t\r\n"))], []byte("\n"))
		return nil, "", md, lineErr(n, "no MCP messages in this %s transcript (the first line was %q)", format, excerpt(firstLine(data)))
	}
	for i := range es {
		e := &es[i]
		if i > 0 && e.timed != es[0].timed {
			if format == FormatJSONL {
				return nil, "", md, lineErr(e.line, "either every line has a time \"t\" or none does")
			}
			return nil, "", md, lineErr(e.line, "either every line starts with the log package's date and time or none does")
		}
		if e.timed && i > 0 {
			prev := es[i-1].at
			if e.at < prev {
				return nil, "", md, lineErr(e.line, "its time goes back %d ms before the time of line %d: lines must be in the order they were recorded", prev-e.at, es[i-1].line)
			}
			if e.at-es[0].at > scenario.MaxDurationMs {
				return nil, "", md, lineErr(e.line, "t is more than %d ms after the first line", scenario.MaxDurationMs)
			}
		}
		if !e.timed {
			e.at = int64(e.line)
		}
		if e.message != nil {
			if err := checkMessage(e.line, e.message); err != nil {
				return nil, "", md, err
			}
			e.msg, _ = jsonrpc.Parse(e.message)
		}
	}
	return es, format, md, nil
}

// knownFormats lists the formats Import reads, for the unknown-format error.
const knownFormats = "Claude Desktop mcp-server-NAME.log / mcp.log (\"...Z [name] [info] Message from client: {json}\"), " +
	"VS Code's MCP output channel (\"YYYY-MM-DD HH:MM:SS.mmm [debug] [editor -> server] {json}\"), " +
	"a stdio tee (\"[STDIN] {json}\" / \"[STDOUT] {json}\", optionally after an RFC 3339 time), a HAR 1.2 file, a raw HTTP/SSE dump (\"POST /mcp HTTP/1.1\", \"data: {json}\"), " +
	"Go SDK LoggingTransport lines (\"read: {json}\" / \"write: {json}\", optionally after the log package's date and time), " +
	"the Python SDK's debug log (\"Received JSON: b'{json}'\"), the C# SDK's trace log (\"transport received message. Message: '{json}'\"), the Java SDK's debug log (\"Received JSON message: {json}\") " +
	"and the lab's JSON Lines ({\"t\",\"from\",\"message\"}, optionally after a header line {\"observer\":...})"

// firstLine is data's first line that is not blank, trimmed.
func firstLine(data []byte) string {
	first, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	return strings.TrimSpace(string(first))
}

// scanLines calls f with each line of data (1-based number, trimmed of the
// line end), stopping at MaxLines or the first error.
func scanLines(data []byte, f func(n int, line string) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), MaxBytes)
	n := 0
	for sc.Scan() {
		n++
		if n > MaxLines {
			return lineErr(n, "more than %s lines", trace.Thousands(MaxLines))
		}
		if err := f(n, strings.TrimRight(sc.Text(), "\r")); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return &Error{Line: n + 1, Err: fmt.Errorf("%w: %v", ErrTranscript, err)}
	}
	return nil
}

// parseLines reads the Go SDK's log and the lab's JSON Lines (with its
// optional header line).
func parseLines(data []byte, format string, md *meta) ([]entry, error) {
	var out []entry
	first := true
	err := scanLines(data, func(n int, line string) error {
		line = strings.TrimSpace(line)
		if line == "" {
			return nil
		}
		var e entry
		var err error
		if format == FormatJSONL {
			if first {
				first = false
				if ok, herr := jsonlHeader(n, line, md); ok || herr != nil {
					return herr
				}
			}
			e, err = jsonlEntry(n, line)
		} else {
			e, err = sdkEntry(n, line)
		}
		if err != nil {
			return err
		}
		if e.message != nil || e.kind == kindEvent {
			out = append(out, e)
		}
		return nil
	})
	if err == nil && format == FormatJSONL {
		err = checkHops(out)
	}
	return out, err
}

func sdkEntry(n int, line string) (entry, error) {
	e := entry{line: n}
	if m := logPrefix.FindStringSubmatch(line); m != nil {
		if t, err := time.Parse("2006/01/02 15:04:05.999999", m[1]); err == nil {
			e.at, e.timed, e.whole = t.UnixMilli(), true, !strings.Contains(m[1], ".")
		}
		line = line[len(m[0]):]
	}
	for _, s := range []string{"client ", "server "} {
		if strings.HasPrefix(line, s) {
			e.side = trace.Actor(strings.TrimSpace(s))
			line = strings.TrimPrefix(line, s)
		}
	}
	switch {
	case strings.HasPrefix(line, "read error:"), strings.HasPrefix(line, "write error:"):
		return entry{}, nil // transport errors carry no message
	case strings.HasPrefix(line, "read: "):
		e.dir, line = dirRead, strings.TrimPrefix(line, "read: ")
	case strings.HasPrefix(line, "write: "):
		e.dir, line = dirWrite, strings.TrimPrefix(line, "write: ")
	default:
		return e, lineErr(n, "expected \"read: {json}\" or \"write: {json}\"")
	}
	if !json.Valid([]byte(line)) {
		return e, lineErr(n, "the message is not valid JSON (a truncated line?)")
	}
	e.message = compact(line)
	if e.side != "" {
		e.from = other(e.side, e.dir)
	}
	return e, nil
}

func compact(s string) json.RawMessage {
	var b bytes.Buffer
	_ = json.Compact(&b, []byte(s))
	return b.Bytes()
}

// bareMessageText is the error of a JSON Lines line that is a JSON-RPC
// message by itself (bareMessage).
const bareMessageText = `a JSON-RPC message by itself, which does not say who sent it: the lab's JSON Lines wrap each message as {"from":"client","message":{...}} ("server" for what the server sent; an optional "t" is its time), or paste the log it was copied from`

func jsonlEntry(n int, line string) (entry, error) {
	var r jsonlRecord
	if bareMessage(line) {
		return entry{}, lineErr(n, "%s", bareMessageText)
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return entry{}, lineErr(n, "not a transcript line: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if err := checkLineKeys(n, line); err != nil {
		return entry{}, err
	}
	if r.Type != "" || r.Actor != "" {
		return eventEntry(n, &r)
	}
	if r.From != trace.ActorClient && r.From != trace.ActorServer {
		return entry{}, lineErr(n, "from must be \"client\" or \"server\"")
	}
	if len(r.Message) > 0 && r.Message[0] == '[' {
		return entry{}, batchErr(n, r.Message)
	}
	if len(r.Message) == 0 || r.Message[0] != '{' {
		return entry{}, lineErr(n, "message must be a JSON-RPC object")
	}
	e := entry{line: n, dir: dirWrite, from: r.From, message: compact(string(r.Message)), session: r.Session}
	if err := hopFields(n, &r, &e); err != nil {
		return entry{}, err
	}
	if len(r.T) > 0 {
		at, err := parseTime(r.T)
		if err != nil {
			return entry{}, lineErr(n, "t: %v", err)
		}
		e.at, e.timed = at, true
	}
	return e, nil
}

// MaxAbsTimeMs bounds a transcript time in ms since the Unix epoch, either
// side of 0: 253,402,300,799,999 is the last millisecond of the year 9999,
// the latest time RFC 3339 can write. Within it every time is exact as an
// int64 and every span (a time minus the first time) fits an int64, so the
// same transcript gives the same trace natively and in WebAssembly.
const MaxAbsTimeMs = 253_402_300_799_999

// parseTime reads milliseconds (a finite JSON number within ±MaxAbsTimeMs,
// a fraction truncated toward zero) or an RFC 3339 time (as ms since the
// epoch).
func parseTime(raw json.RawMessage) (int64, error) {
	if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		n, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.IsInf(n, 0) || math.IsNaN(n) || math.Abs(n) > MaxAbsTimeMs {
			return 0, fmt.Errorf("%s ms is outside the times a transcript can hold (at most %d ms either side of 1970, the year 9999)", excerpt(string(raw)), int64(MaxAbsTimeMs))
		}
		return int64(n), nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, errors.New("must be milliseconds or an RFC 3339 time")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, errors.New("must be milliseconds or an RFC 3339 time")
	}
	return t.UnixMilli(), nil
}

// excerpt is s cut to 60 characters for an error message.
func excerpt(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// inferSide: the side that writes requests such as initialize,
// server/discover (2026-07-28) or tools/call is the client; the side that
// writes a serverRequest is the server (a client's log of what it read
// holds those alone).
func inferSide(es []entry) trace.Actor {
	for _, e := range es {
		m := e.msg
		if !m.HasID || m.Method == "" {
			continue
		}
		if strings.HasPrefix(m.Method, "notifications/") {
			continue
		}
		if serverRequest(m.Method) {
			// roots/list ends in "/list" too, but a server asks it.
			if e.dir == dirWrite {
				return trace.ActorServer
			}
			return trace.ActorClient
		}
		if m.Method == jsonrpc.MethodInitialize || m.Method == jsonrpc.MethodDiscover || m.Method == jsonrpc.MethodToolsCall || strings.HasSuffix(m.Method, "/list") || m.Method == methodResourcesRead {
			if e.dir == dirWrite {
				return trace.ActorClient
			}
			return trace.ActorServer
		}
	}
	return ""
}

// Schema is the JSON Schema of one line of the lab's JSON Lines transcript
// format, served by the site as transcript.schema.json.
//
//go:embed transcript.schema.json
var Schema []byte
