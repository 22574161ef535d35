package transcript

import (
	"errors"
	"strings"
	"testing"
)

// Rule (Error: bad input gets a clear error naming where it is): a line
// recorded earlier than the line before it is refused at that line, and
// the message says by how much and which line it goes back from, in the
// transcript's own terms (RFC 3339 times are not shown as epoch
// milliseconds).
func TestTimeGoingBackSaysByHowMuch(t *testing.T) {
	const data = `{"t":"2026-12-02T10:00:00Z","from":"client","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"t":"2026-12-02T09:00:00.5Z","from":"server","message":{"jsonrpc":"2.0","id":1,"result":{}}}
`
	_, err := Import([]byte(data), Options{})
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 {
		t.Fatalf("err = %v, want a located error at line 2", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "3599500 ms before the time of line 1") || strings.Contains(msg, "1796") {
		t.Errorf("err = %q, want it to say 3599500 ms before the time of line 1, and no epoch milliseconds", msg)
	}
}
