package live

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// recordedEvent is one event of a recorded response stream: the bytes the
// server wrote and how long after the previous event (ms) it wrote them.
type recordedEvent struct {
	afterMs int64
	raw     string
}

// recordedSession is a tools/call's response stream as the Go SDK's
// Streamable HTTP server writes it (event, id and data lines, one blank
// line after each): five progress notifications 60 ms apart, a pause of
// 200 ms, then the result; the bytes include what a pass-through must not
// touch (a comment line, CRLF line ends, a multi-line data field, UTF-8).
func recordedSession() []recordedEvent {
	progress := func(n int) string {
		return fmt.Sprintf("event: message\nid: 7_%d\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"tok-7\",\"progress\":%d,\"total\":5,\"message\":\"étape %d\"}}\n\n", n, n, n)
	}
	return []recordedEvent{
		{0, ": keep this comment\n\n"},
		{10, progress(1)},
		{60, progress(2)},
		{60, strings.ReplaceAll(progress(3), "\n", "\r\n")},
		{60, progress(4)},
		{60, "event: message\nid: 7_5\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\ndata: \"params\":{\"progressToken\":\"tok-7\",\"progress\":5,\"total\":5}}\n\n"},
		{200, "event: message\nid: 7_6\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n"},
	}
}

// replayRun is what one replay through the proxy observed: when the server
// wrote each event and when the client read it (nil when it never came),
// the bytes on both ends, the headers, and the recorder.
type replayRun struct {
	start             time.Time // the client sent the request
	reqAt             time.Time // the server got it
	wrote, read       []time.Time
	sent, got         []byte
	srvHeader, header http.Header
	status            int
	endAt             time.Time // the client's body ended (EOF or an error)
	rec               *Recorder
}

