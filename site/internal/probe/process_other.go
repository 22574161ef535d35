//go:build !unix

package probe

import (
	"os"
	"os/exec"
)

// probeSignals: elsewhere only an interrupt (Ctrl-C) stops the probe the
// way its limits do.
var probeSignals = []os.Signal{os.Interrupt}

// signalName names a probe signal.
func signalName(s os.Signal) string { return s.String() }

// setProcessGroup: process groups are a Unix notion; elsewhere only the
// server process itself is killed at the end.
func setProcessGroup(*exec.Cmd) {}

// killGroup kills the server process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// termGroup: elsewhere there is no SIGTERM to ask with; killGroup follows.
func termGroup(*exec.Cmd) {}
