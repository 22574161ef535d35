package site

// The command line of `mcplab mock` (package mock's tests play the mock
// itself): bad input is a usage error, and the transcript's verdicts are
// printed as `mcplab run -checks` prints them.

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMockUsage: a bad command line is a usage error (exit 2) naming what
// is wrong, before the mock serves anything; a scenario it cannot read
// gets the hint of what the mock takes (a file or a share link), never
// "- for standard input", which it refuses.
func TestMockUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noHandlers := filepath.Join(dir, "plain.json")
	if err := os.WriteFile(noHandlers, []byte(`{"mcplab":1,"steps":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := "../engine/examples/broken-handler-answers-after-cancel.json"
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no scenario", nil, "mock takes one scenario"},
		{"standard input", []string{"-"}, "the scenario cannot come from standard input"},
		{"no handlers", []string{noHandlers}, "has no server.handlers"},
		{"not loopback", []string{"-http", "192.0.2.1:7332", ok}, "the mock serves a loopback address only"},
		{"unknown situation", []string{"-situation", "nope"}, `-situation "nope": no such situation`},
		{"unknown revision", []string{"-protocol", "2024-01-01", ok}, `-protocol "2024-01-01": want auto`},
		{"a missing file: the hint names what the mock takes", []string{filepath.Join(dir, "missing.json")}, "give a scenario file or a share link (not standard input"},
		{"an empty file", []string{empty}, "is empty: want a scenario"},
		{"a transcript name with a directory", []string{"-name", "sub/t", ok}, `-name "sub/t": want a file name without a directory`},
	} {
		var out, errb bytes.Buffer
		err := mockMain(context.Background(), c.args, strings.NewReader(""), &out, &errb, nil)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "- for standard input") {
			t.Errorf("%s: mcplab mock %q: err %v (exit %d), want exit 2 with %q", c.name, c.args, err, exitCode(err), c.want)
		}
	}
}

// TestMockPrintsVerdicts: when the client leaves (its standard input
// ends), `mcplab mock` prints the transcript's path and its verdicts on
// stderr, as `mcplab run -checks` does (the same rules, message-valid
// among them, so the same tally); with -verdicts=false only the path.
func TestMockPrintsVerdicts(t *testing.T) {
	t.Parallel()
	hello := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	for _, verdicts := range []bool{true, false} {
		dir := t.TempDir()
		var errb bytes.Buffer
		args := []string{"-out", dir, "../engine/examples/broken-handler-answers-after-cancel.json"}
		if !verdicts {
			args = append([]string{"-verdicts=false"}, args...)
		}
		if err := mockMain(context.Background(), args, strings.NewReader(hello), io.Discard, &errb, nil); err != nil {
			t.Fatalf("mcplab mock %q: %v\n%s", args, err, errb.String())
		}
		said := errb.String()
		if !strings.Contains(said, "transcript "+filepath.Join(dir, "mock.jsonl")) {
			t.Errorf("-verdicts=%v: stderr does not name the transcript:\n%s", verdicts, said)
		}
		if got := strings.Contains(said, "checks: "); got != verdicts {
			t.Errorf("-verdicts=%v: the checks' count printed = %v:\n%s", verdicts, got, said)
		}
		if !verdicts {
			continue
		}
		// The mock's tally is run -checks' on the same file: both judge
		// message-valid, so neither counts a rule the other leaves out.
		var again bytes.Buffer
		if err := run([]string{"run", "-checks", filepath.Join(dir, "mock.jsonl")}, io.Discard, &again); err != nil && exitCode(err) != 3 {
			t.Fatalf("run -checks: %v\n%s", err, again.String())
		}
		if mine, runs := tally(said), tally(again.String()); mine == "" || mine != runs || !strings.Contains(said, "message-valid") {
			t.Errorf("the mock's tally %q, run -checks' %q: want the same, message-valid among them\nmock:\n%s\nrun:\n%s", mine, runs, said, again.String())
		}
	}
}

// tally is the "checks: N pass, N fail, N undecided" line of a verb's
// stderr ("" when there is none).
func tally(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "checks: ") {
			return line
		}
	}
	return ""
}
