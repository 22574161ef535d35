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
