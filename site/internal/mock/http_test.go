package mock

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/live"
)

// httpMock serves a mock of q on a loopback port; it returns its URL, its
// recorder and a stop function.
func httpMock(t *testing.T, q Quirks) (string, *live.Recorder, func()) {
	t.Helper()
	sc, err := scenario.Decode([]byte(`{"mcplab":1,"steps":[],"server":{"handlers":{"slow":{"workMs":300}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rec := live.NewRecorder(live.Header{Observer: trace.ObserverServer, Transport: scenario.TransportHTTP})
	m := &Server{Scenario: sc, Protocol: ProtocolAuto, Quirks: q, Rec: rec}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.HTTP(ctx, ln); close(done) }()
	return "http://" + ln.Addr().String() + Path, rec, func() { stop(); <-done }
}

// do sends one HTTP request of session sid and reads its whole answer.
func do(t *testing.T, method, url, sid, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if sid != "" {
		req.Header.Set(jsonrpc.HeaderSessionID, sid)
	}
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return 0, err.Error() // a broken connection
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if s := resp.Header.Get(jsonrpc.HeaderSessionID); s != "" {
		return resp.StatusCode, s
	}
	return resp.StatusCode, string(b)
}

// events lists the transcript's event lines as "actor type[ status]".
func events(rec *live.Recorder) string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(rec.Bytes())), "\n")[1:] {
		var e struct {
			Actor, Type string
			Status      int
			ID          json.RawMessage
		}
		json.Unmarshal([]byte(l), &e)
		if e.Actor == "" {
			continue
		}
		s := e.Actor + " " + e.Type
		if e.Status != 0 {
			s += " " + jsonNum(float64(e.Status))
		}
		if len(e.ID) > 0 {
			s += " id " + string(e.ID)
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// What the mock records of a session's streams over HTTP (SCENARIO.md,
// Live: listen-dropped, session-retired), as engine/transcript's event
// lines: the listen stream's start, its break under both sides, the
// client's reconnects, the 503 that refuses the first, and a retired
// session's 404 naming the request it refused.
func TestHTTPEventsRecorded(t *testing.T) {
	t.Parallel()
	t.Run("listen-dropped", func(t *testing.T) {
		t.Parallel()
		url, rec, stop := httpMock(t, Quirks{DropListenMs: 50, RefuseReconnects: 1})
		_, sid := do(t, http.MethodPost, url, "", initBody)
		do(t, http.MethodGet, url, sid, "") // broken at 50 ms
		if code, _ := do(t, http.MethodGet, url, sid, ""); code != http.StatusServiceUnavailable {
			t.Errorf("the first reconnect got %d, want 503", code)
		}
		go do(t, http.MethodGet, url, sid, "") // accepted, open until the mock stops
		want := "server start, network close-stream, client reconnect, server reject 503, client reconnect, server start"
		for end := time.Now().Add(5 * time.Second); events(rec) != want && time.Now().Before(end); {
			time.Sleep(10 * time.Millisecond) // the accepted stream's start is recorded as it opens
		}
		stop()
		if got := events(rec); got != want {
			t.Errorf("events %q, want %q", got, want)
		}
	})
	t.Run("session-retired", func(t *testing.T) {
		t.Parallel()
		url, rec, stop := httpMock(t, Quirks{RetireSession: true})
		_, sid := do(t, http.MethodPost, url, "", initBody)
		do(t, http.MethodPost, url, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
		if code, _ := do(t, http.MethodPost, url, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); code != http.StatusNotFound {
			t.Errorf("a request of the retired session got %d, want 404", code)
		}
		stop()
		want := "server start id 2, server close-stream id 2, server reject 404 id 3"
		if got := events(rec); got != want {
			t.Errorf("events %q, want %q", got, want)
		}
	})
}

// A response stream that breaks while the client is being ended by the
// lab (EndingClient: probe-client at its limit) is recorded as the
// network's close-stream with LabEndedNote, never as the client's act
// (under 2025-11-25 the client's close would be judged a wrong
// cancellation); a stream the client closes on its own stays the
// client's close-stream.
func TestHTTPLabEndedClient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, why, want string
	}{
		{"the client closes the stream", "", "server start id 2, client close-stream id 2"},
		{"the lab ends the client", "it stopped the client at its time limit, 20s", "server start id 2, network close-stream id 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sc, err := scenario.Decode([]byte(`{"mcplab":1,"steps":[],"server":{"handlers":{"slow":{"workMs":30000}}}}`))
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			rec := live.NewRecorder(live.Header{Observer: trace.ObserverServer, Transport: scenario.TransportHTTP})
			m := &Server{Scenario: sc, Protocol: ProtocolAuto, Rec: rec}
			ctx, stop := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { m.HTTP(ctx, ln); close(done) }()
			url := "http://" + ln.Addr().String() + Path
			_, sid := do(t, http.MethodPost, url, "", initBody)
			if tc.why != "" {
				m.EndingClient(tc.why)
			}
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`))
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(jsonrpc.HeaderSessionID, sid)
			resp, err := http.DefaultClient.Do(req) // returns once the stream's headers come
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close() // the stream breaks under the call
			for end := time.Now().Add(10 * time.Second); events(rec) != tc.want && time.Now().Before(end); {
				time.Sleep(20 * time.Millisecond)
			}
			stop()
			<-done
			if got := events(rec); got != tc.want {
				t.Errorf("events %q, want %q", got, tc.want)
			}
			if got := strings.Contains(string(rec.Bytes()), LabEndedNote+" ("+tc.why+")"); got != (tc.why != "") {
				t.Errorf("the transcript names the lab's ending: %v, want %v\n%s", got, tc.why != "", rec.Bytes())
			}
		})
	}
}
