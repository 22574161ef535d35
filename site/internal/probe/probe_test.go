package probe

// Tests of the probe (Run) against real servers: the Go SDK v1.8.0
// over stdio and Streamable HTTP (site/testdata/probe/goserver), the TypeScript
// SDK pinned by site/testdata/probe/ts/package-lock.json (npm ci, peertest),
// a server that never answers and one that crashes mid-call
// (site/testdata/probe/*.mjs). Tool durations are short: 3 steps of 60 ms.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcplab/mcplab/site/internal/peertest"
)

// probeToolArgs make the test servers' tool work 600 ms (3 progress
// notifications 200 ms apart): a message the probe convicts must arrive
// well before the tool's fastest completion, and on a machine under load
// (the site's tests run beside the browser suite) the path alone took 110
// ms, so a 180 ms tool left a correct verdict to chance.
const probeToolArgs = `{"steps":3,"intervalMs":200}`

// goServer builds site/testdata/probe/goserver once per test binary.
func goServer(t *testing.T) string { return peertest.Binary(t, "goserver") }

// probeRun runs the probe as `mcplab probe -out DIR args...` runs it
// (runArgs) and returns its standard output, the situation lines by name
// (the line that starts with the name) and the error.
func probeRun(t *testing.T, args ...string) (string, map[string]string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := runArgs(context.Background(), append([]string{"-out", t.TempDir()}, args...), &out, &errb)
	t.Logf("mcplab probe %s\n%s%s", strings.Join(args, " "), out.String(), errb.String())
	lines := peertest.SituationLines(out.String(), strings.Split(Situations(), ", "))
	return out.String(), lines, err
}

// transcriptOf returns the transcript file printed for a situation.
func transcriptOf(t *testing.T, out, name string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if f := strings.TrimSpace(l); strings.HasSuffix(f, "-"+name+".client.jsonl") {
			return f
		}
	}
	t.Fatalf("no transcript printed for %s", name)
	return ""
}

// Rule (DOMAIN.md §1): the Go SDK v1.8.0 writes a result for a
// request after reading its cancellation (modelcontextprotocol/go-sdk#1259 kind); the probe flags
// it (FAIL, -checks exits 3), while the race sweep shows an order at every
// offset, bad cancellations are ignored and the transcripts are read by
// `mcplab run` (judgeFile), which judges the same violation.
func TestProbeGoSDKStdioFlagsResultAfterCancel(t *testing.T) {
	t.Parallel()
	bin := goServer(t)
	out, lines, err := probeRun(t, "-protocol", "2025-11-25", "-checks", "-tool", "work", "-args", probeToolArgs, "--", bin)
	if exitCode(err) != 3 {
		t.Fatalf("err = %v, want a check failed (exit 3)", err)
	}
	if !strings.Contains(out, "negotiated 2025-11-25") {
		t.Errorf("the output does not say the negotiated revision")
	}
	peertest.WantVerdict(t, lines, "clean", "pass", "3 progress")
	// The SDK answers a result (isError) or a JSON-RPC error, depending on
	// whether the handler had started.
	peertest.WantVerdict(t, lines, "cancel-at-once", "FAIL", "MESSAGE AFTER THE ACCEPTED CANCELLATION")
	peertest.WantVerdict(t, lines, "cancel-after-progress", "FAIL", "MESSAGE AFTER THE ACCEPTED CANCELLATION")
	peertest.WantVerdict(t, lines, "bad-cancellations", "pass", "the normal call after them answered")
	if l := lines["race-sweep"]; strings.Count(l, "%") != len(raceSteps) {
		t.Errorf("race-sweep reports %d offsets, want %d: %s", strings.Count(l, "%"), len(raceSteps), l)
	}
	if _, ok := lines["http-close-stream"]; ok {
		t.Errorf("http-close-stream ran on stdio")
	}
	// The transcript is the lab's JSON Lines with the observer header:
	// `mcplab run -checks` (judgeFile) reads it and never contradicts the probe. It
	// convicts (exit 3) when the transcript itself proves the order (the
	// fence was answered first, or the response came later than the round
	// trip); when the response came within the round trip and only the
	// probe's knowledge of the tool's duration proved it early, a client's
	// log leaves the order undecided (?), never passed. The clean one passes.
	var e bytes.Buffer
	err = judgeFile(transcriptOf(t, out, "cancel-at-once"), &e)
	convicted := exitCode(err) == 3 && strings.Contains(e.String(), "FAIL  no-message-after-cancel")
	undecided := err == nil && strings.Contains(e.String(), "?   no-message-after-cancel")
	if !convicted && !undecided {
		t.Errorf("run -checks on cancel-at-once: err %v, stderr %s; want no-message-after-cancel failed or undecided", err, e.String())
	}
	e.Reset()
	if err := judgeFile(transcriptOf(t, out, "clean"), &e); err != nil {
		t.Errorf("run -checks on clean: %v\n%s", err, e.String())
	}
}