// replay serves events as a real server would (each flushed at its time)
// behind the proxy with faults, and reads the response at a plain HTTP
// client, event by event.
func replay(t *testing.T, faults string, events []recordedEvent) *replayRun {
	t.Helper()
	f, err := ParseFaults(faults)
	if err != nil {
		t.Fatal(err)
	}
	run := &replayRun{wrote: make([]time.Time, len(events)), read: make([]time.Time, len(events)), srvHeader: http.Header{}}
	var mu sync.Mutex
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		run.reqAt = time.Now()
		mu.Unlock()
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Accel-Buffering", "no")
		w.Header().Set("Mcp-Session-Id", "s-1")
		mu.Lock()
		run.srvHeader = w.Header().Clone()
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for i, ev := range events {
			select {
			case <-time.After(time.Duration(ev.afterMs) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			// The time is taken before the write: the proxy may hand the
			// bytes on before Flush returns here.
			mu.Lock()
			run.wrote[i] = time.Now()
			run.sent = append(run.sent, ev.raw...)
			mu.Unlock()
			if _, err := io.WriteString(w, ev.raw); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer upstream.Close()
	target, _ := url.Parse(upstream.URL + "/mcp")
	run.rec = NewRecorder(Header{Observer: trace.ObserverWire, Transport: scenario.TransportHTTP, Proxy: "mcplab proxy -faults " + faults})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- (&HTTPProxy{Target: target, Faults: f, Rec: run.rec}).Serve(ctx, ln) }()
	defer func() { cancel(); <-served }()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+ln.Addr().String()+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"tok-7"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	run.start = time.Now()
	res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	run.status, run.header = res.StatusCode, res.Header
	br := bufio.NewReader(res.Body)
	for i := range events {
		raw, err := readRaw(br, len(events[i].raw))
		run.got = append(run.got, raw...)
		if err != nil {
			break
		}
		run.read[i] = time.Now()
	}
	_, _ = io.Copy(io.Discard, br)
	run.endAt = time.Now()
	mu.Lock()
	defer mu.Unlock()
	return run
}

// readRaw reads n bytes (one recorded event's length), or what came before
// the body ended.
func readRaw(br *bufio.Reader, n int) ([]byte, error) {
	b := make([]byte, n)
	k, err := io.ReadFull(br, b)
	return b[:k], err
}

// TestProxyReplaysARecordedSession: a recorded response stream replayed
// behind the proxy (SCENARIO.md, Live: proxy) reaches a plain client byte
// for byte with no fault, and each fault reshapes it with its timing:
// buffer=final holds every event until the result is written, buffer=N
// releases the held events once N bytes are held, latency delays each
// event and the request by at least its ms, idle-close breaks the stream
// once it has been quiet its ms (the recorded pause before the result is
// 200 ms), drop-stream breaks it its ms after it opened, and strip removes
// X-Accel-Buffering and nothing else. Times are lower bounds where the
// fault fixes them and generous upper bounds (a loaded machine) elsewhere.
func TestProxyReplaysARecordedSession(t *testing.T) {
	t.Parallel()
	events := recordedSession()
	last := len(events) - 1
	// slack is scheduling on a loaded shared machine (an event was read
	// 184 ms late at load 6); the unheld session spreads its events over
	// 440 ms, so a burst still tells a held stream from an unheld one.
	const slack = 300 * time.Millisecond
	whole := func(t *testing.T, run *replayRun) {
		t.Helper()
		if !bytes.Equal(run.got, run.sent) {
			t.Errorf("the client got %d bytes %q, the server wrote %d %q", len(run.got), run.got, len(run.sent), run.sent)
		}
	}
	prompt := func(t *testing.T, run *replayRun, i int) {
		t.Helper()
		if run.read[i].IsZero() || run.read[i].Sub(run.wrote[i]) > slack {
			t.Errorf("event %d read %v after it was written, want promptly", i, run.read[i].Sub(run.wrote[i]))
		}
	}
	cases := []struct {
		rule, faults string
		check        func(t *testing.T, run *replayRun)
	}{
		{"no fault: every byte as written, each event as it is written", "", func(t *testing.T, run *replayRun) {
			whole(t, run)
			for i := range events {
				prompt(t, run, i)
			}
			for _, k := range []string{"Content-Type", "Cache-Control", "X-Accel-Buffering", "Mcp-Session-Id"} {
				if run.header.Get(k) != run.srvHeader.Get(k) {
					t.Errorf("header %s = %q at the client, %q from the server", k, run.header.Get(k), run.srvHeader.Get(k))
				}
			}
		}},
		{"buffer=final: nothing before the result, then all at once", "buffer=final", func(t *testing.T, run *replayRun) {
			whole(t, run)
			for i := range events {
				if run.read[i].Before(run.wrote[last]) {
					t.Errorf("event %d read %v before the result was written", i, run.wrote[last].Sub(run.read[i]))
				}
			}
			if spread := run.read[last].Sub(run.read[1]); spread > slack {
				t.Errorf("the held events arrived over %v, want one burst", spread)
			}
		}},
		{"buffer=N: released when N bytes are held", fmt.Sprintf("buffer=%d", len(events[0].raw)+len(events[1].raw)+len(events[2].raw)), func(t *testing.T, run *replayRun) {
			whole(t, run)
			// Events 0–2 reach the threshold when event 2 is written; 3–5
			// (as many bytes again) when event 5 is; the result ends it.
			for i, release := range []int{2, 2, 2, 5, 5, 5, 6} {
				if run.read[i].Before(run.wrote[release]) {
					t.Errorf("event %d read %v before event %d, which releases it, was written", i, run.wrote[release].Sub(run.read[i]), release)
				}
				if d := run.read[i].Sub(run.wrote[release]); d > slack {
					t.Errorf("event %d read %v after its release", i, d)
				}
			}
		}},
		{"latency=80: each event and the request at least 80 ms late", "latency=80", func(t *testing.T, run *replayRun) {
			whole(t, run)
			if d := run.reqAt.Sub(run.start); d < 80*time.Millisecond {
				t.Errorf("the request reached the server %v after it was sent, want at least 80 ms", d)
			}
			for i := range events {
				if d := run.read[i].Sub(run.wrote[i]); d < 80*time.Millisecond {
					t.Errorf("event %d read %v after it was written, want at least 80 ms", i, d)
				}
			}
		}},
		{"idle-close=120: broken in the 200 ms pause, the result lost", "idle-close=120", func(t *testing.T, run *replayRun) {
			for i := 0; i < last; i++ {
				prompt(t, run, i)
			}
			if !run.read[last].IsZero() {
				t.Error("the result came through a stream that was idle for 200 ms")
			}
			if d := run.endAt.Sub(run.wrote[last-1]); d < 120*time.Millisecond || d > 120*time.Millisecond+slack {
				t.Errorf("the stream ended %v after the last byte, want 120 ms (idle-close)", d)
			}
		}},
		{"drop-stream=150: broken 150 ms after it opened", "drop-stream=150", func(t *testing.T, run *replayRun) {
			if d := run.endAt.Sub(run.start); d < 150*time.Millisecond || d > 150*time.Millisecond+slack {
				t.Errorf("the stream ended %v after the request, want 150 ms (drop-stream)", d)
			}
			if !run.read[last].IsZero() || !run.read[4].IsZero() {
				t.Error("events written after the drop reached the client")
			}
			if run.read[1].IsZero() {
				t.Error("the event written 10 ms in was lost: the drop came early")
			}
		}},
		{"strip=x-accel-buffering: that header only", "strip=x-accel-buffering", func(t *testing.T, run *replayRun) {
			whole(t, run)
			if run.srvHeader.Get("X-Accel-Buffering") != "no" || run.header.Get("X-Accel-Buffering") != "" {
				t.Errorf("X-Accel-Buffering %q from the server, %q at the client; want it stripped", run.srvHeader.Get("X-Accel-Buffering"), run.header.Get("X-Accel-Buffering"))
			}
			if run.header.Get("Mcp-Session-Id") != "s-1" || run.header.Get("Content-Type") != "text/event-stream" {
				t.Errorf("other headers changed: %v", run.header)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			t.Parallel()
			run := replay(t, c.faults, events)
			if run.status != http.StatusOK {
				t.Fatalf("status %d, want 200", run.status)
			}
			c.check(t, run)
			tr := judge(t, run.rec)
			if c.faults == "" {
				if v := verdictOf(tr, checks.ProgressIncreases); v != "pass" {
					t.Errorf("progress-increases %s on the recorded transcript, want pass", v)
				}
			}
		})
	}
}
