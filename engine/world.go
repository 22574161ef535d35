package engine

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/tasks"
	"github.com/mcplab/mcplab/engine/trace"
)

// world is one simulation: the queue, the client, the network and the
// server, and the trace being written.
type world struct {
	s      *scenario.Scenario
	q      sim.Queue
	events []trace.Event
	wire   int
	// bytes counts the message and note bytes the events carry (the part
	// of the trace a scenario can make large), against MaxTraceBytes.
	bytes int

	reqs  map[string]*request // by JSON-RPC id text
	order []*request          // in the order the client sent them
	// byToken maps a progress token's JSON text to the client's request.
	byToken map[string]*request

	reconnects []trace.Reconnect
	opts       Options
	ledger     *ledger.Server
	tasks      map[string]*task
	taskOrder  []*task
	taskSeq    int
	lastStepAt int64

	// client is how the server half reaches the client half: only through
	// what arrives on the wire (wired by RunWith).
	client clientEnd

	clientProgress coordinator.Progress // what the client accepted
	serverProgress coordinator.Progress // what the server sent

	// store is the server's event store under 2025-11-25 (resume.go).
	store sse.EventStore[outMsg]
}

// clientEnd is what the client does when something reaches it from the
// server: progress value v for r, r's final response, or r's stream closed
// by actor (an idle-closing proxy).
type clientEnd struct {
	progress     func(r *request, v float64)
	response     func(r *request, failed bool)
	streamClosed func(r *request, actor string)
}

// request is one JSON-RPC request seen from both ends.
type request struct {
	id     scenario.ID
	method string
	name   string
	args   json.RawMessage
	token  *scenario.ID
	effect *bool // the call's sideEffect field

	// client side
	sentAt    int64
	outcome   string // trace.Outcome*
	endedAt   *int64
	deadlines coordinator.Deadlines
	timer     *sim.Timer
	cause     string // why a cancellation was attempted
	reason    *string
	signal    string
	// clientStreamOpen: the client still reads this request's HTTP stream.
	clientStreamOpen bool

	// server side
	arrived   bool
	srv       coordinator.Request
	response  json.RawMessage // the final message the server put on the wire
	keepalive *sim.Timer
	// serverStreamOpen: the server still writes to the HTTP stream.
	serverStreamOpen bool
	// cursor is the client's resume position on the stream (2025-11-25).
	cursor recovery.Cursor

	// hints are the call's tool annotations, shown but never trusted.
	hints json.RawMessage
	// raced: the request is part of a race step (handled at arrival).
	raced bool
	// retryOf is the request this one retries, nil if none.
	retryOf *scenario.ID
	// task is the durable task a call asked for, "" if none.
	task string
	// handle, if set, is what the server does once it has started the
	// request (a task-augmented call creates its task).
	handle func()
	// ls is set for a subscriptions/listen stream.
	ls *listenState
	// st is the stream's flow-control state (SSE buffer, proxy), when any.
	st *stream
}

func newWorld(s *scenario.Scenario, opts Options) *world {
	return &world{s: s, opts: opts, reqs: map[string]*request{}, byToken: map[string]*request{}, reconnects: []trace.Reconnect{}, tasks: map[string]*task{}}
}

func (w *world) http() bool   { return w.s.Transport == scenario.TransportHTTP }
func (w *world) is2025() bool { return w.s.Protocol == scenario.Protocol20251125 }

// resumable reports whether streams carry event ids and can be resumed:
// Streamable HTTP under 2025-11-25.
func (w *world) resumable() bool { return w.http() && w.is2025() }

// emit appends an event at the current virtual time and returns its seq.
func (w *world) emit(e trace.Event) int {
	w.bytes += len(e.Message) + len(e.Note)
	switch {
	case len(w.events) == MaxEvents:
		w.q.Abort(fmt.Errorf("%w: the scenario generates more than %d events", ErrTooLarge, MaxEvents))
	case w.bytes > MaxTraceBytes:
		w.q.Abort(fmt.Errorf("%w: the scenario's events carry more than %d bytes of messages and notes", ErrTooLarge, MaxTraceBytes))
	}
	e.Seq = len(w.events)
	e.At = w.q.Now()
	w.events = append(w.events, e)
	return e.Seq
}

func idPtr(id scenario.ID) *scenario.ID { return &id }

// ---- the wire -------------------------------------------------------------

