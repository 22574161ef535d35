//go:build !unix

package explore

import "time"

var wallStart = time.Now()

// cpuTime is wall-clock time since the test began where the process's CPU
// time (cputime_unix_test.go) cannot be read.
func cpuTime() time.Duration { return time.Since(wallStart) }
