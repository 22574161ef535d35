package coordinator_test

import (
	"encoding/json"
	"testing"

	"github.com/mcplab/mcplab/engine/coordinator"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestClientReceives proves what the client makes of a message from the
// server outside any request's stream (DOMAIN.md §1, §3): a server-sent
// notifications/cancelled ends a listen stream and nothing else; progress
// for a known token is progress; for an unknown token it is ignored, or
// fatal under lateProgressIsError (failure late-message-fatal); anything
// else is ignored.
func TestClientReceives(t *testing.T) {
	listening := func(id string) bool { return id == `"L"` }
	known := func(token string) bool { return token == `"t"` }
	for _, tc := range []struct {
		name, msg string
		fatal     bool
		want      coordinator.ReceiptKind
		id, token string
	}{
		{"cancel ends a listen stream", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`, false, coordinator.ListenEnds, `"L"`, ""},
		{"cancel of a call is ignored", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, false, coordinator.Ignored, "", ""},
		{"progress for a known token", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2}}`, true, coordinator.ProgressArrives, "", `"t"`},
		{"progress for an unknown token", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"u","progress":2}}`, false, coordinator.Ignored, "", ""},
		{"unknown token, lateProgressIsError", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"u","progress":2}}`, true, coordinator.ProgressUnknown, "", `"u"`},
		{"not JSON-RPC", `[1,2]`, true, coordinator.Ignored, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := coordinator.ClientReceives([]byte(tc.msg), listening, known, tc.fatal)
			if got.Kind != tc.want || got.ID != tc.id || got.Token != tc.token {
				t.Errorf("got %+v; want kind %d, id %q, token %q", got, tc.want, tc.id, tc.token)
			}
			if (got.Kind == coordinator.Ignored) != (got.Event.Type == trace.TypeIgnore) {
				t.Errorf("event %+v: an ignore event exactly when the client ignores it", got.Event)
			}
			if got.Kind == coordinator.ProgressArrives && got.Value != 2 {
				t.Errorf("progress %v, want 2", got.Value)
			}
		})
	}
	if cancel, e := coordinator.ServerReceives([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)); !cancel || e.Type != "" {
		t.Errorf("server, cancellation: cancel %v, event %+v; want a cancellation to read", cancel, e)
	}
	if cancel, e := coordinator.ServerReceives([]byte(`{"jsonrpc":"2.0","method":"notifications/other"}`)); cancel || e.Type != trace.TypeIgnore || e.Actor != trace.ActorServer {
		t.Errorf("server, unknown notification: cancel %v, event %+v; want the server's ignore", cancel, e)
	}
}

// TestProgressArrives proves the client's reading of progress (DOMAIN.md
// §3): a strictly increasing value is activity and restarts the idle clock;
// a repeated one is ignored; after the request ended, progress is ignored,
// or fatal under lateProgressIsError (failure late-message-fatal).
func TestProgressArrives(t *testing.T) {
	var p coordinator.Progress
	c := coordinator.NewClient(coordinator.NewDeadlines(0, 500, 0, false), true)
	e, activity, fatal := c.ProgressArrives(100, &p, "1", "1", 0.5, scenario.ClientPolicy{})
	if at, _ := c.Deadlines.Next(); !activity || fatal != "" || e.Type != trace.TypeActivity || at != 600 {
		t.Errorf("first progress: %+v, activity %v, fatal %q, idle due at %d; want activity and the idle clock restarted to 600", e, activity, fatal, at)
	}
	if e, activity, _ := c.ProgressArrives(200, &p, "1", "1", 0.5, scenario.ClientPolicy{}); activity || e.Type != trace.TypeIgnore {
		t.Errorf("repeated progress: %+v, activity %v; want ignored", e, activity)
	}
	c.End(300, "abandoned", "idle-timeout")
	if e, activity, fatal := c.ProgressArrives(400, &p, "1", "1", 0.7, scenario.ClientPolicy{}); activity || fatal != "" || e.Type != trace.TypeIgnore {
		t.Errorf("late progress: %+v, activity %v, fatal %q; want ignored", e, activity, fatal)
	}
	if _, _, fatal := c.ProgressArrives(400, &p, "1", "1", 0.7, scenario.ClientPolicy{LateProgressIsError: true}); fatal != "progress 0.7 for request 1, which it has abandoned," {
		t.Errorf("late progress, lateProgressIsError: fatal %q; want the teardown's reason", fatal)
	}
}

