package peertest

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// Buffer is a bytes.Buffer that goroutines may write while a test reads
// it, as a live verb's goroutines write its terminal.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p, under the lock.
func (w *Buffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// String is what was written so far.
func (w *Buffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// SituationLines returns the lines of a probe's output that start with a
// situation's name (one of names, then a space), keyed by that name.
func SituationLines(out string, names []string) map[string]string {
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		for _, name := range names {
			if strings.HasPrefix(l, name+" ") {
				lines[name] = l
			}
		}
	}
	return lines
}

// WantVerdict checks that situation name has a line in lines whose second
// field is verdict ("pass", "FAIL", "undecided") and that the line holds
// every phrase of contains.
func WantVerdict(t *testing.T, lines map[string]string, name, verdict string, contains ...string) {
	t.Helper()
	l, ok := lines[name]
	if !ok {
		t.Errorf("no line for situation %s", name)
		return
	}
	if f := strings.Fields(l); len(f) < 2 || f[1] != verdict {
		t.Errorf("%s: verdict %q, want %q: %s", name, f, verdict, l)
	}
	for _, c := range contains {
		if !strings.Contains(l, c) {
			t.Errorf("%s: line lacks %q: %s", name, c, l)
		}
	}
}
