package recovery

import (
	"encoding/json"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// The listen stream of 2025-11-25 on stdio (SCENARIO.md, "Sessions
// (2025-11-25)": listen is resources/subscribe for each resource of its
// filter, and on stdio the one pipe). The server's stdout is the only
// channel from server to client (2025-11-25 Transports, "stdio"), so
// there is no GET, no subscriptions/listen request, no acknowledgement and
// no subscription id: the client subscribes to each resource with
// resources/subscribe (answered with an empty result), and
// notifications/resources/updated arrive on stdout. The step's id labels
// the subscription in the trace; it is no JSON-RPC id. Nothing of it can
// drop or be resumed: the pipe is the session.

// PipeOpens is the client's status when it opens listen stream id with
// filter under 2025-11-25 on stdio (Listen.Pipe): what stands for the
// stream on that wire.
func PipeOpens(id string, filter json.RawMessage) trace.Event {
	return trace.Event{Actor: trace.ActorClient, Type: trace.TypeStatus,
		Note: "Under 2025-11-25 on stdio listen stream " + id + " is the server's stdout, the session's one channel: no GET and no subscriptions/listen; each resource of its filter " + string(filter) + " gets a resources/subscribe, and list_changed notifications need none."}
}

// PipeUnhappening says why scripted step st, naming listen stream l, cannot
// happen, or "" when it can: only a 2025-11-25 stdio stream (l.Pipe; l
// nil: st names no listen stream) refuses, and only the moves its wire has
// no message or stream for (SCENARIO.md, "honest time": such a step is a
// skip event, never an invented message):
//   - drop: there is no stream of its own to break, and no GET to resume
//     with Last-Event-ID; stdout breaking ends the session itself;
//   - end-listen: 2025-11-25 gives the server no message that ends a
//     resource subscription (resources/unsubscribe is the client's
//     request, and a server-sent notifications/cancelled would name a
//     request that was never sent);
//   - cancel: no request opened the stream, so there is none to cancel;
//     the client stops a subscription with resources/unsubscribe;
//   - progress, produce, complete, fail: no request opened it, so the
//     server has none to report progress for or to answer.
func (l *Listen) PipeUnhappening(st scenario.Step) string {
	if l == nil || !l.Pipe || st.ID == nil {
		return ""
	}
	id := st.ID.String()
	switch st.Do {
	case scenario.VerbDrop:
		return "under 2025-11-25 on stdio listen stream " + id + " has no stream of its own to drop: its notifications arrive on the server's stdout, the session's one channel, and there is no GET to resume with Last-Event-ID."
	case scenario.VerbEndListen:
		return "under 2025-11-25 on stdio the server has no message that ends listen stream " + id + ": its resources/subscribe subscriptions end only by the client's resources/unsubscribe, and no subscriptions/listen request exists for a server-sent notifications/cancelled to name."
	case scenario.VerbCancel:
		return "under 2025-11-25 on stdio no request opened listen stream " + id + " (it is resources/subscribe per resource on the server's stdout), so there is no request to cancel; a client stops a subscription with resources/unsubscribe."
	case scenario.VerbProgress, scenario.VerbProduce, scenario.VerbComplete, scenario.VerbFail:
		return "under 2025-11-25 on stdio no request opened listen stream " + id + " (it is resources/subscribe per resource on the server's stdout), so the server has no request to report progress for or to answer."
	}
	return ""
}
