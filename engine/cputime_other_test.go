//go:build !unix && !js

package engine_test

import "time"

var wallStart = time.Now()

// cpuTime is wall-clock time since the test began where neither the
// process's CPU time (cputime_unix_test.go) nor Node's main thread's
// (cputime_js_test.go) can be read.
func cpuTime() time.Duration { return time.Since(wallStart) }