// Rule: over Streamable HTTP the probe cancels with the
// notification 2025-11-25 prescribes (and flags the Go SDK's result after
// it), and also closes a request's stream, the other signal, after which
// the server still answers.
func TestProbeGoSDKHTTPFlagsResultAfterCancel(t *testing.T) {
	t.Parallel()
	bin := goServer(t)
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url := strings.TrimSpace(strings.TrimPrefix(line, "listening "))
	if err != nil || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("the server said %q (%v)", line, err)
	}
	out, lines, err := probeRun(t, "-checks", "-tool", "work", "-args", probeToolArgs,
		"-only", "cancel-after-progress,cancel-at-once,http-close-stream", url)
	if exitCode(err) != 3 {
		t.Fatalf("err = %v, want exit 3", err)
	}
	if !strings.Contains(out, "Streamable HTTP "+url) || !strings.Contains(out, "negotiated 2025-11-25") {
		t.Errorf("the output does not name the transport and revision")
	}
	peertest.WantVerdict(t, lines, "cancel-after-progress", "FAIL", "signal: POST notifications/cancelled, as 2025-11-25 prescribes", "MESSAGE AFTER THE ACCEPTED CANCELLATION")
	peertest.WantVerdict(t, lines, "cancel-at-once", "FAIL", "once the server had answered its POST")
	peertest.WantVerdict(t, lines, "http-close-stream", "pass", "closed the request's stream", "the server answered a ping")
}

// Rule: a TypeScript SDK server whose tool honours cancellation
// fails no situation: nothing after an accepted cancellation in any order
// of the race, progress increasing and final; -checks exits 0. Where the
// cancellation meets a message already on its way (the race sweep, the
// idle timeout that fires between two progress notifications) the
// situation is undecided, never a pass it did not earn.
func TestProbeTypeScriptHonoursCancellation(t *testing.T) {
	t.Parallel()
	peertest.TypeScript(t)
	_, lines, err := probeRun(t, "-checks", "-tool", "slow", "-args", probeToolArgs, "--", "node", peertest.Path("ts/server.mjs"))
	if err != nil {
		t.Fatalf("err = %v, want none", err)
	}
	for _, name := range []string{"clean", "cancel-after-progress", "cancel-at-once", "bad-cancellations"} {
		peertest.WantVerdict(t, lines, name, "pass")
	}
	for _, name := range []string{"race-sweep", "idle-timeout"} {
		l := lines[name]
		if f := strings.Fields(l); len(f) < 2 || f[1] != "pass" && f[1] != "undecided" {
			t.Errorf("%s: want pass or undecided (the race): %s", name, l)
		} else if f[1] == "undecided" && !strings.Contains(l, "race, undecided") {
			t.Errorf("%s: undecided without a race: %s", name, l)
		}
	}
	peertest.WantVerdict(t, lines, "cancel-at-once", "pass", "cancellation won")
	if l := lines["race-sweep"]; strings.Contains(l, "MESSAGE AFTER") {
		t.Errorf("race-sweep: %s", l)
	}
}

