package live

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcplab/mcplab/engine/trace"
)

// hopByHop are the connection-specific headers of RFC 9110 §7.6.1 that a
// proxy does not forward (plus those the Connection header lists); every
// other header passes unchanged.
var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Te", "Transfer-Encoding", "Upgrade"}

// copyHeaders copies src into dst without the hop-by-hop headers.
func copyHeaders(dst, src http.Header) {
	skip := map[string]bool{}
	for _, h := range hopByHop {
		skip[h] = true
	}
	for _, v := range src.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			skip[http.CanonicalHeaderKey(strings.TrimSpace(name))] = true
		}
	}
	for k, vs := range src {
		if !skip[http.CanonicalHeaderKey(k)] {
			dst[k] = append([]string(nil), vs...)
		}
	}
}

// HTTPProxy is a recording reverse proxy for Streamable HTTP (SCENARIO.md,
// Live: proxy): it serves Target's path, forwards each request there and
// its response back with bodies, status codes and end-to-end headers
// unchanged, streams SSE event by event (each flushed as it comes), and
// records every message on both hops with the faults it injects.
type HTTPProxy struct {
	// Target is the server's endpoint (its URL's path is the one served).
	Target *url.URL
	// Faults are injected on every response stream.
	Faults Faults
	// Rec records the wire.
	Rec *Recorder
	// Client sends the forwarded requests; nil for one that follows no
	// redirect and never compresses (bodies pass as the server wrote them).
	Client *http.Client

	once sync.Once
}

func (p *HTTPProxy) client() *http.Client {
	p.once.Do(func() {
		if p.Client == nil {
			p.Client = &http.Client{
				Transport: &http.Transport{DisableCompression: true, Proxy: nil, MaxIdleConnsPerHost: 64},
				CheckRedirect: func(*http.Request, []*http.Request) error {
					return http.ErrUseLastResponse // the redirect goes back to the client as it came
				},
			}
		}
	})
	return p.Client
}

