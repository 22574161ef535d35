//go:build unix

package explore

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used so far (user + system,
// every thread), so the benchmark's ratio holds on a machine shared with
// other work, where wall-clock time mostly measures the wait for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
