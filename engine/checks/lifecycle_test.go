package checks_test

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/trace"
)

// TestLifecycleRules proves the 2025-11-25 lifecycle's rules on the
// engine's own traces: the correct default passes, the broken switch
// fails, and a legitimate case is not flagged.
func TestLifecycleRules(t *testing.T) {
	const (
		http2025  = `"protocol":"2025-11-25","transport":"streamable-http","latencyMs":{"up":10,"down":10}`
		stdio2025 = `"protocol":"2025-11-25","transport":"stdio","latencyMs":{"up":10,"down":10}`
		call7     = `{"at":0,"do":"call","id":7,"name":"crunch"}`
		done7     = `{"at":400,"do":"complete","id":7}`
	)
	for _, c := range []struct {
		name, scenario string
		rule           trace.RuleID
		want           string // "pass", "fail", "absent"
		detail         string // a phrase the detail holds
	}{
		{"initialized-before-requests: the correct server serves a call sent right after initialized",
			`{"mcplab":1,` + stdio2025 + `,"steps":[` + call7 + `,` + done7 + `]}`, checks.InitializedBeforeRequests, "pass", "1 session"},
		{"initialized-before-requests: asyncInitialized rejects it",
			`{"mcplab":1,` + stdio2025 + `,"server":{"policy":{"asyncInitialized":true}},"steps":[` + call7 + `,` + done7 + `]}`, checks.InitializedBeforeRequests, "fail", "tachyonmcp/tachyon#11"},
		{"initialized-before-requests: asyncInitialized serves a call sent later, which the rule does not flag",
			`{"mcplab":1,` + stdio2025 + `,"server":{"policy":{"asyncInitialized":true}},"steps":[{"at":50,"do":"call","id":7,"name":"crunch"},` + done7 + `]}`, checks.InitializedBeforeRequests, "pass", "served"},
		{"initialized-before-requests: 2026-07-28 has no handshake",
			`{"mcplab":1,"protocol":"2026-07-28","steps":[` + call7 + `,` + done7 + `]}`, checks.InitializedBeforeRequests, "absent", ""},
		{"session-recovered: the correct client initializes again and re-issues once",
			`{"mcplab":1,` + http2025 + `,"steps":[` + call7 + `,{"at":100,"do":"end-session"},` + done7 + `]}`, checks.SessionRecovered, "pass", "re-issued the 1 call(s)"},
		{"session-recovered: two calls in flight are both re-issued",
			`{"mcplab":1,` + http2025 + `,"steps":[` + call7 + `,{"at":0,"do":"call","id":8,"name":"crunch"},{"at":100,"do":"end-session"},` + done7 + `,{"at":450,"do":"complete","id":8}]}`, checks.SessionRecovered, "pass", "re-issued the 2 call(s)"},
		{"session-recovered: a call sent after the retirement meets 404 and is re-issued",
			`{"mcplab":1,` + http2025 + `,"steps":[` + call7 + `,{"at":50,"do":"complete","id":7},{"at":100,"do":"end-session"},{"at":200,"do":"call","id":8,"name":"crunch"},{"at":400,"do":"complete","id":8}]}`, checks.SessionRecovered, "pass", "re-issued the 1 call(s)"},
		{"session-recovered: a session retired twice meets two 404s, and re-issuing once per 404 is correct",
			`{"mcplab":1,` + http2025 + `,"steps":[` + call7 + `,{"at":0,"do":"call","id":8,"name":"crunch"},{"at":100,"do":"end-session"},{"at":150,"do":"end-session"},{"at":400,"do":"complete","id":7},{"at":450,"do":"complete","id":8}]}`, checks.SessionRecovered, "pass", "re-issued the 2 call(s)"},
		{"session-recovered: reinitializeOnNotFound false loses the call",
			`{"mcplab":1,` + http2025 + `,"client":{"policy":{"reinitializeOnNotFound":false}},"steps":[` + call7 + `,{"at":100,"do":"end-session"},` + done7 + `]}`, checks.SessionRecovered, "fail", "never initialized again"},
		{"session-recovered: a session retired with nothing in flight meets no 404 and is not judged",
			`{"mcplab":1,` + http2025 + `,"steps":[` + call7 + `,{"at":50,"do":"complete","id":7},{"at":100,"do":"end-session"}]}`, checks.SessionRecovered, "absent", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := examplestest.RunExample(t, examples.Example{Name: c.name, JSON: []byte(c.scenario)})
			got := "absent"
			detail := ""
			for _, ch := range tr.Checks {
				if ch.Rule != c.rule {
					continue
				}
				detail = ch.Detail
				switch {
				case ch.OK == nil:
					got = "undecided"
				case *ch.OK:
					got = "pass"
				default:
					got = "fail"
				}
			}
			if got != c.want || !strings.Contains(detail, c.detail) {
				t.Errorf("%s: %s (%q); want %s with %q", c.rule, got, detail, c.want, c.detail)
			}
		})
	}
}

// TestSessionRecoveredOncePerNotFound: session-recovered allows one
// re-issue of a request per 404 the client met, and fails a client that
// re-issues a request twice after one 404 (the engine's own trace of two
// retirements, with the last re-issue of request 7 sent a second time).
func TestSessionRecoveredOncePerNotFound(t *testing.T) {
	const scenario = `{"mcplab":1,"protocol":"2025-11-25","transport":"streamable-http","latencyMs":{"up":10,"down":10},"steps":[{"at":0,"do":"call","id":7,"name":"crunch"},{"at":100,"do":"end-session"},{"at":150,"do":"end-session"},{"at":400,"do":"complete","id":7}]}`
	for _, c := range []struct {
		name    string
		doubled bool
		want    bool
	}{
		{"session-recovered: once per 404 over two retirements passes", false, true},
		{"session-recovered: twice after one 404 fails", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := examplestest.RunExample(t, examples.Example{Name: c.name, JSON: []byte(scenario)})
			if c.doubled {
				last := -1
				for i, e := range tr.Events {
					if e.Actor == trace.ActorClient && e.Type == trace.TypeSend && e.ID != nil && e.ID.Raw() == "7" {
						last = i
					}
				}
				if last < 0 {
					t.Fatal("no re-issue of request 7 in the trace")
				}
				tr.Events = append(tr.Events[:last+1], tr.Events[last:]...)
			}
			got, seen := false, false
			for _, ch := range checks.Evaluate(tr) {
				if ch.Rule == checks.SessionRecovered && ch.OK != nil {
					got, seen = *ch.OK, true
				}
			}
			if !seen || got != c.want {
				t.Errorf("session-recovered: judged %v ok %v; want ok %v", seen, got, c.want)
			}
		})
	}
}
