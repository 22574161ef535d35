package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// build lays the entries out as events and derives the request summary,
// the inferred protocol, transport and latency (with their reasons in the
// source note) and each cancellation's cause.
func build(es []entry, format, side string, md meta, opts Options) *trace.Trace {
	tr := &trace.Trace{Mcplab: scenario.Version, Events: []trace.Event{}, Requests: []trace.Request{},
		Ledger: trace.Ledger{Records: []trace.LedgerRecord{}}, Tasks: []trace.Task{}, Buffers: []trace.Buffer{}, Reconnects: []trace.Reconnect{}}
	timed := len(es) > 0 && es[0].timed
	base := int64(0)
	if timed {
		base = es[0].at
	}
	src := &trace.Source{Format: format, Side: side, Clock: "ms", Observer: md.observer, Transport: md.transport, Protocol: md.protocol, ProtocolFrom: md.protocolFrom, Zone: md.zone}
	var notes []string
	if !timed {
		src.Clock = "order"
		notes = append(notes, "This transcript has no timestamps: events keep their order (one step each) and time-based checks, such as timeouts, are not judged.")
	}
	// tick is the times' resolution in ms: 1, or 1,000 when every time is
	// in whole seconds (the Go log package's default flags), which the
	// note says rather than pass them off as exact to the millisecond.
	tick := int64(1)
	if timed && !slices.ContainsFunc(es, func(e entry) bool { return !e.whole }) {
		tick = 1000
		notes = append(notes, "The log's times are whole seconds: events within a second keep their order, not their spacing (a Go log written with log.Lmicroseconds, or an SDK log with milliseconds, places them exactly).")
	}
	if format == FormatGoSDK && side != "" {
		notes = append(notes, fmt.Sprintf("One-sided log written by the %s: only what the %s observed is judged.", side, side))
	} else {
		notes = append(notes, observerNote(format, md.observer))
	}
	notes = append(notes, md.notes...)
	tr.Source = src
	type req struct {
		sum       trace.Request
		cancelled bool
		finished  bool
		// version is the revision the request named in
		// params._meta (the 2026-07-28 handshake: requestedVersion),
		// and line where it was sent; "" and 0 when it named none.
		version string
		line    int
		args    string // a tools/call's arguments, compact (linkRetries)
	}
	reqs := map[string]*req{}
	var order []string
	wire := 0
	session := 0      // initialize requests the client sent so far: ids restart with each
	answered := false // the current session has seen a response
	label := ""       // the session of the entry being laid out
	labels := map[string]bool{}
	emit := func(e trace.Event) {
		e.Seq = len(tr.Events)
		e.Session = label
		labels[label] = true
		tr.Events = append(tr.Events, e)
	}
	key := func(sess, id string) string {
		if sess != "" {
			return sess + "\x00" + id
		}
		return strconv.Itoa(session) + "\x00" + id
	}
	classes := map[string]string{}   // tool name → retry class from its annotations (toolClasses)
	lastResponse := map[string]int{} // request key → index of the event that handed its last response to the client
	type sent struct {
		wire int
		at   int64
	}
	hops := map[int]sent{} // a two-hop transcript's wire number → its send (hops.go)
	// The round trip is the fastest answered exchange of any method, pings
	// included: the path's own delay. Not initialize for its own sake,
	// whose answer includes the server's start-up (1,091 ms where
	// tools/list took 5 ms), but whichever exchange was quickest. A slower
	// exchange measures load, not the path: the checks judge a message
	// under load by the client's own pending ping (package checks,
	// cancelOrderSeenFrom), not by a wider round trip.
	var rtt int64 = -1
	rttWhat := ""
	for i, en := range es {
		at := int64(i)
		if timed {
			at = en.at - base
		}
		label = sessionLabel(en.session, session)
		if en.kind != "" {
			var id scenario.ID
			_ = json.Unmarshal([]byte(en.ref), &id)
			k := key(en.session, en.ref)
			switch en.kind {
			case kindEvent:
				ev := trace.Event{At: at, Actor: en.actor, Type: en.typ, Headers: en.headers, Status: en.status, Note: fmt.Sprintf("Line %d.", en.line), Line: en.line}
				if en.note != "" {
					ev.Note += " " + en.note
				}
				if en.ref != "" {
					ev.ID = &id
				}
				if s, ok := hops[en.wire]; ok {
					ev.Wire = s.wire
				}
				if en.typ == trace.TypeCloseStream {
					ev.Signal = trace.SignalCloseStream
					if r := reqs[k]; r != nil && !r.finished && r.sum.Cause == nil {
						cause, sig := trace.CauseDisconnect, trace.SignalCloseStream
						if en.actor == trace.ActorClient {
							cause = trace.CauseClient
							r.sum.ClientOutcome = trace.OutcomeAbandoned
							end := at
							r.sum.EndedAt = &end
						}
						r.sum.Cause, r.sum.Signal = &cause, &sig
					}
				}
				emit(ev)
			case kindIgnore:
				// The client's log says it dropped a message for ref: its
				// reaction to the delivery just before (same time).
				if j, ok := lastResponse[k]; ok && j == len(tr.Events)-1 {
					at = tr.Events[j].At
				}
				emit(trace.Event{At: at, Actor: trace.ActorClient, Type: trace.TypeIgnore, ID: &id, Note: fmt.Sprintf("Line %d. %s", en.line, en.note), Line: en.line})
			case kindClose:
				wire++
				note := fmt.Sprintf("Line %d. %s", en.line, en.note)
				posted := false
				if r := reqs[k]; r != nil && r.sum.Signal != nil && *r.sum.Signal == trace.SignalNotification {
					// The client POSTed notifications/cancelled first: that
					// was its signal; the stream's end only follows it.
					posted = true
					note += " The cancellation was the notifications/cancelled the client POSTed before; the stream's end is not the signal."
				}
				emit(trace.Event{At: at, Actor: trace.ActorClient, Type: trace.TypeCloseStream, ID: &id, From: trace.ActorClient, To: trace.ActorServer, Wire: wire, Signal: trace.SignalCloseStream, Note: note, Line: en.line})
				if r := reqs[k]; r != nil && !r.finished && !posted {
					cause, sig := trace.CauseClient, trace.SignalCloseStream
					r.sum.Cause, r.sum.Signal = &cause, &sig
					r.sum.ClientOutcome = trace.OutcomeAbandoned
					end := at
					r.sum.EndedAt = &end
				}
			}
			continue
		}
		m := en.msg
		idText, hasID := m.ID, m.ID != ""
		var idp *scenario.ID
		if hasID {
			var id scenario.ID
			_ = json.Unmarshal([]byte(idText), &id)
			idp = &id
		}
		to := trace.ActorServer
		if en.from == trace.ActorServer {
			to = trace.ActorClient
		}
		// A client's initialize after the current session has seen an
		// answer opens a new session, whose ids are its own (a bridge's
		// second initialize id 0); a log of both sides records the first
		// initialize twice before any answer.
		if m.Method == jsonrpc.MethodInitialize && hasID && en.from == trace.ActorClient && en.session == "" && (session == 0 || answered) {
			session++
			answered = false
		}
		if m.Method == "" && hasID && en.from == trace.ActorServer {
			answered = true
		}
		label = sessionLabel(en.session, session)
		var within *trace.Span
		if en.within != nil && timed {
			within = &trace.Span{From: en.within.From - base, To: en.within.To - base}
		}
		note := fmt.Sprintf("Line %d.", en.line)
		if en.note != "" {
			note += " " + en.note
		}
		if idp == nil && en.ref != "" {
			// A notification on a request's response stream belongs to
			// that request's lane (a two-hop transcript names it).
			var id scenario.ID
			_ = json.Unmarshal([]byte(en.ref), &id)
			idp = &id
		}
		switch {
		case en.hop != "" && en.near():
			wire++
			hops[en.wire] = sent{wire: wire, at: at}
			emit(trace.Event{At: at, Actor: en.from, Type: trace.TypeSend, ID: idp, From: en.from, To: to, Wire: wire, Message: en.message, Note: note + " Seen on the " + en.hop + " hop.", Line: en.line})
		case en.hop != "":
			s := hops[en.wire] // checkHops: the send came first
			sentAt := s.at
			emit(trace.Event{At: at, Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idp, From: en.from, To: to, Wire: s.wire, SentAt: &sentAt, Message: en.message,
				Note: fmt.Sprintf("%s Handed on to the %s on the %s hop, %d ms after it was sent.", note, to, en.hop, at-sentAt), Line: en.line})
		case en.side == "" || en.dir == dirWrite:
			wire++
			emit(trace.Event{At: at, Actor: en.from, Type: trace.TypeSend, ID: idp, From: en.from, To: to, Wire: wire, Message: en.message, Note: note, Within: within, Line: en.line})
			if en.side == "" {
				emit(trace.Event{At: at, Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idp, From: en.from, To: to, Wire: wire, SentAt: &at, Message: en.message, Note: "Delivered (the transcript records one time per message).", Within: within, Line: en.line})
			}
		default: // read
			wire++
			emit(trace.Event{At: at, Actor: trace.ActorNetwork, Type: trace.TypeDeliver, ID: idp, From: en.from, To: to, Wire: wire, Message: en.message, Note: note + " Read by the " + string(to) + ".", Line: en.line})
		}
		k := key(en.session, idText)
		if en.hop == HopServer {
			// The server's side of a two-hop transcript: what the server
			// put on the wire for a request; the client's outcome is read
			// from the client's hop, where the client got it (or never).
			if r := reqs[k]; r != nil && en.from == trace.ActorServer && hasID && m.Method == "" && (m.Result != nil || m.Error != nil) {
				r.sum.Response = en.message
				if !r.cancelled {
					r.sum.State = trace.StateCompleted
					if m.Error != nil {
						r.sum.State = trace.StateFailed
					}
				}
			}
			continue
		}
		// What the receiving server observed: a valid cancellation it read
		// for a request in progress (only a log that shows the server's reads
		// can say so: a server-side log, or both sides' logs).
		serverReads := en.from == trace.ActorClient && (en.side == trace.ActorServer || en.side == "" && md.observer == trace.ObserverServer)
		if m.Method == jsonrpc.MethodCancelled && serverReads {
			if c, err := m.Cancellation(); err == nil {
				if r := reqs[key(en.session, c.RequestID)]; r != nil && !r.finished && !r.cancelled {
					r.cancelled = true
					st := trace.StateCancelled
					r.sum.State = st
					emit(trace.Event{At: at, Actor: trace.ActorServer, Type: trace.TypeStatus, ID: &r.sum.ID, Status: st, Cause: trace.CauseClient,
						Note: fmt.Sprintf("The server has read the cancellation of request %s while it was in progress: from here on it must send nothing for it.", r.sum.ID)})
				}
			}
		}
		if hasID && m.Method != "" && en.from == trace.ActorClient {
			if _, ok := reqs[k]; !ok {
				var id scenario.ID
				_ = json.Unmarshal([]byte(idText), &id)
				reqs[k] = &req{sum: trace.Request{ID: id, Method: m.Method, Name: m.Name, State: trace.StateInProgress, ClientOutcome: trace.OutcomePending, RetryClass: trace.RetrySafe, SentAt: at}}
				if src.Protocol == "" {
					reqs[k].version, reqs[k].line = requestedVersion(m.Params), en.line
				}
				reqs[k].args = compactArgs(m.Arguments)
				if timed && opts.MaxTimeoutMs > 0 {
					reqs[k].sum.MaxTimeoutMs = opts.MaxTimeoutMs
				}
				order = append(order, k)
			}
		}
		if hasID && m.Method == "" && (m.Result != nil || m.Error != nil) && en.from == trace.ActorServer {
			lastResponse[k] = len(tr.Events) - 1
			if r := reqs[k]; r != nil {
				if !r.finished && timed {
					if d := at - r.sum.SentAt; rtt < 0 || d < rtt {
						rtt, rttWhat = d, fmt.Sprintf("the fastest answered exchange, %s (id %s)", jsonrpc.Describe(r.sum.Method, r.sum.Name), r.sum.ID)
					}
				}
				if r.version != "" && m.Result != nil && src.Protocol == "" && supports(m.Result, r.version) {
					src.Protocol, src.ProtocolFrom = r.version, fmt.Sprintf("the version the client's %s named (%s), answered by the server (%s)", r.sum.Method, lineRef(format, r.line), lineRef(format, en.line))
					notes = append(notes, fmt.Sprintf("Protocol %s: from %s.", r.version, src.ProtocolFrom))
				}
				if r.sum.Method == jsonrpc.MethodInitialize && m.Result != nil && src.Protocol == "" {
					if v := protocolVersion(m.Result); v != "" {
						src.Protocol, src.ProtocolFrom = v, fmt.Sprintf("the server's answer to initialize (%s)", lineRef(format, en.line))
						notes = append(notes, fmt.Sprintf("Protocol %s: from %s.", v, src.ProtocolFrom))
					}
				}
				if r.sum.Method == methodToolsList && m.Result != nil {
					toolClasses(m.Result, classes)
				}
				r.finished = true
				r.sum.Response = en.message
				// The client's outcome is known when the log shows the
				// client's side (not a server-only log).
				if en.side != trace.ActorServer && r.sum.ClientOutcome == trace.OutcomePending {
					r.sum.ClientOutcome = trace.OutcomeResult
					if m.Error != nil {
						r.sum.ClientOutcome = trace.OutcomeError
					}
					end := at
					r.sum.EndedAt = &end
				}
				if !r.cancelled {
					r.sum.State = trace.StateCompleted
					if m.Error != nil {
						r.sum.State = trace.StateFailed
					}
				}
			}
		}
		if m.Method == jsonrpc.MethodCancelled && en.from == trace.ActorClient {
			if c, err := m.Cancellation(); err == nil {
				if r := reqs[key(en.session, c.RequestID)]; r != nil {
					cause, why := causeOf(c.Reason)
					sig := trace.SignalNotification
					r.sum.Cause, r.sum.Signal, r.sum.Reason = &cause, &sig, c.Reason
					if r.sum.ClientOutcome == trace.OutcomePending {
						end := at
						r.sum.EndedAt = &end
					}
					r.sum.ClientOutcome = trace.OutcomeAbandoned
					if why != "" {
						notes = append(notes, fmt.Sprintf("Request %s: cause %s, %s (%s).", r.sum.ID, cause, why, lineRef(format, en.line)))
					}
				}
			}
		}
	}
	var calls []callAttempt
	for _, k := range order {
		if r := reqs[k]; r.sum.Method == jsonrpc.MethodToolsCall {
			calls = append(calls, callAttempt{sum: &r.sum, args: r.args})
		}
	}
	notes = append(notes, linkRetries(calls, classes)...)
	for _, k := range order {
		tr.Requests = append(tr.Requests, reqs[k].sum)
	}
	if len(labels) < 2 {
		for i := range tr.Events {
			tr.Events[i].Session = "" // one session: no label
		}
	} else {
		notes = append(notes, fmt.Sprintf("%d sessions: each event names its session; ids are kept apart per session.", len(labels)))
	}
	if n := len(tr.Events); n > 0 {
		tr.EndMs = tr.Events[n-1].At
	}
	switch {
	case opts.LatencyMs > 0:
		src.LatencyMs = opts.LatencyMs
		notes = append(notes, fmt.Sprintf("Round trip %d ms, as given.", opts.LatencyMs))
	case rtt >= 0 && md.observer != trace.ObserverServer:
		// A round trip within one tick still leaves a tick of doubt at
		// the times' resolution.
		src.LatencyMs = rtt + tick
		notes = append(notes, fmt.Sprintf("Round trip taken as %d ms: %s, plus %d ms of clock resolution.", src.LatencyMs, rttWhat, tick))
	}
	if opts.MaxTimeoutMs > 0 && timed {
		notes = append(notes, fmt.Sprintf("Maximum timeout %d ms per request, as given.", opts.MaxTimeoutMs))
	}
	if opts.IdleTimeoutMs > 0 && timed {
		src.IdleTimeoutMs = opts.IdleTimeoutMs
		notes = append(notes, fmt.Sprintf("Idle timeout %d ms per request, as given.", opts.IdleTimeoutMs))
	}
	src.Note = strings.Join(notes, " ")
	return tr
}

