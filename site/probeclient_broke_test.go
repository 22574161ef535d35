package site

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/site/internal/mock"
	"github.com/mcplab/mcplab/site/internal/probeclient"
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

// Rule (a close the lab caused is not the client's act): the Go SDK client
// waits past -limit for a response lost-response-mutation never sends, so
// probe-client stops it; the stream that breaks then is recorded as the
// lab's (mock.LabEndedNote), so neither revision's cancellation rule
// judges it (under 2025-11-25 it failed http-cancel-posts-notification,
// under 2026-07-28 it passed http-cancel-closes-stream), call-outcome-known
// is undecided rather than failed, and the situation is undecided, saying
// the lab ended the client.
func TestProbeClientLabEndedAtLimit(t *testing.T) {
	t.Parallel()
	bin := goClient(t)
	for _, tc := range []struct {
		protocol string
		cancel   trace.RuleID
	}{
		{"2025-11-25", checks.HTTPCancelPostsNotification},
		{"2026-07-28", checks.HTTPCancelClosesStream},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			t.Parallel()
			got, _ := probeClientJSON(t, "-protocol", tc.protocol, "-situation", "lost-response-mutation", "-transport", "streamable-http", "-limit", "8s", "--", bin)
			r := got["lost-response-mutation streamable-http"]
			if r.Verdict != probeclient.Undecided || !strings.Contains(r.Reason, "the lab ended the client") {
				t.Errorf("verdict %s (%s), want undecided saying the lab ended the client", r.Verdict, r.Reason)
			}
			if v := ruleOf(r, tc.cancel); v != "" {
				t.Errorf("%s %q: the lab's close was judged as the client's cancellation", tc.cancel, v)
			}
			if v := ruleOf(r, checks.CallOutcomeKnown); v != "undecided" {
				t.Errorf("%s %q, want undecided (ended by the lab)", checks.CallOutcomeKnown, v)
			}
			if b, err := os.ReadFile(r.Transcript); err != nil || !strings.Contains(string(b), `"actor":"network","type":"close-stream","note":"`+mock.LabEndedNote) {
				t.Errorf("the transcript does not mark the lab's close (%v):\n%s", err, b)
			}
		})
	}
}

// Rule (no dead path): every path of the -out directory that
// probe-client's output names, its own lines and the stdio mock's (on the
// client's stderr, "judge it again with mcplab run -checks PATH"), exists
// when probe-client returns, and the mock's line names the transcript
// probe-client reports: the stdio mock writes it where it stays.
func TestProbeClientNamesNoDeadPath(t *testing.T) {
	t.Parallel()
	bin := goClient(t)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	err := run([]string{"probe-client", "-out", dir, "-transport", "stdio", "-situation", "slow-progress", "-max-timeout", "5000", "--", bin, "timeout"}, &out, &errb)
	if err != nil && exitCode(err) != 3 {
		t.Fatalf("probe-client: %v\n%s%s", err, out.String(), errb.String())
	}
	said := out.String() + errb.String()
	named := regexp.MustCompile(regexp.QuoteMeta(dir)+`[^\s()]*`).FindAllString(said, -1)
	for _, p := range named {
		if _, serr := os.Stat(p); serr != nil {
			t.Errorf("the output names %s, which does not exist once probe-client returned (%v):\n%s", p, serr, said)
		}
	}
	want := filepath.Join(dir, "1-slow-progress.stdio.server.jsonl")
	if !strings.Contains(errb.String(), "mcplab mock: transcript "+want+" (") {
		t.Errorf("the stdio mock's line does not name the transcript probe-client reports, %s:\n%s", want, errb.String())
	}
	if len(named) < 2 {
		t.Errorf("the output names %d path(s) of %s, want the transcript's at least twice (the mock's line, probe-client's):\n%s", len(named), dir, said)
	}
}
