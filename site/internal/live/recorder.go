package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
)

// MaxMessage bounds one recorded message: 4 MiB (4,194,304 bytes), the
// transcript importer's own limit (transcript.MaxBytes).
const MaxMessage = transcript.MaxBytes

// Hops of the path, as the transcript names them (engine/transcript).
const (
	HopClient = transcript.HopClient
	HopServer = transcript.HopServer
)

// Header is the transcript's header line (engine/transcript's JSON
// Lines): who recorded it and what it knows of the session.
type Header struct {
	// Observer is trace.ObserverWire for a proxy (it sees neither side's
	// reads), trace.ObserverServer for a mock, trace.ObserverClient for a
	// client's view.
	Observer string `json:"observer"`
	// Transport is "stdio" or "streamable-http".
	Transport string `json:"transport,omitempty"`
	// Protocol is the revision the session speaks, "" to let the importer
	// read it from initialize or server/discover and the server's answer
	// (a client's first MCP-Protocol-Version header may name a revision
	// the server then refuses).
	Protocol string `json:"protocol,omitempty"`
	// Session is the Mcp-Session-Id the server gave, "" if none.
	Session string `json:"session,omitempty"`
	// Proxy names the recording intermediary and its faults ("mcplab
	// proxy -faults buffer=final"), "" for a one-view recorder.
	Proxy string `json:"proxy,omitempty"`
}

