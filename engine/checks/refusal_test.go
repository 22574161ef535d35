package checks_test

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
)

// TestRefusalNotRepeated proves rule refusal-not-repeated (2026-07-28
// basic/transports/streamable-http, "Server Validation", "Backward
// Compatibility") on the engine's own traces: a HeaderMismatch or
// UnsupportedProtocolVersion refusal the client does not repeat passes, a
// retry with the same headers and revision fails, a retry of a request
// that was not refused is not judged, and nothing is judged where nothing
// was refused.
func TestRefusalNotRepeated(t *testing.T) {
	const (
		http2026  = `"protocol":"2026-07-28","transport":"streamable-http","latencyMs":{"up":10,"down":10}`
		stdio2026 = `"protocol":"2026-07-28","transport":"stdio","latencyMs":{"up":10,"down":10}`
		call1     = `"steps":[{"at":0,"do":"call","id":1,"name":"crunch"}],"server":{"handlers":{"crunch":{"workMs":100}}}`
		retry     = `"retry":{"on":["error"],"max":1,"delayMs":200}`
	)
	for _, c := range []struct {
		name, scenario string
		want           string // "pass", "fail", "absent"
		detail         string
	}{
		{"a missing Mcp-Name refused once and not repeated passes",
			`{"mcplab":1,` + http2026 + `,"client":{"policy":{"headerMismatch":"Mcp-Name"}},` + call1 + `}`, "pass", "refused 1 request(s)"},
		{"a mismatched Mcp-Method retried unchanged fails",
			`{"mcplab":1,` + http2026 + `,"client":{"policy":{"headerMismatch":"Mcp-Method",` + retry + `}},` + call1 + `}`, "fail", "again unchanged"},
		{"a mismatched MCP-Protocol-Version retried unchanged fails",
			`{"mcplab":1,` + http2026 + `,"client":{"policy":{"headerMismatch":"MCP-Protocol-Version",` + retry + `}},` + call1 + `}`, "fail", "(#5)"},
		{"an unsupported revision retried unchanged on stdio fails: the body alone names it",
			`{"mcplab":1,` + stdio2026 + `,"client":{"policy":{"claimProtocolVersion":"2099-01-01",` + retry + `}},` + call1 + `}`, "fail", "again unchanged"},
		{"a correct client's served call refuses nothing: not judged",
			`{"mcplab":1,` + http2026 + `,` + call1 + `}`, "absent", ""},
		{"2025-11-25 negotiates at initialize: the switches refuse nothing there",
			`{"mcplab":1,"protocol":"2025-11-25","transport":"streamable-http","client":{"policy":{"headerMismatch":"Mcp-Name","claimProtocolVersion":"2099-01-01"}},` + call1 + `}`, "absent", ""},
	} {
		t.Run(string(checks.RefusalNotRepeated)+": "+c.name, func(t *testing.T) {
			tr := examplestest.RunExample(t, examples.Example{Name: c.name, JSON: []byte(c.scenario)})
			got, detail := "absent", ""
			for _, ch := range tr.Checks {
				if ch.Rule != checks.RefusalNotRepeated {
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
				t.Errorf("got %s (%q); want %s with %q", got, detail, c.want, c.detail)
			}
		})
	}
}