// Rule (DOMAIN.md §3): a TypeScript SDK tool that sends progress
// through server.notification(..., {relatedRequestId}) keeps sending it after
// the server accepted the cancellation; the probe flags it (exit 3).
func TestProbeTypeScriptProgressAfterCancel(t *testing.T) {
	t.Parallel()
	peertest.TypeScript(t)
	_, lines, err := probeRun(t, "-checks", "-tool", "leaky", "-args", probeToolArgs, "-only", "cancel-after-progress",
		"--", "node", peertest.Path("ts/server.mjs"))
	if exitCode(err) != 3 {
		t.Fatalf("err = %v, want exit 3", err)
	}
	peertest.WantVerdict(t, lines, "clean", "pass")
	peertest.WantVerdict(t, lines, "cancel-after-progress", "FAIL", "MESSAGE AFTER THE ACCEPTED CANCELLATION: progress", "after the fence")
}

// Rule (the probe is bounded): against a server that never
// answers, the probe ends within its per-situation limit, says so, skips
// the rest, exits 1, and kills the server's whole process group (the
// server's own child included).
func TestProbeServerNeverAnswers(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	const limit = 2 * time.Second
	start := time.Now()
	_, lines, err := probeRun(t, "-protocol", "2025-11-25", "-limit", limit.String(), "-timeout", "20s", "--", "sh", peertest.Path("hang.sh"), pidFile)
	elapsed := time.Since(start)
	if err == nil || exitCode(err) != 1 {
		t.Errorf("err = %v, want an error with exit 1", err)
	}
	if elapsed > limit+5*time.Second {
		t.Errorf("the probe took %v with a %v limit per situation", elapsed, limit)
	}
	peertest.WantVerdict(t, lines, "clean", "error", "initialize", "no answer within the situation's limit (-limit 2s)")
	peertest.WantVerdict(t, lines, "race-sweep", "skipped", "the warm-up did not complete")
	data, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatalf("the server did not write its child's pid: %v", rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if !gone(pid, 3*time.Second) {
		t.Errorf("the server's child %d still runs after the probe ended", pid)
	}
}

// alive reports whether process pid runs (a zombie, killed but not yet
// reaped, does not count).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// gone waits at most within for process pid to stop running (a signal
// lands asynchronously) and reports whether it has.
func gone(pid int, within time.Duration) bool {
	for deadline := time.Now().Add(within); alive(pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return !alive(pid)
}

// Rule: a server that exits in the middle of a call is reported
// with its exit status; the situations that need the warm-up are skipped.
func TestProbeServerCrashesMidCall(t *testing.T) {
	t.Parallel()
	_, lines, err := probeRun(t, "-limit", "10s", "--", "node", peertest.Path("crash.mjs"))
	if err == nil || exitCode(err) != 1 {
		t.Errorf("err = %v, want an error with exit 1", err)
	}
	peertest.WantVerdict(t, lines, "clean", "error", "the server exited (exit status 3)")
	peertest.WantVerdict(t, lines, "cancel-at-once", "skipped")
}

// Rule (README: -timeout bounds the whole probe): a probe stopped by its
// -timeout says so, not that the situation's -limit ran out.
func TestProbeSaysWhichLimitStoppedIt(t *testing.T) {
	t.Parallel()
	_, lines, err := probeRun(t, "-protocol", "2025-11-25", "-timeout", "1s", "--", "sh", peertest.Path("hang.sh"), filepath.Join(t.TempDir(), "child.pid"))
	if exitCode(err) != 1 {
		t.Errorf("err = %v, want exit 1", err)
	}
	peertest.WantVerdict(t, lines, "clean", "error", "initialize: no answer before the probe's overall limit ran out (-timeout 1s)")
}

// Rule (MCP stdio transport: the server must not write anything to its
// stdout that is not a valid MCP message): a line that is not JSON-RPC
// fails the situation, quoted with the message it came before, and is
// listed in probe.json; a server that writes nothing else is stopped and
// said to write non-JSON (not only "no answer").
func TestProbeStdoutNotJSONRPC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	err := runArgs(context.Background(), []string{"-protocol", "2025-11-25", "-checks", "-out", dir, "-only", "cancel-at-once", "--", "node", peertest.Path("fault.mjs"), "noise"}, &out, &errb)
	t.Logf("%s%s", out.String(), errb.String())
	if exitCode(err) != 3 || !strings.Contains(err.Error(), "stdout carries only JSON-RPC") {
		t.Errorf("err = %v, want exit 3 naming stdout", err)
	}
	if !strings.Contains(out.String(), `"DEBUG handling call" before the response to tools/call id 3`) {
		t.Errorf("the clean line does not quote the line and the message it preceded")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "probe.json")); !bytes.Contains(b, []byte(`"line": "DEBUG handling call"`)) {
		t.Errorf("probe.json does not list the line:\n%s", b)
	}

	_, lines, err := probeRun(t, "-protocol", "2025-11-25", "-only", "cancel-at-once", "--", "node", peertest.Path("fault.mjs"), "banner")
	if err != nil {
		t.Errorf("err = %v, want none without -checks", err)
	}
	peertest.WantVerdict(t, lines, "clean", "FAIL", `"Server starting on stdio..." before the response to initialize id 1`)

	start := time.Now()
	_, lines, err = probeRun(t, "-protocol", "2025-11-25", "-limit", "10s", "--", "yes", "garbage")
	if exitCode(err) != 1 {
		t.Errorf("err = %v, want exit 1 (the warm-up could not run)", err)
	}
	peertest.WantVerdict(t, lines, "clean", "FAIL", "initialize", `not JSON-RPC messages`, `"garbage"`)
	if time.Since(start) > 8*time.Second {
		t.Errorf("the probe waited %v for a server that writes only garbage", time.Since(start))
	}
}