// send puts msg on the wire from one side to the other and schedules its
// delivery after that direction's latency. At delivery, lost (if not nil)
// may say why the message never arrives (a closed stream); otherwise the
// delivery is recorded and arrive runs the receiver's reaction. id is the
// request the message concerns, if any.
func (w *world) send(from string, id *scenario.ID, msg json.RawMessage, note string, lost func() string, arrive func()) {
	w.wire++
	n := w.wire
	to, lat := trace.ActorServer, w.s.LatencyMs.Up
	if from == trace.ActorServer {
		to, lat = trace.ActorClient, w.s.LatencyMs.Down
	}
	sent := w.q.Now()
	w.emit(trace.Event{Actor: from, Type: trace.TypeSend, ID: id, From: from, To: to, Wire: n, Message: msg, Note: note})
	w.q.Schedule(sent+lat, func() {
		if lost != nil {
			if why := lost(); why != "" {
				w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDrop, ID: id, From: from, To: to, Wire: n, SentAt: &sent, Message: msg, Note: why})
				return
			}
		}
		w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: id, From: from, To: to, Wire: n, SentAt: &sent, Message: msg,
			Note: fmt.Sprintf("Delivered to the %s after %d ms.", to, lat)})
		arrive()
	})
}

// closeStream records that actor closed request r's HTTP response stream
// and delivers the close to the other side after the latency.
func (w *world) closeStream(actor string, r *request, note string, onDeliver func()) {
	w.wire++
	n := w.wire
	from, to, lat := trace.ActorClient, trace.ActorServer, w.s.LatencyMs.Up
	sent := w.q.Now()
	w.emit(trace.Event{Actor: actor, Type: trace.TypeCloseStream, ID: idPtr(r.id), From: from, To: to, Wire: n, Signal: trace.SignalCloseStream, Note: note})
	w.q.Schedule(sent+lat, func() {
		w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idPtr(r.id), From: from, To: to, Wire: n, SentAt: &sent, Signal: trace.SignalCloseStream,
			Note: fmt.Sprintf("The server sees request %s's response stream close after %d ms.", r.id, lat)})
		onDeliver()
	})
}

// ---- messages -------------------------------------------------------------

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		// Only engine-built values reach here; they always encode.
		panic(fmt.Sprintf("engine: encoding %T: %v", v, err))
	}
	return b
}

func requestMessage(r *request) json.RawMessage {
	token := ""
	if r.token != nil {
		token = r.token.Raw()
	}
	return jsonrpc.NewCall(r.id.Raw(), r.method, r.name, r.args, token)
}

func progressMessage(token scenario.ID, st scenario.Step) json.RawMessage {
	var msg *string
	if st.Message != nil {
		var s string
		_ = json.Unmarshal(st.Message, &s)
		msg = &s
	}
	return jsonrpc.NewProgress(token.Raw(), *st.Progress, st.Total, msg)
}

// fmtNum formats a progress value as JSON does.
func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// stream is the flow-control state of one response stream.
type stream struct {
	buf     *sse.Buffer[outMsg]
	nextID  int
	drain   *sim.Timer
	startAt int64
	closed  bool // discarded after a cancellation

	proxy     sse.Proxy[heldMsg] // what a buffering proxy holds
	proxyIdle *sim.Timer
}

// outMsg is a server message on its way to the client, with what the
// engine knows of it (so nothing downstream parses it again).
type outMsg struct {
	msg     json.RawMessage
	comment string // a keep-alive comment instead of a message
	note    string
	arrive  func()
	// progress: a notifications/progress, with token its progress token's
	// JSON text; final: a response that ends its stream.
	progress bool
	token    string
	final    bool
	// eventID is its SSE event id under 2025-11-25 ("" for none); priming
	// marks a stream's priming event, an id with empty data (resume.go).
	eventID string
	priming bool
}

// heldMsg is a message that reached a buffering proxy.
type heldMsg struct {
	wire   int
	sentAt int64
	m      outMsg
}

// listenState is the listen-stream part of a request.
type listenState struct {
	filter json.RawMessage
	// serverActive: the server still sends on this stream.
	serverActive bool
	// clientActive: the client still reads it.
	clientActive bool
	// sent are the messages the server put on this stream, in order (their
	// 1-based index is the 2025-11-25 SSE event id); delivered counts those
	// the client received.
	sent      []json.RawMessage
	delivered int
}

// task is one durable task at the server, plus what the client knows of it.
type task struct {
	tasks.Task
	client tasks.Client
}
