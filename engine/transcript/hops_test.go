package transcript

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// twoHop is a call through a recording intermediary on Streamable HTTP:
// the server opens the call's stream with X-Accel-Buffering: no and sends
// two progress notifications and the result; between the proxy's read
// (proxy-server hop) and its write to the client (client-proxy hop) sits
// either nothing or a hold until the final (buffer=final).
func twoHop(held bool) string {
	lines := []string{
		`{"observer":"wire","transport":"streamable-http","proxy":"mcplab proxy"}`,
		`{"t":0,"from":"client","hop":"client-proxy","wire":1,"message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p"}}}}`,
		`{"t":1,"from":"client","hop":"proxy-server","wire":1,"message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p"}}}}`,
		`{"t":2,"actor":"server","type":"start","id":1,"headers":{"content-type":"text/event-stream","cache-control":"no-cache","x-accel-buffering":"no"}}`,
		`{"t":100,"from":"server","hop":"proxy-server","wire":2,"id":1,"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}}`,
	}
	if held {
		lines = append(lines,
			`{"t":100,"actor":"proxy","type":"hold","id":1,"wire":2,"note":"held 90 bytes"}`,
			`{"t":200,"from":"server","hop":"proxy-server","wire":3,"id":1,"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":2}}}`,
			`{"t":200,"actor":"proxy","type":"hold","id":1,"wire":3}`,
			`{"t":300,"from":"server","hop":"proxy-server","wire":4,"message":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}`,
			`{"t":300,"actor":"proxy","type":"flush","id":1,"wire":4}`,
			`{"t":301,"from":"server","hop":"client-proxy","wire":2,"id":1,"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}}`,
			`{"t":301,"from":"server","hop":"client-proxy","wire":3,"id":1,"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":2}}}`,
		)
	} else {
		lines = append(lines,
			`{"t":101,"from":"server","hop":"client-proxy","wire":2,"id":1,"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}}`,
			`{"t":200,"from":"server","hop":"proxy-server","wire":3,"id":1,"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":2}}}`,
			`{"t":201,"from":"server","hop":"client-proxy","wire":3,"id":1,"message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":2}}}`,
			`{"t":300,"from":"server","hop":"proxy-server","wire":4,"message":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}`,
		)
	}
	lines = append(lines, `{"t":301,"from":"server","hop":"client-proxy","wire":4,"message":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}`)
	return strings.Join(lines, "\n") + "\n"
}

// Rule proxy-forwards-promptly (DOMAIN.md §8) on a two-hop transcript: the
// proxy's hold events on a stream the server opened with
// X-Accel-Buffering: no fail it; a proxy that handed every event on at
// once passes it. Each message is a send on its sender's hop and a
// delivery on the other with the send's time, one wire number for both.
func TestTwoHopTranscript(t *testing.T) {
	cases := []struct {
		name   string
		held   bool
		ok     bool
		holds  int
		firstP int64 // when the client got progress 1
	}{
		{"proxy-forwards-promptly passes a prompt proxy", false, true, 0, 101},
		{"proxy-forwards-promptly fails a proxy holding until the final", true, false, 2, 301},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Import([]byte(twoHop(c.held)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var verdict *bool
			for _, ch := range tr.Checks {
				if ch.Rule == checks.ProxyForwardsPromptly {
					verdict = ch.OK
				}
			}
			if c.held && (verdict == nil || *verdict != c.ok) {
				t.Errorf("proxy-forwards-promptly = %v, want %v", verdict, c.ok)
			}
			if !c.held && verdict != nil && !*verdict {
				t.Errorf("proxy-forwards-promptly failed a prompt proxy")
			}
			holds, firstP := 0, int64(-1)
			for _, e := range tr.Events {
				if e.Actor == trace.ActorProxy && e.Type == trace.TypeHold {
					holds++
					if e.Wire == 0 || e.ID == nil || e.ID.Raw() != "1" {
						t.Errorf("hold %+v names no wire message or request", e)
					}
				}
				if e.Type == trace.TypeDeliver && e.To == trace.ActorClient && e.Wire == 2 && firstP < 0 {
					firstP = e.At
					if e.SentAt == nil || *e.SentAt != 100 {
						t.Errorf("progress 1's delivery has sentAt %v, want 100 (its send on the proxy-server hop)", e.SentAt)
					}
				}
			}
			if holds != c.holds || firstP != c.firstP {
				t.Errorf("%d holds, progress 1 delivered at %d; want %d, %d", holds, firstP, c.holds, c.firstP)
			}
			if len(tr.Requests) != 1 || tr.Requests[0].ClientOutcome != trace.OutcomeResult || tr.Requests[0].State != trace.StateCompleted {
				t.Errorf("requests %+v, want one completed with the client's result", tr.Requests)
			}
		})
	}
}

