package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary is also the stdio server the tee launches: with
// liveServerEnv set it serves the Go SDK server below on its standard
// input and output, copying what it writes to the file liveOutEnv names.
const (
	liveServerEnv = "MCPLAB_LIVE_TEST_SERVER"
	liveOutEnv    = "MCPLAB_LIVE_TEST_OUT"
)

func TestMain(m *testing.M) {
	if os.Getenv(liveServerEnv) == "stdio" {
		f, err := os.Create(os.Getenv(liveOutEnv))
		if err != nil {
			os.Exit(5)
		}
		w := nopClose{io.MultiWriter(os.Stdout, f)}
		_ = newServer(nil).Run(context.Background(), &mcp.IOTransport{Reader: os.Stdin, Writer: w})
		f.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type nopClose struct{ io.Writer }

func (nopClose) Close() error { return nil }

// progressGapMs is the slow tool's time between its three progress
// notifications and its result (the work it simulates).
const progressGapMs = 100

// newServer is a real Go SDK server with one tool, "slow": three progress
// notifications progressGapMs apart, then its result; finals, if not nil,
// gets the time the tool returned (the server then writes the result).
func newServer(finals chan<- time.Time) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "lab-server", Version: "v0.0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		token := req.Params.GetProgressToken()
		for i := 1; i <= 3; i++ {
			if token != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: 3})
			}
			select {
			case <-time.After(progressGapMs * time.Millisecond):
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		}
		if finals != nil {
			finals <- time.Now()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	return s
}

// exchange is one HTTP exchange as one side saw it: the request (method and
// body) and the response (status, headers, body).
type exchange struct {
	method, request string
	status          int
	header          http.Header
	body            bytes.Buffer
}

// exchanges collects exchanges from concurrent requests.
type exchanges struct {
	mu   sync.Mutex
	list []*exchange
}

func (x *exchanges) add(e *exchange) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.list = append(x.list, e)
}

// byRequest is the exchanges keyed by method and request body (unique in
// a session: every request has its own id), GETs left out (a listen
// stream is cut wherever the session ends).
func (x *exchanges) byRequest() map[string]*exchange {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := map[string]*exchange{}
	for _, e := range x.list {
		if e.method != http.MethodGet {
			out[e.method+" "+e.request] = e
		}
	}
	return out
}

// serverSide records what the server's handler wrote, byte for byte, and
// opens every response stream with X-Accel-Buffering: no (the Go SDK
// sends Cache-Control: no-cache but not that header), as a server that
// asks intermediaries not to buffer does.
type serverSide struct {
	exchanges
	h http.Handler
}

type recordingWriter struct {
	http.ResponseWriter
	x *exchange
}

func (w *recordingWriter) WriteHeader(code int) {
	w.x.status, w.x.header = code, w.Header().Clone()
	w.ResponseWriter.WriteHeader(code)
}

func (w *recordingWriter) Write(p []byte) (int, error) {
	if w.x.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.x.body.Write(p)
	return w.ResponseWriter.Write(p)
}

func (w *recordingWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

func (s *serverSide) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	x := &exchange{method: r.Method, request: string(body)}
	w.Header().Set("X-Accel-Buffering", "no")
	s.h.ServeHTTP(&recordingWriter{ResponseWriter: w, x: x}, r)
	s.add(x)
}

// clientSide records what the client received, byte for byte.
type clientSide struct {
	exchanges
	rt http.RoundTripper
}

type teeBody struct {
	io.ReadCloser
	mu *sync.Mutex
	x  *exchange
}

func (b teeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.mu.Lock()
	b.x.body.Write(p[:n])
	b.mu.Unlock()
	return n, err
}

func (c *clientSide) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	res, err := c.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	x := &exchange{method: r.Method, request: string(body), status: res.StatusCode, header: res.Header.Clone()}
	res.Body = teeBody{ReadCloser: res.Body, mu: &c.mu, x: x}
	c.add(x)
	return res, nil
}

