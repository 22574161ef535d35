//go:build unix

package live

import (
	"os"
	"os/exec"
	"syscall"
)

// Signals are the signals that end a live verb the way its end does: the
// transcript is written and the child's process group killed.
var Signals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// setProcessGroup starts cmd as the leader of a new process group, so
// killGroup reaches every process it starts (a shell wrapper, npx, node
// and its workers).
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

// termGroup asks cmd's whole process group to end (SIGTERM), so a mock
// among them writes its transcript before killGroup.
func termGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
}
