//go:build !unix

package main

import (
	"os/exec"
	"time"
)

// inGroup does nothing where there are no process groups.
func inGroup(cmd *exec.Cmd) {}

// stop kills the process cmd runs and waits for it. Without process groups
// the server `go run` started is not reached: measure on a unix system.
func stop(cmd *exec.Cmd, grace time.Duration) error {
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return nil
}
