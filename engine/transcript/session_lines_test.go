package transcript_test

import (
	"testing"

	"github.com/mcplab/mcplab/engine/transcript"
)

// TestLineSessions: a JSON Lines line's "session" names the Mcp-Session-Id
// of the exchange it was seen in, so two sessions open at once that reuse
// request id 2 are two requests, and each event names its session.
func TestLineSessions(t *testing.T) {
	call := func(sess string, t0 int) string {
		return `{"t":` + itoa(t0) + `,"from":"client","session":"` + sess + `","message":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"work","_meta":{"progressToken":"p2"}}}}` + "\n" +
			`{"t":` + itoa(t0+1) + `,"from":"server","session":"` + sess + `","message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p2","progress":1}}}` + "\n"
	}
	final := func(sess string, t0 int) string {
		return `{"t":` + itoa(t0) + `,"from":"server","session":"` + sess + `","message":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}}` + "\n"
	}
	cases := []struct {
		name     string
		data     string
		requests int
	}{
		{"one session, one request", `{"observer":"wire","transport":"streamable-http"}` + "\n" + call("A", 0) + final("A", 5), 1},
		{"two sessions reuse id 2: two requests", `{"observer":"wire","transport":"streamable-http"}` + "\n" + call("A", 0) + call("B", 2) + final("A", 5) + final("B", 6), 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := transcript.Import([]byte(c.data), transcript.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Requests) != c.requests {
				t.Errorf("%d requests, want %d", len(tr.Requests), c.requests)
			}
			for _, e := range tr.Events {
				if c.requests == 2 && e.Session != "A" && e.Session != "B" {
					t.Errorf("event %d names session %q, want its line's", e.Seq, e.Session)
				}
			}
			for _, ch := range tr.Checks {
				if ch.OK != nil && !*ch.OK {
					t.Errorf("%s fails: %s", ch.Rule, ch.Detail)
				}
			}
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}
