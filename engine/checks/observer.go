// What an imported transcript's observer could see:
// a client or a wire view orders a cancellation and a response only when
// they are further apart than the path's round trip.

package checks

import (
	"slices"
	"sort"
	"strconv"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// observer is who recorded tr: trace.Source.Observer, else (an older
// import) its Side, else "" for a simulation, which sees everything.
func observer(tr *trace.Trace) string {
	src := tr.Source
	switch {
	case src == nil:
		return ""
	case src.Observer != "":
		return src.Observer
	case src.Side != "":
		return src.Side
	}
	return ""
}

// protocolOf is the revision in use: the scenario's, else the one an
// import inferred from initialize or the headers ("" when unknown).
func protocolOf(tr *trace.Trace) string {
	if tr.Scenario != nil {
		return tr.Scenario.Protocol
	}
	if tr.Source != nil {
		return tr.Source.Protocol
	}
	return ""
}

// transportOf is protocolOf for the transport.
func transportOf(tr *trace.Trace) string {
	if tr.Scenario != nil {
		return tr.Scenario.Transport
	}
	if tr.Source != nil {
		return tr.Source.Transport
	}
	return ""
}

// cancelOrderSeenFrom judges no-message-after-cancel from a client's or an
// intermediary's view, where the server's reads are not recorded. A
// cancellation observed at tc reaches the server at tc plus the way there;
// a message the server wrote before reading it is observed before tc plus
// the round trip. So a message for the cancelled request observed within
// Source.LatencyMs of the cancellation may be the legitimate race
// (undecided, with the reason); one observed later was written after the
// server could read the cancellation (a violation, assuming the server
// reads its input as it arrives), unless a ping or server/discover the
// client sent after the cancellation was still unanswered when it arrived:
// the path was then slower than its fastest exchange, so the round trip
// does not bound it (the race under load stays undecided). With no
// latency known, every such message
// is undecided, unless the client holds the fence's evidence (below). A
// cancellation followed by nothing for its request passes.
func cancelOrderSeenFrom(v *view, who string) (trace.Check, bool) {
	type cancel struct {
		seq int
		at  int64
	}
	cancels := map[string]cancel{}
	var bad, near, proof, inside, loaded []int
	lat := int64(0)
	if v.tr.Source != nil {
		lat = v.tr.Source.LatencyMs
	}
	// The fence (stdio only, where a server reads its input in order): a
	// request the client sent after the cancellation and the server
	// answered before its message shows the server had read the
	// cancellation first. fence is the largest index of a client request
	// answered so far, so a message i is fenced when fence > its
	// cancellation's index.
	stdio := transportOf(v.tr) == trace.TransportStdio
	acked := map[string]bool{} // request id → the server answered that it was cancelled
	sentAt := map[string]int{}
	fence := -1
	// Under load the path is slower than its fastest exchange (LatencyMs):
	// a ping or server/discover the client sent after a cancellation and
	// has not had answered yet shows the path still busy, so a message
	// observed meanwhile is not convicted by the round trip alone.
	// pending maps such a request's id to the index that sent it.
	pending := map[string]int{}
	for i, e := range v.ev {
		if m := v.msg(i); v.clientSends(i) && m.hasID && (m.method == jsonrpc.MethodPing || m.method == jsonrpc.MethodDiscover) && len(cancels) > 0 {
			if _, ok := pending[m.id]; !ok {
				pending[m.id] = i
			}
		}
		if m := v.msg(i); v.serverSends(i) && m.response {
			delete(pending, m.id)
		}
		if m := v.msg(i); stdio && v.clientSends(i) && m.method != "" && m.hasID {
			if _, ok := sentAt[m.id]; !ok {
				sentAt[m.id] = i
			}
		}
		if v.clientSends(i) && v.msg(i).cancelOf != "" {
			if _, ok := cancels[v.msg(i).cancelOf]; !ok {
				cancels[v.msg(i).cancelOf] = cancel{i, e.At}
				proof = append(proof, i)
			}
			continue
		}
		if !v.serverSends(i) {
			continue
		}
		c, ok := cancels[v.concerns(i)]
		m := v.msg(i)
		if m.response && stdio {
			if j, asked := sentAt[m.id]; asked && j > fence {
				fence = j
			}
		}
		if !ok || v.concerns(i) == "" {
			continue
		}
		// An answer that says the request was cancelled shows the server
		// had read the cancellation when it wrote it (the Python SDK acks
		// each one): that answer, and every message for the request after
		// it, was written after the server accepted the cancellation,
		// however close to it in time.
		if acked[v.concerns(i)] || m.response && m.saysCancelled {
			acked[v.concerns(i)] = true
			bad = append(bad, i)
			continue
		}
		// A message a HAR records inside a response stream happened
		// somewhere in its exchange: only its earliest time counts against
		// the cancellation (verdicts across exchanges only when
		// their intervals do not overlap).
		earliest := e.At
		if e.Within != nil {
			earliest = e.Within.From
		}
		busy := false
		for _, j := range pending {
			busy = busy || j > c.seq
		}
		switch {
		case lat > 0 && earliest-c.at > lat && !busy || fence > c.seq:
			bad = append(bad, i)
		case lat > 0 && earliest-c.at > lat:
			loaded = append(loaded, i)
			near = append(near, i)
		case e.Within != nil:
			inside = append(inside, i)
			near = append(near, i)
		default:
			near = append(near, i)
		}
	}
	if len(cancels) == 0 {
		return trace.Check{}, false
	}
	// A message drawn before its request's cancellation but streamed in an
	// exchange that outlasts it may have been written after the server read
	// it: the intervals do not decide, so it is undecided too.
	for i, e := range v.ev {
		if e.Within == nil || !v.serverSends(i) || v.concerns(i) == "" {
			continue
		}
		if c, ok := cancels[v.concerns(i)]; ok && i < c.seq && e.Within.To > c.at {
			inside = append(inside, i)
			near = append(near, i)
		}
	}
	slices.Sort(inside)
	slices.Sort(near)
	view := "A client's log"
	if len(inside) > 0 {
		view = "A HAR"
	}
	if who == trace.ObserverWire {
		view = "A view of the wire"
	}
	switch {
	case len(bad) > 0:
		return fail(NoMessageAfterCancel, "The server sent "+strconv.Itoa(len(bad))+" message(s) for a cancelled request after it had read the cancellation ("+seqList(bad)+"): each arrived more than the path's round trip ("+strconv.FormatInt(lat, 10)+" ms) after the cancellation, after the server answered a request the client sent after the cancellation (on stdio it reads in order), or with or after its answer saying the request was cancelled.", bad...), true
	case len(inside) > 0:
		return undecidedAt(near, undecided(NoMessageAfterCancel, view+" records one time per HTTP exchange, not per event of a response stream: "+seqList(inside)+" streamed in an exchange whose interval overlaps the cancellation (or lies within the path's round trip, "+strconv.FormatInt(lat, 10)+" ms, of it), so whether the server wrote it before reading the cancellation is unknown.")), true
	case len(near) > 0 && lat > 0:
		return undecidedAt(near, undecided(NoMessageAfterCancel, view+" cannot order a cancellation and a response observed within the path's round trip ("+strconv.FormatInt(lat, 10)+" ms) of each other"+underLoad(loaded)+" ("+seqList(near)+"): the server may have written before it read the cancellation, the legitimate race. Judge the server's own log.")), true
	case len(near) > 0:
		return undecidedAt(near, undecided(NoMessageAfterCancel, view+" cannot show whether the server read the cancellation before it wrote "+seqList(near)+", and the path's round trip is unknown (no answered initialize or ping): the order may be the legitimate race. Judge the server's own log.")), true
	}
	return pass(NoMessageAfterCancel, strconv.Itoa(len(cancels))+" cancellation(s) observed; nothing more arrived for those requests.", proof...), true
}

// underLoad is what the undecided detail adds for the messages loaded
// that arrived later than the round trip but while the client's ping after
// the cancellation was unanswered; "" when there are none.
func underLoad(loaded []int) string {
	if len(loaded) == 0 {
		return ""
	}
	return ", or later but while a ping the client sent after the cancellation was still unanswered (the path under load: " + seqList(loaded) + ")"
}

// undecidedAt is an undecided check that lists the events it could not
// judge (a client that holds more evidence, such as the probe's fence, can
// decide them).
func undecidedAt(seqs []int, c trace.Check) trace.Check {
	c.Events = seqs
	return c
}

// abandonTellsServer: a client that gives up on a request tells the server
// (DOMAIN.md §1: abandoning sends notifications/cancelled, or closes the
// request's stream on Streamable HTTP), so the server can stop the work.
// Its subject is a client's ignore event for a response (as a client log
// records it: "Received a response for an unknown message ID"): the
// request was abandoned; it passes when the client had cancelled it or
// closed its stream before, and fails when it abandoned it silently. From
// a server's or a wire's view with the client's maximum timeout stated, a
// tools/call the server answered past start + maximum is a subject too
// (unansweredPastMaximum): told before that answer it passes, unheard it
// fails. Judged on imported transcripts only, where the client is not the
// lab's.
//
// Rule: abandonTellsServer.
func abandonTellsServer(v *view) (trace.Check, bool) {
	if v.tr.Source == nil {
		return abandonTellsServerSimulated(v)
	}
	told := map[string]bool{}
	var bad, good []int
	judged := map[string]bool{}
	for i, e := range v.ev {
		if v.clientSends(i) && v.msg(i).cancelOf != "" {
			told[v.msg(i).cancelOf] = true
		}
		if e.Actor == trace.ActorClient && e.Type == trace.TypeCloseStream {
			told[idOf(e)] = true
		}
		if e.Actor != trace.ActorClient || e.Type != trace.TypeIgnore || e.ID == nil || judged[idOf(e)] {
			continue
		}
		judged[idOf(e)] = true
		if told[idOf(e)] {
			good = append(good, i)
		} else {
			bad = append(bad, i)
		}
	}
	if observer(v.tr) != trace.ObserverClient {
		past, pastTold := v.unansweredPastMaximum()
		if len(past) > 0 {
			bad = append(bad, past...)
			return fail(AbandonTellsServer, "The client did not tell the server when its stated maximum timeout ran out on "+strconv.Itoa(len(past))+" call(s): no cancellation nor closed stream within "+strconv.Itoa(MaximumGraceMs)+" ms of start + maximum, only the server's late answer or a late cancellation (a leftover timer's) at "+seqList(past)+". A client that honours its maximum gave up silently (failure abandon-silently).", bad...), true
		}
		good = append(good, pastTold...)
	}
	return verdict(AbandonTellsServer, bad, good,
		"The client dropped the response of "+strconv.Itoa(len(bad))+" request(s) it had stopped waiting for without telling the server (no cancellation, no closed stream): "+seqList(bad)+".",
		"The client told the server about each of the "+strconv.Itoa(len(good))+" request(s) it abandoned before dropping its late response.")
}

// MaximumGraceMs is how late past a request's stated maximum timeout a
// server's or a wire's view may see the client's cancellation and still
// count it as the client telling the server when it gave up: 250 ms. Real
// timers fire late (Node's by 1 to 5 ms on a quiet machine; a cancellation
// POSTed on a new HTTP request reached the server 133 ms late on a loaded
// two-core machine), and the signal crosses the path. A leftover timer's
// cancellation comes a whole idle timeout late.
const MaximumGraceMs = 250

// unansweredPastMaximum reads a server's or a wire's view (DOMAIN.md §1
// and §2) with the client's maximum timeout stated
// (transcript.Options.MaxTimeoutMs): a tools/call still unanswered at
// start + maximum is one the client gave up on by then, or
// max-timeout-enforced fails. Its cancellation signal (a
// notifications/cancelled, a closed stream) within MaximumGraceMs of that
// is the client telling the server (pastTold); a signal only later (a
// leftover timer's, not the decision's) or none before the server answered
// past the grace is a silent abandonment (past, the event that shows it).
func (v *view) unansweredPastMaximum() (past, pastTold []int) {
	signal := map[string]int{} // request id → the client's first cancellation signal for it
	for i, e := range v.ev {
		id := ""
		switch {
		case v.clientSends(i) && v.msg(i).cancelOf != "":
			id = v.msg(i).cancelOf // a notification: the event names no request
		case e.Actor == trace.ActorClient && e.Type == trace.TypeCloseStream && e.ID != nil:
			id = idOf(e)
		default:
			continue
		}
		if _, ok := signal[id]; !ok {
			signal[id] = i
		}
	}
	for _, r := range v.tr.Requests {
		id := r.ID.Raw()
		if r.MaxTimeoutMs <= 0 || v.method[id] != jsonrpc.MethodToolsCall {
			continue
		}
		deadline := r.SentAt + r.MaxTimeoutMs
		answer := -1
		for _, j := range v.eventsOf(id) {
			if v.serverSends(j) && v.msg(j).response && v.msg(j).id == id {
				answer = j
				break
			}
		}
		told, ok := signal[id]
		switch {
		case answer >= 0 && v.ev[answer].At <= deadline && (!ok || told > answer):
			// answered in time: nothing was given up
		case ok && (answer < 0 || told < answer) && v.ev[told].At <= deadline+MaximumGraceMs:
			pastTold = append(pastTold, told)
		case ok && (answer < 0 || told < answer):
			past = append(past, told) // told only later: a leftover timer, not the decision
		case answer >= 0 && v.ev[answer].At > deadline+MaximumGraceMs:
			past = append(past, answer)
		}
	}
	return past, pastTold
}

// IdleGraceMs is how much sooner than a full idle timeout after the last
// progress a server's or a wire's view may see the client's cancellation
// and still count its idle clock as reset: 10 ms, the times' rounding
// (timers fire late, never early).
const IdleGraceMs = 10

// progressResetsIdleSeen is progress-resets-idle from a server's or a
// wire's view with the client's idle timeout stated: a tools/call the
// client cancelled less than idle (less IdleGraceMs) after the last
// progress the server sent for it was cut by an idle clock that progress
// did not reset (failure ignore-progress); one cancelled a full idle after
// it, or answered after running longer than idle with progress on the way,
// had its clock reset. A call with no progress before its end says
// nothing. The delivery's one-way delay cancels out: the progress and the
// cancellation each cross the path once.
func progressResetsIdleSeen(v *view, idle int64) (trace.Check, bool) {
	signal := map[string]int{} // request id → the client's first cancellation
	last := map[string]int{}   // request id → the latest progress the server sent before it
	answered := map[string]int{}
	for i, e := range v.ev {
		m := v.msg(i)
		switch {
		case v.clientSends(i) && m.cancelOf != "":
			if _, ok := signal[m.cancelOf]; !ok {
				signal[m.cancelOf] = i
			}
		case e.Actor == trace.ActorClient && e.Type == trace.TypeCloseStream && e.ID != nil:
			if _, ok := signal[idOf(e)]; !ok {
				signal[idOf(e)] = i
			}
		case v.serverSends(i) && m.method == jsonrpc.MethodProgress && m.progress != nil:
			id := v.tokenReq(i)
			_, told := signal[id]
			_, done := answered[id]
			if id != "" && !told && !done {
				last[id] = i
			}
		case v.serverSends(i) && m.response && m.id != "":
			if _, ok := answered[m.id]; !ok {
				answered[m.id] = i
			}
		}
	}
	var bad, good []int
	for _, r := range v.tr.Requests {
		id := r.ID.Raw()
		p, ok := last[id]
		if !ok || v.method[id] != jsonrpc.MethodToolsCall {
			continue
		}
		s, told := signal[id]
		a, done := answered[id]
		switch {
		case told && (!done || s < a) && v.ev[s].At-v.ev[p].At < idle-IdleGraceMs:
			bad = append(bad, p, s)
		case told && (!done || s < a):
			good = append(good, p, s)
		case done && v.ev[a].At-r.SentAt > idle:
			good = append(good, p, a)
		}
	}
	if len(bad) > 0 {
		return fail(ProgressResetsIdle, "The client cancelled less than its idle timeout ("+strconv.FormatInt(idle, 10)+" ms, as stated) after the last progress the server sent ("+seqList(bad)+"): its idle clock ignored progress (ignore-progress).", bad...), true
	}
	if len(good) == 0 {
		return trace.Check{}, false
	}
	sort.Ints(good)
	return pass(ProgressResetsIdle, "Progress kept each call alive past the client's idle timeout ("+strconv.FormatInt(idle, 10)+" ms, as stated): no cancellation came sooner than that after the last progress.", good...), true
}