// TestTransportOf proves how a scenario's switches reach one request
// (SCENARIO.md: transport, protocol, client.policy.httpCancel,
// server.policy): Streamable HTTP under 2025-11-25 posting its
// cancellations, and a server that ignores disconnects.
func TestTransportOf(t *testing.T) {
	s, err := scenario.Decode([]byte(`{"mcplab":1,"transport":"streamable-http","protocol":"2025-11-25","client":{"policy":{"httpCancel":"post-notification"}},"server":{"policy":{"ignoreDisconnect":true}},"steps":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := coordinator.TransportOf(s), (coordinator.Transport{HTTP: true, Is2025: true}); got != want {
		t.Errorf("TransportOf: %+v, want %+v", got, want)
	}
	if got, want := coordinator.PolicyOf(s.Server.Policy), (coordinator.Policy{IgnoreDisconnect: true}); got != want {
		t.Errorf("PolicyOf: %+v, want %+v", got, want)
	}
}

// TestServerLost proves requests[].response is only what reached the wire
// (DOMAIN.md §7): a final response lost from the buffer is forgotten,
// another lost message leaves it.
func TestServerLost(t *testing.T) {
	var s coordinator.Server
	s.Sent = []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	s.Lost([]json.RawMessage{[]byte(`{"jsonrpc":"2.0","method":"notifications/progress"}`)})
	if s.Sent == nil {
		t.Fatal("a lost progress notification forgot the response")
	}
	s.Lost([]json.RawMessage{[]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)})
	if s.Sent != nil {
		t.Errorf("the lost response is still requests[].response: %s", s.Sent)
	}
}

// TestSendsProgress proves the server's progress rules (DOMAIN.md §3): no
// progress before the request arrived (the step is skipped), none without
// a token, and a valid value is sent with its note.
func TestSendsProgress(t *testing.T) {
	var p coordinator.Progress
	var s coordinator.Server
	if e, _, send := s.SendsProgress(&p, "1", "1", 0.5, true, false); send || e.Type != trace.TypeError {
		t.Errorf("before arrival: %+v, send %v; want the step skipped with an error", e, send)
	}
	s.Arrived = true
	if e, _, send := s.SendsProgress(&p, "1", "1", 0.5, false, false); send || e.Type != trace.TypeSuppress {
		t.Errorf("no token: %+v, send %v; want a suppression", e, send)
	}
	if _, note, send := s.SendsProgress(&p, "1", "1", 0.5, true, false); !send || note != "The server reports progress 0.5 for request 1." {
		t.Errorf("valid progress: send %v, note %q; want it sent", send, note)
	}
}

// TestLateResponse proves the client's reading of a response to a request
// it abandoned (failure late-message-fatal): a tolerant client ignores it,
// a strict one (lateResponseIsError) tears the session down over it.
func TestLateResponse(t *testing.T) {
	c := coordinator.NewClient(coordinator.NewDeadlines(0, 500, 0, false), true)
	c.End(500, "abandoned", "idle-timeout")
	if e, fatal := c.Response(600, "1", false, false); fatal != "" || e.Type != trace.TypeIgnore {
		t.Errorf("tolerant: %+v, fatal %q; want ignored", e, fatal)
	}
	if _, fatal := c.Response(600, "1", false, true); fatal != "the late response for abandoned request 1" {
		t.Errorf("strict: fatal %q; want the teardown's reason", fatal)
	}
}
