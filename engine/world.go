package engine

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/handler"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/ledger"
	"github.com/mcplab/mcplab/engine/recovery"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/session"
	"github.com/mcplab/mcplab/engine/sim"
	"github.com/mcplab/mcplab/engine/sse"
	"github.com/mcplab/mcplab/engine/tasks"
	"github.com/mcplab/mcplab/engine/trace"
)

// world is one simulation: the queue, the client, the network and the
// server, and the trace being written.
type world struct {
	s    *scenario.Scenario
	q    sim.Queue
	log  trace.Log // the events, bounded by MaxEvents and MaxTraceBytes
	wire int

	reqs  map[string]*request // by JSON-RPC id text
	order []*request          // in the order the client sent them
	pipes []*recovery.Listen  // 2025-11-25 stdio listens, which no request opened
	// byToken maps a progress token's JSON text to the client's request.
	byToken map[string]*request

	// tp is what the scenario makes of a cancellation, policy the server's
	// switches that touch one request.
	tp     coordinator.Transport
	policy coordinator.Policy

	reconnects []trace.Reconnect
	opts       Options
	ledger     *ledger.Server
	tasks      tasks.Store
	lastStepAt int64

	// client is how the server half reaches the client half: only through
	// what arrives on the wire (wired by RunWith).
	client clientEnd

	clientProgress coordinator.Progress // what the client accepted
	serverProgress coordinator.Progress // what the server sent

	// store is the server's event store under 2025-11-25 (resume.go).
	store sse.EventStore[sse.Msg]

	handlers *handler.Server // the server's handlers (server.handlers)
	skipped  []trace.Skip    // the scripted steps that could not happen
	// sess is the 2025-11-25 lifecycle (session.go).
	sess session.Lifecycle
}

// clientEnd is what the client does when something reaches it from the
// server: progress value v for r, r's final response, r's stream closed
// by actor (an idle-closing proxy), or a message outside any request's
// stream (receive).
type clientEnd struct {
	progress     func(r *request, v float64)
	response     func(r *request, failed bool)
	streamClosed func(r *request, actor trace.Actor)
	receive      func(msg json.RawMessage)
}

// request is one JSON-RPC request seen from both ends.
type request struct {
	id     scenario.ID
	method string
	name   string
	args   json.RawMessage
	token  *scenario.ID
	effect *bool // the call's sideEffect field

	sentAt int64
	// cl is the client half, alarm its deadline timer; srv the server
	// half, keepalive its keep-alive clock.
	cl        coordinator.Client
	alarm     coordinator.Alarm
	srv       coordinator.Server
	keepalive sse.Keepalives
	// cursor is the client's resume position on the stream (2025-11-25).
	cursor recovery.Cursor

	// hints are the call's tool annotations, shown but never trusted.
	hints json.RawMessage
	// retryOf is the request this one retries, nil if none.
	retryOf *scenario.ID
	// task is the durable task a call asked for, "" if none.
	task string
	// ls is set for a subscriptions/listen stream.
	ls *recovery.Listen
	// st is the stream's flow-control state (SSE buffer, proxy), when any.
	st *sse.Stream
	// work is the handler of a call whose tool has one (server.handlers).
	work *handler.Work
	// root is the call a call step sent that r is or retries (client.go).
	root *request
}

func newWorld(s *scenario.Scenario, opts Options) *world {
	return &world{s: s, opts: opts, log: trace.Log{Events: make([]trace.Event, 0, trace.EventsHint(s, MaxEvents)), MaxEvents: MaxEvents, MaxBytes: MaxTraceBytes}, reqs: map[string]*request{}, byToken: map[string]*request{}, reconnects: []trace.Reconnect{},
		tp: coordinator.TransportOf(s), policy: coordinator.PolicyOf(s.Server.Policy), sess: session.New(s)}
}

func (w *world) http() bool   { return w.s.Transport == scenario.TransportHTTP }
func (w *world) is2025() bool { return w.s.Protocol == scenario.Protocol20251125 }

// era is the wire of the scenario's revision (jsonrpc.Era); the methods
// after it make the world package session's Wire (the 2025 lifecycle).
func (w *world) era() jsonrpc.Era {
	return jsonrpc.EraOf(w.s.Protocol, w.s.Client.Policy.ClaimProtocolVersion, w.s.Client.Policy.HeaderMismatch)
}
func (w *world) Emit(e trace.Event)        { w.emit(e) }
func (w *world) After(ms int64, fn func()) { w.q.Schedule(w.q.Now()+ms, fn) }
func (w *world) Now() int64                { return w.q.Now() }
func (w *world) Latency() (int64, int64)   { return w.s.LatencyMs.Up, w.s.LatencyMs.Down }
func (w *world) Send(from trace.Actor, id *scenario.ID, msg json.RawMessage, h map[string]string, note string, arrive func()) {
	w.sendAbout(from, trace.Event{ID: id, Headers: h}, msg, note, arrive)
}

