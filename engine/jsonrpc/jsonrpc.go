// Package jsonrpc is the one reader and builder of the JSON-RPC 2.0
// messages MCP puts on the wire (MCP basic protocol, "Messages"). Every
// other package that needs to know what a message says (the runner, the
// checks, the transcript importer, the timeline) asks [Parse] instead of
// unmarshalling the message itself, so each message is read once and read
// the same way everywhere.
//
// [Parse] reads a message in one pass of encoding/json into a struct whose
// members are kept as raw JSON, then derives what the lab needs from them:
// its [Kind], its id, method, progress token and value, and, for
// notifications/cancelled, the validated [Cancellation] (DOMAIN.md §1).
//
// Ids and progress tokens are compared as their canonical JSON text (see
// [IDText]): a string or an integer, so 7 and "7" are different ids and
// anything else (null, 1.5, an object) is no id at all.
//
// The builders ([NewRequest], [NewNotification], [NewResult], [NewError],
// [NewCancel], [NewProgress]) return compact JSON with members in the order MCP
// examples use (jsonrpc, id, method, params, result, error), HTML characters
// escaped as encoding/json does. They take ids as their JSON text.
package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Methods the lab reads or writes.
const (
	MethodCancelled    = "notifications/cancelled"
	MethodProgress     = "notifications/progress"
	MethodListen       = "subscriptions/listen"
	MethodAcknowledged = "notifications/subscriptions/acknowledged"
	MethodToolsCall    = "tools/call"
	MethodInitialize   = "initialize"
	// MethodDiscover is the 2026-07-28 revision's handshake, which
	// replaces initialize: the client names its version in
	// params._meta (MetaProtocolVersion), and the result lists the
	// server's supportedVersions.
	MethodDiscover    = "server/discover"
	MethodTasksGet    = "tasks/get"
	MethodTasksCancel = "tasks/cancel"
)

// MetaProtocolVersion is the params._meta member in which a 2026-07-28
// request names the protocol revision it speaks.
const MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// Kind is what a message is (JSON-RPC 2.0 §4–5).
type Kind int

// Kinds of message.
const (
	// Invalid: not JSON, not an object, or a method that is not a string.
	Invalid Kind = iota
	// Request: a method and an id member.
	Request
	// Notification: a method and no id member.
	Notification
	// Response: a result and no method.
	Response
	// Error: an error and no method (and no result).
	Error
	// Other: an object with neither a method nor a result or error.
	Other
)

// String names the kind ("request", "notification", "response", "error",
// "other", "invalid").
func (k Kind) String() string {
	switch k {
	case Request:
		return "request"
	case Notification:
		return "notification"
	case Response:
		return "response"
	case Error:
		return "error"
	case Other:
		return "other"
	}
	return "invalid"
}

// Message is one wire message as read by [Parse]. Raw members are nil when
// absent (and the four bytes null when written as null).
type Message struct {
	Kind Kind
	// ID is the canonical JSON text of the id when it is a string or an
	// integer, "" otherwise (absent, null, a fraction, an object...).
	ID string
	// RawID is the id member as written; HasID reports it is present, even
	// as null.
	RawID json.RawMessage
	HasID bool
	// Method is the method when it is a string, "" when absent.
	Method string
	// Params, Result and Error are the members as written.
	Params json.RawMessage
	Result json.RawMessage
	Error  json.RawMessage

	// ParamsObject reports that params is a JSON object (the fields below
	// are read only from an object).
	ParamsObject bool
	// Name is params.name when a string (the tool of a tools/call).
	Name string
	// Arguments is params.arguments as written.
	Arguments json.RawMessage
	// ProgressToken is the canonical text of params.progressToken (a
	// notifications/progress) or of params._meta.progressToken (a request),
	// "" when absent or not a string or an integer.
	ProgressToken string
	// Progress and Total are params.progress and params.total when they are
	// finite JSON numbers; ProgressText and TotalText are the numbers as
	// written ("" when absent or not numbers).
	Progress     *float64
	Total        *float64
	ProgressText string
	TotalText    string
	// ErrorCode is error.code when error is an object with an integer code.
	ErrorCode *int64
	// ErrorMessage is error.message when a string.
	ErrorMessage string

	cancel    Cancellation
	cancelWhy fault // why it is no cancellation, 0 when it is one
}

