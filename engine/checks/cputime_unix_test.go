//go:build unix

package checks_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used (user + system), so a
// benchmark's ratios hold on a machine shared with other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
