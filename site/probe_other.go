//go:build !unix

package main

import "os/exec"

// setProcessGroup: process groups are a Unix notion; elsewhere only the
// server process itself is killed at the end.
func setProcessGroup(*exec.Cmd) {}

// killGroup kills the server process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