// httpRun is one session of a real Go SDK client with a real Go SDK
// server over Streamable HTTP through an HTTPProxy with faults: one call
// of "slow" with a progress token.
type httpRun struct {
	server, client *exchanges
	rec            *Recorder
	callErr        error
	progressAt     []time.Time // when the client got each progress notification
	finalAt        time.Time   // when the tool returned (the server then wrote the result)
	returnedAt     time.Time   // when CallTool returned
}

func runHTTP(t *testing.T, faults string, listen bool) *httpRun {
	t.Helper()
	f, err := ParseFaults(faults)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	finals := make(chan time.Time, 1)
	srv := &serverSide{h: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newServer(finals) }, nil)}
	upstream := httptest.NewServer(srv)
	defer upstream.Close()
	target, _ := url.Parse(upstream.URL + "/mcp")
	rec := NewRecorder(Header{Observer: trace.ObserverWire, Transport: scenario.TransportHTTP, Proxy: "mcplab proxy -faults " + faults})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &HTTPProxy{Target: target, Faults: f, Rec: rec}
	pctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- p.Serve(pctx, ln) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()

	run := &httpRun{server: &srv.exchanges, rec: rec}
	cl := &clientSide{rt: &http.Transport{DisableCompression: true}}
	run.client = &cl.exchanges
	var mu sync.Mutex
	client := mcp.NewClient(&mcp.Implementation{Name: "lab-client", Version: "v0.0.1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			run.progressAt = append(run.progressAt, time.Now())
			mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp", HTTPClient: &http.Client{Transport: cl}, DisableStandaloneSSE: !listen, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}
	params.SetProgressToken("tok-1")
	callCtx, callCancel := context.WithTimeout(ctx, 5*time.Second)
	_, run.callErr = cs.CallTool(callCtx, params)
	callCancel()
	run.returnedAt = time.Now()
	cs.Close()
	select {
	case run.finalAt = <-finals:
	default:
	}
	mu.Lock()
	defer mu.Unlock()
	return run
}

// judge imports the recorder's transcript as mcplab run does.
func judge(t *testing.T, rec *Recorder) *trace.Trace {
	t.Helper()
	tr, err := transcript.Import(rec.Bytes(), transcript.Options{})
	if err != nil {
		t.Fatalf("the transcript does not import: %v\n%s", err, rec.Bytes())
	}
	return tr
}

func verdictOf(tr *trace.Trace, rule trace.RuleID) string {
	for _, c := range tr.Checks {
		if c.Rule == rule {
			if c.OK == nil {
				return "undecided"
			}
			if *c.OK {
				return "pass"
			}
			return "fail"
		}
	}
	return "absent"
}

// TestProxyHTTPPassThrough: without faults a real Go SDK client gets, for
// every POST and DELETE, the status, the server's headers and the body
// byte for byte as the server wrote them (SCENARIO.md, Live: proxy), GET
// listen stream included in the session; the recorded transcript imports,
// no rule fails on it, and sse-headers passes (the streams asked for no
// buffering). Progress reaches the client before the result is written.
func TestProxyHTTPPassThrough(t *testing.T) {
	t.Parallel()
	run := runHTTP(t, "", true)
	if run.callErr != nil {
		t.Fatalf("CallTool through the proxy: %v", run.callErr)
	}
	srv, cl := run.server.byRequest(), run.client.byRequest()
	if len(srv) < 3 {
		t.Fatalf("the server saw %d exchanges, want initialize, initialized, the call and more", len(srv))
	}
	for key, s := range srv {
		c := cl[key]
		if c == nil {
			t.Errorf("%.60s: the client never got this exchange", key)
			continue
		}
		if c.status != s.status {
			t.Errorf("%.60s: status %d at the client, %d from the server", key, c.status, s.status)
		}
		for name, v := range s.header {
			if slices.Contains(hopByHop, http.CanonicalHeaderKey(name)) {
				continue // connection-specific: not forwarded (RFC 9110 §7.6.1)
			}
			if got := c.header.Values(name); strings.Join(got, "\n") != strings.Join(v, "\n") {
				t.Errorf("%.60s: header %s = %q at the client, %q from the server", key, name, got, v)
			}
		}
		if !bytes.Equal(c.body.Bytes(), s.body.Bytes()) {
			t.Errorf("%.60s: the client got %q, the server wrote %q", key, c.body.Bytes(), s.body.Bytes())
		}
	}
	if len(run.progressAt) != 3 || !run.progressAt[0].Before(run.finalAt) {
		t.Errorf("progress at %v, the result written after %v: want 3, the first before the result", run.progressAt, run.finalAt)
	}
	tr := judge(t, run.rec)
	for _, c := range tr.Checks {
		if c.OK != nil && !*c.OK {
			t.Errorf("%s fails on a clean pass-through: %s", c.Rule, c.Detail)
		}
	}
	if v := verdictOf(tr, checks.SSEHeaders); v != "pass" {
		t.Errorf("sse-headers %s, want pass", v)
	}
}

// TestProxyHTTPBufferFinal: with buffer=final the proxy holds the call's
// stream until the result, so the real client gets all three progress
// notifications in one burst after the server wrote the result, and
// proxy-forwards-promptly (DOMAIN.md §8) fails on the recorded transcript
// at the proxy's hold events.
func TestProxyHTTPBufferFinal(t *testing.T) {
	t.Parallel()
	run := runHTTP(t, "buffer=final", false)
	if run.callErr != nil {
		t.Fatalf("CallTool through the proxy: %v", run.callErr)
	}
	if len(run.progressAt) != 3 {
		t.Fatalf("the client got %d progress notifications, want 3", len(run.progressAt))
	}
	for i, at := range run.progressAt {
		if at.Before(run.finalAt) {
			t.Errorf("progress %d reached the client %v before the server wrote the result: not held", i+1, run.finalAt.Sub(at))
		}
	}
	if spread := run.progressAt[2].Sub(run.progressAt[0]); spread >= progressGapMs*time.Millisecond {
		t.Errorf("the progress arrived over %v, want one burst (the server spaced it %d ms)", spread, progressGapMs)
	}
	tr := judge(t, run.rec)
	if v := verdictOf(tr, checks.ProxyForwardsPromptly); v != "fail" {
		t.Errorf("proxy-forwards-promptly %s, want fail", v)
	}
	call := ""
	for _, r := range tr.Requests {
		if r.Method == "tools/call" {
			call = r.ID.Raw()
		}
	}
	holds, flushes := 0, 0
	for _, e := range tr.Events {
		if e.Actor == trace.ActorProxy && e.ID != nil && e.ID.Raw() == call {
			switch e.Type {
			case trace.TypeHold:
				holds++
			case trace.TypeFlush:
				flushes++
			}
		}
	}
	if holds != 3 || flushes != 1 {
		t.Errorf("%d holds and %d flushes on the timeline, want 3 (one per progress) and 1 (at the result)", holds, flushes)
	}
}

// TestProxyHTTPDropStream: drop-stream breaks the call's response stream
// before the result, so the real client's call is lost (an error, no
// result), and the transcript shows the proxy closing the stream with the
// result never delivered.
func TestProxyHTTPDropStream(t *testing.T) {
	t.Parallel()
	run := runHTTP(t, "drop-stream=150", false)
	if run.callErr == nil {
		t.Fatal("CallTool succeeded through a proxy that dropped its stream")
	}
	tr := judge(t, run.rec)
	closed := false
	for _, e := range tr.Events {
		closed = closed || e.Actor == trace.ActorProxy && e.Type == trace.TypeCloseStream
	}
	if !closed {
		t.Error("no proxy close-stream event on the timeline")
	}
	for _, r := range tr.Requests {
		if r.Method == "tools/call" && r.ClientOutcome == trace.OutcomeResult {
			t.Errorf("the call's outcome is %s at the client, want none (lost)", r.ClientOutcome)
		}
	}
}

// TestProxyFaults: -faults items (SCENARIO.md, Live: proxy) and their
// errors, each naming the bad item.
func TestProxyFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		spec string
		want Faults
		err  string
	}{
		{"", Faults{}, ""},
		{"buffer=final", Faults{BufferFinal: true}, ""},
		{"buffer=4096,latency=50", Faults{BufferBytes: 4096, LatencyMs: 50}, ""},
		{"idle-close=200, drop-stream=300,strip=X-Accel-Buffering", Faults{IdleCloseMs: 200, DropStreamMs: 300, Strip: []string{"X-Accel-Buffering"}}, ""},
		{"buffer=0", Faults{}, `item 1 "buffer=0": buffer takes final or a number of bytes from 1 to 67108864`},
		{"latency=50,latency=60", Faults{}, `item 2 "latency=60": latency is given twice`},
		{"latency=-1", Faults{}, `item 1 "latency=-1": latency takes whole milliseconds from 1 to 3600000`},
		{"idle-close=1.5", Faults{}, `item 1 "idle-close=1.5": idle-close takes whole milliseconds`},
		{"strip=content-type", Faults{}, `item 1 "strip=content-type": strip knows x-accel-buffering only`},
		{"jitter=5", Faults{}, `item 1 "jitter=5": unknown fault "jitter"`},
		{"buffer", Faults{}, `item 1 "buffer": want NAME=VALUE`},
	}
	for _, c := range cases {
		got, err := ParseFaults(c.spec)
		switch {
		case c.err != "":
			if err == nil || !errors.Is(err, ErrFaults) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseFaults(%q) = %v, want an error with %q", c.spec, err, c.err)
			}
		case err != nil:
			t.Errorf("ParseFaults(%q): %v", c.spec, err)
		default:
			got.spec = ""
			if got.BufferFinal != c.want.BufferFinal || got.BufferBytes != c.want.BufferBytes || got.LatencyMs != c.want.LatencyMs ||
				got.IdleCloseMs != c.want.IdleCloseMs || got.DropStreamMs != c.want.DropStreamMs || strings.Join(got.Strip, ",") != strings.Join(c.want.Strip, ",") {
				t.Errorf("ParseFaults(%q) = %+v, want %+v", c.spec, got, c.want)
			}
		}
	}
	if err := (Faults{DropStreamMs: 5}).CheckStdio(); err == nil || !strings.Contains(err.Error(), "drop-stream needs Streamable HTTP") {
		t.Errorf("drop-stream on stdio: %v", err)
	}
}

