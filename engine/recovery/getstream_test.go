package recovery_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestListenWireOfEachRevision proves SCENARIO.md "Sessions
// (2025-11-25)" and 2025-11-25 basic/transports ("Listening for Messages
// from the Server", "Resumability and Redelivery"): under 2025-11-25 on
// Streamable HTTP a listen step is an HTTP GET with Accept:
// text/event-stream and the session's id, one resources/subscribe per
// resource of its filter (answered with an empty result), untagged
// notifications/resources/updated on the GET stream, a resumption that is
// a GET with Last-Event-ID, and an end that closes the GET stream with no
// response on it; subscriptions/listen and its acknowledgement exist only
// under 2026-07-28.
func TestListenWireOfEachRevision(t *testing.T) {
	const steps = `"steps":[{"at":0,"do":"listen","id":"sub-1","filter":{"resourceSubscriptions":["file:///a.csv","file:///b.csv"]}},` +
		`{"at":100,"do":"notify","listen":"sub-1","method":"notifications/resources/updated","params":{"uri":"file:///a.csv"}},` +
		`{"at":150,"do":"drop","id":"sub-1","affected":["file:///a.csv"]},` +
		`{"at":600,"do":"end-listen","id":"sub-1"}]`
	for _, c := range []struct {
		name, protocol string
		gets           int // GET events of the client (open and resume)
		subscribes     int // resources/subscribe requests
		listens        int // subscriptions/listen requests
		tagged         bool
		ended          bool // the end-listen reaches the client (the 2026 drop replaced sub-1)
	}{
		{"2025-11-25: a GET stream, two resources/subscribe, a GET resumption", jsonrpc.Revision20251125, 2, 2, 0, false, true},
		{"2026-07-28: a POSTed subscriptions/listen and, after the drop, a new one; no GET", jsonrpc.Revision20260728, 0, 0, 2, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := `{"mcplab":1,"protocol":"` + c.protocol + `","transport":"streamable-http","latencyMs":{"up":10,"down":10},` + steps + `}`
			tr := examplestest.RunExample(t, examples.Example{Name: c.name, JSON: []byte(doc)})
			gets, subscribes, listens := 0, 0, 0
			for _, e := range tr.Events {
				if e.Actor == trace.ActorClient && e.HTTPMethod == trace.HTTPGet {
					gets++
					if len(e.Message) > 0 || e.Headers[jsonrpc.HeaderAccept] != jsonrpc.EventStream || e.Headers[jsonrpc.HeaderSessionID] != "session-1" {
						t.Errorf("GET event %d: message %s, headers %v", e.Seq, e.Message, e.Headers)
					}
					if e.Type == trace.TypeReconnect && e.Headers[jsonrpc.HeaderLastEventID] == "" {
						t.Errorf("resuming GET %d has no Last-Event-ID: %v", e.Seq, e.Headers)
					}
				}
				if e.Type != trace.TypeSend || len(e.Message) == 0 {
					continue
				}
				m, _ := jsonrpc.Parse(e.Message)
				switch {
				case m.Method == "resources/subscribe":
					subscribes++
				case m.Method == jsonrpc.MethodListen:
					listens++
				case m.Method == "notifications/resources/updated" && strings.Contains(string(e.Message), jsonrpc.SubscriptionIDKey) != c.tagged:
					t.Errorf("event %d: tagged with a subscription id is %v, want %v: %s", e.Seq, !c.tagged, c.tagged, e.Message)
				case m.Kind == jsonrpc.Response && m.ID == `"sub-1"` && !c.tagged:
					t.Errorf("event %d: a response on the GET stream: %s", e.Seq, e.Message)
				case m.Kind == jsonrpc.Response && strings.Contains(m.ID, "subscribe") && !strings.Contains(string(e.Message), `"result":{}`):
					t.Errorf("event %d: resources/subscribe answered with %s, want an empty result", e.Seq, e.Message)
				}
			}
			if gets != c.gets || subscribes != c.subscribes || listens != c.listens {
				t.Errorf("GETs %d, resources/subscribe %d, subscriptions/listen %d; want %d, %d, %d", gets, subscribes, listens, c.gets, c.subscribes, c.listens)
			}
			ended := false
			for _, e := range tr.Events {
				ended = ended || e.Type == trace.TypeAccept && strings.Contains(e.Note, "ended listen stream")
			}
			if ended != c.ended {
				b, _ := json.Marshal(tr.Events[len(tr.Events)-1])
				t.Errorf("the client saw the stream end: %v, want %v; last event %s", ended, c.ended, b)
			}
		})
	}
}