// sleepCtx waits d or until ctx ends, and reports whether ctx is still live.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// ServeHTTP forwards one request (any method: POST, GET, DELETE).
func (p *HTTPProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != p.Target.Path && !(p.Target.Path == "" && r.URL.Path == "/") {
		http.Error(w, "mcplab proxy serves "+p.Target.Path+" only (the server's endpoint)", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxMessage+1))
	if err != nil {
		http.Error(w, "mcplab proxy: reading the request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(body) > MaxMessage {
		http.Error(w, fmt.Sprintf("mcplab proxy: request body past %d bytes", MaxMessage), http.StatusRequestEntityTooLarge)
		return
	}
	// The client's messages, seen on its hop as they arrived.
	msgs := Messages(body)
	wires := make([]int, len(msgs))
	stream := "" // the request whose response stream this POST opens
	sess := r.Header.Get("Mcp-Session-Id")
	for i := range msgs {
		msgs[i].Session = sess
	}
	for i, m := range msgs {
		wires[i], _ = p.Rec.Sent(trace.ActorClient, m, "")
		if stream == "" && m.Msg.Method != "" && m.Msg.ID != "" {
			stream = m.Msg.ID
		}
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if !sleepCtx(ctx, time.Duration(p.Faults.LatencyMs)*time.Millisecond) {
		return
	}
	target := *p.Target
	target.RawQuery = r.URL.RawQuery
	out, err := http.NewRequestWithContext(ctx, r.Method, target.String(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, "mcplab proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	copyHeaders(out.Header, r.Header)
	out.ContentLength = int64(len(body))
	if len(body) == 0 && r.ContentLength <= 0 {
		out.Body, out.ContentLength = http.NoBody, 0
	}
	for i, m := range msgs {
		p.Rec.Delivered(trace.ActorClient, m, wires[i], "")
	}
	res, err := p.client().Do(out)
	if err != nil {
		if ctx.Err() == nil {
			http.Error(w, "mcplab proxy: the server did not answer: "+err.Error(), http.StatusBadGateway)
		}
		return
	}
	defer res.Body.Close()
	if sid := res.Header.Get("Mcp-Session-Id"); sid != "" {
		p.Rec.SetSession(sid)
		if sess == "" {
			// The exchange opened the session (initialize): its request
			// lines belong to it too.
			sess = sid
			p.Rec.Claim(wires, sid)
		}
	}
	copyHeaders(w.Header(), res.Header)
	for _, h := range p.Faults.Strip {
		w.Header().Del(h)
	}
	sse := strings.HasPrefix(strings.ToLower(res.Header.Get("Content-Type")), "text/event-stream")
	if sse {
		p.Rec.EventIn(sess, trace.ActorServer, trace.TypeStart, stream, 0, firstValues(res.Header), fmt.Sprintf("The server opened a response stream (HTTP %d).", res.StatusCode))
	}
	w.WriteHeader(res.StatusCode)
	if sse {
		p.relaySSE(ctx, cancel, w, res.Body, httpExchange{stream: stream, sess: sess}, r.Context())
		return
	}
	p.relayBody(ctx, w, res.Body, httpExchange{stream: stream, sess: sess})
}

// firstValues is each header's first value, by canonical name.
func firstValues(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		if len(v) > 0 {
			out[http.CanonicalHeaderKey(k)] = v[0]
		}
	}
	return out
}

// relayBody forwards a whole body (JSON, or anything else) after the
// latency, recording the messages in it on both hops.
func (p *HTTPProxy) relayBody(ctx context.Context, w http.ResponseWriter, body io.Reader, x httpExchange) {
	// A body the server broke off is passed on as far as it came.
	data, _ := io.ReadAll(io.LimitReader(body, MaxMessage+1))
	msgs := x.messages(data)
	stream := x.stream
	wires := make([]int, len(msgs))
	for i, m := range msgs {
		wires[i], _ = p.Rec.Sent(trace.ActorServer, m, stream)
	}
	if !sleepCtx(ctx, time.Duration(p.Faults.LatencyMs)*time.Millisecond) {
		return
	}
	if _, werr := w.Write(data); werr != nil {
		return
	}
	if len(data) > MaxMessage {
		_, _ = io.Copy(w, body) // past the bound: passed on, not recorded
	}
	for i, m := range msgs {
		p.Rec.Delivered(trace.ActorServer, m, wires[i], stream)
	}
}

// httpExchange is what the proxy knows of one HTTP exchange while it relays
// the response: the request whose response stream it is ("" for none) and
// the session (Mcp-Session-Id) the exchange belongs to.
type httpExchange struct {
	stream, sess string
}

// messages reads the messages of data (Messages), each within x's session.
func (x httpExchange) messages(data []byte) []Message {
	msgs := Messages(data)
	for i := range msgs {
		msgs[i].Session = x.sess
	}
	return msgs
}

// heldEvent is an SSE event the proxy holds (buffer=) with its messages.
type heldEvent struct {
	raw   []byte
	msgs  []Message
	wires []int
}

// relaySSE forwards an SSE response event by event, each flushed as it
// comes (after the latency), unless a fault holds or breaks the stream.
// cancel ends the request to the server (the fault broke the stream);
// clientCtx ends when the client goes away.
func (p *HTTPProxy) relaySSE(ctx context.Context, cancel context.CancelFunc, w http.ResponseWriter, body io.Reader, x httpExchange, clientCtx context.Context) {
	r := &sseRelay{p: p, w: w, stream: x.stream, x: x, cancel: cancel, lastByte: time.Now()}
	r.flusher, _ = w.(http.Flusher)
	r.flush() // the headers reach the client before the first event
	defer r.startFaults(ctx)()
	br := bufio.NewReaderSize(body, 64<<10)
	for {
		raw, data, err := readEvent(br)
		r.touch()
		if len(raw) > 0 && !r.event(ctx, raw, data) {
			if r.writeFailed {
				return
			}
			break
		}
		if err != nil {
			break
		}
	}
	r.end(clientCtx)
}

// sseRelay is one SSE response stream on its way through the proxy: what
// the proxy holds of it (buffer=), whether a fault broke it, and whether
// its final response reached the client.
type sseRelay struct {
	p       *HTTPProxy
	w       http.ResponseWriter
	flusher http.Flusher
	stream  string
	x       httpExchange
	cancel  context.CancelFunc

	mu       sync.Mutex
	broken   string // why the proxy broke the stream, "" while it has not
	lastByte time.Time

	held        []heldEvent
	heldBytes   int
	delivered   bool // the stream's final response reached the client
	writeFailed bool // the client's connection refused a write
}

func (r *sseRelay) flush() {
	if r.flusher != nil {
		r.flusher.Flush()
	}
}

// touch notes that a byte (or the end) came from the server.
func (r *sseRelay) touch() {
	r.mu.Lock()
	r.lastByte = time.Now()
	r.mu.Unlock()
}

// breakStream breaks the stream once, for why, ending the server's request.
func (r *sseRelay) breakStream(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.broken == "" {
		r.broken = why
		r.cancel()
	}
}

// startFaults arms drop-stream and idle-close; the returned function
// disarms them.
func (r *sseRelay) startFaults(ctx context.Context) (stop func()) {
	var stops []func()
	if ms := r.p.Faults.DropStreamMs; ms > 0 {
		t := time.AfterFunc(time.Duration(ms)*time.Millisecond, func() {
			r.breakStream(fmt.Sprintf("drop-stream: the proxy breaks the response stream %d ms after it opened.", ms))
		})
		stops = append(stops, func() { t.Stop() })
	}
	if ms := r.p.Faults.IdleCloseMs; ms > 0 {
		idle := time.Duration(ms) * time.Millisecond
		tick := time.NewTicker(min(idle/4+time.Millisecond, 50*time.Millisecond))
		stops = append(stops, tick.Stop)
		go r.watchIdle(ctx, tick, idle, ms)
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

// watchIdle breaks the stream once it has been quiet for idle.
func (r *sseRelay) watchIdle(ctx context.Context, tick *time.Ticker, idle time.Duration, ms int64) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			r.mu.Lock()
			quiet := time.Since(r.lastByte)
			r.mu.Unlock()
			if quiet >= idle {
				r.breakStream(fmt.Sprintf("idle-close: the proxy closes the response stream after %d ms without a byte.", ms))
				return
			}
		}
	}
}

// event records one event the server sent and passes it on, holds it, or
// releases what is held; false when the relay must stop (the client went
// away, writeFailed, or the latency wait was cut).
func (r *sseRelay) event(ctx context.Context, raw, data []byte) bool {
	ev := heldEvent{raw: raw, msgs: r.x.messages(data)}
	final := false
	for _, m := range ev.msgs {
		wire, _ := r.p.Rec.Sent(trace.ActorServer, m, r.stream)
		ev.wires = append(ev.wires, wire)
		final = final || (m.Msg.IsFinal() && m.Msg.ID == r.stream)
	}
	if !r.p.Faults.Buffering() {
		if !sleepCtx(ctx, time.Duration(r.p.Faults.LatencyMs)*time.Millisecond) {
			return false
		}
		return r.write(ev)
	}
	lastWire := 0
	if n := len(ev.wires); n > 0 {
		lastWire = ev.wires[n-1]
	}
	r.held = append(r.held, ev)
	r.heldBytes += len(raw)
	switch {
	case final:
		return r.release(lastWire, "the final response arrived")
	case r.p.Faults.BufferBytes > 0 && r.heldBytes >= r.p.Faults.BufferBytes:
		return r.release(lastWire, fmt.Sprintf("%d bytes held, the threshold is %d", r.heldBytes, r.p.Faults.BufferBytes))
	}
	for _, wi := range ev.wires {
		r.p.Rec.EventIn(r.x.sess, trace.ActorProxy, trace.TypeHold, r.stream, wi, nil, fmt.Sprintf("The proxy holds the stream's bytes: %d held (it flushes at %s).", r.heldBytes, r.p.flushWhen()))
	}
	return true
}

// write passes one event to the client and records its delivery.
func (r *sseRelay) write(ev heldEvent) bool {
	if _, err := r.w.Write(ev.raw); err != nil {
		r.writeFailed = true
		return false
	}
	r.flush()
	for i, m := range ev.msgs {
		r.p.Rec.Delivered(trace.ActorServer, m, ev.wires[i], r.stream)
		if m.Msg.IsFinal() && m.Msg.ID == r.stream {
			r.delivered = true
		}
	}
	return true
}

// release writes everything held, telling the flush when something was
// held back before the event that releases it (wire).
func (r *sseRelay) release(wire int, why string) bool {
	held, heldBytes := r.held, r.heldBytes
	r.held, r.heldBytes = nil, 0
	if len(held) == 0 {
		return true
	}
	if len(held) == 1 && held[0].wires != nil && held[0].wires[len(held[0].wires)-1] == wire {
		// Only the message that releases the stream: nothing was held
		// back, so there is no flush to tell.
		return r.write(held[0])
	}
	n := 0
	for _, h := range held {
		n += len(h.msgs)
	}
	r.p.Rec.EventIn(r.x.sess, trace.ActorProxy, trace.TypeFlush, r.stream, wire, nil, fmt.Sprintf("The proxy flushes %d held message(s), %d bytes, at once (%s).", n, heldBytes, why))
	for _, h := range held {
		if !r.write(h) {
			return false
		}
	}
	return true
}

// end closes the relay: what is held goes out when the server ended the
// stream; else it is lost, and the stream's close is recorded for
// whoever broke it (a fault breaks the client's connection too, as a
// proxy that drops a stream does).
func (r *sseRelay) end(clientCtx context.Context) {
	r.mu.Lock()
	why := r.broken
	r.mu.Unlock()
	if why == "" && clientCtx.Err() == nil {
		r.release(0, "the stream ends")
		return
	}
	for _, h := range r.held {
		for _, wi := range h.wires {
			r.p.Rec.EventIn(r.x.sess, trace.ActorProxy, trace.TypeDrop, r.stream, wi, nil, "Lost: the stream broke while the proxy held it.")
		}
	}
	switch {
	case why != "":
		r.p.Rec.EventIn(r.x.sess, trace.ActorProxy, trace.TypeCloseStream, r.stream, 0, nil, why)
		panic(http.ErrAbortHandler)
	case !r.delivered && r.stream != "":
		r.p.Rec.EventIn(r.x.sess, trace.ActorClient, trace.TypeCloseStream, r.stream, 0, nil, "The client closed the response stream before its final response.")
	}
}

// flushWhen says when a buffering proxy releases what it holds.
func (p *HTTPProxy) flushWhen() string {
	if p.Faults.BufferBytes > 0 {
		return strconv.Itoa(p.Faults.BufferBytes) + " bytes, the final response or the end of the stream"
	}
	return "the final response or the end of the stream"
}

// readEvent reads one SSE event from br: raw is its bytes exactly as sent
// (up to and including the blank line that ends it), data its "data:"
// lines joined by newlines (kept up to MaxMessage bytes: a longer event
// passes through unrecorded). At the end of the stream raw holds what is
// left and err is io.EOF (or the read error).
func readEvent(br *bufio.Reader) (raw, data []byte, err error) {
	var cur []byte // the line being read
	for {
		l, err := br.ReadSlice('\n')
		raw = append(raw, l...)
		if len(cur) <= MaxMessage {
			cur = append(cur, l...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // a line longer than the reader's buffer
		}
		line := bytes.TrimRight(cur, "\r\n")
		if bytes.HasPrefix(line, []byte("data:")) && len(data) <= MaxMessage {
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))...)
		}
		if err != nil || len(line) == 0 {
			return raw, data, err
		}
		cur = cur[:0]
	}
}

// ShutdownGrace bounds how long Serve waits for open exchanges once its
// context ends: 2 s, then every connection is closed.
const ShutdownGrace = 2 * time.Second

// Serve serves the proxy on ln until ctx ends, then ends every open
// exchange (each forwarded request is cancelled, so a response stream
// stops at once) and returns within ShutdownGrace.
func (p *HTTPProxy) Serve(ctx context.Context, ln net.Listener) error {
	base, stop := context.WithCancel(context.Background())
	defer stop()
	srv := &http.Server{Handler: p, BaseContext: func(net.Listener) context.Context { return base }, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop() // every handler's request context ends: streams stop
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	<-done
	p.client().CloseIdleConnections()
	return nil
}