// sessionLabel names an entry's session: its Mcp-Session-Id, else the
// number of the client's initialize that opened it ("session 2").
func sessionLabel(header string, n int) string {
	if header != "" {
		return header
	}
	return "session " + strconv.Itoa(max(n, 1))
}

// observerNote says who recorded a transcript and what that means.
func observerNote(format, observer string) string {
	switch observer {
	case trace.ObserverClient:
		return "Recorded by the client: the server's reads are not seen, so a cancellation and a response closer than the round trip cannot be ordered."
	case trace.ObserverServer:
		return "Recorded by the server: its own order of reads and writes is judged."
	}
	if format == FormatJSONL {
		return "Observer: wire (the JSON Lines have no header line saying who recorded them): the server's reads are not seen, so a cancellation and a response closer than the round trip cannot be ordered."
	}
	return "Recorded on the wire (an intermediary): the server's reads are not seen, so a cancellation and a response closer than the round trip cannot be ordered."
}

// lineRef names where an entry was read, as a reader of the transcript
// finds it: "line 3", or "HAR entry 3" in a HAR (whose entries are not
// lines). trace.Event.Line holds the number.
func lineRef(format string, n int) string {
	if format == FormatHAR {
		return "HAR entry " + strconv.Itoa(n)
	}
	return "line " + strconv.Itoa(n)
}