// wireMessage is what a message is read into: every member raw, so that
// no member of an unexpected type makes the whole message unreadable.
// Top-level names match as encoding/json matches struct fields (exact or
// case-folded: "ID" is the id); the last of duplicate members wins.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method json.RawMessage `json:"method"`
	Params params          `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// params captures params as written and, when it is an object, the members
// the lab reads, by their exact names (JSON-RPC member names are
// case-sensitive; the last of duplicates wins).
type params struct {
	raw    json.RawMessage
	object bool
	// name, arguments, progressToken, meta (_meta), progress, total,
	// requestID and reason are those members as written, nil if absent.
	name, arguments, progressToken, meta, progress, total, requestID, reason json.RawMessage
}

// UnmarshalJSON is the slow path's (decodeMessage's) reading of params.
func (p *params) UnmarshalJSON(b []byte) error {
	p.raw = append(json.RawMessage(nil), b...)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	p.object = true
	var f map[string]json.RawMessage
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	p.name, p.arguments, p.progressToken, p.meta = f["name"], f["arguments"], f["progressToken"], f["_meta"]
	p.progress, p.total, p.requestID, p.reason = f["progress"], f["total"], f["requestId"], f["reason"]
	return nil
}

// ErrInvalid is the category of Parse's errors.
var ErrInvalid = errors.New("not a JSON-RPC message")

// Parse reads msg. It returns a Message of Kind Invalid and an error
// wrapping ErrInvalid when msg is not JSON, not an object, or its method is
// not a string; every other object is a Message, however odd its members.
//
// A valid object whose member names (at the levels read) hold no escape is
// read by scanMessage, one pass over bytes json.Valid has checked; any
// other input by decodeMessage through encoding/json, which gives the same
// Message (TestParseFastMatchesSlow) and encoding/json's error text.
func Parse(msg json.RawMessage) (Message, error) {
	if len(msg) == 0 {
		return Message{}, fmt.Errorf("%w: empty", ErrInvalid)
	}
	w, ok := scanMessage(msg)
	if !ok {
		var err error
		if w, err = decodeMessage(msg); err != nil {
			return Message{}, err
		}
	}
	return fromWire(&w)
}

// decodeMessage reads msg through encoding/json (Parse's slow path).
func decodeMessage(msg json.RawMessage) (wireMessage, error) {
	var w wireMessage
	if err := json.Unmarshal(msg, &w); err != nil {
		return w, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if len(w.ID) == 0 && len(w.Method) == 0 && w.Params.raw == nil && len(w.Result) == 0 && len(w.Error) == 0 && !isObject(msg) {
		return w, fmt.Errorf("%w: not an object", ErrInvalid) // null
	}
	if meta := w.Params.meta; len(meta) > 0 && meta[0] == '{' {
		var mf map[string]json.RawMessage
		if json.Unmarshal(meta, &mf) == nil {
			w.Params.meta = mf["progressToken"]
		}
	} else {
		w.Params.meta = nil
	}
	return w, nil
}

// fromWire derives a Message from the members read. w.Params.meta holds
// _meta.progressToken by then (nil if none).
func fromWire(w *wireMessage) (Message, error) {
	m := Message{RawID: w.ID, HasID: w.ID != nil, Params: w.Params.raw, Result: w.Result, Error: w.Error, ParamsObject: w.Params.object}
	if w.Method != nil {
		s, ok := stringText(w.Method)
		if !ok {
			return Message{}, fmt.Errorf("%w: method is not a string", ErrInvalid)
		}
		m.Method = s
	}
	m.ID, _ = IDText(w.ID)
	switch {
	case m.Method != "" && m.HasID:
		m.Kind = Request
	case m.Method != "":
		m.Kind = Notification
	case m.Result != nil:
		m.Kind = Response
	case m.Error != nil:
		m.Kind = Error
	default:
		m.Kind = Other
	}
	p := &w.Params
	if s, ok := stringText(p.name); ok {
		m.Name = s
	}
	m.Arguments = p.arguments
	tok := p.progressToken
	if m.Method != MethodProgress {
		tok = p.meta
	}
	m.ProgressToken, _ = IDText(tok)
	m.Progress, m.ProgressText = number(p.progress)
	m.Total, m.TotalText = number(p.total)
	if m.Error != nil && len(m.Error) > 0 && m.Error[0] == '{' {
		code, message, ok := scanError(m.Error)
		if !ok {
			var e struct {
				Code    json.RawMessage `json:"code"`
				Message json.RawMessage `json:"message"`
			}
			if json.Unmarshal(m.Error, &e) == nil {
				code, message = e.Code, e.Message
			}
		}
		if n, err := strconv.ParseInt(string(code), 10, 64); err == nil {
			m.ErrorCode = &n
		}
		m.ErrorMessage, _ = stringText(message)
	}
	m.cancel, m.cancelWhy = cancellation(&m, p)
	return m, nil
}

// Cancellation returns the validated notifications/cancelled this message
// is (DOMAIN.md §1), or an error wrapping ErrMalformedCancel saying why it
// is not one.
func (m Message) Cancellation() (Cancellation, error) {
	switch m.cancelWhy {
	case faultMethod:
		return Cancellation{}, fmt.Errorf("%w: method is %q", ErrMalformedCancel, m.Method)
	case faultParams:
		return Cancellation{}, fmt.Errorf("%w: params is not an object", ErrMalformedCancel)
	case faultMissing:
		return Cancellation{}, fmt.Errorf("%w: params.requestId is missing", ErrMalformedCancel)
	case faultRequestID:
		return Cancellation{}, fmt.Errorf("%w: params.requestId is not a string or an integer", ErrMalformedCancel)
	}
	return m.cancel, nil
}

// fault is why a message is no valid cancellation; the error is built
// only when Cancellation is asked, so reading any other message costs none.
type fault uint8

const (
	faultNone fault = iota
	faultMethod
	faultParams
	faultMissing
	faultRequestID
)

// IsFinal reports whether m ends its request: a response or an error
// carrying an id member.
func (m Message) IsFinal() bool { return (m.Kind == Response || m.Kind == Error) && m.HasID }

func isObject(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c == '{'
	}
	return false
}

// number reads a raw JSON number; it returns nil for anything else and for
// a number too large for a float64.
func number(raw json.RawMessage) (*float64, string) {
	if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		return nil, ""
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil, ""
	}
	return &f, string(raw)
}

// stringText unquotes a raw JSON string.
func stringText(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if plain(raw) {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// plain reports whether a raw JSON string needs no unescaping and is
// already what json.Marshal writes for its value: printable ASCII, no
// backslash, none of the HTML characters json.Marshal escapes.
func plain(raw json.RawMessage) bool {
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// IDText returns the canonical JSON text of a JSON-RPC id or progress token
// (a string, re-encoded as json.Marshal writes it, or an integer that fits
// an int64) and false for anything else, so ids that arrive on the wire
// compare equal to the ids a scenario names.
func IDText(raw json.RawMessage) (string, bool) {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		if len(raw) >= 2 && raw[len(raw)-1] == '"' && plain(raw) {
			return string(raw), true
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		b, _ := json.Marshal(s)
		return string(b), true
	}
	if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return "", false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return "", false
	}
	return strconv.FormatInt(n, 10), true
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}

// Cancellation is a valid notifications/cancelled (DOMAIN.md §1).
type Cancellation struct {
	// RequestID is the canonical JSON text of params.requestId (a string or
	// an integer).
	RequestID string
	// Reason is params.reason when it is a string; nil when absent or not
	// a string (a non-string reason does not invalidate the cancellation,
	// it is treated as absent).
	Reason *string
	// ReasonPresent reports that params has a reason member at all.
	ReasonPresent bool
}

// ErrMalformedCancel is the category of cancellation errors: the server
// ignores such a message silently (DOMAIN.md §1).
var ErrMalformedCancel = errors.New("malformed cancellation")

// cancellation validates m as a notifications/cancelled (DOMAIN.md §1),
// or says why it is not one.
func cancellation(m *Message, p *params) (Cancellation, fault) {
	if m.Method != MethodCancelled {
		return Cancellation{}, faultMethod
	}
	if !p.object {
		return Cancellation{}, faultParams
	}
	if p.requestID == nil {
		return Cancellation{}, faultMissing
	}
	id, ok := IDText(p.requestID)
	if !ok {
		return Cancellation{}, faultRequestID
	}
	c := Cancellation{RequestID: id, ReasonPresent: p.reason != nil}
	if r, ok := stringText(p.reason); ok {
		c.Reason = &r
	}
	return c, faultNone
}

// ParseCancellation validates msg as a notifications/cancelled: it returns
// an error wrapping ErrMalformedCancel for a message that is not JSON, a
// wrong method, params that are not an object, or a requestId that is
// missing or not a string or an integer (DOMAIN.md §1).
func ParseCancellation(msg json.RawMessage) (Cancellation, error) {
	m, err := Parse(msg)
	if err != nil {
		if string(trimSpace(msg)) == "null" {
			return Cancellation{}, fmt.Errorf("%w: method is %q", ErrMalformedCancel, "")
		}
		return Cancellation{}, fmt.Errorf("%w: not a JSON object", ErrMalformedCancel)
	}
	return m.Cancellation()
}

// Reader parses messages once each: a message the runner put in several
// events (its send and its deliver or drop share one backing array) is read
// the first time and remembered, so reading every event of a trace costs
// one parse per wire message. The bytes a Reader has read must not change
// while it is in use (trace events never do). The zero value is ready; not safe for
// concurrent use.
type Reader struct {
	seen map[*byte]readerEntry
}

type readerEntry struct {
	n   int
	m   Message
	err error
}

// Parse is jsonrpc.Parse, remembered for the bytes msg points at.
func (r *Reader) Parse(msg json.RawMessage) (Message, error) {
	if len(msg) == 0 {
		return Parse(msg)
	}
	if e, ok := r.seen[&msg[0]]; ok && e.n == len(msg) {
		return e.m, e.err
	}
	m, err := Parse(msg)
	if r.seen == nil {
		r.seen = map[*byte]readerEntry{}
	}
	r.seen[&msg[0]] = readerEntry{len(msg), m, err}
	return m, err
}
