package scenario

import (
	"errors"
	"testing"
)

// TestRunawayLimits proves the limits that keep an untrusted scenario from
// generating millions of events are located errors: a keep-alive interval
// below MinKeepaliveMs is refused at server.keepaliveEveryMs.
func TestRunawayLimits(t *testing.T) {
	_, err := Decode([]byte(`{"mcplab":1,"transport":"streamable-http","server":{"keepaliveEveryMs":1},"client":{"maxTimeoutMs":400000},"steps":[{"at":0,"do":"call","id":1}]}`))
	var e *Error
	if !errors.As(err, &e) || e.Path != "server.keepaliveEveryMs" || !errors.Is(err, ErrValue) {
		t.Fatalf("err = %v, want a located ErrValue at server.keepaliveEveryMs", err)
	}
}