// protocolVersion is result.protocolVersion of an initialize answer.
func protocolVersion(result json.RawMessage) string {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(result, &r) != nil {
		return ""
	}
	return r.ProtocolVersion
}

// requestedVersion is the revision a request names in
// params._meta["io.modelcontextprotocol/protocolVersion"]
// (jsonrpc.MetaProtocolVersion: the 2026-07-28 revision has no initialize,
// and every request, server/discover first, carries the version it
// speaks), "" when it names none.
func requestedVersion(params json.RawMessage) string {
	if !bytes.Contains(params, []byte(jsonrpc.MetaProtocolVersion)) {
		return ""
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	var v string
	if json.Unmarshal(params, &p) != nil || json.Unmarshal(p.Meta[jsonrpc.MetaProtocolVersion], &v) != nil {
		return ""
	}
	return v
}

// supports reports whether a result accepts the version its request named:
// a result listing supportedVersions (server/discover's) lists it; any
// other result (a request the server served) accepts it.
func supports(result json.RawMessage, version string) bool {
	var r struct {
		Supported []string `json:"supportedVersions"`
	}
	if json.Unmarshal(result, &r) != nil || r.Supported == nil {
		return true
	}
	return slices.Contains(r.Supported, version)
}

// causeOf reads a cancellation's cause from its reason text, and why
// ("" when there is no reason to read): a timeout code or word is the
// client's deadline (the TypeScript SDK's "MCP error -32001: Request timed
// out" is an idle timeout, "Maximum total timeout exceeded" the maximum);
// anything else, an abort by the user or the application, is the client's.
func causeOf(reason *string) (string, string) {
	if reason == nil {
		return trace.CauseClient, ""
	}
	r := strings.ToLower(*reason)
	switch {
	case strings.Contains(r, "maximum total timeout") || strings.Contains(r, "max total timeout"):
		return trace.CauseMaxTimeout, fmt.Sprintf("from the reason %q (a maximum total timeout)", *reason)
	case strings.Contains(r, "deadline exceeded"):
		// Go's context.DeadlineExceeded (the Go SDK's reason when the
		// call's context times out): a deadline fixed when the call
		// began, which progress does not extend.
		return trace.CauseMaxTimeout, fmt.Sprintf("from the reason %q (a Go context's deadline: a total timeout, which progress does not extend)", *reason)
	case strings.Contains(r, "-32001") || strings.Contains(r, "timed out") || strings.Contains(r, "timeout"):
		return trace.CauseIdleTimeout, fmt.Sprintf("from the reason %q (a timeout, not a user's abort)", *reason)
	}
	return trace.CauseClient, fmt.Sprintf("from the reason %q (no timeout named: the client's own abort)", *reason)
}
