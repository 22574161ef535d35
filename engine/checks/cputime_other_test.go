//go:build !unix

package checks_test

import "time"

var start = time.Now()

// cpuTime is wall-clock time where the process's CPU time cannot be read
// (WebAssembly).
func cpuTime() time.Duration { return time.Since(start) }
