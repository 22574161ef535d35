package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// doc builds a scenario document from top-level members (without braces,
// may be empty) and the steps array's elements.
func doc(members, steps string) string {
	if members != "" {
		members += ","
	}
	return `{"mcplab":1,` + members + `"steps":[` + steps + `]}`
}

// manySteps returns n call steps with distinct ids, comma-separated.
func manySteps(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf(`{"at":0,"do":"call","id":%d}`, i)
	}
	return strings.Join(s, ",")
}

const call7 = `{"at":0,"do":"call","id":7}`

// TestDecodeErrors proves SCENARIO.md's "Bad input" contract: every invalid
// scenario is rejected with an *Error that names the place (Path) and the
// category (a sentinel matched with errors.Is), never a panic and never a
// partial scenario. Errors are compared by kind and location, not text.
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantPath string
		want     error
	}{
		// the document
		{"invalid JSON", `{"mcplab":1,`, "", ErrSyntax},
		{"invalid JSON inside steps", `{"mcplab":1,"steps":[{"at":0,}]}`, "", ErrSyntax},
		{"trailing data after the object", doc("", "") + ` {}`, "", ErrSyntax},
		{"a stray closing brace after the object", doc("", "") + `}`, "", ErrSyntax},
		{"a stray closing bracket after the object", doc("", "") + "\n]", "", ErrSyntax},
		{"not UTF-8", "{\"mcplab\":1,\"title\":\"\xff\",\"steps\":[]}", "", ErrSyntax},
		{"not an object: array", `[]`, "", ErrType},
		{"not an object: null", `null`, "", ErrType},
		{"not an object: string", `"mcplab"`, "", ErrType},
		{"oversize input", doc(`"notes":"`+strings.Repeat(" ", MaxBytes)+`"`, ""), "", ErrLimit},
		{"empty input", ``, "", ErrSyntax},

		// version and required members
		{"missing mcplab", `{"steps":[]}`, "mcplab", ErrMissing},
		{"mcplab a string", `{"mcplab":"1","steps":[]}`, "mcplab", ErrType},
		{"version 2", `{"mcplab":2,"steps":[]}`, "mcplab", ErrVersion},
		{"version 0", `{"mcplab":0,"steps":[]}`, "mcplab", ErrVersion},
		{"missing steps", `{"mcplab":1}`, "steps", ErrMissing},
		{"steps not an array", `{"mcplab":1,"steps":{}}`, "steps", ErrType},
		{"steps null", `{"mcplab":1,"steps":null}`, "steps", ErrType},
		{"too many steps", doc("", manySteps(MaxSteps+1)), "steps", ErrLimit},
		{"step not an object", doc("", `1`), "steps[0]", ErrType},

		// wrong types and values at the top level
		{"title a number", doc(`"title":1`, ""), "title", ErrType},
		{"title too long", doc(`"title":"`+strings.Repeat("x", MaxTextLen+1)+`"`, ""), "title", ErrLimit},
		{"unknown protocol", doc(`"protocol":"2024-11-05"`, ""), "protocol", ErrValue},
		{"unknown transport", doc(`"transport":"sse"`, ""), "transport", ErrValue},
		{"latency not an object", doc(`"latencyMs":10`, ""), "latencyMs", ErrType},
		{"negative latency", doc(`"latencyMs":{"up":-1}`, ""), "latencyMs.up", ErrValue},
		{"latency a float", doc(`"latencyMs":{"down":1.5}`, ""), "latencyMs.down", ErrType},
		{"client null", doc(`"client":null`, ""), "client", ErrType},
		{"client id empty", doc(`"client":{"id":""}`, ""), "client.id", ErrValue},
		{"policy bool a string", doc(`"client":{"policy":{"progressResetsMax":"yes"}}`, ""), "client.policy.progressResetsMax", ErrType},
		{"unknown httpCancel value", doc(`"transport":"streamable-http","client":{"policy":{"httpCancel":"shout"}}`, ""), "client.policy.httpCancel", ErrValue},
		{"server policy bool a number", doc(`"server":{"policy":{"respondAfterCancel":1}}`, ""), "server.policy.respondAfterCancel", ErrType},

		// unknown fields (a typo must not silently change a lesson)
		{"unknown top-level field", doc(`"titel":"x"`, ""), "titel", ErrUnknown},
		{"unknown nested field: latency", doc(`"latencyMs":{"upp":10}`, ""), "latencyMs.upp", ErrUnknown},
		{"unknown nested field: client", doc(`"client":{"idleTimeout":500}`, ""), "client.idleTimeout", ErrUnknown},
		{"unknown nested field: client.policy", doc(`"client":{"policy":{"httpCancle":"close-stream"}}`, ""), "client.policy.httpCancle", ErrUnknown},
		{"unknown nested field: server.policy", doc(`"server":{"policy":{"respondAfterCancle":true}}`, ""), "server.policy.respondAfterCancle", ErrUnknown},
		{"unknown nested field: server", doc(`"server":{"keepalive":100}`, ""), "server.keepalive", ErrUnknown},
		{"unknown step field", doc("", `{"at":0,"do":"call","id":7,"nmae":"crunch"}`), "steps[0].nmae", ErrUnknown},
		{"field not allowed for the verb: cancel with progress", doc("", call7+`,{"at":1,"do":"cancel","id":7,"progress":1}`), "steps[1].progress", ErrUnknown},
		{"field not allowed for the verb: complete with reason", doc("", call7+`,{"at":1,"do":"complete","id":7,"reason":"x"}`), "steps[1].reason", ErrUnknown},
		{"field not allowed for the verb: send with id", doc("", call7+`,{"at":1,"do":"send","id":7,"message":{}}`), "steps[1].id", ErrUnknown},

		// verbs and step members
		{"unknown verb", doc("", `{"at":0,"do":"abort","id":7}`), "steps[0].do", ErrValue},
		{"verb not a string", doc("", `{"at":0,"do":1}`), "steps[0].do", ErrType},
		{"missing do", doc("", `{"at":0,"id":7}`), "steps[0].do", ErrMissing},
		{"missing at", doc("", `{"do":"call","id":7}`), "steps[0].at", ErrMissing},
		{"negative at", doc("", call7+`,{"at":-1,"do":"cancel","id":7}`), "steps[1].at", ErrValue},
		{"at a float", doc("", `{"at":1.5,"do":"call","id":7}`), "steps[0].at", ErrType},
		{"at a string", doc("", `{"at":"0","do":"call","id":7}`), "steps[0].at", ErrType},
		{"at past the virtual duration limit", doc("", fmt.Sprintf(`{"at":%d,"do":"call","id":7}`, MaxDurationMs+1)), "steps[0].at", ErrLimit},
		{"call without id", doc("", `{"at":0,"do":"call"}`), "steps[0].id", ErrMissing},
		{"id a bool", doc("", `{"at":0,"do":"call","id":true}`), "steps[0].id", ErrBadID},
		{"id a float", doc("", `{"at":0,"do":"call","id":7.5}`), "steps[0].id", ErrBadID},
		{"id null", doc("", `{"at":0,"do":"call","id":null}`), "steps[0].id", ErrBadID},
		{"progressToken an object", doc("", `{"at":0,"do":"call","id":7,"progressToken":{}}`), "steps[0].progressToken", ErrBadID},
		{"arguments not an object", doc("", `{"at":0,"do":"call","id":7,"arguments":[1]}`), "steps[0].arguments", ErrType},
		{"send without message", doc("", `{"at":0,"do":"send"}`), "steps[0].message", ErrMissing},
		{"send from an unknown side", doc("", `{"at":0,"do":"send","from":"proxy","message":{}}`), "steps[0].from", ErrValue},
		{"progress without a value", doc("", call7+`,{"at":1,"do":"progress","id":7}`), "steps[1].progress", ErrMissing},
		{"progress value a string", doc("", call7+`,{"at":1,"do":"progress","id":7,"progress":"1"}`), "steps[1].progress", ErrType},
		{"fail without code", doc("", call7+`,{"at":1,"do":"fail","id":7,"message":"x"}`), "steps[1].code", ErrMissing},

		// request ids
		{"id used before its call: no such call", doc("", call7+`,{"at":1,"do":"cancel","id":8}`), "steps[1].id", ErrUnknownID},
		{"id used before its call: call comes later in the file", doc("", `{"at":0,"do":"cancel","id":7},`+call7), "steps[0].id", ErrUnknownID},
		{"id used before its call: at an earlier time", doc("", `{"at":100,"do":"call","id":7},{"at":50,"do":"complete","id":7}`), "steps[1].at", ErrValue},
		{"7 and \"7\" are different ids", doc("", call7+`,{"at":1,"do":"cancel","id":"7"}`), "steps[1].id", ErrUnknownID},
		{"duplicate call id", doc("", call7+`,{"at":5,"do":"call","id":7}`), "steps[1].id", ErrValue},
		{"retry of an unknown call", doc("", call7+`,{"at":5,"do":"retry","id":8,"of":9}`), "steps[1].of", ErrUnknownID},
		{"retry reusing an id", doc("", call7+`,{"at":5,"do":"retry","id":7,"of":7}`), "steps[1].id", ErrValue},

		// timeouts (DOMAIN.md §2: idle > 0, max >= idle)
		{"client maxTimeoutMs < idleTimeoutMs", doc(`"client":{"idleTimeoutMs":500,"maxTimeoutMs":400}`, ""), "client.maxTimeoutMs", ErrValue},
		{"call maxTimeoutMs < idleTimeoutMs", doc("", `{"at":0,"do":"call","id":7,"idleTimeoutMs":500,"maxTimeoutMs":499}`), "steps[0].maxTimeoutMs", ErrValue},
		{"call maxTimeoutMs < client idleTimeoutMs", doc(`"client":{"idleTimeoutMs":500}`, `{"at":0,"do":"call","id":7,"maxTimeoutMs":100}`), "steps[0].maxTimeoutMs", ErrValue},
		{"call idleTimeoutMs > client maxTimeoutMs", doc(`"client":{"maxTimeoutMs":500}`, `{"at":0,"do":"call","id":7,"idleTimeoutMs":600}`), "steps[0].maxTimeoutMs", ErrValue},
		{"client idleTimeoutMs 0", doc(`"client":{"idleTimeoutMs":0}`, ""), "client.idleTimeoutMs", ErrValue},
		{"client maxTimeoutMs 0", doc(`"client":{"maxTimeoutMs":0}`, ""), "client.maxTimeoutMs", ErrValue},
		{"call idleTimeoutMs 0", doc("", `{"at":0,"do":"call","id":7,"idleTimeoutMs":0}`), "steps[0].idleTimeoutMs", ErrValue},
		{"negative idleTimeoutMs", doc(`"client":{"idleTimeoutMs":-500}`, ""), "client.idleTimeoutMs", ErrValue},

		// transport-specific members
		{"disconnect on stdio", doc("", call7+`,{"at":5,"do":"disconnect","id":7}`), "steps[1].do", ErrValue},
		{"keepaliveEveryMs on stdio", doc(`"server":{"keepaliveEveryMs":100}`, ""), "server.keepaliveEveryMs", ErrValue},
		{"keepaliveEveryMs 0 on HTTP", doc(`"transport":"streamable-http","server":{"keepaliveEveryMs":0}`, ""), "server.keepaliveEveryMs", ErrValue},

		// first error wins
		{"first error wins", doc("", `{"at":-1,"do":"call","id":7},{"at":0,"do":"nope"}`), "steps[0].at", ErrValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Decode([]byte(tt.in))
			if err == nil {
				t.Fatalf("Decode succeeded, want %v at %q", tt.want, tt.wantPath)
			}
			if s != nil {
				t.Errorf("Decode returned a partial scenario with its error")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not a *scenario.Error", err, err)
			}
			if e.Path != tt.wantPath || !errors.Is(err, tt.want) {
				t.Errorf("error %q: path %q, category match %v; want path %q, category %q", err, e.Path, errors.Is(err, tt.want), tt.wantPath, tt.want)
			}
			// The message names the place first, as `site run` prints it;
			// the version member's name quoted, so that it does not read
			// as the program's, and a document without it "not a scenario".
			prefix := tt.wantPath + ": "
			switch {
			case tt.wantPath == "mcplab" && tt.want == ErrMissing:
				prefix = `not a scenario: a scenario starts with "mcplab": 1`
			case tt.wantPath == "mcplab":
				prefix = `the "mcplab" member: `
			}
			if tt.wantPath != "" && !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("message %q does not start with %q", err, prefix)
			}
		})
	}
}