// resumable reports whether streams carry event ids and can be resumed:
// Streamable HTTP under 2025-11-25 (resume.go).
func (w *world) resumable() bool { return w.http() && w.is2025() }

// tell emits e about request r.
func (w *world) tell(r *request, e trace.Event) {
	e.ID = &r.id // shared by r's events: an ID never changes
	w.emit(e)
}

// emit appends an event at the current virtual time and returns its seq;
// past a bound of the log (MaxEvents, MaxTraceBytes) the run aborts.
func (w *world) emit(e trace.Event) int {
	e.At = w.q.Now()
	seq, err := w.log.Append(e)
	if err != nil {
		w.q.Abort(err)
	}
	return seq
}

// register records r as sent by the client now: pending, its response
// stream open on Streamable HTTP.
func (w *world) register(r *request) *request {
	r.sentAt, r.cl = w.q.Now(), coordinator.NewClient(r.cl.Deadlines, w.http())
	w.reqs[r.id.Raw()] = r
	w.order = append(w.order, r)
	return r
}

func idPtr(id scenario.ID) *scenario.ID { return &id }

// ---- the wire -------------------------------------------------------------

// send puts msg on the wire from one side to the other and schedules its
// delivery after that direction's latency; at delivery arrive runs the
// receiver's reaction. id is the request the message concerns, if any.
func (w *world) send(from trace.Actor, id *scenario.ID, msg json.RawMessage, note string, arrive func()) {
	w.sendAbout(from, trace.Event{ID: id}, msg, note, arrive)
}

// sendAbout is send with the send event's ID, TaskID and Headers taken
// from about (the delivery keeps ID and TaskID).
func (w *world) sendAbout(from trace.Actor, about trace.Event, msg json.RawMessage, note string, arrive func()) {
	if from == trace.ActorClient {
		msg, about.Headers = w.era().Post(msg, about.ID != nil, w.http(), w.sess.Client, about.Headers)
	}
	about.Actor, about.Type, about.From, about.Message, about.Note = from, trace.TypeSend, from, msg, note
	w.transmit(about, "", arrive)
}

// closeStream records that actor closed request r's HTTP response stream
// and delivers the close to the server after the latency.
func (w *world) closeStream(actor trace.Actor, r *request, note string, onDeliver func()) {
	e := trace.Event{Actor: actor, Type: trace.TypeCloseStream, ID: idPtr(r.id), From: trace.ActorClient, Signal: trace.SignalCloseStream, Note: note}
	w.transmit(e, "The server sees request "+r.id.Raw()+"'s response stream close after "+strconv.FormatInt(w.s.LatencyMs.Up, 10)+" ms.", onDeliver)
}

// transmit emits e (a send or a stream close leaving e.From) as the next
// wire message and, after that direction's latency, its delivery to the
// other side with deliverNote ("" for the plain one); then arrive runs.
func (w *world) transmit(e trace.Event, deliverNote string, arrive func()) {
	w.wire++
	sent, lat := w.q.Now(), w.s.LatencyMs.Up
	e.To, e.Wire = trace.ActorServer, w.wire
	if e.From == trace.ActorServer {
		e.To, lat = trace.ActorClient, w.s.LatencyMs.Down
	}
	if deliverNote == "" {
		deliverNote = "Delivered to the " + string(e.To) + " after " + strconv.FormatInt(lat, 10) + " ms."
	}
	seq := w.emit(e)
	w.q.Schedule(sent+lat, func() {
		e := &w.log.Events[seq] // not e itself: a closure holding an event was 280 bytes a message
		w.emit(trace.Event{Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: e.ID, TaskID: e.TaskID, From: e.From, To: e.To, Wire: e.Wire, SentAt: &sent, HTTPMethod: e.HTTPMethod, Message: e.Message, Signal: e.Signal, Note: deliverNote})
		arrive()
	})
}

// ---- messages -------------------------------------------------------------

func (w *world) requestMessage(r *request) json.RawMessage {
	token := ""
	if r.token != nil {
		token = r.token.Raw()
	}
	return tasks.Call(jsonrpc.NewCall(r.id.Raw(), r.method, r.name, r.args, token), r.task, w.is2025())
}
