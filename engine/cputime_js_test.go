//go:build js

package engine_test

import (
	"os"
	"strconv"
	"strings"
	"time"
)

var wallStart = time.Now()

// cpuTime is, under WebAssembly, the CPU time of Node's main thread, the
// one thread that runs the wasm module (the Go code and its collector),
// read in nanoseconds from /proc/self/schedstat (field 1; on Linux that
// file of the process is its main thread's). It leaves out Node's other
// threads: V8 compiling the module in the background and libuv's pool, so
// the figure is the program's own work, as a page's worker does it. One
// read costs 1-5 ms of the main thread (Node's fs, reached through
// syscall/js callbacks), so a benchmark reads it around its whole loop of
// hundreds of runs, never around one call. Where there is no /proc (not
// Linux) it is wall-clock time since the test began.
func cpuTime() time.Duration {
	b, err := os.ReadFile("/proc/self/schedstat")
	if err != nil {
		return time.Since(wallStart)
	}
	f := strings.Fields(string(b))
	if len(f) < 1 {
		return time.Since(wallStart)
	}
	ns, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return time.Since(wallStart)
	}
	return time.Duration(ns)
}