// TestProxyHTTPFaultTimings: each remaining fault reproduced with its
// timing on a real Go SDK session: latency delays every message on both
// ways by at least its ms (each delivery's time minus its send's), strip
// removes X-Accel-Buffering from what the client gets while the server
// sent it, idle-close breaks the call's stream once it has been quiet for
// its ms (the tool is quiet progressGapMs between notifications) and the
// call is lost.
func TestProxyHTTPFaultTimings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, faults string
		lost         bool
		check        func(t *testing.T, run *httpRun, tr *trace.Trace)
	}{
		{"latency=80 each way", "latency=80", false, func(t *testing.T, run *httpRun, tr *trace.Trace) {
			n := 0
			for _, e := range tr.Events {
				if e.Type == trace.TypeDeliver && e.SentAt != nil {
					n++
					if d := e.At - *e.SentAt; d < 80 {
						t.Errorf("wire %d (%s→%s) delivered %d ms after it was sent, want at least 80", e.Wire, e.From, e.To, d)
					}
				}
			}
			if n < 6 {
				t.Errorf("%d deliveries, want both ways of the whole session", n)
			}
		}},
		{"strip=x-accel-buffering", "strip=x-accel-buffering", false, func(t *testing.T, run *httpRun, tr *trace.Trace) {
			srv, cl := run.server.byRequest(), run.client.byRequest()
			streams := 0
			for key, s := range srv {
				if c := cl[key]; c != nil && s.header.Get("Content-Type") == "text/event-stream" {
					streams++
					if s.header.Get("X-Accel-Buffering") != "no" || c.header.Get("X-Accel-Buffering") != "" {
						t.Errorf("%.60s: X-Accel-Buffering %q from the server, %q at the client; want it stripped", key, s.header.Get("X-Accel-Buffering"), c.header.Get("X-Accel-Buffering"))
					}
				}
			}
			if streams == 0 {
				t.Error("no response stream to strip")
			}
		}},
		{"idle-close=40", "idle-close=40", true, func(t *testing.T, run *httpRun, tr *trace.Trace) {
			lastSend := int64(-1)
			for _, e := range tr.Events {
				if e.Actor == trace.ActorServer && e.Type == trace.TypeSend {
					lastSend = e.At
				}
				if e.Actor == trace.ActorProxy && e.Type == trace.TypeCloseStream {
					if !strings.Contains(e.Note, "idle-close") || e.At-lastSend < 40 {
						t.Errorf("the proxy closed the stream at %d ms, %d ms after the server's last send (%s); want at least 40, by idle-close", e.At, e.At-lastSend, e.Note)
					}
					return
				}
			}
			t.Error("no proxy close-stream event")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			run := runHTTP(t, c.faults, false)
			if lost := run.callErr != nil; lost != c.lost {
				t.Errorf("call error %v, want lost=%v", run.callErr, c.lost)
			}
			c.check(t, run, judge(t, run.rec))
		})
	}
}

