//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
	var out, errb bytes.Buffer
	err := run([]string{"probe", "-out", dir, "--", "sh", "testdata/probe/hang.sh", pidFile}, &out, &errb)
	t.Logf("%s%s", out.String(), errb.String())
	if err == nil || !strings.Contains(err.Error(), "stopped by SIGTERM") || exitCode(err) != 1 {
		t.Errorf("err = %v, want stopped by SIGTERM (exit 1)", err)
	}
	if !strings.Contains(out.String(), "initialize: stopped by SIGTERM") || !strings.Contains(out.String(), "the probe was stopped by SIGTERM") {
		t.Errorf("the output does not say SIGTERM stopped the probe")
	}
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	deadline := time.Now().Add(3 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 || alive(pid) {
		t.Errorf("the server's child %d still runs after SIGTERM stopped the probe", pid)
	}
}
