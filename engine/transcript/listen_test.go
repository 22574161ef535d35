package transcript

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
)

// What a server sees of a listen stream and a session over HTTP, as event
// lines (a mock's transcript), becomes the trace the reconnect and
// session rules judge (DOMAIN.md §9–10; SCENARIO.md, Live).
func TestListenAndSessionEvents(t *testing.T) {
	const head = `{"observer":"server","transport":"streamable-http","protocol":"2025-11-25"}
{"t":0,"from":"client","message":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}
{"t":1,"from":"server","message":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}
{"t":5,"actor":"server","type":"start","headers":{"Content-Type":"text/event-stream"},"note":"The server opens the session's listen stream (GET)."}
`
	const drop = `{"t":300,"actor":"network","type":"close-stream","note":"The connection under the listen stream breaks."}` + "\n"
	const end = `{"t":300,"actor":"server","type":"close-stream","note":"The server ends the listen stream."}` + "\n"
	reconnect := func(t string) string {
		return `{"t":` + t + `,"actor":"client","type":"reconnect","headers":{"Accept":"text/event-stream"}}` + "\n"
	}
	accept := func(t string) string {
		return `{"t":` + t + `,"actor":"server","type":"start","headers":{"Content-Type":"text/event-stream"}}` + "\n"
	}
	refuse := func(t string, status string) string {
		return `{"t":` + t + `,"actor":"server","type":"reject","status":` + status + `}` + "\n"
	}
	const list = `{"t":3000,"from":"client","message":{"jsonrpc":"2.0","id":5,"method":"tools/list"}}` + "\n"
	call := func(t, id string) string {
		return `{"t":` + t + `,"from":"client","message":{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"slow","arguments":{}}}}` + "\n"
	}
	reinit := `{"t":700,"from":"client","message":{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}` + "\n" +
		`{"t":701,"from":"server","message":{"jsonrpc":"2.0","id":4,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}` + "\n"
	cases := []struct {
		name, body string
		rules      map[trace.RuleID]string // rule → its verdict ("" not listed)
	}{
		{"dropped; refused once; the waits grow (1,000 then 1,499 ms); tools refetched after",
			drop + reconnect("1300") + refuse("1301", "503") + reconnect("2800") + accept("2801") + list,
			map[trace.RuleID]string{checks.BackoffGrows: "pass", checks.RefetchAfterReconnect: "pass"}},
		{"dropped; refused once; the same 1,000 ms wait again: a constant retry loop",
			drop + reconnect("1300") + refuse("1301", "503") + reconnect("2301") + accept("2302"),
			map[trace.RuleID]string{checks.BackoffGrows: "fail", checks.RefetchAfterReconnect: "fail"}},
		{"ended cleanly; reopened at once without refetching: skip-refetch; one attempt is no backoff to judge",
			end + reconnect("1300") + accept("1301"),
			map[trace.RuleID]string{checks.BackoffGrows: "", checks.RefetchAfterReconnect: "fail"}},
		{"never reconnected: nothing to judge",
			drop, map[trace.RuleID]string{checks.BackoffGrows: "", checks.RefetchAfterReconnect: ""}},
		{"a 404 for the retired session, initialize again, the call re-issued once",
			call("100", "2") + refuse("600", "404") + reinit + call("710", "2"),
			map[trace.RuleID]string{checks.SessionRecovered: "pass"}},
		{"a 404 and no new initialize: the call in flight is lost",
			call("100", "2") + refuse("600", "404"),
			map[trace.RuleID]string{checks.SessionRecovered: "fail"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Import([]byte(head+c.body), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for rule, want := range c.rules {
				if v := checkOf(tr, rule); v != want {
					t.Errorf("%s %q, want %q; checks %+v", rule, v, want, tr.Checks)
				}
			}
			for _, ch := range tr.Checks {
				if ch.Rule == checks.BackoffGrows && ch.OK != nil && !*ch.OK && !strings.Contains(ch.Detail, "the reconnect at seq") {
					t.Errorf("backoff-grows does not name the reconnects it judged: %s", ch.Detail)
				}
			}
		})
	}
}
