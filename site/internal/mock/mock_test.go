package mock

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
)

// exchange runs a mock of sc on stdio: it sends the 2025-11-25 handshake
// and then a tools/call of "slow" (id 2, progress token 2), a cancellation
// of it cancelAt ms later when cancelAt > 0, and a second call (id 3) at
// once when second; it returns what the mock wrote, as "progress N",
// "result ID", "error ID CODE", in order, until quiet ms pass with nothing.
func exchange(t *testing.T, sc string, q Quirks, cancelAt int, second bool, quiet time.Duration) ([]string, time.Duration) {
	t.Helper()
	s, err := scenario.Decode([]byte(sc))
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	m := &Server{Scenario: s, Protocol: ProtocolAuto, Quirks: q, Rec: live.NewRecorder(live.Header{Observer: trace.ObserverServer})}
	done := make(chan struct{})
	go func() {
		m.Serve(context.Background(), inR, outW)
		outW.Close()
		close(done)
	}()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	<-lines
	call := func(id string) {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":`+id+`}}}`+"\n")
	}
	start := time.Now()
	var first time.Duration // when the mock's first message about the calls came
	call("2")
	if second {
		call("3")
	}
	if cancelAt > 0 {
		time.Sleep(time.Duration(cancelAt) * time.Millisecond)
		io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`+"\n")
	}
	var got []string
	for {
		select {
		case l := <-lines:
			if got = append(got, describe(l)); len(got) == 1 {
				first = time.Since(start)
			}
			continue
		case <-time.After(quiet):
		}
		break
	}
	inW.Close()
	<-done
	return got, first
}

// describe names one message of the mock's.
func describe(l string) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress float64         `json:"progress"`
		} `json:"params"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal([]byte(l), &m)
	switch {
	case m.Method != "":
		return "progress " + string(m.Params.Token) + ":" + strings.TrimSuffix(strings.TrimSuffix(jsonNum(m.Params.Progress), ".0"), "")
	case m.Error != nil:
		return "error " + string(m.ID) + " " + jsonNum(float64(m.Error.Code))
	}
	return "result " + string(m.ID)
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// The server switches the mock plays (SCENARIO.md, "Handlers" and its
// table of server switches), each against what the correct server does.
// The handler works 900 ms with progress every 300 ms (1 and 2 of 2); the
// client cancels call 2 at 450 ms where a case says so. The times are wide
// so that a loaded machine (the mock runs in real time) keeps their order.
func TestServerSwitches(t *testing.T) {
	t.Parallel()
	const slow = `"slow":{"workMs":900,"progressEveryMs":300`
	cases := []struct {
		name     string
		sc       string
		q        Quirks
		cancelAt int
		second   bool
		want     string
		firstMs  int // the first message comes no sooner (ms)
	}{
		{"a call completes with its progress (correct)",
			`{"mcplab":1,"steps":[],"server":{"handlers":{` + slow + `}}}}`, Quirks{}, 0, false, "progress 2:1, progress 2:2, result 2", 90},
		{"a cancelled handler stops at once, no response (no checkpoints)",
			`{"mcplab":1,"steps":[],"server":{"handlers":{` + slow + `}}}}`, Quirks{}, 450, false, "progress 2:1", 0},
		{"checkpoints every 750 ms: it works on past progress 2 at 600 ms and stops at 750 ms",
			`{"mcplab":1,"steps":[],"server":{"handlers":{` + slow + `,"checkpointEveryMs":750}}}}`, Quirks{}, 450, false, "progress 2:1, progress 2:2", 0},
		{"respondAfterCancel: the stopped handler answers with its error",
			`{"mcplab":1,"steps":[],"server":{"policy":{"respondAfterCancel":true},"handlers":{` + slow + `}}}}`, Quirks{}, 450, false, "progress 2:1, error 2 -32603", 0},
		{"handlerIgnoresCancel with respondAfterCancel: works to the end and answers",
			`{"mcplab":1,"steps":[],"server":{"policy":{"handlerIgnoresCancel":true,"respondAfterCancel":true},"handlers":{` + slow + `}}}}`, Quirks{}, 450, false, "progress 2:1, progress 2:2, result 2", 0},
		{"holdNotifications: progress only when the handler returns",
			`{"mcplab":1,"steps":[],"server":{"policy":{"holdNotifications":true},"handlers":{` + slow + `}}}}`, Quirks{}, 0, false, "progress 2:1, progress 2:2, result 2", 870},
		{"holds a resource: the second call waits for the first",
			`{"mcplab":1,"steps":[],"server":{"handlers":{` + slow + `,"holds":"db"}}}}`, Quirks{}, 0, true, "progress 2:1, progress 2:2, result 2, progress 3:1, progress 3:2, result 3", 0},
		{"releaseOnCancel false: a cancelled holder keeps the resource, the second call never starts",
			`{"mcplab":1,"steps":[],"server":{"policy":{"releaseOnCancel":false},"handlers":{` + slow + `,"holds":"db"}}}}`, Quirks{}, 450, true, "progress 2:1", 0},
		{"releaseOnCancel (default): the second call starts when the first is cancelled",
			`{"mcplab":1,"steps":[],"server":{"handlers":{` + slow + `,"holds":"db"}}}}`, Quirks{}, 450, true, "progress 2:1, progress 3:1, progress 3:2, result 3", 0},
		{"ProgressAfterFinal: one progress more after the result",
			`{"mcplab":1,"steps":[],"server":{"handlers":{` + slow + `}}}}`, Quirks{ProgressAfterFinal: true}, 0, false, "progress 2:1, progress 2:2, result 2, progress 2:3", 0},
		{"LoseResponse: the work is done, the response never comes",
			`{"mcplab":1,"steps":[],"server":{"handlers":{` + slow + `}}}}`, Quirks{LoseResponse: true}, 0, false, "progress 2:1, progress 2:2", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			msgs, first := exchange(t, c.sc, c.q, c.cancelAt, c.second, 1500*time.Millisecond)
			if got := strings.Join(msgs, ", "); got != c.want {
				t.Errorf("the mock wrote %q, want %q", got, c.want)
			}
			if first < time.Duration(c.firstMs)*time.Millisecond {
				t.Errorf("its first message came at %v, want no sooner than %d ms (held until the handler returns)", first, c.firstMs)
			}
		})
	}
}

// Rule: a tool's description says what its handler does, naming progress
// and checkpoints only when the handler has them ("progress every 0 ms"
// read as a promise).
func TestToolDescription(t *testing.T) {
	for _, tc := range []struct {
		work, progress, checkpoint int64
		want                       string
	}{
		{800, 0, 0, "Works 800 ms."},
		{1200, 100, 0, "Works 1200 ms (progress every 100 ms)."},
		{1200, 100, 50, "Works 1200 ms (progress every 100 ms, checkpoints every 50 ms)."},
		{300, 0, 100, "Works 300 ms (checkpoints every 100 ms)."},
	} {
		if got := toolDescription(tc.work, tc.progress, tc.checkpoint); got != tc.want {
			t.Errorf("toolDescription(%d, %d, %d) = %q, want %q", tc.work, tc.progress, tc.checkpoint, got, tc.want)
		}
	}
}
