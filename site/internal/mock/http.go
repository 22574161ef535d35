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
		s.settleHTTP()
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

// settleGrace bounds how long a stopping mock waits for the handlers of
// a client that is gone to notice it (settleHTTP).
const settleGrace = time.Second

// settleHTTP waits, up to settleGrace, until no request is being served:
// the lab stops the mock once the client has exited or been killed, and
// each handler still streaming to it must see its connection close and
// record how its stream broke (the client's close, or the lab's) before
// the mock ends every stream itself, which would record nothing.
func (s *Server) settleHTTP() {
	for end := time.Now().Add(settleGrace); s.inflight.Load() > 0 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
}

// serveHTTP is one HTTP request to Path.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request, left chan<- string) {
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
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
//
// A retired session's 404 is recorded as the server's reject with its
// status and the session id (id is the JSON text of the refused request,
// "" for none): a transcript so shows the 404 session-recovered judges. A
// session the server never gave, or none, is the client's mistake, not a
// session it lost, and is refused unrecorded.
func (s *Server) sessionOK(w http.ResponseWriter, r *http.Request, initialize bool, id string) bool {
	if initialize || s.wire().Stateless() && s.Era() != "" {
		return true
	}
	sid := r.Header.Get(jsonrpc.HeaderSessionID)
	ok, retired := s.sessionState(sid)
	status, text := http.StatusNotFound, "no such session"
	switch {
	case ok:
		return true
	case retired:
		text = "session retired"
	case sid == "" && !s.inSession():
		return true // no session yet (a 2026-07-28 client's server/discover before it falls back): the mock plays along
	case sid == "":
		status, text = http.StatusBadRequest, "Mcp-Session-Id missing"
	}
	if retired {
		s.Rec.Reject(id, status, map[string]string{jsonrpc.HeaderSessionID: sid},
			fmt.Sprintf("HTTP %d to the client's %s: %s (session %q).", status, r.Method, text, sid))
	}
	http.Error(w, text, status)
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
	first := ""
	for _, m := range msgs {
		if m.Msg.Kind == jsonrpc.Request && first == "" {
			first = m.Msg.ID
		}
	}
	if !s.sessionOK(w, r, init, first) {
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
// 2026-07-28 that is the call's cancellation), the session is retired
// (recorded as the server's close-stream of the call's stream), or the
// mock stops.
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
			if isClosed(c.forget) && s.ctx.Err() == nil && ctx.Err() == nil {
				s.Rec.Event(trace.ActorServer, trace.TypeCloseStream, c.id, 0, nil, "The server retired the session: the request's response stream ends unanswered.")
				return
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
				if why := s.labEnded(); why != "" {
					// Not the client's act: no cancellation to judge.
					s.Rec.Event(trace.ActorNetwork, trace.TypeCloseStream, c.id, 0, nil, LabEndedNote+" ("+why+"): the request's response stream broke before its final response; this is not the client's cancellation.")
					return
				}
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
// until the client closes it, the session is retired or the mock stops,
// unless a quirk drops the session's first one (the connection breaks) or
// ends it. Each is recorded as the server sees it: the client's reconnect
// (a GET after the session's first, with its request headers), the
// server's refusal (Quirks.RefuseReconnects: 503) or its start, and the
// stream's end (the server's close-stream, or the network's when it
// breaks).
func (s *Server) listen(w http.ResponseWriter, r *http.Request) {
	if s.Era() == jsonrpc.Revision20260728 {
		w.Header().Set("Allow", "POST")
		http.Error(w, "2026-07-28 listens with subscriptions/listen", http.StatusMethodNotAllowed)
		return
	}
	if !s.sessionOK(w, r, false, "") {
		return
	}
	nth, refuse, ended := s.openListen()
	if nth > 1 {
		s.Rec.Event(trace.ActorClient, trace.TypeReconnect, "", 0, requestHeaders(r),
			fmt.Sprintf("The client reopens its listen stream (GET number %d of the session).", nth))
	}
	if refuse {
		s.Rec.Reject("", http.StatusServiceUnavailable, nil, "HTTP 503: the server refuses the reconnect (it is overloaded), so the client must back off.")
		http.Error(w, "overloaded: retry later", http.StatusServiceUnavailable)
		return
	}
	h := map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
	if s.Scenario.Server.SSEHeaders == nil || *s.Scenario.Server.SSEHeaders {
		h["X-Accel-Buffering"] = "no"
	}
	for k, v := range h {
		w.Header().Set(k, v)
	}
	w.WriteHeader(http.StatusOK)
	s.Rec.Event(trace.ActorServer, trace.TypeStart, "", 0, h, "The server opens the session's listen stream (GET).")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	var drop, end <-chan time.Time
	if ms := s.Quirks.DropListenMs; ms > 0 && nth == 1 {
		drop = time.After(time.Duration(ms) * time.Millisecond)
	}
	if ms := s.Quirks.EndListenMs; ms > 0 && nth == 1 {
		end = time.After(time.Duration(ms) * time.Millisecond)
	}
	select {
	case <-r.Context().Done():
	case <-s.ctx.Done():
	case <-ended:
		s.Rec.Event(trace.ActorServer, trace.TypeCloseStream, "", 0, nil, "The server retired the session: its listen stream ends.")
	case <-end:
		s.Rec.Event(trace.ActorServer, trace.TypeCloseStream, "", 0, nil, "The server ends the listen stream cleanly.")
		s.logf("the server ends the listen stream")
	case <-drop:
		s.Rec.Event(trace.ActorNetwork, trace.TypeCloseStream, "", 0, nil, "The connection under the listen stream breaks (no clean end).")
		s.logf("the server drops the listen stream")
		panic(http.ErrAbortHandler) // the connection breaks mid-stream: no clean end
	}
}

// openListen counts a listen stream of the session: nth is its number
// (1 the first, later ones reconnects), refuse whether the server refuses
// it (a reconnect within Quirks.RefuseReconnects), ended the channel
// closed when the session is retired.
func (s *Server) openListen() (nth int, refuse bool, ended <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listens++
	if s.listens > 1 && s.refused < s.Quirks.RefuseReconnects {
		s.refused++
		refuse = true
	}
	return s.listens, refuse, s.ended
}

// requestHeaders are the request headers a reconnect's event keeps: the
// ones that say what it resumes (Last-Event-ID) and where (the session).
func requestHeaders(r *http.Request) map[string]string {
	h := map[string]string{}
	for _, k := range []string{"Accept", "Last-Event-ID", jsonrpc.HeaderSessionID} {
		if v := r.Header.Get(k); v != "" {
			h[k] = v
		}
	}
	return h
}
