package coordinator

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestRequestRace proves the coordinator's rules for the cancel/complete
// race (DOMAIN.md §1, "The race: both orders are valid"): one terminal
// state; complete() after an accepted cancellation returns no response; a
// second complete() returns the same response; a cancellation after
// completion is refused.
func TestRequestRace(t *testing.T) {
	result := json.RawMessage(`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`)
	other := json.RawMessage(`{"jsonrpc":"2.0","id":7,"result":{"content":["other"]}}`)
	errResp := json.RawMessage(`{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"boom"}}`)

	type op struct {
		cancel   bool            // Cancel, else Complete
		at       int64           // virtual ms
		resp     json.RawMessage // Complete's response
		failed   bool            // Complete's failed flag
		wantOK   bool            // Cancel's accepted / Complete's fresh
		wantResp json.RawMessage // what Complete returns
	}
	tests := []struct {
		name      string
		ops       []op
		wantState State
		wantAt    int64
		wantResp  json.RawMessage
	}{
		{
			name: "cancellation wins: complete after cancel returns no response",
			ops: []op{
				{cancel: true, at: 300, wantOK: true},
				{at: 320, resp: result, wantOK: false, wantResp: nil},
			},
			wantState: Cancelled, wantAt: 300, wantResp: nil,
		},
		{
			name: "completion wins: cancel after complete is refused",
			ops: []op{
				{at: 100, resp: result, wantOK: true, wantResp: result},
				{cancel: true, at: 300, wantOK: false},
			},
			wantState: Completed, wantAt: 100, wantResp: result,
		},
		{
			name: "second complete returns the same response, not the new one",
			ops: []op{
				{at: 100, resp: result, wantOK: true, wantResp: result},
				{at: 200, resp: other, wantOK: false, wantResp: result},
				{at: 250, resp: errResp, failed: true, wantOK: false, wantResp: result},
			},
			wantState: Completed, wantAt: 100, wantResp: result,
		},
		{
			name: "a failure is one terminal state too: cancel refused, complete returns the error",
			ops: []op{
				{at: 100, resp: errResp, failed: true, wantOK: true, wantResp: errResp},
				{cancel: true, at: 150, wantOK: false},
				{at: 200, resp: result, wantOK: false, wantResp: errResp},
			},
			wantState: Failed, wantAt: 100, wantResp: errResp,
		},
		{
			name: "second cancel is refused and keeps the first time",
			ops: []op{
				{cancel: true, at: 300, wantOK: true},
				{cancel: true, at: 400, wantOK: false},
			},
			wantState: Cancelled, wantAt: 300, wantResp: nil,
		},
		{
			name:      "zero value is in progress",
			wantState: InProgress, wantAt: 0, wantResp: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Request
			for i, o := range tt.ops {
				if o.cancel {
					if got := r.Cancel(o.at); got != o.wantOK {
						t.Fatalf("op %d: Cancel(%d) = %v, want %v", i, o.at, got, o.wantOK)
					}
					continue
				}
				resp, fresh := r.Complete(o.at, o.resp, o.failed)
				if fresh != o.wantOK || string(resp) != string(o.wantResp) {
					t.Fatalf("op %d: Complete(%d) = (%s, %v), want (%s, %v)", i, o.at, resp, fresh, o.wantResp, o.wantOK)
				}
			}
			if r.State() != tt.wantState {
				t.Errorf("State() = %q, want %q", r.State(), tt.wantState)
			}
			if r.State().Terminal() != (tt.wantState != InProgress) {
				t.Errorf("Terminal() = %v for %q", r.State().Terminal(), r.State())
			}
			if r.At() != tt.wantAt {
				t.Errorf("At() = %d, want %d", r.At(), tt.wantAt)
			}
			if string(r.Response()) != string(tt.wantResp) {
				t.Errorf("Response() = %s, want %s", r.Response(), tt.wantResp)
			}
		})
	}
}

// TestRequestStoresACopy proves the stored response is the coordinator's
// own: the caller reusing its buffer cannot change what "a second complete()
// returns the same response" returns (DOMAIN.md §1).
func TestRequestStoresACopy(t *testing.T) {
	var r Request
	buf := []byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	r.Complete(10, buf, false)
	copy(buf, `XXXXXXXX`)
	if got, _ := r.Complete(20, nil, false); string(got) != `{"jsonrpc":"2.0","id":7,"result":{}}` {
		t.Fatalf("stored response changed with the caller's buffer: %s", got)
	}
}

