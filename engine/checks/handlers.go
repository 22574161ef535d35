// Rules for the server's handlers (DOMAIN.md §1, "The server's side of a
// cancellation"; SCENARIO.md, "Handlers: the server decides when work
// ends" and "Rules these add"): a cancellation stops the work at the
// handler's next checkpoint, a handler gives back what it holds, and a
// request's notifications go out as the handler makes them.

package checks

import (
	"sort"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// Rule ids of the server's handlers.
const (
	// WorkStopsAfterCancel: once a cancellation reached the server, no side
	// effect commits and no work follows the handler's first checkpoint after
	// it (DOMAIN.md §1, The server's side of a cancellation).
	WorkStopsAfterCancel trace.RuleID = "work-stops-after-cancel"
	// ResourcesReleased: every resource a handler acquired is released when it
	// returns, cancelled or not (SCENARIO.md, Handlers: the server decides when
	// work ends (failure resource-leaked-on-cancel)).
	ResourcesReleased trace.RuleID = "resources-released"
	// NotificationsNotHeld: the server writes a request's progress as its
	// handler makes it, not when the handler returns (SCENARIO.md, Handlers:
	// the server decides when work ends (failure notifications-held)).
	NotificationsNotHeld trace.RuleID = "notifications-not-held"
	// ResponsesRoutedByReq: with two requests in flight under one id, each
	// answer travels on its own request's stream (SCENARIO.md, Handlers: the
	// server decides when work ends (failure cross-wired-response)).
	ResponsesRoutedByReq trace.RuleID = "responses-routed-by-request"
)

// workStopsAfterCancel: once a cancellation reached the server (its status
// event, cancelled), the handler stops at its first checkpoint after it:
// no side effect commits after the cancellation arrived, and no work
// (another checkpoint, a completion, a response) follows the first point
// where the handler stopped or reached the end of its work (a server
// checkpoint event, or the handler's completion: its response sent or
// suppressed). The work from the arrival to that point is wasted; the
// detail gives each request's wastedWorkMs (failure cancel-swallowed,
// hahwul/gori#1103, apify/apify-mcp-server#763). Listed when the server
// observed a cancellation in a simulation, which records the handler's
// checkpoints and side effects; null for an imported transcript in which
// the server read a cancellation, since a transcript records the wire,
// not the handler's work (transcript.schema.json has no checkpoint or
// side-effect events: a response after the arrival may be the handler's
// stop or work past it), and null for an imported client-side or wire log
// in which the client cancelled.
//
// Rule: workStopsAfterCancel.
func workStopsAfterCancel(v *view) (trace.Check, bool) {
	arrived := map[string]int64{} // request id → when its cancellation reached the server
	stopped := map[string]int{}   // request id → the event where its handler stopped
	last := map[string]int64{}    // request id → its handler's last work after the cancellation
	var ids []string
	var bad, good []int
	for i, e := range v.ev {
		id := idOf(e)
		if e.Actor == trace.ActorServer && e.Type == trace.TypeStatus && e.Status == trace.StateCancelled {
			if _, ok := arrived[id]; !ok && id != "" {
				arrived[id] = e.At
				ids = append(ids, id)
				good = append(good, i)
			}
			continue
		}
		if _, ok := arrived[id]; !ok || id == "" {
			continue
		}
		effect := e.Type == trace.TypeEffect
		if effect {
			bad = append(bad, i)
		}
		end := e.Actor == trace.ActorServer && e.Type == trace.TypeCheckpoint ||
			e.Actor == trace.ActorServer && e.Type == trace.TypeSuppress && v.msg(i).response ||
			v.serverSends(i) && v.msg(i).response
		s, ok := stopped[id]
		if ok && end && v.serverSends(i) && e.At == v.ev[s].At {
			continue // the framework's answer as the handler stops: no-message-after-cancel's subject, not work
		}
		if end || effect {
			last[id] = e.At
		}
		switch {
		case ok && (end || effect):
			bad = append(bad, i) // work after the handler's first stop
		case end:
			stopped[id] = i
			good = append(good, i)
		}
	}
	if len(ids) == 0 {
		if o := observer(v.tr); (o == trace.ObserverClient || o == trace.ObserverWire) && v.clientCancelled() {
			return undecided(WorkStopsAfterCancel, "The client cancelled, but this "+o+" log cannot show the server's handler: when it noticed the cancellation, and whether its side effect ran; only the server's own log can."), true
		}
		return trace.Check{}, false
	}
	if v.tr.Source != nil {
		return undecidedAt(good, undecided(WorkStopsAfterCancel, "The server read a cancellation while its handler worked (request "+strings.Join(ids, ", ")+"), but "+importedLog(v.tr)+" records the wire, not the handler's work: its checkpoints and side effects are not in it (a transcript has no such events), so whether the handler stopped at its first checkpoint after the cancellation, or worked on and committed its effect, cannot be told; a response after the cancellation is no-message-after-cancel's to judge.")), true
	}
	var wasted []string
	for _, id := range ids {
		if at, ok := last[id]; ok {
			wasted = append(wasted, "request "+id+": "+strconv.FormatInt(at-arrived[id], 10)+" ms")
		}
	}
	tail := ""
	if len(wasted) > 0 {
		tail = " wastedWorkMs (from the cancellation's arrival to the handler's last work) " + strings.Join(wasted, ", ") + "."
	}
	sort.Ints(bad)
	return verdict(WorkStopsAfterCancel, bad, good,
		"After the cancellation reached the server, the handler worked on past its checkpoint ("+seqList(bad)+"): a side effect or a completion nobody waits for (cancel-swallowed)."+tail,
		"Every handler stopped at its first checkpoint after the cancellation arrived, with no side effect after it."+tail)
}

// clientCancelled reports whether the client sent a cancellation: a
// notifications/cancelled or a closed stream.
func (v *view) clientCancelled() bool {
	for i, e := range v.ev {
		if v.clientSends(i) && v.msg(i).method == jsonrpc.MethodCancelled || e.Type == trace.TypeCloseStream && e.Actor == trace.ActorClient {
			return true
		}
	}
	return false
}

// resourcesReleased: every resource a handler acquired (an acquire event)
// is released (a release event of the same request and resource) when
// the handler returns, also when it stops for a cancellation (the
// try/finally; failure resource-leaked-on-cancel). The detail names the
// calls left waiting for a leaked resource. Listed when a handler
// acquired a resource.
//
// Rule: resourcesReleased.
func resourcesReleased(v *view) (trace.Check, bool) {
	type hold struct{ id, res string }
	open := map[hold]int{} // → the acquire event
	var order []hold
	var good, waits []int
	for i, e := range v.ev {
		if e.Actor != trace.ActorServer || e.Resource == "" {
			continue
		}
		h := hold{idOf(e), e.Resource}
		switch e.Type {
		case trace.TypeAcquire:
			open[h] = i
			order = append(order, h)
		case trace.TypeRelease:
			if a, ok := open[h]; ok {
				delete(open, h)
				good = append(good, a, i)
			}
		case trace.TypeWait:
			waits = append(waits, i)
		}
	}
	if len(order) == 0 {
		return trace.Check{}, false
	}
	var bad []int
	for _, h := range order {
		if a, ok := open[h]; ok {
			bad = append(bad, a)
			delete(open, h)
		}
	}
	detail := "A handler never gave back what it acquired (" + seqList(bad) + "): a cancelled handler kept its resource (no finally), so every later call that needs it waits (resource-leaked-on-cancel)."
	if len(waits) > 0 && len(bad) > 0 {
		detail += " Calls waited for a resource at " + seqList(waits) + "."
	}
	return verdict(ResourcesReleased, bad, good, detail,
		"Every resource a handler acquired was released when the handler returned, cancelled or not.")
}

// notificationsNotHeld: the server writes a request's notifications as
// its handler makes them, not all when the handler returns (failure
// notifications-held, mastra-ai/mastra#14782): a server hold event is a
// notification its transport kept back. Listed when the server holds
// progress, or sends progress that handlers make (server.handlers) or
// that an imported log shows (scripted progress steps leave when the
// script says, so there is nothing to judge); null for an imported log in which every progress
// notification of a request reached the wire at the moment of its final
// response, which is what a held stream looks like and what a fast
// handler may also do.
//
// Rule: notificationsNotHeld.
func notificationsNotHeld(v *view) (trace.Check, bool) {
	var bad, good []int
	final := map[string]int64{} // request id → when its response was sent
	for i, e := range v.ev {
		switch {
		case e.Actor == trace.ActorServer && e.Type == trace.TypeHold:
			bad = append(bad, i)
		case v.serverSends(i) && v.msg(i).method == jsonrpc.MethodProgress:
			good = append(good, i)
		case v.serverSends(i) && v.msg(i).response:
			if _, ok := final[v.msg(i).id]; !ok {
				final[v.msg(i).id] = e.At
			}
		}
	}
	if s := v.tr.Scenario; len(bad) == 0 && s != nil && len(s.Server.Handlers) == 0 {
		return trace.Check{}, false // scripted progress leaves when the script says: nothing to judge
	}
	if len(bad) == 0 && len(good) > 0 && v.tr.Scenario == nil {
		burst := true
		for _, i := range good {
			at, ok := final[v.concerns(i)]
			burst = burst && ok && at == v.ev[i].At
		}
		if burst {
			return undecided(NotificationsNotHeld, "Every progress notification reached the wire at the moment of its request's response: a server that holds notifications until its handler returns looks like this, and so does a handler that reports all its progress at the end; the log cannot tell which."), true
		}
	}
	return verdict(NotificationsNotHeld, bad, good,
		"The server's transport held "+strconv.Itoa(len(bad))+" notification(s) ("+seqList(bad)+") until the handler returned: the client saw no progress while the work ran, so none of it could reset its idle clock (notifications-held).",
		"The server wrote every progress notification as the handler made it.")
}

// responsesRoutedByRequest: when the client has two requests in flight
// with one id (a second request sent with an id whose first request has
// no response yet), each request's answer travels on its own stream
// (failure cross-wired-response, modelcontextprotocol/typescript-sdk#2433,
// modelcontextprotocol/python-sdk#3060): a response with that id sent off
// the first request's stream is the duplicate's own answer only when the
// server sends it as the duplicate arrives (a refusal); any other is the
// first request's answer routed to the wrong stream. Listed when a
// duplicate occurs; null on stdio, where one pipe carries every response
// and only its id can route it.
//
// Rule: responsesRoutedByReq.
func responsesRoutedByRequest(v *view) (trace.Check, bool) {
	inFlight := map[string]bool{} // request id → sent by the client, no response yet
	dupAt := map[string]int64{}   // request id → when its duplicate reached the server
	answered := map[string]bool{} // request id → a response travelled on its own stream
	var good, bad, off []int
	for i, e := range v.ev {
		m := v.msg(i)
		switch {
		case v.clientSends(i) && m.method != "" && m.hasID && m.id != "":
			if inFlight[m.id] {
				good = append(good, i)
				dupAt[m.id] = e.At
			}
			inFlight[m.id] = true
		case e.Type == trace.TypeDeliver && e.To == trace.ActorServer && m.method != "" && m.hasID:
			if _, dup := dupAt[m.id]; dup {
				dupAt[m.id] = e.At // the duplicate reaches the server: a refusal goes out now
			}
		case v.serverSends(i) && m.response && m.id != "":
			if at, dup := dupAt[m.id]; dup && idOf(e) != m.id && e.At != at {
				off = append(off, i)
			}
			if idOf(e) == m.id {
				delete(inFlight, m.id)
				answered[m.id] = true
			}
		}
	}
	for _, i := range off {
		if !answered[v.msg(i).id] { // the first request's own stream never got its answer
			bad = append(bad, i)
		}
	}
	if len(good) == 0 {
		return trace.Check{}, false
	}
	switch transportOf(v.tr) {
	case trace.TransportHTTP:
	case trace.TransportStdio:
		return undecided(ResponsesRoutedByReq, "Two requests were in flight with one id ("+seqList(good)+"), but on stdio one pipe carries every response and only its id can route it: which request each answer went to cannot be told."), true
	default:
		return undecided(ResponsesRoutedByReq, "Two requests were in flight with one id ("+seqList(good)+"), but the trace does not say its transport: which request each answer went to cannot be told."), true
	}
	return verdict(ResponsesRoutedByReq, bad, good,
		"A request's answer went out on another request's stream ("+seqList(bad)+"): the server routed responses by id alone, so two requests in flight with one id got each other's answers (cross-wired-response).",
		"Two requests were in flight with one id, and each answer travelled on its own request's stream.")
}

// importedLog names an imported transcript by its observer as a detail
// says it: "this server log", "this client log", "this wire log", or
// "this transcript" when it does not say who recorded it.
func importedLog(tr *trace.Trace) string {
	if o := observer(tr); o != "" {
		return "this " + o + " log"
	}
	return "this transcript"
}