// Rule (DOMAIN.md §3, progress-token-known; failure invented-progress-token):
// progress under a token the client never gave fails the clean call as
// `mcplab run -checks` fails its transcript, and the clean line says so
// rather than only "no progress".
func TestProbeInventedProgressToken(t *testing.T) {
	t.Parallel()
	out, lines, err := probeRun(t, "-checks", "-only", "cancel-at-once", "--", "node", peertest.Path("fault.mjs"), "badtoken")
	if exitCode(err) != 3 || !strings.Contains(err.Error(), "clean (progress-token-known)") {
		t.Errorf("err = %v, want exit 3 with clean (progress-token-known)", err)
	}
	peertest.WantVerdict(t, lines, "clean", "FAIL", `3 progress under a token the probe never gave ("WRONG")`)
	// The probe's checks line cites the transcript's lines, the words
	// run -checks prints for the same file (TestRunChecksCiteTranscriptLines).
	detail := regexp.MustCompile(`FAIL progress-token-known \((.*\(line [0-9]+(, line [0-9]+)*\).*)\)`).FindStringSubmatch(out)
	if detail == nil {
		t.Errorf("the checks line does not cite the transcript's lines:\n%s", out)
	} else {
		var e bytes.Buffer
		judgeFile(transcriptOf(t, out, "clean"), &e)
		if !strings.Contains(e.String(), "FAIL  progress-token-known: "+detail[1]+"\n") {
			t.Errorf("run -checks of the transcript words it otherwise: %q, want %q", e.String(), detail[1])
		}
	}
	if !strings.Contains(out, "FAIL progress-token-known") {
		t.Errorf("the checks line does not fail progress-token-known")
	}
	var e bytes.Buffer
	if err := judgeFile(transcriptOf(t, out, "clean"), &e); exitCode(err) != 3 || !strings.Contains(e.String(), "FAIL  progress-token-known") {
		t.Errorf("run -checks on clean: %v\n%s", err, e.String())
	}
}