// TestDecodeErrorMessage pins the message of SCENARIO.md's example of bad
// input: a negative time reads "steps[3].at: must be >= 0".
func TestDecodeErrorMessage(t *testing.T) {
	in := doc("", call7+`,{"at":1,"do":"progress","id":7,"progress":1},{"at":2,"do":"complete","id":7},{"at":-5,"do":"cancel","id":7}`)
	_, err := Decode([]byte(in))
	if err == nil || err.Error() != "steps[3].at: must be >= 0" {
		t.Fatalf("err = %v, want steps[3].at: must be >= 0", err)
	}
}

// TestDecodeLimits proves the limits are inclusive: exactly MaxSteps steps
// and exactly MaxBytes bytes decode.
func TestDecodeLimits(t *testing.T) {
	if s, err := Decode([]byte(doc("", manySteps(MaxSteps)))); err != nil || len(s.Steps) != MaxSteps {
		t.Errorf("MaxSteps steps: err %v", err)
	}
	base := doc(`"notes":""`, "")
	pad := strings.Repeat(" ", MaxBytes-len(base))
	if _, err := Decode([]byte(base + pad)); err != nil {
		t.Errorf("exactly MaxBytes bytes: %v", err)
	}
	if _, err := Decode([]byte(base + pad + " ")); !errors.Is(err, ErrLimit) {
		t.Errorf("MaxBytes+1 bytes: err %v, want ErrLimit", err)
	}
}

