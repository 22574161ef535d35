//go:build !unix

package engine_test

import (
	"os"
	"strconv"
	"strings"
	"time"
)

var wallStart = time.Now()

// cpuTime is the CPU time of the process the test runs in, read from
// /proc/self/stat: under WebAssembly that is Node's own process (the wasm
// thread, V8's compiler and collector threads), reached through Node's fs,
// which is how GOOS=js opens files. Fields 14 and 15 (utime, stime) count
// clock ticks of 10 ms (USER_HZ 100 on Linux), so a benchmark reads it
// around its whole loop, never around one call. Where there is no
// /proc (not Linux) it is wall-clock time since the test began.
func cpuTime() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return time.Since(wallStart)
	}
	s := string(b)
	// The command name (field 2) is in parentheses and may hold spaces.
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return time.Since(wallStart)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return time.Since(wallStart)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