// Rule (README: each situation is bounded by -limit): a sweep that cannot
// fit in the situation's limit is not an error of the server: it is sized
// to the time left or, with too little for three offsets, skipped with the
// -limit that would let it run; -checks exits 0.
func TestProbeRaceSweepSizedToTheLimit(t *testing.T) {
	t.Parallel()
	_, lines, err := probeRun(t, "-checks", "-limit", "3s", "-only", "race-sweep", "--", "node", peertest.Path("fault.mjs"), "ok", "200")
	if err != nil {
		t.Errorf("err = %v, want none", err)
	}
	peertest.WantVerdict(t, lines, "race-sweep", "skipped", "more than is left of the situation's limit (-limit 3s)", "would let it run")
	if l := lines["race-sweep"]; !regexp.MustCompile(`-limit (1[0-9]|[4-9])s would let it run`).MatchString(l) {
		t.Errorf("race-sweep does not name a -limit above 3s: %s", l)
	}
}

// Rule (README: exit 2 for bad input): a -tool the server does not list is
// the command line's fault; a situation that does not apply to stdio and
// was asked for by -only says so; a run that wrote no transcript leaves no
// temporary directory behind.
func TestProbeBadToolAndInapplicableSituation(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var out, errb bytes.Buffer
	err := runArgs(context.Background(), []string{"-tool", "nosuch", "--", "node", peertest.Path("fault.mjs")}, &out, &errb)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), `the server lists no tool "nosuch" (it lists t)`) {
		t.Errorf("err = %v (exit %d), want exit 2 naming the tool", err, exitCode(err))
	}
	out.Reset()
	_ = runArgs(context.Background(), []string{"-only", "http-close-stream", "--", "/nonexistent/server"}, &out, &errb)
	t.Logf("%s", out.String())
	if !strings.Contains(out.String(), "applies to Streamable HTTP only") {
		t.Errorf("-only http-close-stream on stdio does not say it does not apply")
	}
	if !strings.Contains(out.String(), "transcripts: none written") {
		t.Errorf("the output does not say no transcript was written")
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 1 { // the probe -tool run above keeps its transcript
		t.Errorf("runs left %d temporary directories, want 1 (the run with a transcript)", len(ents))
	}
}

// Rule: a server never reached is not "gone": the probe says it could not
// connect, or which HTTP status refused initialize and what a 401 wants;
// -header is sent with every request.
func TestProbeHTTPNeverReached(t *testing.T) {
	t.Parallel()
	var got []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.Error(w, "not here", http.StatusNotImplemented)
	}))
	defer srv.Close()
	_, lines, err := probeRun(t, srv.URL)
	if exitCode(err) != 1 {
		t.Errorf("err = %v, want exit 1", err)
	}
	peertest.WantVerdict(t, lines, "clean", "error", `initialize: HTTP 401 Unauthorized: the server wants authentication (WWW-Authenticate: Bearer realm="mcp")`, "-header 'Authorization: Bearer TOKEN'")
	_, lines, _ = probeRun(t, "-header", "Authorization: Bearer s3cret", srv.URL)
	peertest.WantVerdict(t, lines, "clean", "error", "initialize: HTTP 501 Not Implemented", `the body begins "not here"`)
	mu.Lock()
	if len(got) < 2 || got[len(got)-1] != "Bearer s3cret" {
		t.Errorf("the server saw Authorization %q, want the -header's last", got)
	}
	mu.Unlock()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, lines, _ = probeRun(t, "http://"+addr+"/mcp")
	peertest.WantVerdict(t, lines, "clean", "error", "server/discover: could not reach the server", "connection refused")
	if strings.Contains(lines["clean"], "gone") {
		t.Errorf("clean says the server is gone: %s", lines["clean"])
	}
}

