package transcript

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// maxEarlyResponseLines bounds how far after a response its own request
// may be logged for the two to be put back in order (entries): a logger
// that writes its line once a write returns loses that race by a line or
// two, never by more.
const maxEarlyResponseLines = 8

// placeEarlyResponses puts a response logged before its own request back
// after it, in a log without times, and says how many it moved ("" when
// none). The Go SDK's LoggingTransport writes a line once the write has
// returned, so the response a fast peer sends back can be read, and
// logged, before the request that asked for it: the wire order is the
// request first, always. A response is moved only when its request
// follows within maxEarlyResponseLines entries with no other response for
// that id between; anything else stays where the log put it.
func placeEarlyResponses(es []entry) string {
	moved := 0
	requested := map[string]bool{} // session and id of every request logged so far
	for i := 0; i < len(es); i++ {
		e := es[i]
		if e.kind != "" || !e.msg.HasID || e.msg.ID == "" {
			continue
		}
		switch {
		case e.from == trace.ActorClient && e.msg.Method == jsonrpc.MethodInitialize:
			clear(requested) // a new session: ids start again
			requested[e.session+"\x00"+e.msg.ID] = true
		case e.from == trace.ActorClient && e.msg.Method != "":
			requested[e.session+"\x00"+e.msg.ID] = true
		case e.from == trace.ActorServer && e.msg.Method == "" && !requested[e.session+"\x00"+e.msg.ID]:
			if j := requestAfter(es, i); j > 0 {
				copy(es[i:j], es[i+1:j+1])
				es[j] = e
				moved++
				i-- // es[i] is now the entry that followed the response
			}
		}
	}
	switch moved {
	case 0:
		return ""
	case 1:
		return "One response was logged before its own request (the logger writes a line once a write returns): it is placed after the request, as the wire had them."
	}
	return fmt.Sprintf("%d responses were logged before their own requests (the logger writes a line once a write returns): each is placed after its request, as the wire had them.", moved)
}

// requestAfter is the index of the client's request that es[i], a
// response, answers, when it is logged within maxEarlyResponseLines
// entries after it with no other response for that id between; 0 when
// there is none.
func requestAfter(es []entry, i int) int {
	r := es[i]
	for j := i + 1; j < len(es) && j <= i+maxEarlyResponseLines; j++ {
		e := es[j]
		if e.kind != "" || e.session != r.session || e.msg.ID != r.msg.ID {
			continue
		}
		if e.from == trace.ActorServer && e.msg.Method == "" {
			return 0 // another response for that id: not this race
		}
		if e.from == trace.ActorClient && e.msg.Method != "" {
			return j
		}
	}
	return 0
}