// TestProxyConcurrentStreams: 50 response streams at once through the
// proxy, each of 20 progress events and a final response, reach their
// clients byte for byte in order, and the transcript holds every message
// on both hops (50 x 21 x 2 message lines) with one request per stream.
func TestProxyConcurrentStreams(t *testing.T) {
	t.Parallel()
	const streams, events = 50, 20
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	body := func(id int) string {
		var b strings.Builder
		for i := 1; i <= events; i++ {
			fmt.Fprintf(&b, "id: %d-%d\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":%d,\"progress\":%d}}\n\n", id, i, id, i)
		}
		fmt.Fprintf(&b, "data: {\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"content\":[]}}\n\n", id)
		return b.String()
	}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ ID int }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Accel-Buffering", "no")
		for _, ev := range strings.SplitAfter(body(req.ID), "\n\n") {
			io.WriteString(w, ev)
			w.(http.Flusher).Flush()
		}
	}))
	defer upstream.Close()
	target, _ := url.Parse(upstream.URL + "/mcp")
	rec := NewRecorder(Header{Observer: trace.ObserverWire, Transport: scenario.TransportHTTP, Proxy: "mcplab proxy"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- (&HTTPProxy{Target: target, Rec: rec}).Serve(pctx, ln) }()
	var wg sync.WaitGroup
	errs := make(chan error, streams)
	for id := 1; id <= streams; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+ln.Addr().String()+"/mcp",
				strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":%d}}}`, id, id)))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				errs <- err
				return
			}
			defer res.Body.Close()
			got, err := io.ReadAll(res.Body)
			if err != nil || string(got) != body(id) {
				errs <- fmt.Errorf("stream %d: %d bytes (%v), want %d as the server wrote them", id, len(got), err, len(body(id)))
			}
		}()
	}
	wg.Wait()
	stop()
	<-served
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	tr := judge(t, rec)
	sends, delivers := 0, 0
	for _, e := range tr.Events {
		switch e.Type {
		case trace.TypeSend:
			sends++
		case trace.TypeDeliver:
			delivers++
		}
	}
	if want := streams * (events + 2); sends != want || delivers != want || len(tr.Requests) != streams {
		t.Errorf("%d sends, %d deliveries, %d requests; want %d, %d, %d", sends, delivers, len(tr.Requests), want, want, streams)
	}
	if v := verdictOf(tr, checks.ProgressIncreases); v != "pass" {
		t.Errorf("progress-increases %s, want pass (every stream's progress in order)", v)
	}
}

