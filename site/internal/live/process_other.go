//go:build !unix

package live

import (
	"os"
	"os/exec"
)

// Signals: elsewhere only an interrupt (Ctrl-C) ends a live verb.
var Signals = []os.Signal{os.Interrupt}

// setProcessGroup: process groups are a Unix notion; elsewhere only the
// child process itself is killed at the end.
func setProcessGroup(*exec.Cmd) {}

// killGroup kills the child process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// termGroup: elsewhere a process is only killed (killGroup).
func termGroup(*exec.Cmd) {}
