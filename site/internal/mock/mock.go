package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
)

// ProtocolAuto is the Protocol that answers in the era the client speaks
// (SCENARIO.md, "Live": initialize → 2025-11-25, _meta → 2026-07-28).
const ProtocolAuto = "auto"

// MaxCalls bounds the calls one mock works on at once: 64; a further
// tools/call is answered with an error.
const MaxCalls = 64

// DefaultTool is the tool the mock lists when the scenario's handlers
// name none but "*" (any tool).
const DefaultTool = "slow"

// CodeMethodNotFound is JSON-RPC 2.0's "Method not found" (§5.1).
const CodeMethodNotFound = -32601

// CodeUnsupportedProtocolVersion is 2026-07-28's
// UnsupportedProtocolVersionError: the mock, told to speak 2026-07-28
// only, answers initialize with it.
const CodeUnsupportedProtocolVersion = -32022

// Quirks are what a situation of probe-client plays beyond the scenario's
// switches (SCENARIO.md, "Live": situation names): the server's
// misbehaviours, and the tools' annotations. The zero value is a correct
// server listing tools without annotations.
type Quirks struct {
	// ProgressAfterFinal sends one more progress notification for a
	// call's token after its final response (progress-after-final: a
	// tolerant client ignores it and keeps its session).
	ProgressAfterFinal bool
	// LoseResponse does every tools/call's work but never sends its
	// response; on Streamable HTTP its stream stays open until the client
	// closes it (lost-response-mutation).
	LoseResponse bool
	// RetireSession (2025-11-25, Streamable HTTP) retires the session when
	// its first tools/call arrives: the call's stream ends unanswered and
	// every later request of that session gets 404 (session-retired).
	RetireSession bool
	// DropListenMs (Streamable HTTP) breaks the session's first listen
	// stream (a GET) that many ms after it opens, without ending it
	// cleanly; 0 never (listen-dropped).
	DropListenMs int64
	// EndListenMs (Streamable HTTP) ends the session's first listen stream
	// cleanly that many ms after it opens; 0 never (listen-ended).
	EndListenMs int64
	// RefuseReconnects (Streamable HTTP) answers that many of the client's
	// reconnects of its listen stream with 503 before it accepts one, so
	// the client's waits between refused attempts show its backoff
	// (listen-dropped).
	RefuseReconnects int
	// Annotations, when set, is the annotations object (MCP ToolAnnotations)
	// tools/list gives every tool, so a transcript says what a retry of it
	// risks (lost-response-mutation: an unsafe mutation).
	Annotations json.RawMessage
}

// Server is one mock: the server half of Scenario, speaking to one
// client. Set the exported fields, then serve it with Serve (stdio) or
// HTTP; it is not reused for a second client.
type Server struct {
	// Scenario gives the handlers (server.handlers), their resources and
	// the server switches (server.policy).
	Scenario *scenario.Scenario
	// Protocol is ProtocolAuto, jsonrpc.Revision20251125 or
	// jsonrpc.Revision20260728.
	Protocol string
	// Quirks are the situation's misbehaviours.
	Quirks Quirks
	// Rec records what the mock saw and sent (observer: server).
	Rec *live.Recorder
	// Log, when set, gets a line for each thing a reader of the transcript
	// would want said (a refused request, a retired session).
	Log io.Writer

	mu      sync.Mutex
	era     *jsonrpc.Era // nil until the client's first message tells it
	calls   map[string]*call
	sems    map[string]chan struct{}
	ctx     context.Context
	stopAll context.CancelFunc
	wg      sync.WaitGroup
	// session is the 2025-11-25 Streamable HTTP session ("" none yet);
	// retired the ids the server retired.
	session string
	retired map[string]bool
	nextID  int
	// ended is closed when the current session is retired (its listen
	// stream ends); listens counts the session's listen streams opened,
	// refused the reconnects refused (Quirks.RefuseReconnects).
	ended   chan struct{}
	listens int
	refused int
	// ending says why the lab is ending the client ("" while it is not):
	// the streams that break from then on are the lab's doing.
	ending atomic.Value
	// inflight counts the HTTP requests being served: when the lab stops,
	// the mock waits (settleHTTP) for those whose client is gone to record
	// how their streams broke.
	inflight atomic.Int64
}

// LabEndedNote opens the note of a stream close the lab caused by ending
// the client (EndingClient), so a reader of the transcript, and
// probe-client, tell it from the client's own act.
const LabEndedNote = "The lab ended the client"

