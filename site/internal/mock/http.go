package mock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
)

// Path is where the mock serves Streamable HTTP.
const Path = "/mcp"

// sse is one HTTP response: a JSON body for a request answered at once,
// an SSE stream for a tools/call (its progress, then its final).
type sse struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	rec     *live.Recorder
	id      string // the request whose stream it is, JSON text
	headers map[string]string
	started bool
	json    bool // answered with one JSON body
	gone    bool // the client closed the stream
	noSSE   bool // server.sseHeaders false
}

// write records m and writes it: the first write of a stream opens it
// (headers, and the server's start event with them), each message one SSE
// event, flushed at once.
func (e *sse) write(m jsonrpc.Message, raw json.RawMessage) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.gone {
		return errors.New("the client closed the stream")
	}
	e.open()
	e.rec.Saw(trace.ActorServer, live.Message{Raw: raw, Msg: m})
	if _, err := fmt.Fprintf(e.w, "event: message\ndata: %s\n\n", raw); err != nil {
		return err
	}
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}

// open starts the stream once, under e.mu: the SSE headers (X-Accel-Buffering
// unless server.sseHeaders is false), the server's start event with them,
// flushed so the client sees the stream open before any message.
func (e *sse) open() {
	if !e.started {
		e.started = true
		h := e.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		if !e.noSSE {
			h.Set("X-Accel-Buffering", "no")
		}
		e.headers = map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
		if !e.noSSE {
			e.headers["X-Accel-Buffering"] = "no"
		}
		e.w.WriteHeader(http.StatusOK)
		e.rec.Event(trace.ActorServer, trace.TypeStart, e.id, 0, e.headers, "The server opens the request's response stream.")
		if f, ok := e.w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// jsonBody answers with one JSON body (a request answered at once).
type jsonBody struct {
	rec  *live.Recorder
	msgs []json.RawMessage
}

func (b *jsonBody) write(m jsonrpc.Message, raw json.RawMessage) error {
	b.rec.Saw(trace.ActorServer, live.Message{Raw: raw, Msg: m})
	b.msgs = append(b.msgs, raw)
	return nil
}

// HTTP serves the mock on ln (Streamable HTTP at Path) until ctx ends or
// the client leaves (DELETE of its 2025-11-25 session); then every handler
// still working is stopped. It returns why it ended.
func (s *Server) HTTP(ctx context.Context, ln net.Listener) string {
	s.init()
	left := make(chan string, 1)
	mux := http.NewServeMux()
	mux.HandleFunc(Path, func(w http.ResponseWriter, r *http.Request) { s.serveHTTP(w, r, left) })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	why := ""
	select {
	case <-ctx.Done():
		why = "stopped: " + context.Cause(ctx).Error()
	case why = <-left:
	case err := <-served:
		why = "serving: " + err.Error()
	}
	s.stopAll() // open streams end: their handlers stop
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	srv.Close()
	s.Stop()
	return why
}

// serveHTTP is one HTTP request to Path.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request, left chan<- string) {
	sid := r.Header.Get(jsonrpc.HeaderSessionID)
	switch r.Method {
	case http.MethodPost:
		s.post(w, r)
	case http.MethodGet:
		s.listen(w, r)
	case http.MethodDelete:
		if ok, _ := s.sessionState(sid); !ok {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusOK)
		select {
		case left <- "the client ended its session (DELETE)":
		default:
		}
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// sessionOK checks a 2025-11-25 request's Mcp-Session-Id: none is needed
// before the session exists (initialize) nor under 2026-07-28; a retired
// or unknown one is 404, a missing one 400.
func (s *Server) sessionOK(w http.ResponseWriter, r *http.Request, initialize bool) bool {
	if initialize || s.wire().Stateless() && s.Era() != "" {
		return true
	}
	sid := r.Header.Get(jsonrpc.HeaderSessionID)
	ok, retired := s.sessionState(sid)
	switch {
	case ok:
		return true
	case retired:
		http.Error(w, "session retired", http.StatusNotFound)
	case sid == "" && !s.inSession():
		return true // no session yet (a 2026-07-28 client's server/discover before it falls back): the mock plays along
	case sid == "":
		http.Error(w, "Mcp-Session-Id missing", http.StatusBadRequest)
	default:
		http.Error(w, "no such session", http.StatusNotFound)
	}
	return false
}

// post is a POST: its messages are received; a body of notifications and
// responses gets 202, one with requests their answers (JSON at once, a
// tools/call an SSE stream kept open until its final).
func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(live.MaxMessage)+1))
	if err != nil {
		http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(body) > live.MaxMessage {
		http.Error(w, "body longer than 4 MiB", http.StatusRequestEntityTooLarge)
		return
	}
	msgs := live.Messages(body)
	if len(msgs) == 0 {
		http.Error(w, "no JSON-RPC message", http.StatusBadRequest)
		return
	}
	init := msgs[0].Msg.Method == jsonrpc.MethodInitialize
	if !s.sessionOK(w, r, init) {
		return
	}
	st := &sse{w: w, rec: s.Rec, noSSE: s.Scenario.Server.SSEHeaders != nil && !*s.Scenario.Server.SSEHeaders}
	jb := &jsonBody{rec: s.Rec}
	var out stream = jb // a body with a tools/call answers everything on its stream
	requests := 0
	for _, m := range msgs {
		if m.Msg.Kind == jsonrpc.Request {
			requests++
			if m.Msg.Method == jsonrpc.MethodToolsCall {
				out, st.id = st, m.Msg.ID
			}
		}
	}
	var calls []*call
	for _, m := range msgs {
		if c := s.receive(m, out); c != nil {
			calls = append(calls, c)
		}
	}
	if init && s.Era() == jsonrpc.Revision20251125 {
		sid := s.newSession()
		s.Rec.SetSession(sid)
		w.Header().Set(jsonrpc.HeaderSessionID, sid)
	}
	switch {
	case requests == 0:
		w.WriteHeader(http.StatusAccepted)
	case out == stream(jb):
		s.writeJSON(w, jb.msgs)
	default:
		st.mu.Lock()
		st.open() // the stream opens as the call starts, before its first message
		st.mu.Unlock()
		s.await(r.Context(), st, calls)
	}
}

// writeJSON writes the answers as one JSON body (a batch if more than one).
func (s *Server) writeJSON(w http.ResponseWriter, msgs []json.RawMessage) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if len(msgs) == 1 {
		w.Write(msgs[0])
		return
	}
	w.Write(jsonrpc.Marshal(msgs))
}

