package probe

// The probe's two transports, written on the standard library so the probe
// decides exactly when each byte leaves (an SDK client decides for you):
// stdio (a child process in its own process group, newline-delimited
// JSON-RPC on its stdin and stdout) and Streamable HTTP (each client message
// POSTed to the one URL given; the answer is a JSON body or an SSE stream).
// Both record every message with the real time the client wrote or read it.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
)

// Bounds of one connection.
const (
	probeMaxMessage = 4 << 20 // bytes of one message (a longer line or SSE event ends the connection)
	probeStderrKeep = 2048    // bytes of the server's standard error kept for the report (the tail)
	probeInbox      = 4096    // messages buffered between the reader and the situation
	// probeNotifyTimeout bounds the POST of a notification or response
	// (Streamable HTTP answers it 202 Accepted at once).
	probeNotifyTimeout = 5 * time.Second
	// probeWriteTimeout bounds one write to a stdio server's standard input
	// (a server that stops reading fills the pipe).
	probeWriteTimeout = 5 * time.Second
	// probeStdinGrace is how long a stdio server is given to leave once
	// the probe closes its standard input (1 s), probeTermGrace how long
	// after SIGTERM (2 s) before its process group is killed.
	probeStdinGrace = 1 * time.Second
	probeTermGrace  = 2 * time.Second
	// A stdio server's standard output may carry only JSON-RPC messages
	// (MCP stdio transport). Of the lines that are not, the probe keeps
	// the first probeStrayKeep, each cut to probeStrayQuote bytes, and
	// stops the server once they add up to probeMaxStray bytes (`yes
	// garbage` as the server).
	probeStrayKeep  = 8
	probeStrayQuote = 120
	probeMaxStray   = 64 << 10
)

// record is one line of a transcript: a message the client wrote (from
// "client") or read (from "server"), at the real time it did so.
type record struct {
	at   time.Time
	from trace.Actor
	msg  json.RawMessage
}

// recorder keeps a connection's records in the order they happened; times
// never go back (a wall clock step back is clamped to the previous time).
type recorder struct {
	mu   sync.Mutex
	recs []record
	// closes are the client's stream closes: id text → when (written to
	// the transcript as event lines; not messages, so not in recs).
	closes []streamClose
}

// streamClose is the client closing request id's response stream at at.
type streamClose struct {
	at time.Time
	id string
}

// closed records that the client closed request id's response stream now.
func (r *recorder) closed(id string) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if n := len(r.recs); n > 0 && now.Before(r.recs[n-1].at) {
		now = r.recs[n-1].at
	}
	r.closes = append(r.closes, streamClose{now, id})
	return now
}

func (r *recorder) allCloses() []streamClose {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]streamClose(nil), r.closes...)
}

func (r *recorder) add(from trace.Actor, msg []byte) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if n := len(r.recs); n > 0 && now.Before(r.recs[n-1].at) {
		now = r.recs[n-1].at
	}
	r.recs = append(r.recs, record{at: now, from: from, msg: append(json.RawMessage(nil), msg...)})
	return now
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.recs)
}

func (r *recorder) all() []record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]record(nil), r.recs...)
}

// inbound is a message read from the server and when; or, with refused
// set (and no msg), an HTTP error status that answered a request's POST
// without a JSON-RPC response (not a message: it is not recorded).
type inbound struct {
	at      time.Time
	msg     json.RawMessage
	refused *httpRefusedError
}

