package checks

import (
	"bytes"
	"slices"
	"sort"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// view indexes a trace for the checks, once, so that every rule is a pass
// over the events (or over one request's events) and Evaluate costs
// O(events + requests) map operations, plus the size of what it reports.
type view struct {
	tr *trace.Trace
	ev []trace.Event
	// wires are the wire messages read, once each (wires[0] is the zero
	// wire of an event without a message); wireOf[i] indexes ev[i]'s: a
	// delivery shares its send's. See msg.
	wires  []wire
	wireOf []int32
	// puts[i] says who puts event i's message on the wire (putServer,
	// putClient or neither; see serverSends), worked out once here: the
	// checks ask it of every event, and its string compares (From, Type)
	// cost more under WebAssembly than the rest of a check's loop, where a
	// compare with a constant of more than 6 bytes is a call to memequal
	// and a shorter one a branch per byte (natively one or two word loads).
	puts   []uint8
	tokens map[string]string // progress token → request id (from the client's requests)
	// raw are the scenario's raw sends (rawSend), collected on first use.
	raw    RawSends
	method map[string]string // request id → method
	// sent[w] says wire w's send event is recorded (sentSparse instead
	// when the wire numbers are not the dense 1, 2, ... the engine and the
	// importer write).
	sent       []bool
	sentSparse map[int]bool
	// byID lists, per request id (idOf, "" for none), the indexes of its
	// events in order, in one backing array. Built on first use (eventsOf).
	byID map[string][]int
	// maxAt[i] is the largest At of ev[0..i]: the first event later than t
	// is found by binary search even if At ever went backwards.
	maxAt []int64
	// nextClient[i] is the index of the client's first event after i
	// (len(ev) if none); runEnd[i] is the index after the last event with
	// ev[i]'s time in the run of equal times that holds i. Built on first use.
	nextClient, runEnd []int
	// replays marks the server sends that repeat an SSE event id the
	// server already put on the wire: 2025-11-25 replays after
	// Last-Event-ID. Built on first use.
	replays map[int]bool
}

// msg is ev[i].Message as jsonrpc.Parse read it (the zero wire when the
// event has none or it is not a JSON-RPC object). Shared: read only.
func (v *view) msg(i int) *wire { return &v.wires[v.wireOf[i]] }

// eventsOf returns the indexes of the events about request id (idOf; ""
// for the events about none), in order.
func (v *view) eventsOf(id string) []int {
	if v.byID == nil {
		// Two passes, so that every list is a window on one array of
		// len(ev) indexes instead of a slice grown by appending.
		slot := make([]int32, len(v.ev))
		index := make(map[string]int32, len(v.tr.Requests)+1)
		var count []int
		for i := range v.ev {
			id := idOf(v.ev[i])
			k, ok := index[id]
			if !ok {
				k = int32(len(count))
				index[id] = k
				count = append(count, 0)
			}
			slot[i] = k
			count[k]++
		}
		start := make([]int, len(count))
		for k := 1; k < len(count); k++ {
			start[k] = start[k-1] + count[k-1]
		}
		all, next := make([]int, len(v.ev)), slices.Clone(start)
		for i, k := range slot {
			all[next[k]] = i
			next[k]++
		}
		v.byID = make(map[string][]int, len(index))
		for id, k := range index {
			v.byID[id] = all[start[k]:next[k]:next[k]]
		}
	}
	return v.byID[id]
}

// replay reports whether event i is the server sending again an event it
// already put on the wire (same eventId): the same message, not a new
// one, so the rules on what the server sends count it once.
func (v *view) replay(i int) bool {
	if v.replays == nil {
		v.replays = map[int]bool{}
		written := map[string]bool{}
		for j, e := range v.ev {
			if e.EventID == "" || e.Actor != trace.ActorServer || e.Type != trace.TypeSend {
				continue // an event only kept in the store was never on the wire
			}
			if written[e.EventID] {
				v.replays[j] = true
			}
			written[e.EventID] = true
		}
	}
	return v.replays[i]
}

func newView(tr *trace.Trace) *view {
	n := len(tr.Events)
	r := len(tr.Requests)
	v := &view{tr: tr, ev: tr.Events, tokens: map[string]string{}, method: make(map[string]string, r),
		wires: make([]wire, 1, n/2+1), wireOf: make([]int32, n), maxAt: make([]int64, n), puts: make([]uint8, n)}
	maxWire := 0
	for i := range tr.Events {
		maxWire = max(maxWire, tr.Events[i].Wire)
	}
	// parsed[w] is 1 + the index of the event whose message on wire w was
	// read (only for dense wire numbers; others are read where they occur).
	var parsed []int32
	if maxWire <= 2*n {
		v.sent, parsed = make([]bool, maxWire+1), make([]int32, maxWire+1)
	} else {
		v.sentSparse = make(map[int]bool, n/2)
	}
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Type == trace.TypeSend && e.Wire > 0 {
			if v.sent != nil {
				v.sent[e.Wire] = true
			} else {
				v.sentSparse[e.Wire] = true
			}
		}
		v.maxAt[i] = e.At
		if i > 0 && v.maxAt[i-1] > e.At {
			v.maxAt[i] = v.maxAt[i-1]
		}
	}
	for i := range tr.Events {
		e := &tr.Events[i]
		j := -1
		if e.Wire > 0 && e.Wire < len(parsed) {
			j = int(parsed[e.Wire]) - 1
		}
		switch {
		case len(e.Message) == 0:
			// wireOf[i] stays 0, the zero wire
		case j >= 0 && bytes.Equal(tr.Events[j].Message, e.Message):
			v.wireOf[i] = v.wireOf[j] // a deliver repeats its send's message
		default:
			v.wireOf[i] = int32(len(v.wires))
			v.wires = append(v.wires, parse(e.Message))
			if e.Wire > 0 && e.Wire < len(parsed) {
				parsed[e.Wire] = int32(i + 1)
			}
		}
		v.puts[i] = v.putter(i)
		if m := v.msg(i); v.clientSends(i) && m.method != "" && m.hasID {
			v.method[m.id] = m.method
			if m.metaToken != "" {
				v.tokens[inSession(e.Session, m.metaToken)] = m.id
			}
		}
	}
	return v
}

