package jsonrpc

import (
	"errors"
	"testing"
)

// DOMAIN.md §1: the server validates a cancellation; each malformed shape
// is refused with ErrMalformedCancel and its reason, a valid one names its
// request by canonical id text.
func TestParseCancellation(t *testing.T) {
	for _, c := range []struct {
		msg, id, why string
		reason       string
	}{
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancel","params":{"requestId":7}}`, why: `malformed cancellation: method is "notifications/cancel"`},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":[7]}`, why: "malformed cancellation: params is not an object"},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled"}`, why: "malformed cancellation: params is not an object"},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"no id"}}`, why: "malformed cancellation: params.requestId is missing"},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestID":7}}`, why: "malformed cancellation: params.requestId is missing"},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":true}}`, why: "malformed cancellation: params.requestId is not a string or an integer"},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}`, why: "malformed cancellation: params.requestId is not a string or an integer"},
		{msg: `{"jsonrpc":"2.0","method":3}`, why: "malformed cancellation: not a JSON object"},
		{msg: `null`, why: `malformed cancellation: method is ""`},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7","reason":"late"}}`, id: `"7"`, reason: "late"},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\u0037<"}}`, id: `"7\u003c"`},
		{msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":-0}}`, id: `0`},
	} {
		got, err := ParseCancellation([]byte(c.msg))
		if c.why != "" {
			if err == nil || err.Error() != c.why || !errors.Is(err, ErrMalformedCancel) {
				t.Errorf("%s: error %v, want %q", c.msg, err, c.why)
			}
			continue
		}
		if err != nil || got.RequestID != c.id {
			t.Errorf("%s: got %+v, %v; want id %s", c.msg, got, err, c.id)
		}
		if c.reason != "" && (got.Reason == nil || *got.Reason != c.reason) {
			t.Errorf("%s: reason %v, want %q", c.msg, got.Reason, c.reason)
		}
	}
}

// JSON-RPC 2.0 §4–5: the kind follows from method, id, result and error.
func TestKind(t *testing.T) {
	for msg, want := range map[string]Kind{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`:         Request,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`:      Request,
		`{"jsonrpc":"2.0","method":"ping"}`:                Notification,
		`{"jsonrpc":"2.0","id":1,"result":{}}`:             Response,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1}}`:      Error,
		`{"jsonrpc":"2.0"}`:                                Other,
		`"text"`:                                           Invalid,
		`{"method":`:                                       Invalid,
		`{"jsonrpc":"2.0","id":1,"method":["tools/call"]}`: Invalid,
	} {
		m, _ := Parse([]byte(msg))
		if m.Kind != want {
			t.Errorf("%s: kind %v, want %v", msg, m.Kind, want)
		}
	}
}

// Ids compare as canonical text: 7 and "7" differ; 1.5, null and objects
// are no id.
func TestIDText(t *testing.T) {
	for raw, want := range map[string]string{`7`: `7`, `"7"`: `"7"`, ` -3 `: `-3`, `"a\/b"`: `"a/b"`, `"<"`: `"\u003c"`, `1.5`: ``, `null`: ``, `{}`: ``, `1e3`: ``, `99999999999999999999`: ``} {
		got, ok := IDText([]byte(raw))
		if got != want || ok != (want != "") {
			t.Errorf("IDText(%s) = %q, %v; want %q", raw, got, ok, want)
		}
	}
}

// The progress token of a request is params._meta.progressToken; of a
// progress notification, params.progressToken (MCP progress).
func TestProgressToken(t *testing.T) {
	m, _ := Parse([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"progressToken":"x","_meta":{"progressToken":5}}}`))
	if m.ProgressToken != "5" {
		t.Errorf("request token %q, want 5", m.ProgressToken)
	}
	m, _ = Parse([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1e400}}`))
	if m.ProgressToken != `"x"` || m.Progress != nil {
		t.Errorf("notification token %q progress %v, want \"x\" and no progress", m.ProgressToken, m.Progress)
	}
}

// MCP tools/call: params carry name, arguments ({} when absent) and the
// progress token under _meta; other requests merge their arguments with
// _meta. Every message built parses back to what was put in.
func TestNewCall(t *testing.T) {
	msg := NewCall(`7`, MethodToolsCall, "crunch", nil, `"p-7"`)
	if string(msg) != `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crunch","arguments":{},"_meta":{"progressToken":"p-7"}}}` {
		t.Errorf("NewCall = %s", msg)
	}
	m, err := Parse(msg)
	if err != nil || m.Kind != Request || m.ID != "7" || m.Name != "crunch" || m.ProgressToken != `"p-7"` {
		t.Errorf("Parse(NewCall) = %+v, %v", m, err)
	}
	if got := string(NewCall(`"a"`, "tasks/get", "", []byte(`{"taskId":"t"}`), "")); got != `{"jsonrpc":"2.0","id":"a","method":"tasks/get","params":{"taskId":"t"}}` {
		t.Errorf("NewCall tasks/get = %s", got)
	}
	if got := string(WithMeta([]byte(`{"b":1,"_meta":{"x":2}}`), SubscriptionIDKey, []byte(`"s"`))); got != `{"_meta":{"io.modelcontextprotocol/subscriptionId":"s","x":2},"b":1}` {
		t.Errorf("WithMeta = %s", got)
	}
}

// A Reader reads the same bytes once and still tells different messages
// apart, even at the same address with another length.
func TestReader(t *testing.T) {
	var r Reader
	buf := []byte(`{"jsonrpc":"2.0","id":1,"result":{}}{"jsonrpc":"2.0","method":"ping"}`)
	a, _ := r.Parse(buf[:36])
	b, _ := r.Parse(buf[:36])
	if a.Kind != Response || b.Kind != Response || len(r.seen) != 1 {
		t.Fatalf("kinds %v %v, %d entries; want two responses from one parse", a.Kind, b.Kind, len(r.seen))
	}
	if _, err := r.Parse(buf); err == nil {
		t.Errorf("the whole buffer (two messages) parsed as one")
	}
	c, _ := r.Parse(buf[36:])
	if c.Kind != Notification || c.Method != "ping" {
		t.Errorf("second message %+v", c)
	}
}

// The simulated peers read a message with a fractional id as no JSON-RPC
// message at all, and a null id as a notification.
func TestReadPeerAndHelpers(t *testing.T) {
	if _, ok := ReadPeer([]byte(`{"jsonrpc":"2.0","id":1.5,"method":"x"}`)); ok {
		t.Error("ReadPeer accepted a fractional id")
	}
	m, ok := ReadPeer([]byte(`{"jsonrpc":"2.0","id":null,"method":"x"}`))
	if !ok || m.HasRealID() {
		t.Errorf("null id: ok %v, HasRealID %v; want a message without a real id", ok, m.HasRealID())
	}
	if Unquote(`"a"`) != "a" || Unquote(`7`) != "7" || Describe("tools/call", "crunch") != "tools/call crunch" || Describe("ping", "") != "ping" {
		t.Error("Unquote or Describe")
	}
}
