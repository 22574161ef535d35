//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd as the leader of a new process group, so
// killGroup reaches every process the server starts (a shell wrapper, npx,
// node and its workers).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's whole process group with SIGKILL.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	}
}