// EndingClient tells the mock that the lab is about to end the client's
// process (why, such as "stopped at the situation's limit, -limit 20s"):
// a response stream that breaks from then on is recorded as the
// network's close-stream with why, not as the client's (under 2025-11-25
// a client's close would be judged a wrong cancellation, under 2026-07-28
// a right one; neither is the client's act).
func (s *Server) EndingClient(why string) { s.ending.Store(why) }

// labEnded is EndingClient's why, "" before it is called.
func (s *Server) labEnded() string {
	why, _ := s.ending.Load().(string)
	return why
}

// stream is where the answers to one client message go: the stdio pipe,
// or an HTTP request's response stream.
type stream interface {
	// write puts one message on the stream, after rec records it.
	write(msg jsonrpc.Message, raw json.RawMessage) error
}

// init makes the server's state on first use.
func (s *Server) init() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls != nil {
		return
	}
	s.calls = map[string]*call{}
	s.sems = map[string]chan struct{}{}
	s.retired = map[string]bool{}
	s.ctx, s.stopAll = context.WithCancel(context.Background())
	if s.Scenario == nil {
		s.Scenario = &scenario.Scenario{}
	}
	if s.Protocol != ProtocolAuto && s.Protocol != "" {
		s.setEra(s.Protocol)
	}
}

// setEra fixes the era (the first one known wins), under s.mu.
func (s *Server) setEra(rev string) {
	if s.era != nil {
		return
	}
	s.era = &jsonrpc.Era{Revision: rev}
	s.Rec.SetProtocol(rev)
}

// Era is the revision the mock speaks, "" while the client has not said.
func (s *Server) Era() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.era == nil {
		return ""
	}
	return s.era.Revision
}

// wire is the era to write in: 2025-11-25 until the client speaks 2026.
func (s *Server) wire() jsonrpc.Era {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.era == nil {
		return jsonrpc.Era{Revision: jsonrpc.Revision20251125}
	}
	return *s.era
}

// Stop ends every handler still working (the client left) and waits for
// them.
func (s *Server) Stop() {
	s.init()
	s.stopAll()
	s.wg.Wait()
}

// logf writes one line to Log.
func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		fmt.Fprintf(s.Log, "mcplab mock: "+format+"\n", args...)
	}
}

// send records raw as the server's and writes it on st.
func (s *Server) send(st stream, raw json.RawMessage) {
	ms := live.Messages(raw)
	if len(ms) != 1 {
		return
	}
	_ = st.write(ms[0].Msg, ms[0].Raw)
}

// receive handles one client message read from st; it returns the calls
// it started (whose answers go to st later).
func (s *Server) receive(m live.Message, st stream) *call {
	s.init()
	msg := m.Msg
	if msg.Kind == jsonrpc.Notification && msg.Method == jsonrpc.MethodCancelled {
		if cc, err := msg.Cancellation(); err == nil {
			s.mu.Lock()
			c := s.calls[cc.RequestID]
			s.mu.Unlock()
			if c != nil {
				c.arrives(func() { s.Rec.Saw(trace.ActorClient, m) })
				return nil
			}
		}
	}
	s.Rec.Saw(trace.ActorClient, m)
	if msg.Kind == jsonrpc.Notification {
		return nil
	}
	if msg.Kind != jsonrpc.Request {
		return nil // a response to nothing the mock asked
	}
	s.learnEra(msg)
	era := s.wire()
	switch {
	case msg.Method == jsonrpc.MethodInitialize && era.Stateless():
		// Told to speak 2026-07-28 only (-protocol): the client may retry
		// in a revision it is told the server speaks.
		s.send(st, jsonrpc.NewError(msg.ID, jsonrpc.ErrorObject{Code: CodeUnsupportedProtocolVersion, Message: "this server speaks 2026-07-28 only",
			Data: json.RawMessage(`{"supported":["2026-07-28"]}`)}))
		return nil
	case msg.Method == jsonrpc.MethodDiscover && !era.Stateless():
		// Told to speak 2025-11-25 only: a 2026-07-28 client falls back
		// to initialize.
		s.send(st, jsonrpc.NewError(msg.ID, jsonrpc.ErrorObject{Code: CodeMethodNotFound, Message: "this server speaks 2025-11-25 only: initialize"}))
		return nil
	}
	switch msg.Method {
	case jsonrpc.MethodInitialize:
		s.send(st, jsonrpc.NewInitializeResult(msg.ID, jsonrpc.Capabilities{}))
	case jsonrpc.MethodDiscover:
		s.send(st, era.Result(msg.Method, msg.ID, jsonrpc.NewResult(msg.ID, json.RawMessage(`{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{}}}`))))
	case jsonrpc.MethodPing:
		s.send(st, jsonrpc.NewResult(msg.ID, json.RawMessage(`{}`)))
	case "tools/list":
		s.send(st, era.Result(msg.Method, msg.ID, jsonrpc.NewResult(msg.ID, s.toolList())))
	case jsonrpc.MethodToolsCall:
		return s.startCall(msg, st)
	default:
		s.send(st, jsonrpc.NewError(msg.ID, jsonrpc.ErrorObject{Code: CodeMethodNotFound, Message: "the mock serves initialize, server/discover, ping, tools/list and tools/call, not " + msg.Method}))
	}
	return nil
}