// TestDecodeDefaults proves the normalized form (SCENARIO.md): defaults are
// filled in so the engine and the trace see one form. protocol 2026-07-28,
// transport stdio, client id "client-0", method tools/call, a raw send from
// the client; client.policy.httpCancel is the protocol's correct signal:
// close-stream under 2026-07-28, post-notification under 2025-11-25 HTTP
// (DOMAIN.md §1), unless set.
func TestDecodeDefaults(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, s *Scenario)
	}{
		{"minimal scenario", `{"mcplab":1,"steps":[]}`, func(t *testing.T, s *Scenario) {
			if s.Mcplab != 1 || s.Protocol != "2026-07-28" || s.Transport != "stdio" || s.Client.ID != "client-0" {
				t.Errorf("got mcplab %d protocol %q transport %q client %q", s.Mcplab, s.Protocol, s.Transport, s.Client.ID)
			}
			if s.LatencyMs != (Latency{}) || s.Client.IdleTimeoutMs != 0 || s.Client.MaxTimeoutMs != 0 {
				t.Errorf("latency %+v, timeouts %d/%d; want zero", s.LatencyMs, s.Client.IdleTimeoutMs, s.Client.MaxTimeoutMs)
			}
			if s.Client.Policy.ProgressResetsMax || s.Client.Policy.AcceptNonIncreasingProgress || s.Server.Policy.RespondAfterCancel {
				t.Errorf("a policy defaults to the broken behaviour: %+v %+v", s.Client.Policy, s.Server.Policy)
			}
			if s.Steps == nil || len(s.Steps) != 0 {
				t.Errorf("steps = %#v, want empty, not nil (encodes as [])", s.Steps)
			}
		}},
		{"HTTP 2026-07-28: httpCancel close-stream", doc(`"transport":"streamable-http"`, ""), func(t *testing.T, s *Scenario) {
			if s.Client.Policy.HTTPCancel != HTTPCancelCloseStream {
				t.Errorf("httpCancel = %q, want close-stream", s.Client.Policy.HTTPCancel)
			}
		}},
		{"HTTP 2025-11-25: httpCancel post-notification", doc(`"transport":"streamable-http","protocol":"2025-11-25"`, ""), func(t *testing.T, s *Scenario) {
			if s.Client.Policy.HTTPCancel != HTTPCancelPostNotification {
				t.Errorf("httpCancel = %q, want post-notification", s.Client.Policy.HTTPCancel)
			}
		}},
		{"HTTP 2025-11-25: explicit httpCancel kept", doc(`"transport":"streamable-http","protocol":"2025-11-25","client":{"policy":{"httpCancel":"close-stream"}}`, ""), func(t *testing.T, s *Scenario) {
			if s.Client.Policy.HTTPCancel != HTTPCancelCloseStream {
				t.Errorf("httpCancel = %q, want close-stream", s.Client.Policy.HTTPCancel)
			}
		}},
		{"HTTP 2026-07-28: explicit httpCancel kept", doc(`"transport":"streamable-http","client":{"policy":{"httpCancel":"post-notification"}}`, ""), func(t *testing.T, s *Scenario) {
			if s.Client.Policy.HTTPCancel != HTTPCancelPostNotification {
				t.Errorf("httpCancel = %q, want post-notification", s.Client.Policy.HTTPCancel)
			}
		}},
		{"call method defaults to tools/call", doc("", call7+`,{"at":0,"do":"call","id":8,"method":"resources/read"}`), func(t *testing.T, s *Scenario) {
			if s.Steps[0].Method != "tools/call" || s.Steps[1].Method != "resources/read" {
				t.Errorf("methods %q, %q", s.Steps[0].Method, s.Steps[1].Method)
			}
		}},
		{"send defaults to from client", doc("", `{"at":0,"do":"send","message":{"jsonrpc":"2.0"}},{"at":0,"do":"send","from":"server","message":1}`), func(t *testing.T, s *Scenario) {
			if s.Steps[0].From != "client" || s.Steps[1].From != "server" {
				t.Errorf("from %q, %q", s.Steps[0].From, s.Steps[1].From)
			}
		}},
		{"7 and \"7\" are different ids", doc("", call7+`,{"at":0,"do":"call","id":"7"},{"at":1,"do":"cancel","id":"7"}`), func(t *testing.T, s *Scenario) {
			a, b, c := s.Steps[0].ID, s.Steps[1].ID, s.Steps[2].ID
			if a.Raw() != `7` || b.Raw() != `"7"` || c.Raw() != `"7"` || *a == *b {
				t.Errorf("ids %s, %s, %s", a, b, c)
			}
		}},
		{"ids kept exactly: string, integer, progress token", doc("", `{"at":0,"do":"call","id":"a-1","progressToken":41},{"at":0,"do":"call","id":-3,"progressToken":"p"}`), func(t *testing.T, s *Scenario) {
			if s.Steps[0].ID.Raw() != `"a-1"` || s.Steps[0].ProgressToken.Raw() != `41` || s.Steps[1].ID.Raw() != `-3` || s.Steps[1].ProgressToken.Raw() != `"p"` {
				t.Errorf("ids %s %s %s %s", s.Steps[0].ID, s.Steps[0].ProgressToken, s.Steps[1].ID, s.Steps[1].ProgressToken)
			}
		}},
		{"per-call timeouts and the client's", doc(`"client":{"idleTimeoutMs":500,"maxTimeoutMs":2000}`, `{"at":0,"do":"call","id":7,"maxTimeoutMs":3000}`), func(t *testing.T, s *Scenario) {
			if s.Client.IdleTimeoutMs != 500 || s.Client.MaxTimeoutMs != 2000 || s.Steps[0].MaxTimeoutMs == nil || *s.Steps[0].MaxTimeoutMs != 3000 || s.Steps[0].IdleTimeoutMs != nil {
				t.Errorf("client %+v step %+v", s.Client, s.Steps[0])
			}
		}},
		{"max == idle is allowed", doc(`"client":{"idleTimeoutMs":500,"maxTimeoutMs":500}`, ""), func(t *testing.T, s *Scenario) {}},
		{"steps kept in file order, equal times included", doc("", call7+`,{"at":300,"do":"cancel","id":7},{"at":300,"do":"complete","id":7},{"at":100,"do":"progress","id":7,"progress":1}`), func(t *testing.T, s *Scenario) {
			var got []string
			for _, st := range s.Steps {
				got = append(got, fmt.Sprintf("%d:%s", st.At, st.Do))
			}
			if fmt.Sprint(got) != "[0:call 300:cancel 300:complete 100:progress]" {
				t.Errorf("steps %v", got)
			}
		}},
		{"arguments and raw messages kept compact", doc("", `{"at":0,"do":"call","id":7,"arguments":{ "a" : [1, 2] }},{"at":0,"do":"send","message":{ "x" : 1 }}`), func(t *testing.T, s *Scenario) {
			if string(s.Steps[0].Arguments) != `{"a":[1,2]}` || string(s.Steps[1].Message) != `{"x":1}` {
				t.Errorf("arguments %s message %s", s.Steps[0].Arguments, s.Steps[1].Message)
			}
		}},
		{"the example of SCENARIO.md", scenarioMDExample, func(t *testing.T, s *Scenario) {
			if len(s.Steps) != 4 || s.LatencyMs != (Latency{10, 10}) || s.Client.IdleTimeoutMs != 500 || s.Client.MaxTimeoutMs != 2000 {
				t.Errorf("got %+v", s)
			}
			if r := s.Steps[2].Reason; r == nil || *r != "User closed the operation" {
				t.Errorf("cancel reason %v", r)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Decode([]byte(tt.in))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			tt.check(t, s)
		})
	}
}