// conn is one connection to the server under test. Messages the server
// sends arrive on in; dead is closed when the server can send nothing more
// (its process exited, or the connection failed), with why() saying why.
type conn interface {
	// write sends one client message (recorded just before it is written).
	write(msg []byte) (time.Time, error)
	// closeStream closes the response stream of the request with JSON id
	// text id (Streamable HTTP); it reports whether there was one open
	// and when it was closed. With record the close goes into the
	// transcript (closes): it is the cancellation (2026-07-28).
	closeStream(id string, record bool) (time.Time, bool)
	// closes are the streams the client closed, in order.
	closes() []streamClose
	inbox() <-chan inbound
	dead() <-chan struct{}
	why() string
	// close ends the connection: the stdio server is ended gently and then
	// its whole process group killed, an HTTP session is deleted and every
	// stream closed.
	close()
	records() []record
	// setEra sets the revision whose request headers later POSTs carry
	// (jsonrpc.Era.PostHeaders; Streamable HTTP, no-op on stdio), and
	// setVersion the MCP-Protocol-Version an earlier 2025 revision
	// negotiated in initialize.
	setEra(revision string)
	setVersion(v string)
	// received waits until the server has request id (its id text) or the
	// deadline passes, and reports whether it has it. On stdio that is at
	// once (one ordered pipe); on Streamable HTTP each message is its own
	// POST, so a cancellation sent before the server answered the call's
	// POST could reach it first: it waits for the call's response headers.
	received(id string, deadline time.Time) bool
}

// ---- stdio ----------------------------------------------------------------

type stdioConn struct {
	rec    recorder
	cmd    *exec.Cmd
	stdin  *os.File
	in     chan inbound
	gone   chan struct{}
	quit   chan struct{} // closed by close: the reader stops delivering
	mu     sync.Mutex
	reason string
	stderr tailBuffer
	wmu    sync.Mutex
	// strays are the first probeStrayKeep lines of standard output that
	// are not JSON-RPC messages; nStray and strayBytes count them all.
	strays     []stray
	nStray     int
	strayBytes int
}

// stray is a line a stdio server wrote on its standard output that is not
// a JSON-RPC message (a JSON object): when it was read, its text (cut to
// probeStrayQuote bytes) and how many records came before it, so the
// report can say which message it preceded.
type stray struct {
	at   time.Time
	text string
	next int
}

// addStray notes a line that is not a JSON-RPC message and reports
// whether the server has written more than probeMaxStray bytes of them.
func (c *stdioConn) addStray(line []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nStray++
	c.strayBytes += len(line) + 1
	if len(c.strays) < probeStrayKeep {
		c.strays = append(c.strays, stray{at: time.Now(), text: quoteCut(string(line), probeStrayQuote), next: c.rec.len()})
	}
	return c.strayBytes > probeMaxStray
}

// strayLines returns the kept non-JSON-RPC lines and how many there were.
func (c *stdioConn) strayLines() ([]stray, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]stray(nil), c.strays...), c.nStray
}

// startStdio starts argv as the server, in its own process group, and reads
// its standard output line by line. Lines that are not JSON objects (a
// server logging to stdout) are not messages: they are kept as strays
// (see stdioConn.addStray) for the report, and past probeMaxStray bytes of
// them the server is stopped.
func startStdio(argv []string) (*stdioConn, error) {
	c := &stdioConn{in: make(chan inbound, probeInbox), gone: make(chan struct{}), quit: make(chan struct{})}
	c.cmd = exec.Command(argv[0], argv[1:]...)
	c.cmd.Stderr = &c.stderr
	// Our own pipe rather than StdinPipe: a pipe the runtime polls takes a
	// write deadline, so a server that stops reading cannot block the probe.
	in, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c.cmd.Stdin, c.stdin = in, w
	defer in.Close() // the child has its copy once started
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := live.StartGroup(c.cmd); err != nil {
		w.Close()
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), probeMaxMessage)
		flood := false
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			if line[0] != '{' || !json.Valid(line) {
				if flood = c.addStray(line); flood {
					live.KillGroup(c.cmd)
					break
				}
				continue
			}
			at := c.rec.add(trace.ActorServer, line)
			select {
			case c.in <- inbound{at: at, msg: append(json.RawMessage(nil), line...)}:
			case <-c.quit:
			}
		}
		werr := c.cmd.Wait()
		c.mu.Lock()
		switch {
		case flood:
			c.reason = fmt.Sprintf("it wrote %d lines on its standard output that are not JSON-RPC messages (%d bytes), the first %q; the probe stopped it", c.nStray, c.strayBytes, c.strays[0].text)
		case sc.Err() != nil:
			c.reason = "reading its output: " + sc.Err().Error()
		case werr != nil:
			c.reason = "the server exited (" + werr.Error() + ")"
		default:
			c.reason = "the server exited (status 0)"
		}
		if t := strings.TrimSpace(c.stderr.String()); t != "" {
			c.reason += "; its stderr ends: " + lastLine(t)
		}
		c.mu.Unlock()
		close(c.gone)
	}()
	return c, nil
}

