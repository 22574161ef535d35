//go:build unix

package main

import (
	"context"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Stopping a run reaches every process of its group, a child that ignores
// SIGINT included (a shell's background job does): afterwards none runs
// and the output pipe is closed, so nothing keeps working behind the next
// measurement.
func TestFinishLeavesNoProcessOfTheGroup(t *testing.T) {
	s := &steps{ctx: context.Background(), dir: t.TempDir(), env: os.Environ(), progress: io.Discard, timeout: time.Minute, grace: 200 * time.Millisecond}
	cmd, lines, err := s.start("test", time.Now(), "sh", "-c", "sleep 60 & echo started; wait")
	if err != nil {
		t.Fatal(err)
	}
	if l := <-lines; strings.TrimSpace(l.text) != "started" {
		t.Fatalf("first line %q, want started", l.text)
	}
	pgid := cmd.Process.Pid
	// Should finish miss a process, the test ends it rather than leave it.
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	if !groupRuns(pgid) {
		t.Fatal("the group does not run before it is stopped")
	}
	begin := time.Now()
	if err := s.finish("test", cmd, lines); err != nil {
		t.Fatal(err)
	}
	if groupRuns(pgid) {
		t.Error("a process of the group still runs after finish")
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("finish took %v; the SIGKILL should follow 200 ms after SIGINT", d)
	}
}
