package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestProbeClientNeverRan: a client that exits at once (false) never
// launches the mock, so no run happened: probe-client fails with exit 1
// (a run that could not happen, with or without -checks) and says no
// transcript was written rather than pointing at an empty directory.
func TestProbeClientNeverRan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		flags []string
	}{
		{"text with -checks", []string{"-checks"}},
		{"text without -checks", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append(append([]string{"probe-client", "-out", t.TempDir()}, c.flags...), "-transport", "stdio", "-situation", "slow-progress", "--", "false")
			err := run(args, &out, &errb)
			if code := exitCode(err); code != 1 {
				t.Errorf("exit %d (%v), want 1: the run could not happen\n%s%s", code, err, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), "transcripts: none written") {
				t.Errorf("output does not say no transcript was written:\n%s", out.String())
			}
		})
	}
}