// TestDeadlines proves the two clocks of DOMAIN.md §2 on the reference
// timeline (start 0, idle 500 ms, maximum 2000 ms, progress at 400, 800,
// 1200 ms): due-ness is inclusive, progress resets idle only, the maximum
// wins when both are due, and only the ProgressResetsMax policy (the known
// bug of §11) moves the maximum.
func TestDeadlines(t *testing.T) {
	ref := []int64{400, 800, 1200}
	flowing := []int64{400, 800, 1200, 1600, 1999}
	tests := []struct {
		name      string
		start     int64
		idle, max int64
		resetsMax bool
		progress  []int64
		now       int64
		wantDue   bool
		wantCause Cause
		wantNext  int64 // 0: no deadline
	}{
		{name: "reference: alive at 1500 (last progress 300 ms ago)", idle: 500, max: 2000, progress: ref, now: 1500, wantNext: 1700},
		{name: "reference: at 2000 both are due and the maximum wins", idle: 500, max: 2000, progress: ref, now: 2000, wantDue: true, wantCause: MaxTimeout, wantNext: 1700},
		{name: "maximum at 2000 even with progress at 1999", idle: 500, max: 2000, progress: flowing, now: 2000, wantDue: true, wantCause: MaxTimeout, wantNext: 2000},
		{name: "progress at 1999: nothing due at 1999", idle: 500, max: 2000, progress: flowing, now: 1999, wantNext: 2000},
		{name: "progress stops at 1200: idle due at 1700 (inclusive)", idle: 500, max: 2000, progress: ref, now: 1700, wantDue: true, wantCause: IdleTimeout, wantNext: 1700},
		{name: "progress stops at 1200: idle not due at 1699", idle: 500, max: 2000, progress: ref, now: 1699, wantNext: 1700},
		{name: "maximum inclusive at exactly start+max", start: 100, max: 2000, now: 2100, wantDue: true, wantCause: MaxTimeout, wantNext: 2100},
		{name: "maximum not due 1 ms before start+max", start: 100, max: 2000, now: 2099, wantNext: 2100},
		{name: "no progress: idle due at start+idle", start: 100, idle: 500, max: 2000, now: 600, wantDue: true, wantCause: IdleTimeout, wantNext: 600},
		{name: "ProgressResetsMax moves the maximum: not due at 2000", idle: 500, max: 2000, resetsMax: true, progress: flowing, now: 2000, wantNext: 2499},
		{name: "ProgressResetsMax: only idle stops it, at 2499", idle: 500, max: 2000, resetsMax: true, progress: flowing, now: 2499, wantDue: true, wantCause: IdleTimeout, wantNext: 2499},
		{name: "ProgressResetsMax without idle: maximum counted from the last progress", max: 2000, resetsMax: true, progress: []int64{1500}, now: 3499, wantNext: 3500},
		{name: "ProgressResetsMax without idle: due at last progress + max", max: 2000, resetsMax: true, progress: []int64{1500}, now: 3500, wantDue: true, wantCause: MaxTimeout, wantNext: 3500},
		{name: "without ProgressResetsMax progress never moves the maximum", max: 2000, progress: []int64{1500}, now: 2000, wantDue: true, wantCause: MaxTimeout, wantNext: 2000},
		{name: "both clocks off: never due, no next deadline", progress: ref, now: 1 << 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDeadlines(tt.start, tt.idle, tt.max, tt.resetsMax)
			for _, p := range tt.progress {
				d.Activity(p)
			}
			cause, due := d.Due(tt.now)
			if due != tt.wantDue || cause != tt.wantCause {
				t.Errorf("Due(%d) = (%q, %v), want (%q, %v)", tt.now, cause, due, tt.wantCause, tt.wantDue)
			}
			next, ok := d.Next()
			if ok != (tt.wantNext != 0) || next != tt.wantNext {
				t.Errorf("Next() = (%d, %v), want %d", next, ok, tt.wantNext)
			}
			if due {
				// Next is the earliest due time: due there, and nothing due 1 ms before.
				if _, early := d.Due(next - 1); early {
					t.Errorf("Due(%d) is true, before Next() = %d", next-1, next)
				}
			}
		})
	}
}

// TestCauseReason proves the cancellation reasons of DOMAIN.md §2: the
// client cancels with "idle timeout" or "maximum timeout".
func TestCauseReason(t *testing.T) {
	if got := IdleTimeout.Reason(); got != "idle timeout" {
		t.Errorf("IdleTimeout.Reason() = %q", got)
	}
	if got := MaxTimeout.Reason(); got != "maximum timeout" {
		t.Errorf("MaxTimeout.Reason() = %q", got)
	}
	if IdleTimeout != "idle-timeout" || MaxTimeout != "max-timeout" {
		t.Errorf("causes are %q, %q; SCENARIO.md names idle-timeout, max-timeout", IdleTimeout, MaxTimeout)
	}
}

