//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// inGroup makes cmd the leader of a process group of its own, so that
// stop reaches `go run`, the server it starts and anything those start.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// stop ends the process group cmd leads: SIGINT first (the server exits,
// and `go run`, which ignores it, then exits on its own and removes its
// work directory), SIGKILL to the group if anything of it still runs after
// grace, then waits for cmd. It returns an error if a process of the group
// still runs 5 s after SIGKILL, which would be an orphan compressing in
// the background.
func stop(cmd *exec.Cmd, grace time.Duration) error {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGINT)
	waited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(waited)
	}()
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) && groupRuns(pgid) {
		time.Sleep(50 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-waited
	for range 100 {
		if !groupRuns(pgid) {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("a process of the server's process group still runs after SIGKILL")
}

// groupRuns reports whether a process of group pgid runs: from /proc, where
// a zombie (exited, not yet reaped) does not count, or, without /proc,
// whether the group can still be signalled.
func groupRuns(pgid int) bool {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, name := range stats {
		b, err := os.ReadFile(name)
		if err != nil {
			continue // exited since the glob
		}
		state, pgrp, ok := procStat(strings.TrimSpace(string(b)))
		if ok && pgrp == pgid && state != "Z" && state != "X" {
			return true
		}
	}
	return false
}