func (c *stdioConn) write(msg []byte) (time.Time, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	at := c.rec.add(trace.ActorClient, msg)
	_ = c.stdin.SetWriteDeadline(time.Now().Add(probeWriteTimeout))
	_, err := c.stdin.Write(append(append([]byte(nil), msg...), '\n'))
	return at, err
}

func (c *stdioConn) closeStream(string, bool) (time.Time, bool) { return time.Time{}, false }
func (c *stdioConn) closes() []streamClose                      { return nil }
func (c *stdioConn) inbox() <-chan inbound                      { return c.in }
func (c *stdioConn) dead() <-chan struct{}                      { return c.gone }
func (c *stdioConn) records() []record                          { return c.rec.all() }
func (c *stdioConn) setEra(string)                              {}
func (c *stdioConn) setVersion(string)                          {}
func (c *stdioConn) received(string, time.Time) bool            { return true }
func (c *stdioConn) why() string                                { c.mu.Lock(); defer c.mu.Unlock(); return c.reason }

// close ends the server as the MCP stdio transport's shutdown says: it
// closes the server's standard input and gives it probeStdinGrace to
// leave, then asks its process group to end (SIGTERM) and gives it
// probeTermGrace, then kills whatever is left of the group (SIGKILL), so
// a server that writes something on its way out (mcplab mock, mcplab
// proxy) writes it, and no process is left behind.
func (c *stdioConn) close() {
	close(c.quit)
	c.stdin.Close()
	if !c.leaves(probeStdinGrace) {
		live.TermGroup(c.cmd)
		c.leaves(probeTermGrace)
	}
	live.KillGroup(c.cmd)
	c.leaves(probeTermGrace) // the reader is stuck on a grandchild holding stdout
}

// leaves waits up to d for the server to exit and its output to end, and
// reports whether it did.
func (c *stdioConn) leaves(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.gone:
		return true
	case <-t.C:
		return false
	}
}

// ---- Streamable HTTP ------------------------------------------------------

type httpConn struct {
	rec     recorder
	url     string
	client  *http.Client
	in      chan inbound
	gone    chan struct{}
	mu      sync.Mutex
	session string
	era     jsonrpc.Era
	version string                        // the negotiated 2025 revision ("" until initialize is answered)
	streams map[string]context.CancelFunc // request id text → abort its POST
	opened  map[string]chan struct{}      // request id text → closed when its POST is answered
	reason  string
	wg      sync.WaitGroup
	header  http.Header     // -header: added to every request (credentials)
	stop    <-chan struct{} // closed when a signal stops the probe (prober.halt)
}

// startHTTP prepares a connection to url whose every request carries
// header. It sends nothing yet; redirects are refused so no request goes
// to any address but url. Once stop is closed (a signal stopped the
// probe), no write waits for the server any more.
func startHTTP(url string, header http.Header, stop <-chan struct{}) *httpConn {
	return &httpConn{
		url: url, header: header, stop: stop, in: make(chan inbound, probeInbox), gone: make(chan struct{}),
		streams: map[string]context.CancelFunc{}, opened: map[string]chan struct{}{},
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
			return errors.New("the probe follows no redirect (it talks to the URL given only)")
		}},
	}
}

// setEra also forgets any session id: a new handshake (initialize after
// server/discover) takes the one its answer assigns.
func (c *httpConn) setEra(r string) {
	c.mu.Lock()
	c.era, c.version, c.session = jsonrpc.Era{Revision: r}, "", ""
	c.mu.Unlock()
}