// TestProgressStrictlyIncreases proves DOMAIN.md §3: progress must strictly
// increase per token; an equal or lower value is rejected and not recorded
// (so it cannot lower the bar for the next value); tokens are independent.
func TestProgressStrictlyIncreases(t *testing.T) {
	type push struct {
		key      string
		value    float64
		wantInc  bool
		wantLast float64
		wantSeen bool
	}
	tests := []struct {
		name   string
		pushes []push
	}{
		{"first value accepted, even zero", []push{{"a", 0, true, 0, false}}},
		{"increasing accepted", []push{{"a", 1, true, 0, false}, {"a", 2, true, 1, true}, {"a", 2.5, true, 2, true}}},
		{"equal rejected", []push{{"a", 1, true, 0, false}, {"a", 1, false, 1, true}}},
		{"lower rejected", []push{{"a", 2, true, 0, false}, {"a", 1, false, 2, true}}},
		{"a rejected value is not recorded", []push{{"a", 1, true, 0, false}, {"a", 5, true, 1, true}, {"a", 3, false, 5, true}, {"a", 4, false, 5, true}, {"a", 6, true, 5, true}}},
		{"tokens are independent", []push{{"a", 5, true, 0, false}, {"b", 1, true, 0, false}, {"a", 1, false, 5, true}, {"b", 2, true, 1, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Progress
			for i, ps := range tt.pushes {
				inc, last, seen := p.Accept(ps.key, ps.value)
				if inc != ps.wantInc || last != ps.wantLast || seen != ps.wantSeen {
					t.Fatalf("push %d: Accept(%q, %v) = (%v, %v, %v), want (%v, %v, %v)",
						i, ps.key, ps.value, inc, last, seen, ps.wantInc, ps.wantLast, ps.wantSeen)
				}
			}
		})
	}
}

// TestParseCancellation proves the server's validation of
// notifications/cancelled (DOMAIN.md §1): it ignores a cancellation that is
// malformed (wrong method, params not an object, requestId missing or not a
// string or an integer); a reason that is not a string does not invalidate
// an otherwise valid cancellation, it is treated as absent; ids keep their
// JSON type, so 7 and "7" differ.
func TestParseCancellation(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name       string
		msg        string
		wantErr    bool
		wantID     string
		wantReason *string
	}{
		{name: "wrong method", msg: `{"jsonrpc":"2.0","method":"notifications/progress","params":{"requestId":7}}`, wantErr: true},
		{name: "no method", msg: `{"jsonrpc":"2.0","params":{"requestId":7}}`, wantErr: true},
		{name: "not an object", msg: `[1,2]`, wantErr: true},
		{name: "not JSON", msg: `{"method":`, wantErr: true},
		{name: "params missing", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled"}`, wantErr: true},
		{name: "params null", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":null}`, wantErr: true},
		{name: "params an array", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":[7]}`, wantErr: true},
		{name: "params a string", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":"7"}`, wantErr: true},
		{name: "requestId missing", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"x"}}`, wantErr: true},
		{name: "requestId a bool", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":true}}`, wantErr: true},
		{name: "requestId a float", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7.5}}`, wantErr: true},
		{name: "requestId an object", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"id":7}}}`, wantErr: true},
		{name: "requestId an array", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[7]}}`, wantErr: true},
		{name: "requestId null", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}`, wantErr: true},
		{name: "valid integer id with reason", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41,"reason":"User closed the operation"}}`, wantID: `41`, wantReason: str("User closed the operation")},
		{name: "valid negative integer id", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":-3}}`, wantID: `-3`},
		{name: "valid string id", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"abc"}}`, wantID: `"abc"`},
		{name: "string \"7\" is not integer 7", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7"}}`, wantID: `"7"`},
		{name: "empty reason is a reason", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":""}}`, wantID: `7`, wantReason: str("")},
		{name: "non-string reason (number) treated as absent, still valid", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":42}}`, wantID: `7`},
		{name: "non-string reason (object) treated as absent, still valid", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":{"text":"x"}}}`, wantID: `7`},
		{name: "null reason treated as absent, still valid", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a","reason":null}}`, wantID: `"a"`},
		{name: "no jsonrpc member still parses (method decides)", msg: `{"method":"notifications/cancelled","params":{"requestId":7}}`, wantID: `7`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCancellation(json.RawMessage(tt.msg))
			if tt.wantErr {
				if !errors.Is(err, ErrMalformedCancel) {
					t.Fatalf("err = %v, want ErrMalformedCancel (parsed %+v)", err, c)
				}
				if c != (Cancellation{}) {
					t.Errorf("a malformed cancellation returned %+v, want the zero value", c)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v, want a valid cancellation", err)
			}
			if c.RequestID != tt.wantID {
				t.Errorf("RequestID = %s, want %s", c.RequestID, tt.wantID)
			}
			switch {
			case tt.wantReason == nil && c.Reason != nil:
				t.Errorf("Reason = %q, want absent", *c.Reason)
			case tt.wantReason != nil && (c.Reason == nil || *c.Reason != *tt.wantReason):
				t.Errorf("Reason = %v, want %q", c.Reason, *tt.wantReason)
			}
		})
	}
}

// TestIDText proves ids and tokens from the wire compare exactly as the
// scenario writes them (SCENARIO.md: 7 and "7" are different requests) and
// that only strings and integers are ids.
func TestIDText(t *testing.T) {
	tests := []struct {
		raw    string
		want   string
		wantOK bool
	}{
		{`7`, `7`, true},
		{` 7 `, `7`, true},
		{`"7"`, `"7"`, true},
		{`"p-7"`, `"p-7"`, true},
		{`"\u0070-7"`, `"p-7"`, true},
		{`-1`, `-1`, true},
		{`7.5`, "", false},
		{`true`, "", false},
		{`null`, "", false},
		{`{}`, "", false},
		{`[]`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := IDText(json.RawMessage(tt.raw))
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("IDText(%s) = (%q, %v), want (%q, %v)", tt.raw, got, ok, tt.want, tt.wantOK)
		}
	}
}

// DOMAIN.md §2: the maximum counts from the start unless progressResetsMax
// moved it; the idle clock from the last valid progress.
func TestTimeoutNoteSaysWhichClock(t *testing.T) {
	d := NewDeadlines(100, 300, 1000, false)
	d.Activity(400)
	if got, want := d.TimeoutNote(MaxTimeout, 1100), "Maximum timeout: 1000 ms since the request started at 100 (limit 1000 ms); progress never resets it."; got != want {
		t.Errorf("max: %q; want %q", got, want)
	}
	if got, want := d.TimeoutNote(IdleTimeout, 700), "Idle timeout: no valid progress for 300 ms (since 400; limit 300 ms)."; got != want {
		t.Errorf("idle: %q; want %q", got, want)
	}
}

// DOMAIN.md §3: the server sends no progress without a token or after the
// final response; the client counts only strictly increasing values as
// activity unless policy acceptNonIncreasingProgress.
func TestProgressSendAndArrive(t *testing.T) {
	var srv, cli Progress
	if send, _ := srv.Send("1", 1, InProgress, false, false, false); send {
		t.Error("progress without a token was sent")
	}
	if send, _ := srv.Send("1", 1, Completed, true, false, false); send {
		t.Error("progress after completion was sent")
	}
	if send, _ := srv.Send("1", 1, Cancelled, true, false, true); !send {
		t.Error("respondAfterCancel: progress after the cancellation was not sent")
	}
	if act, _ := cli.Arrive("1", 2, false, false, Deadlines{}); !act {
		t.Error("increasing progress was not activity")
	}
	if act, _ := cli.Arrive("1", 2, false, false, Deadlines{}); act {
		t.Error("repeated progress was activity")
	}
	if act, _ := cli.Arrive("1", 1, true, false, Deadlines{}); !act {
		t.Error("acceptNonIncreasingProgress: stale progress was not activity")
	}
	if act, _ := cli.Arrive("1", 9, false, true, Deadlines{}); act {
		t.Error("ignoreProgress: valid progress was activity")
	}
}

// DOMAIN.md §2–3 (scenario A's timeline said progress reset an idle
// clock its request does not have): valid progress is activity whatever
// the request's clocks, and its note names only the clocks the request
// has.
func TestProgressNoteNamesOnlyTheRequestsClocks(t *testing.T) {
	for _, c := range []struct {
		idle, max int64
		want      string
	}{
		{400, 2000, "Progress 1 resets request 7's idle clock; the maximum deadline stays."},
		{400, 0, "Progress 1 resets request 7's idle clock."},
		{0, 2000, "Progress 1 is activity for request 7, which has no idle timeout to reset; the maximum deadline stays."},
		{0, 0, "Progress 1 is activity for request 7, which has no idle or maximum timeout: no clock to reset."},
	} {
		var cli Progress
		act, note := cli.Arrive("7", 1, false, false, NewDeadlines(0, c.idle, c.max, false))
		if !act || note != c.want {
			t.Errorf("idle %d ms, max %d ms: activity %v, note %q; want true and %q", c.idle, c.max, act, note, c.want)
		}
	}
}
