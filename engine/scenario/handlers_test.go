package scenario

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestDecodeHandlers proves the strict reading of server.handlers,
// server.resources and the server switches of the third round
// (SCENARIO.md, "Handlers: the server decides when work ends"): each bad
// value is a located error naming the handler, each good one decodes.
func TestDecodeHandlers(t *testing.T) {
	srv := func(server string) string {
		return `{"mcplab":1,"server":` + server + `,"steps":[]}`
	}
	bad := []struct {
		name, in, msg string
		want          error
	}{
		{"workMs is required", srv(`{"handlers":{"crunch":{}}}`), "server.handlers.crunch.workMs: a handler says how long it works", ErrMissing},
		{"workMs must be >= 1", srv(`{"handlers":{"crunch":{"workMs":0}}}`), "server.handlers.crunch.workMs: must be >= 1", ErrValue},
		{"workMs negative", srv(`{"handlers":{"crunch":{"workMs":-5}}}`), "server.handlers.crunch.workMs: must be >= 1", ErrValue},
		{"workMs past a virtual day", srv(`{"handlers":{"crunch":{"workMs":86400001}}}`), "server.handlers.crunch.workMs: must be <= 86400000", ErrLimit},
		{"at most 1000 progress updates a call", srv(`{"handlers":{"crunch":{"workMs":5000,"progressEveryMs":2}}}`), "server.handlers.crunch.progressEveryMs: must be >= 5: a call sends at most 1000 progress updates", ErrLimit},
		{"progressEveryMs must be >= 1", srv(`{"handlers":{"crunch":{"workMs":50,"progressEveryMs":0}}}`), "server.handlers.crunch.progressEveryMs: must be >= 1", ErrValue},
		{"checkpointEveryMs >= 0", srv(`{"handlers":{"*":{"workMs":50,"checkpointEveryMs":-1}}}`), "server.handlers.*.checkpointEveryMs: must be >= 0", ErrValue},
		{"result and error exclude each other", srv(`{"handlers":{"crunch":{"workMs":5,"result":{},"error":{"code":1,"message":"x"}}}}`), "server.handlers.crunch.error", ErrValue},
		{"error needs a code", srv(`{"handlers":{"crunch":{"workMs":5,"error":{"message":"x"}}}}`), "server.handlers.crunch.error.code", ErrMissing},
		{"result must be an object", srv(`{"handlers":{"crunch":{"workMs":5,"result":[]}}}`), "server.handlers.crunch.result: must be an object", ErrType},
		{"unknown handler member", srv(`{"handlers":{"crunch":{"workMs":5,"retries":2}}}`), "server.handlers.crunch.retries", ErrUnknown},
		{"holds names a resource", srv(`{"handlers":{"crunch":{"workMs":5,"holds":""}}}`), "server.handlers.crunch.holds: must name a resource", ErrValue},
		{"resource capacity >= 1", srv(`{"resources":{"db-lock":0}}`), "server.resources.db-lock: must be >= 1", ErrValue},
		{"resource capacity <= 1000", srv(`{"resources":{"db-lock":1001}}`), "server.resources.db-lock: must be <= 1000", ErrLimit},
		{"a switch is a boolean", srv(`{"policy":{"releaseOnCancel":"no"}}`), "server.policy.releaseOnCancel: must be true or false", ErrType},
		{"unknown switch", srv(`{"policy":{"replayNothingAtAll":true}}`), "server.policy.replayNothingAtAll", ErrUnknown},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.in))
			if err == nil || !errors.Is(err, tt.want) || !strings.HasPrefix(err.Error(), tt.msg) {
				t.Fatalf("err = %v, want %v starting %q", err, tt.want, tt.msg)
			}
		})
	}
	s, err := Decode([]byte(srv(`{"handlers":{"crunch":{"workMs":300,"progressEveryMs":100,"checkpointEveryMs":50,"holds":"db-lock"},"*":{"workMs":20,"error":{"code":-32000,"message":"busy"}}},"resources":{"db-lock":2},"policy":{"handlerIgnoresCancel":true,"releaseOnCancel":false,"holdNotifications":true,"routeByIdOnly":true}}`)))
	if err != nil {
		t.Fatal(err)
	}
	h, ok := s.Server.HandlerFor("crunch")
	if !ok || h.WorkMs != 300 || h.ProgressEveryMs != 100 || h.CheckpointEveryMs != 50 || h.Holds != "db-lock" || s.Server.Resources["db-lock"] != 2 {
		t.Errorf("crunch's handler %+v, resources %v", h, s.Server.Resources)
	}
	if h, ok := s.Server.HandlerFor("other"); !ok || h.Error == nil || h.Error.Code != -32000 {
		t.Errorf("a tool without its own handler runs \"*\": got %+v, %v", h, ok)
	}
	p := s.Server.Policy
	if !p.HandlerIgnoresCancel || On(p.ReleaseOnCancel) || !p.HoldNotifications || !p.RouteByIDOnly {
		t.Errorf("switches %+v", p)
	}
}

// TestHandlersCanonical proves the normalized form: handlers and resources
// in sorted key order, a switch at its default left out (releaseOnCancel
// true is the default and is not written), so an old scenario's trace is
// unchanged.
func TestHandlersCanonical(t *testing.T) {
	s, err := Decode([]byte(`{"mcplab":1,"server":{"resources":{"b":1,"a":3},"handlers":{"z":{"workMs":5},"a":{"workMs":7,"result":{ "content" : [] }}},"policy":{"releaseOnCancel":true}},"steps":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s.Server)
	if want := `{"policy":{"respondAfterCancel":false},"handlers":{"a":{"workMs":7,"result":{"content":[]}},"z":{"workMs":5}},"resources":{"a":3,"b":1}}`; string(b) != want {
		t.Errorf("normalized server %s, want %s", b, want)
	}
	old, _ := Decode([]byte(`{"mcplab":1,"steps":[]}`))
	if b, _ := json.Marshal(old.Server); string(b) != `{"policy":{"respondAfterCancel":false}}` {
		t.Errorf("a scenario without handlers normalizes to %s", b)
	}
}