// serverSends reports whether event i is the server putting a message on
// the wire: its send event, or, in a log that recorded only the receiving
// end (an imported client-side log), the delivery of a message whose send
// was not recorded.
func (v *view) serverSends(i int) bool { return v.puts[i] == putServer }

// clientSends is serverSends for the client.
func (v *view) clientSends(i int) bool { return v.puts[i] == putClient }

// Who puts an event's message on the wire (view.puts).
const (
	putNone = iota
	putServer
	putClient
)

// putter is putServer or putClient when event i is that end putting a
// message on the wire (serverSends), else putNone. newView calls it once
// per event, after every send is recorded in sent.
func (v *view) putter(i int) uint8 {
	e := &v.ev[i]
	if e.Type != trace.TypeSend && !(e.Type == trace.TypeDeliver && len(e.Message) > 0 && !v.wireSent(e.Wire)) {
		return putNone
	}
	switch e.From {
	case trace.ActorServer:
		return putServer
	case trace.ActorClient:
		return putClient
	}
	return putNone
}

// wireSent reports whether wire number w's send event is recorded.
func (v *view) wireSent(w int) bool {
	if v.sent != nil {
		return w >= 0 && w < len(v.sent) && v.sent[w]
	}
	return v.sentSparse[w]
}

// inSession qualifies key (a progress token, a request id) by the event's
// session label (trace.Event.Session, "" when the trace has one session):
// ids and tokens restart with each session, so a key is only unique
// within its session.
func inSession(session, key string) string {
	if session == "" {
		return key
	}
	return session + "\x00" + key
}

// tokenReq is the id of the request whose progress token event i's
// message carries, within the event's session ("" for none known).
func (v *view) tokenReq(i int) string {
	return v.tokens[inSession(v.ev[i].Session, v.msg(i).token)]
}

// concerns returns the request id a server message is about: a response's
// id or a progress notification's request.
func (v *view) concerns(i int) string {
	m := v.msg(i)
	if m.response {
		return m.id
	}
	if m.method == jsonrpc.MethodProgress {
		return v.tokenReq(i)
	}
	return ""
}

// clientReaction returns the index of the client's first event after event
// i and at the same time, or -1: how the client treated what it was just
// handed.
func (v *view) clientReaction(i int) int {
	if v.nextClient == nil {
		n := len(v.ev)
		v.nextClient, v.runEnd = make([]int, n), make([]int, n)
		next, end := n, n
		for j := n - 1; j >= 0; j-- {
			if j+1 < n && v.ev[j+1].At != v.ev[j].At {
				end = j + 1
			}
			v.nextClient[j], v.runEnd[j] = next, end
			if v.ev[j].Actor == trace.ActorClient {
				next = j
			}
		}
	}
	if j := v.nextClient[i]; j < v.runEnd[i] {
		return j
	}
	return -1
}

// clientReactionTo returns the index of the client's first event after
// event i, at the same time and concerning request id, or -1: how the
// client treated the message it was just handed for that request (an event
// about another request at the same time is not a reaction to it).
func (v *view) clientReactionTo(i int, id string) int {
	for j := i + 1; j < len(v.ev) && v.ev[j].At == v.ev[i].At; j++ {
		if e := v.ev[j]; e.Actor == trace.ActorClient && (idOf(e) == id || e.ID == nil && v.msg(j).cancelOf == id) {
			return j
		}
	}
	return -1
}

// timeoutEvent returns the seqs of the client's timeout events for id (of
// cause, or any cause when cause is "").
func (v *view) timeoutEvent(id, cause string) []int {
	var out []int
	for _, i := range v.eventsOf(id) {
		if e := v.ev[i]; e.Type == trace.TypeTimeout && (cause == "" || e.Cause == cause) {
			out = append(out, i)
		}
	}
	return out
}

// until returns the number of events before the first one later than t:
// the events a request that ended at t can be judged on.
func (v *view) until(t int64) int {
	return sort.Search(len(v.maxAt), func(i int) bool { return v.maxAt[i] > t })
}