// learnEra reads the era off a request in auto mode: initialize is
// 2025-11-25's, a protocol version in params._meta 2026-07-28's.
func (s *Server) learnEra(m jsonrpc.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.era != nil {
		return
	}
	if m.Method == jsonrpc.MethodInitialize {
		s.setEra(jsonrpc.Revision20251125)
		return
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(m.Params, &p) == nil && p.Meta[jsonrpc.MetaProtocolVersion] != nil || m.Method == jsonrpc.MethodDiscover {
		s.setEra(jsonrpc.Revision20260728)
	}
}

// toolList is tools/list's result: a tool per named handler, in name
// order (DefaultTool when only "*" is named), each taking any object.
func (s *Server) toolList() json.RawMessage {
	var names []string
	for n := range s.Scenario.Server.Handlers {
		if n != "*" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if _, any := s.Scenario.Server.Handlers["*"]; any && len(names) == 0 {
		names = []string{DefaultTool}
	}
	type tool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations json.RawMessage `json:"annotations,omitempty"`
	}
	tools := make([]tool, 0, len(names))
	for _, n := range names {
		h := s.handler(n)
		tools = append(tools, tool{n, toolDescription(h.WorkMs, h.ProgressEveryMs, h.CheckpointEveryMs), json.RawMessage(`{"type":"object"}`), s.Quirks.Annotations})
	}
	return jsonrpc.Marshal(struct {
		Tools []tool `json:"tools"`
	}{tools})
}

// handler is tool's handler: its own, else "*"'s (zero WorkMs: none).
func (s *Server) handler(tool string) scenario.Handler {
	if h, ok := s.Scenario.Server.Handlers[tool]; ok {
		return h
	}
	if tool == DefaultTool || tool != "" {
		return s.Scenario.Server.Handlers["*"]
	}
	return scenario.Handler{}
}

// sem is resource name's semaphore, its capacity server.resources' (1
// unless named).
func (s *Server) sem(name string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.sems[name]; ok {
		return ch
	}
	n := s.Scenario.Server.Resources[name]
	if n <= 0 {
		n = 1
	}
	ch := make(chan struct{}, n)
	s.sems[name] = ch
	return ch
}

// retire forgets the session (2025-11-25): its in-flight calls end with
// no response and its id is refused from now on.
func (s *Server) retire() {
	s.mu.Lock()
	id := s.session
	s.retired[id] = true
	s.session = ""
	if s.ended != nil {
		close(s.ended)
		s.ended = nil
	}
	var calls []*call
	for _, c := range s.calls {
		calls = append(calls, c)
	}
	s.mu.Unlock()
	for _, c := range calls {
		c.forgetOnce()
	}
	s.logf("the server retired session %s: its next request gets 404", id)
}

// newSession starts a 2025-11-25 session and returns its id.
func (s *Server) newSession() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.session = fmt.Sprintf("mcplab-mock-%d-%d", time.Now().UnixNano()%1e9, s.nextID)
	s.ended, s.listens, s.refused = make(chan struct{}), 0, 0
	return s.session
}

// sessionState says whether id is the current session (ok) or one the
// server retired.
func (s *Server) sessionState(id string) (ok, retired bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return id != "" && id == s.session, s.retired[id]
}

// inSession reports whether a 2025-11-25 session is open.
func (s *Server) inSession() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session != ""
}

// toolDescription says what a handler does in the words of its scenario:
// its work, and its progress and checkpoints only when it has them.
func toolDescription(workMs, progressEveryMs, checkpointEveryMs int64) string {
	d := fmt.Sprintf("Works %d ms", workMs)
	var parts []string
	if progressEveryMs > 0 {
		parts = append(parts, fmt.Sprintf("progress every %d ms", progressEveryMs))
	}
	if checkpointEveryMs > 0 {
		parts = append(parts, fmt.Sprintf("checkpoints every %d ms", checkpointEveryMs))
	}
	if len(parts) > 0 {
		d += " (" + strings.Join(parts, ", ") + ")"
	}
	return d + "."
}
