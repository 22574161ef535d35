// Package loadavg reads the machine's load average, which the benchmarks
// print beside what they measure (a 2-core machine shared with other work
// moves every timing; make bench's figures are read with it).
package loadavg

import (
	"os"
	"strings"
)

// Read returns the first three fields of /proc/loadavg (the 1, 5 and 15
// minute load averages, e.g. "1.85 2.24 2.85"), or "unknown" where that
// file cannot be read or holds fewer fields (not Linux).
func Read() string {
	return parse(os.ReadFile("/proc/loadavg"))
}

func parse(b []byte, err error) string {
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
