package mock

// Tests of a run of `mcplab mock` (Play) alone: a scripted client speaks
// to it on stdio and on Streamable HTTP, in both eras, and the engine's
// checks judge the transcript it writes (Judge). The handler works 300 ms with progress every
// 100 ms, so each case takes under a second.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/site/internal/peertest"
)

// mockScenario is the server half the tests play: "slow" works 300 ms,
// progress every 100 ms (updates 1 and 2 of 2).
const mockScenario = `{"mcplab":1,"steps":[],"server":{"handlers":{"slow":{"workMs":300,"progressEveryMs":100}}}}`

// play runs a Play of mockScenario with transcript directory dir, on
// stdio (in, out) or, with ln, on Streamable HTTP, and returns Run's
// error.
func play(ctx context.Context, t *testing.T, dir string, ln net.Listener, in io.Reader, out io.Writer, log io.Writer, ready func(string)) error {
	sc, err := scenario.Decode([]byte(mockScenario))
	if err != nil {
		t.Error(err)
		return err
	}
	p := &Play{Scenario: sc, Protocol: ProtocolAuto, Listener: ln, Stdin: in, Stdout: out, Log: log, Dir: dir, Name: "mock", Ready: ready}
	_, _, err = p.Run(ctx)
	return err
}

// judge has the engine's checks judge a transcript (Judge) and returns
// their verdicts by rule: "pass", "FAIL" or "?".
func judge(t *testing.T, file string) map[string]string {
	t.Helper()
	tr, err := Judge(file, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{}
	for _, c := range tr.Checks {
		switch {
		case c.OK == nil:
			verdicts[string(c.Rule)] = "?"
		case *c.OK:
			verdicts[string(c.Rule)] = "pass"
		default:
			verdicts[string(c.Rule)] = "FAIL"
		}
	}
	return verdicts
}

// TestPlayStdio: a client on the mock's stdin/stdout, in each era, calls
// the slow tool with a progress token and cancels one call; the mock
// answers with the era's wire, sends progress 1 and 2 of 2, stops the
// cancelled handler at once (no checkpoints: the moment it arrives) with
// no response, and its transcript passes the engine's rules of the wire
// (work-stops-after-cancel is undecided: the log has no handler events).
func TestPlayStdio(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, era string
		requests  []string // the client's requests before the calls
		meta      string   // what each request's params carry in _meta
	}{
		{"2025-11-25 initialize", "2025-11-25", []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`}, `"progressToken":"p%d"`},
		{"2026-07-28 _meta", "2026-07-28", []string{
			`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`},
			`"progressToken":"p%d","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			var stderr peertest.Buffer
			done := make(chan error, 1)
			go func() {
				done <- play(context.Background(), t, dir, nil, inR, outW, &stderr, nil)
				outW.Close()
			}()
			lines := bufio.NewScanner(outR)
			read := func() map[string]any {
				if !lines.Scan() {
					t.Fatalf("the mock's output ended; stderr:\n%s", stderr.String())
				}
				var m map[string]any
				if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
					t.Fatalf("not JSON: %s", lines.Text())
				}
				return m
			}
			for _, r := range tc.requests {
				io.WriteString(inW, r+"\n")
				if strings.Contains(r, `"id"`) {
					read()
				}
			}
			call := func(id int) string {
				meta := strings.ReplaceAll(tc.meta, "%d", string(rune('0'+id)))
				return `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{` + meta + `}}}` + "\n"
			}
			io.WriteString(inW, call(2))
			var got []string
			for {
				m := read()
				if m["method"] == "notifications/progress" {
					p := m["params"].(map[string]any)
					got = append(got, jsonText(p["progress"])+"/"+jsonText(p["total"]))
					continue
				}
				res := m["result"].(map[string]any)
				if tc.era == "2026-07-28" && res["resultType"] != "complete" {
					t.Errorf("2026-07-28 result without resultType complete: %v", m)
				}
				if tc.era == "2025-11-25" && res["resultType"] != nil {
					t.Errorf("2025-11-25 result with resultType: %v", m)
				}
				break
			}
			if strings.Join(got, " ") != "1/2 2/2" {
				t.Errorf("progress before the result = %v, want 1/2 2/2 (every 100 ms of a 300 ms handler)", got)
			}
			io.WriteString(inW, call(3))
			read() // progress 1 at 100 ms
			io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"t"}}`+"\n")
			time.Sleep(350 * time.Millisecond) // past the handler's end: nothing more may come
			inW.Close()
			if lines.Scan() {
				t.Errorf("the mock wrote after the cancellation: %s", lines.Text())
			}
			go io.Copy(io.Discard, outR) // whatever else it writes: the mock is not left blocked on its output
			if err := <-done; err != nil {
				t.Fatalf("mock: %v\n%s", err, stderr.String())
			}
			file := filepath.Join(dir, "mock.jsonl")
			head, _ := os.ReadFile(file)
			if want := `{"observer":"server","transport":"stdio","protocol":"` + tc.era + `"}`; !strings.HasPrefix(string(head), want) {
				t.Errorf("transcript header = %.90s, want %s", head, want)
			}
			v := judge(t, file)
			for _, rule := range []string{"no-message-after-cancel", "progress-increases", "no-progress-after-final", "message-valid"} {
				if v[rule] != "pass" {
					t.Errorf("%s = %q, want pass (all: %v)", rule, v[rule], v)
				}
			}
			// The transcript records the wire, not the handler's work: the
			// cancellation reached the mock, but whether its handler stopped
			// at a checkpoint is not in the log, so the rule is undecided.
			if w := v["work-stops-after-cancel"]; w != "?" {
				t.Errorf("work-stops-after-cancel = %q, want ? (undecided: the server's log has no handler events; all: %v)", w, v)
			}
		})
	}
}

// jsonText is a decoded JSON number as text.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestPlayHTTP: on Streamable HTTP (2025-11-25) the mock serves /mcp on a
// loopback port, gives a session at initialize, answers a call on an SSE
// stream with the SSE headers (progress then the result), refuses a
// request without the session, and ends on DELETE with its transcript
// judged: the server's stream start carries X-Accel-Buffering: no.
func TestPlayHTTP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	var stderr peertest.Buffer
	done := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() {
		done <- play(ctx, t, dir, ln, nil, nil, &stderr, func(u string) { urls <- u })
	}()
	url := <-urls
	post := func(body, session string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "")
	session := resp.Header.Get("Mcp-Session-Id")
	resp.Body.Close()
	if session == "" {
		t.Fatalf("initialize: no Mcp-Session-Id (status %d)", resp.StatusCode)
	}
	if r := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session); r.StatusCode != http.StatusAccepted {
		t.Errorf("a notification: status %d, want 202", r.StatusCode)
	}
	if r := post(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`, "unknown"); r.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown session: status %d, want 404", r.StatusCode)
	}
	resp = post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":7}}}`, session)
	if ct, xa := resp.Header.Get("Content-Type"), resp.Header.Get("X-Accel-Buffering"); ct != "text/event-stream" || xa != "no" {
		t.Errorf("call stream headers: Content-Type %q, X-Accel-Buffering %q; want text/event-stream, no", ct, xa)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if n := strings.Count(string(body), "notifications/progress"); n != 2 || !strings.Contains(string(body), `"id":2,"result"`) {
		t.Errorf("call stream: %d progress events and the result wanted 2 and 1:\n%s", n, body)
	}
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Mcp-Session-Id", session)
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %v %v", r, err)
	}
	if err := <-done; err != nil {
		t.Fatalf("mock: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "DELETE") {
		t.Errorf("the mock did not say the client left with DELETE:\n%s", stderr.String())
	}
	v := judge(t, filepath.Join(dir, "mock.jsonl"))
	for _, rule := range []string{"sse-headers", "progress-increases", "initialized-before-requests"} {
		if v[rule] != "pass" {
			t.Errorf("%s = %q, want pass (all: %v)", rule, v[rule], v)
		}
	}
}
