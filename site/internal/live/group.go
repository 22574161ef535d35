package live

import "os/exec"

// StartGroup starts cmd as the leader of a new process group (on Unix),
// so KillGroup reaches every process it starts: a client's shell wrapper,
// npx, node and its workers.
func StartGroup(cmd *exec.Cmd) error {
	setProcessGroup(cmd)
	return cmd.Start()
}

// KillGroup kills cmd's whole process group with SIGKILL (elsewhere the
// process itself).
func KillGroup(cmd *exec.Cmd) { killGroup(cmd) }

// TermGroup asks cmd's whole process group to end with SIGTERM (on Unix;
// elsewhere it does nothing): a process that writes something on its way
// out, such as a stdio mock's transcript, gets to write it.
func TermGroup(cmd *exec.Cmd) { termGroup(cmd) }
