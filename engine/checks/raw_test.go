package checks_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// A cancellation a scenario sends raw (client verb send, SCENARIO.md) is
// the author's test of the server, not the client's conduct: rules on the
// client's signal (http-cancel-closes-stream, DOMAIN.md §1 "Streamable
// HTTP (2026-07-28)") and on what it gave up (late-response-ignored, "the
// client ignores any response that arrives for a request it abandoned")
// leave it out, as message-valid does. The same message the client sends
// as its own cancellation is judged.
func TestRawSendsAreNotTheClientsConduct(t *testing.T) {
	const era = `"transport":"streamable-http","protocol":"2026-07-28"`
	raw, err := scenario.Decode([]byte(`{"mcplab":1,` + era + `,"steps":[` +
		`{"at":0,"do":"call","id":7,"name":"crunch"},` +
		`{"at":100,"do":"send","message":` + cancel7 + `},` +
		`{"at":300,"do":"complete","id":7}]}`))
	if err != nil {
		t.Fatal(err)
	}
	own := mustScenario(t, era)
	events := func() []trace.Event {
		return []trace.Event{
			send(0, client, "7", req7),
			send(100, client, "", cancel7),
			deliver(105, 100, server, cancel7),
			send(300, server, "7", resp7),
			deliver(305, 300, client, resp7),
			act(305, client, trace.TypeAccept, "7"),
		}
	}
	tests := []struct {
		name string
		s    *scenario.Scenario
		rule trace.RuleID
		want string // "fail", or "" for not listed
	}{
		{"raw send: not the client's signal", raw, checks.HTTPCancelClosesStream, ""},
		{"raw send: the client never gave request 7 up", raw, checks.LateResponseIgnored, ""},
		{"the client's own POST: the wrong signal", own, checks.HTTPCancelClosesStream, "fail"},
		{"the client's own POST: it gave request 7 up and took the answer", own, checks.LateResponseIgnored, "fail"},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.name, func(t *testing.T) {
			got := ""
			for _, c := range checks.Evaluate(build(tt.s, nil, events()...)) {
				if c.Rule == tt.rule {
					got = okText(c.OK) + ": " + c.Detail
					if c.OK != nil && !*c.OK {
						got = "fail"
					}
				}
			}
			if got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.rule, got, tt.want)
			}
		})
	}
}