// Bad input (SCENARIO.md): a two-hop line that does not add up is refused
// with its line named, never guessed at.
func TestTwoHopBadLines(t *testing.T) {
	send := `{"t":0,"from":"client","hop":"client-proxy","wire":1,"message":{"jsonrpc":"2.0","id":1,"method":"ping"}}`
	cases := []struct {
		name, second, want string
	}{
		{"hop without wire", `{"t":1,"from":"client","hop":"proxy-server","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}`, "line 2: bad transcript: hop needs wire"},
		{"unknown hop", `{"t":1,"from":"client","hop":"middle","wire":1,"message":{"jsonrpc":"2.0","id":1,"method":"ping"}}`, `line 2: bad transcript: hop must be "client-proxy" or "proxy-server"`},
		{"delivery before its send", `{"t":1,"from":"server","hop":"client-proxy","wire":7,"message":{"jsonrpc":"2.0","id":1,"result":{}}}`, "line 2: bad transcript: wire 7 is delivered on the client-proxy hop before the server sent it on the proxy-server hop"},
		{"delivered as another message", `{"t":1,"from":"client","hop":"proxy-server","wire":1,"message":{"jsonrpc":"2.0","id":2,"method":"ping"}}`, "line 2: bad transcript: wire 1 is delivered as a different message than line 1 sent"},
		{"sent twice", send, "line 2: bad transcript: wire 1 was already sent (line 1)"},
		{"unknown event", `{"t":1,"actor":"proxy","type":"start"}`, "line 2: bad transcript: type of a proxy event must be hold, flush, drop, close-stream"},
		{"event of nobody", `{"t":1,"actor":"worker","type":"hold"}`, `line 2: bad transcript: actor must be "server", "proxy", "network" or "client"`},
		{"a network event other than a broken stream", `{"t":1,"actor":"network","type":"hold"}`, "line 2: bad transcript: type of a network event must be close-stream"},
		{"a reject without its status", `{"t":1,"actor":"server","type":"reject"}`, "line 2: bad transcript: a reject needs status"},
		{"a status on another event", `{"t":1,"actor":"client","type":"reconnect","status":200}`, "line 2: bad transcript: only a reject has a status"},
		{"a status on a message line", `{"t":1,"from":"client","status":404,"message":{"jsonrpc":"2.0","id":2,"method":"ping"}}`, "line 2: bad transcript: a message line has no actor, type, headers, note or status"},
		{"event naming no message", `{"t":1,"actor":"proxy","type":"hold","wire":9}`, "line 2: bad transcript: wire 9 names no message seen before"},
		{"event with a message", `{"t":1,"actor":"proxy","type":"hold","from":"client","message":{}}`, "line 2: bad transcript: an event line has no from, message or hop"},
		{"event id not an id", `{"t":1,"actor":"proxy","type":"close-stream","id":{"a":1}}`, "line 2: bad transcript: id: must be a JSON-RPC id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import([]byte(send+"\n"+c.second+"\n"), Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// canonicalHeader writes header names as the checks read them.
func TestCanonicalHeader(t *testing.T) {
	for in, want := range map[string]string{"x-accel-buffering": "X-Accel-Buffering", "CONTENT-TYPE": "Content-Type", "mcp-session-id": "Mcp-Session-Id"} {
		if got := canonicalHeader(in); got != want {
			t.Errorf("canonicalHeader(%q) = %q, want %q", in, got, want)
		}
	}
}
