// Package transcript turns a recording of real MCP traffic into a trace, so
// the same templates draw it and the same checks judge it as a simulated
// one (ARCHITECTURE.md: checks are functions of the events).
//
// Formats, detected from the first meaningful line:
//   - the Go SDK's mcp.LoggingTransport output: "read: {json}" and
//     "write: {json}" lines from one side, or from both sides when each line
//     starts with "client " or "server " ("server read: {...}");
//   - JSON Lines in the lab's own format, one object per line:
//     {"t": <ms number or RFC 3339 time>, "from": "client"|"server",
//     "message": {...}} (JSON Schema: TranscriptSchema).
//
// Judge only what the recorded side could observe. A server-side log shows
// what the server read before it wrote, so a response written after the
// server read a valid cancellation for that request is a violation; a
// client-side log cannot tell whether the server completed before the
// cancellation reached it, so no-message-after-cancel is undecided there.
// Which side wrote a one-sided log is inferred from who sends the requests
// (or given in Options.Side). Without timestamps events keep their order
// (Trace.Clock "order") and time-based checks are not judged.
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
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// Limits on a transcript (a pasted or dropped file is untrusted input).
const (
	MaxBytes = 4 << 20 // 4 MiB
	MaxLines = 20_000
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
	Err  error
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

func lineErr(n int, format string, args ...any) *Error {
	return &Error{Line: n, Err: fmt.Errorf("%w: %s", ErrTranscript, fmt.Sprintf(format, args...))}
}

// Options steer an import.
type Options struct {
	// Side is who wrote a one-sided log, "client" or "server"; "" infers it
	// from who sends the requests.
	Side string
}

// Directions of a logged line: the logging side read the message or wrote it.
const (
	dirRead  = "read"
	dirWrite = "write"
)

// methodResourcesRead is a request only a client sends (inferSide); jsonrpc
// names no constant for it.
const methodResourcesRead = "resources/read"

// entry is one recorded message.
type entry struct {
	line    int
	side    string // the side that logged it ("" for the wire view of JSONL)
	dir     string // "read" or "write" (JSONL: "write" by From)
	from    string // the sender
	at      int64
	timed   bool
	message json.RawMessage
	msg     jsonrpc.Message // message read by jsonrpc.Parse, once
}

// Import parses data and returns its trace (Trace.Scenario is nil).
func Import(data []byte, opts Options) (*trace.Trace, error) {
	if len(data) > MaxBytes {
		return nil, &Error{Err: fmt.Errorf("%w: %d bytes, the limit is %d", ErrTranscript, len(data), MaxBytes)}
	}
	// A byte order mark, as some Windows editors write, is not a line.
	entries, format, err := parse(bytes.TrimPrefix(data, bom))
	if err != nil {
		return nil, err
	}
	side := opts.Side
	oneSided := format == FormatGoSDK && entries[0].side == ""
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
	}
	tr := build(entries, format, side, oneSided)
	tr.Checks = checks.Evaluate(tr)
	return tr, nil
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

func other(side, dir string) string {
	if dir == dirWrite {
		return side
	}
	if side == trace.ActorClient {
		return trace.ActorServer
	}
	return trace.ActorClient
}

func parse(data []byte) ([]entry, string, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), MaxBytes)
	var out []entry
	format := ""
	n := 0
	for sc.Scan() {
		n++
		if n > MaxLines {
			return nil, "", lineErr(n, "more than %d lines", MaxLines)
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if format == "" {
			switch {
			case strings.HasPrefix(line, "{") && isScenario(data, line):
				return nil, "", lineErr(n, "this is a scenario (SCENARIO.md), not a transcript: run it as a scenario")
			case strings.HasPrefix(line, "{"):
				format = FormatJSONL
			case goSDKLine(line):
				format = FormatGoSDK
			default:
				return nil, "", lineErr(n, "unknown format: expected Go SDK LoggingTransport lines (\"read: {...}\" / \"write: {...}\", optionally after the log package's date and time) or JSON Lines {\"t\",\"from\",\"message\"}; the line starts %q", excerpt(line))
			}
		}
		var e entry
		var err error
		if format == FormatJSONL {
			e, err = jsonlEntry(n, line)
		} else {
			e, err = sdkEntry(n, line)
		}
		if err != nil {
			return nil, "", err
		}
		if e.message != nil && len(out) > 0 && e.timed != out[0].timed {
			if format == FormatJSONL {
				return nil, "", lineErr(n, "either every line has a time \"t\" or none does")
			}
			return nil, "", lineErr(n, "either every line starts with the log package's date and time or none does")
		}
		if e.message != nil && e.timed && len(out) > 0 {
			prev := out[len(out)-1].at
			if e.at < prev {
				return nil, "", lineErr(n, "t goes back in time (%d ms after %d ms): lines must be in the order they were recorded", e.at, prev)
			}
			if e.at-out[0].at > scenario.MaxDurationMs {
				return nil, "", lineErr(n, "t is more than %d ms after the first line", scenario.MaxDurationMs)
			}
		}
		if e.message != nil {
			e.msg, _ = jsonrpc.Parse(e.message)
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", &Error{Line: n + 1, Err: fmt.Errorf("%w: %v", ErrTranscript, err)}
	}
	if len(out) == 0 {
		return nil, "", &Error{Err: fmt.Errorf("%w: no messages", ErrTranscript)}
	}
	return out, format, nil
}

func sdkEntry(n int, line string) (entry, error) {
	e := entry{line: n}
	if m := logPrefix.FindStringSubmatch(line); m != nil {
		if t, err := time.Parse("2006/01/02 15:04:05.999999", m[1]); err == nil {
			e.at, e.timed = t.UnixMilli(), true
		}
		line = line[len(m[0]):]
	}
	for _, s := range []string{"client ", "server "} {
		if strings.HasPrefix(line, s) {
			e.side = strings.TrimSpace(s)
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
	if !e.timed {
		e.at = int64(n)
	}
	return e, nil
}

func compact(s string) json.RawMessage {
	var b bytes.Buffer
	_ = json.Compact(&b, []byte(s))
	return b.Bytes()
}

func jsonlEntry(n int, line string) (entry, error) {
	var r struct {
		T       json.RawMessage `json:"t"`
		From    string          `json:"from"`
		Message json.RawMessage `json:"message"`
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return entry{}, lineErr(n, "not a transcript line: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if r.From != trace.ActorClient && r.From != trace.ActorServer {
		return entry{}, lineErr(n, "from must be \"client\" or \"server\"")
	}
	if len(r.Message) == 0 || r.Message[0] != '{' {
		return entry{}, lineErr(n, "message must be a JSON-RPC object")
	}
	e := entry{line: n, dir: dirWrite, from: r.From, message: compact(string(r.Message)), at: int64(n)}
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

// inferSide: the side that writes requests such as initialize or tools/call
// is the client.
func inferSide(es []entry) string {
	for _, e := range es {
		m := e.msg
		if !m.HasID || m.Method == "" {
			continue
		}
		if strings.HasPrefix(m.Method, "notifications/") {
			continue
		}
		if m.Method == jsonrpc.MethodInitialize || m.Method == jsonrpc.MethodToolsCall || strings.HasSuffix(m.Method, "/list") || m.Method == methodResourcesRead {
			if e.dir == dirWrite {
				return trace.ActorClient
			}
			return trace.ActorServer
		}
	}
	return ""
}

// build lays the entries out as events and derives the request summary.
func build(es []entry, format, side string, oneSided bool) *trace.Trace {
	tr := &trace.Trace{Mcplab: scenario.Version, Events: []trace.Event{}, Requests: []trace.Request{},
		Ledger: trace.Ledger{Records: []trace.LedgerRecord{}}, Tasks: []trace.Task{}, Buffers: []trace.Buffer{}, Reconnects: []trace.Reconnect{}}
	timed := len(es) > 0 && es[0].timed
	base := int64(0)
	if timed {
		base = es[0].at
	}
	src := &trace.Source{Format: format, Side: side, Clock: "ms"}
	if !timed {
		src.Clock = "order"
		src.Note = "This transcript has no timestamps: events keep their order (one step each) and time-based checks, such as timeouts, are not judged."
	}
	if oneSided {
		src.Note = strings.TrimSpace(src.Note + fmt.Sprintf(" One-sided log written by the %s: only what the %s observed is judged.", side, side))
	}
	tr.Source = src
	type req struct {
		sum       trace.Request
		cancelled bool
		finished  bool
	}
	reqs := map[string]*req{}
	var order []string
	wire := 0
	emit := func(e trace.Event) {
		e.Seq = len(tr.Events)
		tr.Events = append(tr.Events, e)
	}
	for i, en := range es {
		at := int64(i)
		if timed {
			at = en.at - base
		}
		m := en.msg
		idText, hasID := m.ID, m.ID != ""
		var idp *scenario.ID
		if hasID {
			var id scenario.ID
			_ = json.Unmarshal([]byte(idText), &id)
			idp = &id
		}
		to := trace.ActorServer
		if en.from == trace.ActorServer {
			to = trace.ActorClient
		}
		wire++
		note := fmt.Sprintf("Line %d.", en.line)
		switch {
		case en.side == "" || en.dir == dirWrite:
			emit(trace.Event{At: at, Actor: en.from, Type: trace.TypeSend, ID: idp, From: en.from, To: to, Wire: wire, Message: en.message, Note: note})
			if en.side == "" {
				emit(trace.Event{At: at, Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idp, From: en.from, To: to, Wire: wire, SentAt: &at, Message: en.message, Note: "Delivered (the transcript records one time per message)."})
			}
		default: // read
			emit(trace.Event{At: at, Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idp, From: en.from, To: to, Wire: wire, Message: en.message, Note: note + " Read by the " + to + "."})
		}
		// What the receiving server observed: a valid cancellation it read
		// for a request in progress (only a log that shows the server's reads
		// can say so: a server-side log, or a two-sided one).
		serverReads := en.from == trace.ActorClient && (en.side == trace.ActorServer || en.side == "" && !oneSided)
		if m.Method == jsonrpc.MethodCancelled && serverReads {
			if c, err := m.Cancellation(); err == nil {
				if r := reqs[c.RequestID]; r != nil && !r.finished && !r.cancelled {
					r.cancelled = true
					st := trace.StateCancelled
					r.sum.State = st
					emit(trace.Event{At: at, Actor: trace.ActorServer, Type: trace.TypeStatus, ID: &r.sum.ID, Status: st, Cause: trace.CauseClient,
						Note: fmt.Sprintf("The server has read the cancellation of request %s while it was in progress: from here on it must send nothing for it.", r.sum.ID)})
				}
			}
		}
		if hasID && m.Method != "" && en.from == trace.ActorClient {
			if _, ok := reqs[idText]; !ok {
				var id scenario.ID
				_ = json.Unmarshal([]byte(idText), &id)
				reqs[idText] = &req{sum: trace.Request{ID: id, Method: m.Method, State: trace.StateInProgress, ClientOutcome: trace.OutcomePending, RetryClass: trace.RetrySafe, SentAt: at}}
				order = append(order, idText)
			}
		}
		if hasID && m.Method == "" && (m.Result != nil || m.Error != nil) && en.from == trace.ActorServer {
			if r := reqs[idText]; r != nil {
				r.finished = true
				r.sum.Response = en.message
				// The client's outcome is known when the log shows the
				// client's side (not a server-only log).
				if en.side != trace.ActorServer && r.sum.ClientOutcome == trace.OutcomePending {
					r.sum.ClientOutcome = trace.OutcomeResult
					if m.Error != nil {
						r.sum.ClientOutcome = trace.OutcomeError
					}
				}
				if !r.cancelled {
					r.sum.State = trace.StateCompleted
					if m.Error != nil {
						r.sum.State = trace.StateFailed
					}
				}
			}
		}
		if m.Method == jsonrpc.MethodCancelled && en.from == trace.ActorClient {
			if c, err := m.Cancellation(); err == nil {
				if r := reqs[c.RequestID]; r != nil {
					cause, sig := trace.CauseClient, trace.SignalNotification
					r.sum.Cause, r.sum.Signal, r.sum.Reason = &cause, &sig, c.Reason
					r.sum.ClientOutcome = trace.OutcomeAbandoned
				}
			}
		}
	}
	for _, k := range order {
		tr.Requests = append(tr.Requests, reqs[k].sum)
	}
	if n := len(tr.Events); n > 0 {
		tr.EndMs = tr.Events[n-1].At
	}
	return tr
}

// Schema is the JSON Schema of one line of the lab's JSON Lines transcript
// format, served by the site as transcript.schema.json.
//
//go:embed transcript.schema.json
var Schema []byte
