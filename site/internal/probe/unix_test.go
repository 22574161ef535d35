//go:build unix

package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcplab/mcplab/site/internal/peertest"
)

// Rule (README: the server's whole process group is killed at the end):
// SIGTERM, like SIGINT, stops the probe as its limits do: the situation
// says it was stopped, the server and its child are killed, the rest is
// skipped. Not parallel: the signal goes to this test process, so no
// other probe may be running (parallel tests wait until this one ends).
func TestProbeSIGTERMKillsTheServer(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	go func() {
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if b, err := os.ReadFile(pidFile); err == nil && len(bytes.TrimSpace(b)) > 0 {
				time.Sleep(100 * time.Millisecond) // the probe waits for initialize's answer
				_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
				return
			}
		}
	}()
	var out bytes.Buffer
	var errb peertest.Buffer // the signal's line and the probe's lines come from two goroutines, as on a terminal
	err := runArgs(context.Background(), []string{"-protocol", "2025-11-25", "-out", dir, "--", "sh", peertest.Path("hang.sh"), pidFile}, &out, &errb)
	t.Logf("%s%s", out.String(), errb.String())
	if err == nil || !strings.Contains(err.Error(), "stopped by SIGTERM") || exitCode(err) != 1 {
		t.Errorf("err = %v, want stopped by SIGTERM (exit 1)", err)
	}
	if !strings.Contains(out.String(), "initialize: stopped by SIGTERM") || !strings.Contains(out.String(), "the probe was stopped by SIGTERM") {
		t.Errorf("the output does not say SIGTERM stopped the probe")
	}
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid == 0 || !gone(pid, 3*time.Second) {
		t.Errorf("the server's child %d still runs after SIGTERM stopped the probe", pid)
	}
}

// Rule (README: a signal ends the probe as its limits do): a server that
// takes a notification's POST and never answers it does not hold the
// probe after SIGINT; before, the probe waited out probeNotifyTimeout
// (5 s) for the 202 first. Not parallel, as above.
func TestProbeSIGINTDuringANotificationsPOST(t *testing.T) {
	held := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m testRequest
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if m.Method == "initialize" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"holds-notifications","version":"1"}}}`, m.ID, m.Params.ProtocolVersion)
			return
		}
		if m.ID == nil {
			once.Do(func() { close(held) })
			<-r.Context().Done() // never answers the notification
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	sent := make(chan time.Time, 1) // when the signal was sent
	go func() {
		select {
		case <-held:
			time.Sleep(100 * time.Millisecond)
			sent <- time.Now()
			_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
		case <-time.After(20 * time.Second):
		}
	}()
	var out bytes.Buffer
	var errb peertest.Buffer
	err := runArgs(context.Background(), []string{"-protocol", "2025-11-25", "-out", t.TempDir(), srv.URL}, &out, &errb)
	returned := time.Now()
	t.Logf("%s%s", out.String(), errb.String())
	var signalled time.Time
	select {
	case signalled = <-sent:
	default:
	}
	if signalled.IsZero() {
		t.Fatal("the server never got a notification to hold")
	}
	if err == nil || !strings.Contains(err.Error(), "stopped by SIGINT") {
		t.Errorf("err = %v, want stopped by SIGINT", err)
	}
	if !strings.Contains(errb.String(), "probe: SIGINT: stopping (the session is closed)") {
		t.Errorf("stderr = %q, want it to say the session is closed (no server process to kill with -url)", errb.String())
	}
	// The POST began 100 ms before the signal: waiting out the rest of
	// probeNotifyTimeout takes 4.9 s; stopping at the signal, milliseconds.
	if waited := returned.Sub(signalled); waited >= probeNotifyTimeout/2 {
		t.Errorf("the probe returned %v after SIGINT: it waited out probeNotifyTimeout (%v) for the held notification", waited, probeNotifyTimeout)
	}
}

// TestProbeSaysTheServerEchoes (`probe -- cat` said "the server
// answered an error: the mcplab probe answers no initialize", its own
// answer to its own echoed request): a "server" that writes the probe's
// request back is said to echo its input, exit 1, and the probe does not
// answer the echo (its transcript holds only its initialize and the copy).
func TestProbeSaysTheServerEchoes(t *testing.T) {
	t.Parallel()
	out, lines, err := probeRun(t, "-protocol", "2025-11-25", "-limit", "5s", "--", "cat")
	if code := exitCode(err); code != 1 {
		t.Errorf("probe -- cat: exit %d (%v), want 1 (the warm-up could not run)", code, err)
	}
	peertest.WantVerdict(t, lines, "clean", "error", "initialize: the server sent the probe's initialize request back instead of answering it (is it an MCP server, or does it echo its input?)")
	if strings.Contains(out, "answers no initialize") {
		t.Errorf("the probe answered its own echoed request:\n%s", out)
	}
	b, err := os.ReadFile(transcriptOf(t, out, "clean"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"from":"client"`); n != 1 {
		t.Errorf("the probe wrote %d messages, want its initialize alone:\n%s", n, b)
	}
}