func (c *httpConn) setVersion(v string) { c.mu.Lock(); c.version = v; c.mu.Unlock() }

// headers are the MCP request headers of the POST carrying msg: the era's
// (jsonrpc.Era.PostHeaders: MCP-Protocol-Version, and Mcp-Session-Id under
// 2025-11-25, Mcp-Method and Mcp-Name under 2026-07-28), with the
// revision an earlier 2025 server negotiated as the version. Call with
// c.mu held.
func (c *httpConn) headers(msg []byte) map[string]string {
	session := c.session
	if c.era.Stateless() {
		session = "" // 2026-07-28 has no sessions
	}
	h := c.era.PostHeaders(msg, session)
	if _, ok := h[jsonrpc.HeaderProtocolVersion]; ok && c.version != "" && !c.era.Stateless() {
		h[jsonrpc.HeaderProtocolVersion] = c.version
	}
	return h
}

func (c *httpConn) write(msg []byte) (time.Time, error) {
	m, _ := jsonrpc.Parse(msg)
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(msg))
	if err != nil {
		cancel()
		return time.Time{}, err
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	c.mu.Lock()
	for k, v := range c.headers(msg) {
		req.Header.Set(k, v)
	}
	key := ""
	if m.Kind == jsonrpc.Request && m.ID != "" {
		key = m.ID
		c.streams[key] = cancel
		c.opened[key] = make(chan struct{})
	}
	c.mu.Unlock()
	at := c.rec.add(trace.ActorClient, msg)
	if key == "" {
		// A notification or a response: wait for its 202, so what the
		// probe sends next (the fence ping) reaches the server after it,
		// for probeNotifyTimeout at most, and not once a signal stops the
		// probe.
		defer cancel()
		timer := time.AfterFunc(probeNotifyTimeout, cancel)
		defer timer.Stop()
		go func() {
			select {
			case <-c.stop:
				cancel()
			case <-ctx.Done():
			}
		}()
		c.post(req, m.Method, "")
		return at, nil
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		c.post(req, m.Method, key)
		if key != "" {
			c.mu.Lock()
			delete(c.streams, key)
			c.mu.Unlock()
		}
	}()
	return at, nil
}

// post performs one POST and delivers what comes back. A transport failure
// of the initialize POST marks the connection dead (nothing listens there).
func (c *httpConn) post(req *http.Request, method, key string) {
	resp, err := c.client.Do(req)
	if key != "" {
		c.mu.Lock()
		close(c.opened[key])
		c.mu.Unlock()
	}
	if err != nil {
		if req.Context().Err() == nil && opens(method) {
			c.fail("could not reach the server: " + err.Error())
		}
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		// A JSON-RPC error may come with an HTTP error status (a 400 for a
		// bad request); anything else is the HTTP layer refusing.
		body, _ := io.ReadAll(io.LimitReader(resp.Body, probeMaxMessage))
		switch {
		case parseMsg(body).response:
			c.deliver(body)
		case key != "":
			c.refuse(&httpRefusedError{id: key, status: resp.StatusCode, why: httpRefusal(resp, body)})
		}
		return
	}
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		c.mu.Lock()
		if c.session == "" {
			c.session = sid
		}
		c.mu.Unlock()
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case resp.StatusCode == http.StatusAccepted:
		return
	case strings.HasPrefix(ct, "text/event-stream"):
		readSSE(resp.Body, func(data []byte) { c.deliver(data) })
	case strings.HasPrefix(ct, "application/json"):
		body, _ := io.ReadAll(io.LimitReader(resp.Body, probeMaxMessage))
		c.deliver(body)
	default:
		if opens(method) {
			c.fail(fmt.Sprintf("POST %s: HTTP %s (%s)", method, resp.Status, ct))
		}
	}
}

// opens reports whether method opens the conversation (initialize,
// server/discover): a POST of it that cannot reach the server, or is
// answered with something that is not MCP, ends the connection.
func opens(method string) bool {
	return method == jsonrpc.MethodInitialize || method == jsonrpc.MethodDiscover
}