// scenarioMDExample is the scenario printed in SCENARIO.md; the documented
// example must stay valid.
const scenarioMDExample = `{
  "mcplab": 1,
  "title": "Cancellation wins on stdio",
  "protocol": "2026-07-28",
  "transport": "stdio",
  "latencyMs": {"up": 10, "down": 10},
  "client": {"idleTimeoutMs": 500, "maxTimeoutMs": 2000},
  "steps": [
    {"at": 0,   "do": "call", "id": 7, "name": "crunch", "progressToken": "p-7"},
    {"at": 100, "do": "progress", "id": 7, "progress": 1, "total": 3},
    {"at": 300, "do": "cancel", "id": 7, "reason": "User closed the operation"},
    {"at": 320, "do": "complete", "id": 7, "result": {"content": []}}
  ]
}`

// TestIDJSON proves an ID encodes exactly as it was given and refuses
// anything but a string or an integer (SCENARIO.md: ids are a string or an
// integer, kept exactly as given).
func TestIDJSON(t *testing.T) {
	for _, in := range []string{`7`, `"7"`, `-12`, `"p-7"`, `""`} {
		var id ID
		if err := json.Unmarshal([]byte(in), &id); err != nil {
			t.Errorf("Unmarshal(%s): %v", in, err)
			continue
		}
		if out, _ := json.Marshal(id); string(out) != in {
			t.Errorf("round trip %s -> %s", in, out)
		}
	}
	for _, in := range []string{`7.5`, `true`, `null`, `{}`, `[7]`, `1e2`} {
		var id ID
		if err := json.Unmarshal([]byte(in), &id); !errors.Is(err, ErrBadID) {
			t.Errorf("Unmarshal(%s) err = %v, want ErrBadID", in, err)
		}
	}
	if NewIntID(7) == NewStringID("7") || NewIntID(7).Raw() != `7` || NewStringID("7").Raw() != `"7"` {
		t.Errorf("NewIntID(7) = %s, NewStringID(\"7\") = %s", NewIntID(7), NewStringID("7"))
	}
}