// TestProxyRecorderLimits: past the importer's limits (transcript.MaxLines
// lines, transcript.MaxBytes bytes) the recorder keeps what came first,
// counts the rest and its transcript still imports.
func TestProxyRecorderLimits(t *testing.T) {
	t.Parallel()
	big := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", 200_000) + `"}}`
	cases := []struct {
		name    string
		message string
		n       int
	}{
		{"lines", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`, transcript.MaxLines},
		{"bytes", big, 30},
	}
	for _, c := range cases {
		rec := NewRecorder(Header{Observer: trace.ObserverWire})
		m := Messages([]byte(c.message))
		if len(m) != 1 {
			t.Fatalf("%s: Messages read %d messages", c.name, len(m))
		}
		for i := 0; i < c.n; i++ {
			w, _ := rec.Sent(trace.ActorServer, m[0], "")
			rec.Delivered(trace.ActorServer, m[0], w, "")
		}
		data := rec.Bytes()
		if rec.Cut() == 0 || rec.Len()+rec.Cut() != 2*c.n || len(data) > transcript.MaxBytes || bytes.Count(data, []byte("\n")) > transcript.MaxLines {
			t.Errorf("%s: kept %d, cut %d, %d bytes", c.name, rec.Len(), rec.Cut(), len(data))
		}
		if _, err := transcript.Import(data, transcript.Options{}); err != nil {
			t.Errorf("%s: the cut transcript does not import: %v", c.name, err)
		}
	}
}

