//go:build unix

package probe

import (
	"os"
	"os/exec"
	"syscall"
)

// probeSignals are the signals that stop the probe the way its limits do:
// the current situation ends, its server's process group is killed, the
// remaining situations are skipped and probe.json is written.
var probeSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// signalName is the conventional name of a probe signal ("SIGTERM").
func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

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

// termGroup asks cmd's whole process group to end with SIGTERM.
func termGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
}
