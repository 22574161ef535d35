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

// TestHerdLimits proves a share link cannot ask for an unbounded herd: the
// draws and the histogram buckets are capped with located errors.
func TestHerdLimits(t *testing.T) {
	for _, c := range []struct{ herd, path string }{
		{`{"clients":100000,"maxAttempts":20}`, "herd.maxAttempts"},
		{`{"clients":1000,"maxAttempts":20,"capMs":60000,"bucketMs":1}`, "herd.bucketMs"},
	} {
		_, err := Decode([]byte(`{"mcplab":1,"herd":` + c.herd + `,"steps":[]}`))
		var e *Error
		if !errors.As(err, &e) || e.Path != c.path || !errors.Is(err, ErrLimit) {
			t.Errorf("herd %s: err = %v, want ErrLimit at %s", c.herd, err, c.path)
		}
	}
	if _, err := Decode([]byte(`{"mcplab":1,"herd":{"clients":100000,"maxAttempts":10},"steps":[]}`)); err != nil {
		t.Errorf("the budget herd (100,000 x 10) must stay allowed: %v", err)
	}
}