// TestProxyRecorderOneView: a one-view recorder (a mock's server side)
// writes plain message lines that import with its header's observer, the
// server's reads and writes in its order: a result after the server read
// the call's cancellation fails no-message-after-cancel.
func TestProxyRecorderOneView(t *testing.T) {
	t.Parallel()
	rec := NewRecorder(Header{Observer: trace.ObserverServer, Transport: scenario.TransportStdio, Protocol: "2025-11-25"})
	for _, m := range []struct {
		from trace.Actor
		msg  string
	}{
		{trace.ActorClient, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`},
		{trace.ActorClient, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`},
		{trace.ActorServer, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`},
	} {
		rec.Saw(m.from, Messages([]byte(m.msg))[0])
	}
	tr := judge(t, rec)
	if tr.Source.Observer != trace.ObserverServer {
		t.Errorf("observer %q, want server", tr.Source.Observer)
	}
	if v := verdictOf(tr, checks.NoMessageAfterCancel); v != "fail" {
		t.Errorf("no-message-after-cancel %s, want fail", v)
	}
}

// TestProxyHopByHopHeaders: RFC 9110 §7.6.1: the connection-specific
// headers (and those the Connection header names) stay on their hop;
// every end-to-end header passes with all its values.
func TestProxyHopByHopHeaders(t *testing.T) {
	t.Parallel()
	src := http.Header{}
	for k, v := range map[string][]string{
		"Connection": {"keep-alive, X-Hop"}, "X-Hop": {"1"}, "Keep-Alive": {"timeout=5"}, "Te": {"trailers"}, "Transfer-Encoding": {"chunked"},
		"Upgrade": {"h2c"}, "Proxy-Connection": {"keep-alive"},
		"Mcp-Session-Id": {"abc"}, "X-Accel-Buffering": {"no"}, "Set-Cookie": {"a=1", "b=2"}, "Authorization": {"Bearer t"},
	} {
		src[k] = v
	}
	dst := http.Header{}
	copyHeaders(dst, src)
	for _, gone := range []string{"Connection", "X-Hop", "Keep-Alive", "Te", "Transfer-Encoding", "Upgrade", "Proxy-Connection"} {
		if v := dst.Values(gone); len(v) > 0 {
			t.Errorf("%s passed (%q): it is hop-by-hop", gone, v)
		}
	}
	for _, kept := range []string{"Mcp-Session-Id", "X-Accel-Buffering", "Set-Cookie", "Authorization"} {
		if got, want := strings.Join(dst.Values(kept), "|"), strings.Join(src.Values(kept), "|"); got != want {
			t.Errorf("%s = %q, want %q unchanged", kept, got, want)
		}
	}
}