// line is one transcript line: a message line or an event line.
type line struct {
	T       string            `json:"t"`
	From    trace.Actor       `json:"from,omitempty"`
	Hop     string            `json:"hop,omitempty"`
	Session string            `json:"session,omitempty"`
	Wire    int               `json:"wire,omitempty"`
	ID      json.RawMessage   `json:"id,omitempty"`
	Actor   trace.Actor       `json:"actor,omitempty"`
	Type    trace.EventType   `json:"type,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Note    string            `json:"note,omitempty"`
	Status  int               `json:"status,omitempty"`
	Message json.RawMessage   `json:"message,omitempty"`
}

// Recorder keeps what crossed the wire in the order it happened, each with
// the real time (times never go back: a wall clock step back is clamped to
// the time before). Safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	header Header
	lines  [][]byte // each record's line, encoded
	size   int      // the lines' bytes
	wire   int
	// cut counts the records not kept: past transcript.MaxLines lines or
	// transcript.MaxBytes bytes (less headerRoom), the importer's limits.
	cut  int
	last time.Time
	now  func() time.Time
}

// headerRoom is the room kept for the header line within
// transcript.MaxBytes: 4 KiB (4,096 bytes).
const headerRoom = 4 << 10

// NewRecorder returns a Recorder whose header is h.
func NewRecorder(h Header) *Recorder { return &Recorder{header: h, now: time.Now} }

// SetSession records the session id (the first one given wins).
func (r *Recorder) SetSession(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.header.Session == "" {
		r.header.Session = id
	}
}

// SetProtocol records the revision the session speaks, once known (the
// first one given wins).
func (r *Recorder) SetProtocol(v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.header.Protocol == "" {
		r.header.Protocol = v
	}
}

// add appends l stamped with the time now, under the lock.
func (r *Recorder) add(l line) time.Time {
	t := r.now()
	if t.Before(r.last) {
		t = r.last
	}
	r.last = t
	l.T = t.UTC().Format(time.RFC3339Nano)
	b, err := encodeLine(l)
	// Once one record is cut every later one is (a delivery must not
	// outlive its send); the header is a line too.
	if err != nil || r.cut > 0 || len(r.lines)+1 >= transcript.MaxLines || r.size+len(b) > transcript.MaxBytes-headerRoom {
		r.cut++
		return t
	}
	r.lines = append(r.lines, b)
	r.size += len(b)
	return t
}

// encodeLine is v as one JSON line (HTML characters as written).
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return b.Bytes(), err
}

// Message is one wire message as the recorder read it (engine/jsonrpc).
type Message struct {
	// Raw is the message, compact.
	Raw json.RawMessage
	// Msg is what jsonrpc.Parse read in it.
	Msg jsonrpc.Message
	// Session is the Mcp-Session-Id of the HTTP exchange that carried it,
	// "" for none (stdio, or an initialize before its answer names one:
	// Recorder.Claim).
	Session string
}

// Messages reads the JSON-RPC messages of a body, an SSE event's data or
// a stdio line: one object, or a batch (an array) of them; anything else
// (not JSON, past MaxMessage) is no message.
func Messages(data []byte) []Message {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || len(data) > MaxMessage || !json.Valid(data) {
		return nil
	}
	if data[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(data, &batch) != nil {
			return nil
		}
		var out []Message
		for _, m := range batch {
			out = append(out, Messages(m)...)
		}
		return out
	}
	m, err := jsonrpc.Parse(data)
	if err != nil {
		return nil
	}
	var b bytes.Buffer
	_ = json.Compact(&b, data)
	return []Message{{Raw: b.Bytes(), Msg: m}}
}

// Sent records m as its sender put it on the wire, seen on the sender's
// hop, and returns its wire number (for Delivered) and the time; stream is
// the JSON text of the request whose response stream carries it, "" for
// none.
func (r *Recorder) Sent(from trace.Actor, m Message, stream string) (int, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.wire++
	hop := HopServer
	if from == trace.ActorClient {
		hop = HopClient
	}
	return r.wire, r.add(line{From: from, Hop: hop, Session: m.Session, Wire: r.wire, ID: rawID(stream), Message: m.Raw})
}

// Saw records m as a one-view recorder saw it (a mock's server side, a
// client's side: the header's Observer), from its sender, without hops.
func (r *Recorder) Saw(from trace.Actor, m Message) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.add(line{From: from, Message: m.Raw})
}

// Delivered records that the proxy handed wire message w (from from) on
// over the other hop.
func (r *Recorder) Delivered(from trace.Actor, m Message, w int, stream string) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	hop := HopClient
	if from == trace.ActorClient {
		hop = HopServer
	}
	return r.add(line{From: from, Hop: hop, Session: m.Session, Wire: w, ID: rawID(stream), Message: m.Raw})
}

// Event records an event without a message (engine/transcript's event
// lines): the server's stream start with its headers, the proxy's hold,
// flush, drop or close-stream, the client's close-stream; stream and w
// name the request and the wire message it concerns ("" and 0 for none).
func (r *Recorder) Event(actor trace.Actor, typ trace.EventType, stream string, w int, headers map[string]string, note string) time.Time {
	return r.EventIn("", actor, typ, stream, w, headers, note)
}

// EventIn is Event within the HTTP session session (its Mcp-Session-Id,
// "" for none), so a stream's event meets its request's session.
func (r *Recorder) EventIn(session string, actor trace.Actor, typ trace.EventType, stream string, w int, headers map[string]string, note string) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.add(line{Actor: actor, Type: typ, Session: session, ID: rawID(stream), Wire: w, Headers: headers, Note: note})
}

// Claim names session the session of the message lines of wires recorded
// without one: a client's initialize is recorded before the server's
// answer names the session it opens. Lines already cut stay cut.
func (r *Recorder) Claim(wires []int, session string) {
	if session == "" || len(wires) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.lines) - 1; i >= 0; i-- {
		var l line
		if json.Unmarshal(r.lines[i], &l) != nil || l.Session != "" || l.Message == nil || !slices.Contains(wires, l.Wire) {
			continue
		}
		l.Session = session
		b, err := encodeLine(l)
		if err != nil {
			continue
		}
		r.size += len(b) - len(r.lines[i])
		r.lines[i] = b
	}
}

// Reject records the server refusing an HTTP request with status (404 for
// a retired session, 503 for a refused reconnect; engine/transcript's
// reject event line): stream is the JSON text of the refused request's id,
// "" for none (a GET); headers what identifies it (the session id).
func (r *Recorder) Reject(stream string, status int, headers map[string]string, note string) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.add(line{Actor: trace.ActorServer, Type: trace.TypeReject, ID: rawID(stream), Headers: headers, Note: note, Status: status})
}

// rawID is an id's JSON text as a raw member, nil for "".
func rawID(id string) json.RawMessage {
	if id == "" {
		return nil
	}
	return json.RawMessage(id)
}

// Bytes is the transcript: the header line, then one line per record.
func (r *Recorder) Bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	head, _ := encodeLine(r.header)
	b := bytes.NewBuffer(make([]byte, 0, len(head)+r.size))
	b.Write(head)
	for _, l := range r.lines {
		b.Write(l)
	}
	return b.Bytes()
}

// Cut is how many records were not kept (past transcript.MaxLines lines
// or transcript.MaxBytes bytes).
func (r *Recorder) Cut() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cut
}

// Len is how many records the transcript holds.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines)
}

// WriteFile writes the transcript as dir/name (dir made if missing) and
// returns its path.
func (r *Recorder) WriteFile(dir, name string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, r.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("writing the transcript: %w", err)
	}
	return p, nil
}