// Rule (JSON-RPC 2.0: a response carries its request's id unchanged): a
// response with the number id as a string ends the wait at once, saying
// so, rather than waiting out the limit for an answer that came.
func TestProbeResponseIDAsString(t *testing.T) {
	t.Parallel()
	start := time.Now()
	_, lines, err := probeRun(t, "-protocol", "2025-11-25", "-only", "cancel-at-once", "--", "node", peertest.Path("fault.mjs"), "strid")
	if exitCode(err) != 1 {
		t.Errorf("err = %v, want exit 1", err)
	}
	peertest.WantVerdict(t, lines, "clean", "error", `the server answered request id 3 with id "3", a string`)
	if time.Since(start) > 5*time.Second {
		t.Errorf("the probe took %v: it waited out the limit", time.Since(start))
	}
}

// Rule (MCP 2025-11-25, Lifecycle, version negotiation: a server that does
// not support the offered revision answers another it supports; a client
// that does not support that one disconnects): a server answering an
// earlier MCP revision (2025-06-18) is probed, and the server line says
// which rules judge it; one answering a revision that is none of MCP's
// (1999-01-01) stops the probe at initialize, naming the revision and what
// was offered, and the probe exits 1, never passing it.
func TestProbeNegotiatedRevision(t *testing.T) {
	t.Parallel()
	out, lines, err := probeRun(t, "-checks", "-only", "cancel-at-once", "--", "node", peertest.Path("fault.mjs"), "oldproto")
	if err != nil {
		t.Errorf("an earlier revision: err = %v, want none", err)
	}
	if !strings.Contains(out, "negotiated 2025-06-18 (the server does not support 2025-11-25 and chose the earlier 2025-06-18") {
		t.Errorf("the server line does not say the server chose an earlier revision:\n%s", out)
	}
	peertest.WantVerdict(t, lines, "clean", "pass")

	_, lines, err = probeRun(t, "-checks", "-only", "cancel-at-once", "--", "node", peertest.Path("fault.mjs"), "badproto")
	if exitCode(err) != 1 {
		t.Errorf("a made-up revision: err = %v, want exit 1 (the probe cannot go on)", err)
	}
	peertest.WantVerdict(t, lines, "clean", "error", `protocolVersion "1999-01-01"`, "it offered 2025-11-25", "disconnects")
}

// testRequest is what the tests' own Streamable HTTP servers read of a
// POSTed JSON-RPC message: its id (nil for a notification), method, the
// protocol revision initialize offers and a call's progress token.
type testRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
		Meta            struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	} `json:"params"`
}

// Rule ("http-close-stream pass: the response stream had already ended
// before the probe could close it"): a situation that could not exercise
// the server is skipped, saying why, never passed. The server here sends
// progress on its first call (the warm-up), so the probe waits for a
// message about its later call before closing that call's stream; that
// call is answered at once, as plain JSON, so there is nothing left to
// close.
func TestProbeCloseStreamNotExercisedIsSkipped(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m testRequest
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{}`
		switch m.Method {
		case "initialize":
			result = fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"answers-at-once","version":"1"}}`, m.Params.ProtocolVersion)
		case "tools/list":
			result = `{"tools":[{"name":"quick","inputSchema":{"type":"object"}}]}`
		case "tools/call":
			result = `{"content":[{"type":"text","text":"done"}]}`
			if calls.Add(1) == 1 && m.Params.Meta.ProgressToken != nil {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":%s,\"progress\":1}}\n\n", m.Params.Meta.ProgressToken)
				w.(http.Flusher).Flush()
				time.Sleep(20 * time.Millisecond)
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", m.ID, result)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}))
	defer srv.Close()
	_, lines, _ := probeRun(t, "-only", "http-close-stream", srv.URL)
	peertest.WantVerdict(t, lines, "http-close-stream", "skipped", "the server had answered before the probe could close the response stream, so nothing was tested")
}
