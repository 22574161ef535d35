// A listen stream as a server sees it over HTTP (a 2025-11-25 GET): no
// JSON-RPC id names it, so its reopening is read from the events around
// it (DOMAIN.md §9 reconnect means refetch, §10 backoff): the stream's end
// (the server's close-stream or the network's, without an id), the
// client's reconnect (without an id), and the server's answer to it (a
// start without an id: accepted; a reject other than 404: refused).

package checks

import "github.com/mcplab/mcplab/engine/trace"

// listenAnswer is the server's answer to the client's reconnect at i:
// accepted (a start without an id) or refused (a reject without an id
// whose status is not 404, the retired session's, which session-recovered
// judges), before the client's next reconnect; j is the answer's index,
// -1 when there is none.
func (v *view) listenAnswer(i int) (j int, accepted bool) {
	for j := i + 1; j < len(v.ev); j++ {
		e := v.ev[j]
		switch {
		case e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect:
			return -1, false
		case e.Actor != trace.ActorServer || e.ID != nil:
		case e.Type == trace.TypeStart:
			return j, true
		case e.Type == trace.TypeReject && e.Status != "" && e.Status != statusNotFound:
			return j, false
		}
	}
	return -1, false
}

// listenEnds reports whether event e ends a listen stream under the
// client: the server's or the network's close-stream without an id.
func listenEnds(e trace.Event) bool {
	return e.Type == trace.TypeCloseStream && e.ID == nil && (e.Actor == trace.ActorServer || e.Actor == trace.ActorNetwork)
}

// listenReconnects lists each run of consecutive reconnects of a listen
// stream that ended: the first after the stream's end, each next one after
// the server refused the one before, until the server accepts one; each
// attempt with its wait since the end or the refusal before it (ms), for
// backoff-grows. A reconnect the server never answered ends its run.
func (v *view) listenReconnects() [][]retryAttempt {
	var out [][]retryAttempt
	var run []retryAttempt
	down := -1 // the event the client waits from: a listen stream's end or a refusal
	for i, e := range v.ev {
		switch {
		case listenEnds(e):
			if len(run) > 1 {
				out = append(out, run)
			}
			run, down = nil, i
		case down >= 0 && e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect && e.ID == nil:
			run = append(run, retryAttempt{send: i, delayMs: e.At - v.ev[down].At})
			j, accepted := v.listenAnswer(i)
			if j >= 0 && !accepted {
				down = j
				continue
			}
			if len(run) > 1 {
				out = append(out, run)
			}
			run, down = nil, -1
		}
	}
	if len(run) > 1 {
		out = append(out, run)
	}
	return out
}

// reopenedListens lists the client's reconnects without an id and without
// Last-Event-ID that reopened a listen stream the server accepted: the
// client could not resume, so it must refetch (refetch-after-reconnect).
func (v *view) reopenedListens() []int {
	var out []int
	for i, e := range v.ev {
		if e.Actor == trace.ActorClient && e.Type == trace.TypeReconnect && e.ID == nil && e.Headers[lastEventIDHeader] == "" {
			if _, accepted := v.listenAnswer(i); accepted {
				out = append(out, i)
			}
		}
	}
	return out
}