// await keeps a call's stream open until each call has nothing more to
// send, the client closes it (recorded as the client's close-stream; under
// 2026-07-28 that is the call's cancellation), or the mock stops.
func (s *Server) await(ctx context.Context, st *sse, calls []*call) {
	defer func() { // nothing writes on the response once its handler returns
		st.mu.Lock()
		st.gone = true
		st.mu.Unlock()
	}()
	for _, c := range calls {
		select {
		case <-c.Done():
			if c.holdOn {
				<-ctx.Done()
			}
		case <-ctx.Done():
		case <-s.ctx.Done():
			return
		}
		if ctx.Err() != nil {
			select {
			case <-c.Done():
				if !c.holdOn {
					return
				}
			default:
			}
			record := func() {
				s.Rec.Event(trace.ActorClient, trace.TypeCloseStream, c.id, 0, nil, "The client closed the request's response stream before its final response.")
			}
			if s.wire().Stateless() {
				c.arrives(record) // 2026-07-28: closing the stream is the cancellation
			} else {
				record()
			}
			return
		}
	}
}

// listen is a GET: the 2025-11-25 listen stream of the session (405 under
// 2026-07-28, which listens with subscriptions/listen). It stays open
// until the client closes it or the mock stops, unless a quirk drops it
// (the connection breaks) or ends it.
func (s *Server) listen(w http.ResponseWriter, r *http.Request) {
	if s.Era() == jsonrpc.Revision20260728 {
		w.Header().Set("Allow", "POST")
		http.Error(w, "2026-07-28 listens with subscriptions/listen", http.StatusMethodNotAllowed)
		return
	}
	if !s.sessionOK(w, r, false) {
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	var drop, end <-chan time.Time
	if ms := s.Quirks.DropListenMs; ms > 0 {
		drop = time.After(time.Duration(ms) * time.Millisecond)
	}
	if ms := s.Quirks.EndListenMs; ms > 0 {
		end = time.After(time.Duration(ms) * time.Millisecond)
	}
	select {
	case <-r.Context().Done():
	case <-s.ctx.Done():
	case <-end:
		s.logf("the server ends the listen stream")
	case <-drop:
		s.logf("the server drops the listen stream")
		panic(http.ErrAbortHandler) // the connection breaks mid-stream: no clean end
	}
}
