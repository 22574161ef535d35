package transcript

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
)

// TestRoundTripUnderLoad (rule no-message-after-cancel, a client's view
// over Streamable HTTP): the round trip is the fastest answered exchange
// (a ping answered in 4 ms, not the slow one answered in 150 ms); a
// response observed more than that after the cancellation convicts only
// once the ping the client sent after the cancellation is answered. While
// that ping is pending the path is under load, so the same response is
// the legitimate race, undecided.
func TestRoundTripUnderLoad(t *testing.T) {
	const head = `{"observer":"client","transport":"streamable-http","protocol":"2025-11-25"}
{"t":0,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"t":150,"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{}}}
{"t":160,"from":"client","message":{"jsonrpc":"2.0","id":2,"method":"ping"}}
{"t":164,"from":"server","message":{"jsonrpc":"2.0","id":2,"result":{}}}
{"t":200,"from":"client","message":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}}}
{"t":400,"from":"client","message":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}}
{"t":401,"from":"client","message":{"jsonrpc":"2.0","id":4,"method":"ping"}}
`
	for _, c := range []struct {
		name, tail, want, says string
	}{
		{"the response arrives while the fence is pending", `{"t":440,"from":"server","message":{"jsonrpc":"2.0","id":3,"result":{"content":[]}}}
{"t":600,"from":"server","message":{"jsonrpc":"2.0","id":4,"result":{}}}
`, "?", "still unanswered (the path under load"},
		{"the response arrives after the fence is answered", `{"t":420,"from":"server","message":{"jsonrpc":"2.0","id":4,"result":{}}}
{"t":440,"from":"server","message":{"jsonrpc":"2.0","id":3,"result":{"content":[]}}}
`, "FAIL", "more than the path's round trip (5 ms)"},
	} {
		tr, err := Import([]byte(head+c.tail), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Source.LatencyMs != 5 || !strings.Contains(tr.Source.Note, "the fastest answered exchange, ping (id 2)") {
			t.Errorf("%s: round trip %d ms (%s), want 5 from ping id 2 (4 ms plus the 1 ms tick)", c.name, tr.Source.LatencyMs, tr.Source.Note)
		}
		got, d := verdictsOf(tr)[checks.NoMessageAfterCancel], detail(tr, checks.NoMessageAfterCancel)
		if got != c.want || !strings.Contains(d, c.says) {
			t.Errorf("%s: %s = %q (%s), want %q saying %q", c.name, checks.NoMessageAfterCancel, got, d, c.want, c.says)
		}
	}
}