// refuse hands the session an HTTP refusal of a request's POST.
func (c *httpConn) refuse(r *httpRefusedError) {
	select {
	case c.in <- inbound{at: time.Now(), refused: r}:
	case <-c.gone:
	}
}

// httpRefusal says why the server refused initialize's POST with an HTTP
// error status: the status, what 401 and 403 mean for the probe (-header),
// and the start of the body.
func httpRefusal(resp *http.Response, body []byte) string {
	why := "HTTP " + resp.Status
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		why += ": the server wants authentication"
		if a := resp.Header.Get("WWW-Authenticate"); a != "" {
			why += " (WWW-Authenticate: " + quoteCut(a, 200) + ")"
		}
		why += "; give credentials with -header 'Authorization: Bearer TOKEN'"
	case http.StatusForbidden:
		why += ": the server refuses these credentials (-header)"
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
		why += ": is this the server's MCP endpoint (Streamable HTTP takes a POST there)?"
	}
	if b := strings.TrimSpace(string(body)); b != "" && utf8.ValidString(b) {
		why += "; the body begins " + strconv.Quote(quoteCut(firstLine(b), 200))
	}
	return why
}

// firstLine is the first line of s.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func (c *httpConn) deliver(data []byte) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || !json.Valid(data) {
		return
	}
	var batch []json.RawMessage
	if data[0] == '[' && json.Unmarshal(data, &batch) == nil {
		for _, m := range batch {
			c.deliver(m)
		}
		return
	}
	if data[0] != '{' {
		return
	}
	at := c.rec.add(trace.ActorServer, data)
	select {
	case c.in <- inbound{at: at, msg: append(json.RawMessage(nil), data...)}:
	case <-c.gone:
	}
}

func (c *httpConn) fail(reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reason == "" {
		c.reason = reason
		close(c.gone)
	}
}

// readSSE calls onData with the data of each event of an SSE stream
// (data: lines joined by newlines; comments and other fields skipped).
func readSSE(r io.Reader, onData func([]byte)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), probeMaxMessage)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if len(data) > 0 {
				onData(data)
				data = nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))...)
		}
	}
	if len(data) > 0 {
		onData(data)
	}
}

func (c *httpConn) closeStream(id string, record bool) (time.Time, bool) {
	c.mu.Lock()
	cancel, ok := c.streams[id]
	c.mu.Unlock()
	if !ok {
		return time.Time{}, false
	}
	at := time.Now()
	if record {
		at = c.rec.closed(id)
	}
	cancel()
	return at, true
}

func (c *httpConn) closes() []streamClose { return c.rec.allCloses() }

func (c *httpConn) received(id string, deadline time.Time) bool {
	c.mu.Lock()
	ch, ok := c.opened[id]
	c.mu.Unlock()
	if !ok {
		return false
	}
	select {
	case <-ch:
		return true
	case <-c.gone:
		return false
	case <-time.After(time.Until(deadline)):
		return false
	}
}

func (c *httpConn) inbox() <-chan inbound { return c.in }
func (c *httpConn) dead() <-chan struct{} { return c.gone }
func (c *httpConn) records() []record     { return c.rec.all() }
func (c *httpConn) why() string           { c.mu.Lock(); defer c.mu.Unlock(); return c.reason }

// close aborts every open stream and deletes the session (one DELETE to the
// same URL, bounded by a second).
func (c *httpConn) close() {
	c.mu.Lock()
	for _, cancel := range c.streams {
		cancel()
	}
	sid, v := c.session, c.version
	c.mu.Unlock()
	if sid != "" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		if req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil); err == nil {
			for k, v := range c.header {
				req.Header[k] = v
			}
			req.Header.Set("Mcp-Session-Id", sid)
			if v != "" {
				req.Header.Set("MCP-Protocol-Version", v)
			}
			if resp, err := c.client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		cancel()
	}
	c.fail("closed by the probe")
	c.wg.Wait()
	c.client.CloseIdleConnections()
}
