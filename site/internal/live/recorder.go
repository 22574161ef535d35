package live

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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
	// sink, once Stream opened it, gets each record as it is added;
	// path is its file, sinkErr the first write that failed (streaming
	// stops there; Finish reports it).
	sink    *os.File
	path    string
	sinkErr error
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
		r.rewrite()
	}
}

// SetProtocol records the revision the session speaks, once known (the
// first one given wins).
func (r *Recorder) SetProtocol(v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.header.Protocol == "" {
		r.header.Protocol = v
		r.rewrite()
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
	if r.sink != nil && r.sinkErr == nil {
		if _, err := r.sink.Write(b); err != nil {
			r.sinkErr = fmt.Errorf("writing the transcript %s: %w", r.path, err)
		}
	}
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
	r.rewrite()
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
	return r.bytes()
}

// bytes is Bytes under the lock.
func (r *Recorder) bytes() []byte {
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

// MaxNumbered bounds the numbered names CreateFree tries: name.jsonl,
// then name-2.jsonl up to name-1000.jsonl.
const MaxNumbered = 1000

// CreateFree creates the first of dir/base.jsonl, dir/base-2.jsonl,
// dir/base-3.jsonl… that does not exist yet (dir made if missing) and
// returns it open for writing: a transcript never replaces another run's,
// such as one written by an earlier server process of the same client.
// The name is claimed atomically (O_EXCL), so processes writing into one
// directory at once each get their own.
func CreateFree(dir, base string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for n := 1; n <= MaxNumbered; n++ {
		f, err := os.OpenFile(filepath.Join(dir, numbered(base, n)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, errAllTaken(dir, base)
}

// numbered is the n-th name CreateFree tries: base.jsonl, base-2.jsonl…
func numbered(base string, n int) string {
	if n == 1 {
		return base + ".jsonl"
	}
	return fmt.Sprintf("%s-%d.jsonl", base, n)
}

// errAllTaken says every numbered name in dir is taken.
func errAllTaken(dir, base string) error {
	return fmt.Errorf("%s: %s.jsonl to %s: all exist: give an empty -out directory", dir, base, numbered(base, MaxNumbered))
}

// Stream writes the transcript as it grows into a new file in dir
// (CreateFree's name for base) and returns its path: the header and the
// records so far at once, then each record as it is added, so a process
// killed mid-session leaves every record but the one being written. A
// change to earlier lines (the header's session or revision, Claim)
// rewrites the file whole. Finish ends it.
func (r *Recorder) Stream(dir, base string) (string, error) {
	f, err := CreateFree(dir, base)
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sink, r.path = f, f.Name()
	if _, err := f.Write(r.bytes()); err != nil {
		r.sinkErr = fmt.Errorf("writing the transcript %s: %w", r.path, err)
	}
	return r.path, nil
}

// rewrite replaces the streamed file with the whole transcript (under the
// lock): written beside it, then renamed over it, so a reader sees either
// version whole; later records are appended to the new file.
func (r *Recorder) rewrite() {
	if r.sink == nil || r.sinkErr != nil {
		return
	}
	part := filepath.Join(filepath.Dir(r.path), "."+filepath.Base(r.path)+".part")
	err := os.WriteFile(part, r.bytes(), 0o644)
	if err == nil {
		err = os.Rename(part, r.path)
	}
	if err == nil {
		r.sink.Close()
		r.sink, err = os.OpenFile(r.path, os.O_WRONLY|os.O_APPEND, 0o644)
	}
	if err != nil {
		r.sinkErr = fmt.Errorf("writing the transcript %s: %w", r.path, err)
	}
}

// Finish writes the streamed transcript whole one last time and closes
// it; the error is the first write that failed, if any. Records added
// after Finish are kept in memory only.
func (r *Recorder) Finish() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sink == nil {
		return nil
	}
	r.rewrite()
	if r.sink != nil {
		r.sink.Close()
	}
	r.sink = nil
	return r.sinkErr
}

// WriteFree writes the transcript whole under the first free name of
// CreateFree's (dir/base.jsonl, dir/base-2.jsonl…) and returns its path:
// it is written beside first and then linked into place, so whoever waits
// for the file sees it whole, and it never replaces another run's.
func (r *Recorder) WriteFree(dir, base string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	part := filepath.Join(dir, fmt.Sprintf(".%s-%d.jsonl.part", base, os.Getpid()))
	if err := os.WriteFile(part, r.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("writing the transcript: %w", err)
	}
	defer os.Remove(part)
	for n := 1; n <= MaxNumbered; n++ {
		p := filepath.Join(dir, numbered(base, n))
		err := os.Link(part, p)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("writing the transcript: %w", err)
		}
		return p, nil
	}
	return "", errAllTaken(dir, base)
}
