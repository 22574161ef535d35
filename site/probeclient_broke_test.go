package main

import (
	"bytes"
	"encoding/json"
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

// TestProbeClientStagedJSON: in progress-after-final the mock sends
// progress after the final response on purpose, so no-progress-after-final
// fails by the mock's own doing: -json marks that check staged, gives the
// verdict's reason line, and the stdio mock's own verdict lines (judged
// without the staged rule left out) stay out of probe-client's output.
func TestProbeClientStagedJSON(t *testing.T) {
	t.Parallel()
	bin := goClient(t)
	var out, errb bytes.Buffer
	err := run([]string{"probe-client", "-json", "-out", t.TempDir(), "-transport", "stdio", "-situation", "progress-after-final", "-max-timeout", "5000", "--", bin, "timeout"}, &out, &errb)
	if err != nil {
		t.Errorf("probe-client: %v\n%s", err, errb.String())
	}
	var doc struct {
		Situations []map[string]any `json:"situations"`
	}
	if jerr := json.Unmarshal(out.Bytes(), &doc); jerr != nil || len(doc.Situations) != 1 {
		t.Fatalf("-json: %v, %d situations\n%s", jerr, len(doc.Situations), out.String())
	}
	s := doc.Situations[0]
	if reason, _ := s["reason"].(string); !strings.Contains(reason, "client exited") {
		t.Errorf("reason %q, want the verdict's reason line (how the client's run went)", reason)
	}
	checks, _ := s["checks"].([]any)
	staged := map[string]bool{}
	for _, c := range checks {
		m, _ := c.(map[string]any)
		if m["staged"] == true {
			staged[m["rule"].(string)] = true
		}
	}
	if !staged["no-progress-after-final"] || len(staged) != 1 {
		t.Errorf("staged checks %v, want exactly no-progress-after-final", staged)
	}
	for _, leak := range []string{"client: FAIL", "client: error:", "check(s) failed"} {
		if strings.Contains(errb.String(), leak) {
			t.Errorf("the inner mock's own verdict leaks into probe-client's output (%q):\n%s", leak, errb.String())
		}
	}
}