// TestStringIDKeepsMarkup: an id is shown as written (an id
// a<b&c> showed as "a\u003cb\u0026c\u003e"): NewStringID escapes what JSON
// requires (the quote, the backslash, control characters) and not <, >
// and &, and a decoded id written with <, > and &, raw or as \u escapes,
// reads back as the same text.
func TestStringIDKeepsMarkup(t *testing.T) {
	if got, want := NewStringID(`a<b&c> "q" \`).Raw(), `"a<b&c> \"q\" \\"`; got != want {
		t.Errorf("NewStringID = %s, want %s", got, want)
	}
	for _, in := range []string{`"a<b&c>"`, `"a\u003cb\u0026c\u003e"`} {
		sc, err := Decode([]byte(`{"mcplab": 1, "steps": [{"at": 0, "do": "call", "id": ` + in + `}]}`))
		if err != nil {
			t.Fatalf("Decode with id %s: %v", in, err)
		}
		if got := sc.Steps[0].ID.Raw(); got != `"a<b&c>"` {
			t.Errorf("id written %s reads back as %s, want \"a<b&c>\"", in, got)
		}
	}
}

// TestDecodeSkipsByteOrderMark: a file saved with a UTF-8 byte order mark
// (Notepad does) is the same scenario, with the same share link, not
// "invalid character 'ï'".
func TestDecodeSkipsByteOrderMark(t *testing.T) {
	plain := doc(``, call7)
	bom := "\xef\xbb\xbf" + plain
	want, err := Decode([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode([]byte(bom))
	if err != nil {
		t.Fatalf("Decode with a byte order mark: %v", err)
	}
	if a, b := fmt.Sprint(got), fmt.Sprint(want); a != b {
		t.Errorf("with a byte order mark: %s, without: %s", a, b)
	}
	l1, err1 := ShareFragment([]byte(plain))
	l2, err2 := ShareFragment([]byte(bom))
	if err1 != nil || err2 != nil || l1 != l2 {
		t.Errorf("share links differ with a byte order mark: %q (%v) vs %q (%v)", l2, err2, l1, err1)
	}
}

// TestDecodeEmpty (an empty playground editor said "invalid JSON:
// EOF"): an empty or blank document says it is empty and what a scenario
// is, still an ErrSyntax, at no place in particular.
func TestDecodeEmpty(t *testing.T) {
	for _, doc := range []string{"", " \n\t"} {
		_, err := Decode([]byte(doc))
		var se *Error
		want := `the scenario is empty: a scenario is a JSON object that starts with "mcplab": 1`
		if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) || err.Error() != want || se.Line != 0 {
			t.Errorf("Decode(%q) = %v; want an ErrSyntax *Error %q at no line", doc, err, want)
		}
	}
}

// TestLimitMessagesGroupDigits: the limits a scenario runs into are
// written with grouped digits ("1,048,576", as the command writes "4 MiB
// (4,194,304 bytes)"), and those texts are MaxBytes and MaxSteps.
func TestLimitMessagesGroupDigits(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {MaxSteps, "2,000"}, {123456, "123,456"}, {MaxBytes, "1,048,576"}} {
		if got := grouped(tc.n); got != tc.want {
			t.Errorf("grouped(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	_, err := Decode(bytes.Repeat([]byte(" "), MaxBytes+1))
	if want := "the scenario is over the limit of 1,048,576 bytes (1 MiB)"; err == nil || err.Error() != want {
		t.Errorf("a document of MaxBytes+1: %v, want %q", err, want)
	}
	steps := strings.Repeat(`{"at":0,"do":"ping"},`, MaxSteps+1)
	_, err = Decode([]byte(`{"mcplab":1,"steps":[` + strings.TrimSuffix(steps, ",") + `]}`))
	if want := "steps: more than 2,000 steps, the limit"; err == nil || err.Error() != want {
		t.Errorf("MaxSteps+1 steps: %v, want %q", err, want)
	}
}
