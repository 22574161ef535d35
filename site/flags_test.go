package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/checks/schema"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/examples"
)

// TestRunFlagsAfterFile: `site run FILE -side server` works like `site run
// -side server FILE` (a newcomer typed it that way and got "3 arguments").
func TestRunFlagsAfterFile(t *testing.T) {
	log := filepath.Join(t.TempDir(), "server.log")
	data := "read: {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"work\"}}\n" +
		"read: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}\n" +
		"write: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[]}}\n"
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"run", log, "-side", "server"}, {"run", "-side", "server", log}} {
		var out, errOut bytes.Buffer
		if err := run(args, &out, &errOut); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut.String())
		}
		var tr struct {
			Source struct {
				Side string `json:"side"`
			} `json:"source"`
		}
		if err := json.Unmarshal(out.Bytes(), &tr); err != nil || tr.Source.Side != "server" {
			t.Fatalf("%v: side %q (%v), want server", args, tr.Source.Side, err)
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"run", log, "extra"}, &out, &errOut); err == nil {
		t.Fatal("two files must be a usage error")
	}
}

// cliTrace is the trace `run` prints for ex: the native engine's with rule
// message-valid (package checks/schema) added, which only the native
// command links.
func cliTrace(t *testing.T, ex examples.Example) []byte {
	t.Helper()
	res, err := entry.Run(ex.JSON, entry.Document{Options: nativeOptions})
	if err != nil {
		t.Fatalf("native engine on %s: %v", ex.Name, err)
	}
	res.Trace.Checks = append(res.Trace.Checks, schema.Check(res.Trace))
	out, err := engine.Encode(res.Trace)
	if err != nil {
		t.Fatalf("encode %s: %v", ex.Name, err)
	}
	return out
}

// TestRunChecksExitCode: `site run -checks` is what a CI job runs. Over every
// built-in scenario it lists each check on stderr with the verdict the
// native engine gives, still prints the trace on stdout, and fails (exit
// status 3, not the 2 of a bad scenario) exactly when some check is
// violated: every broken- twin (DOMAIN.md §11, each exists to fail a rule)
// fails, and a scenario whose checks all hold or are undecided passes.
func TestRunChecksExitCode(t *testing.T) {
	sawFail, sawPass := false, false
	for _, ex := range examples.All() {
		_, tr := nativeTrace(t, ex)
		native := cliTrace(t, ex)
		var violated []string
		for _, c := range tr.Checks {
			if c.OK != nil && !*c.OK {
				violated = append(violated, string(c.Rule))
			}
		}
		file := filepath.Join("..", "engine", "examples", ex.Name+".json")
		var out, errOut bytes.Buffer
		err := run([]string{"run", "-checks", file}, &out, &errOut)
		if !bytes.Equal(out.Bytes(), native) {
			t.Errorf("%s: run -checks printed a different trace from the native engine", ex.Name)
		}
		if strings.HasPrefix(ex.Name, "broken-") && len(violated) == 0 {
			t.Errorf("%s: a broken- twin violates no check", ex.Name)
		}
		if len(violated) == 0 {
			sawPass = true
			if err != nil {
				t.Errorf("%s: run -checks = %v, want success (no check violated)", ex.Name, err)
			}
			continue
		}
		sawFail = true
		if code := exitCode(err); err == nil || code != 3 {
			t.Errorf("%s: run -checks = %v (exit %d), want exit 3 for %v", ex.Name, err, code, violated)
		}
		for _, rule := range violated {
			if !strings.Contains(errOut.String(), "FAIL  "+rule+": ") {
				t.Errorf("%s: stderr does not list FAIL  %s:\n%s", ex.Name, rule, errOut.String())
			}
		}
		if want := fmt.Sprintf(", %d fail, ", len(violated)); !strings.Contains(errOut.String(), want) {
			t.Errorf("%s: stderr lacks the count %q:\n%s", ex.Name, want, errOut.String())
		}
	}
	if !sawFail || !sawPass {
		t.Errorf("want built-in scenarios that pass and that fail; pass %v, fail %v", sawPass, sawFail)
	}
	// Without -checks the exit status ignores the checks (the trace is the
	// output), as before.
	var out, errOut bytes.Buffer
	if err := run([]string{"run", filepath.Join("..", "engine", "examples", "broken-respond-after-cancel.json")}, &out, &errOut); err != nil || errOut.Len() != 0 {
		t.Errorf("run without -checks on a broken scenario = %v, stderr %q; want success and a quiet stderr", err, errOut.String())
	}
}

// TestUsageNamesTheCommand: every subcommand's usage (-h) names the command
// a user types, mcplab, never the package directory it is built from.
func TestUsageNamesTheCommand(t *testing.T) {
	for _, cmd := range []string{"run", "review", "probe", "links", "build", "serve"} {
		var out, errOut bytes.Buffer
		_ = run([]string{cmd, "-h"}, &out, &errOut)
		text := out.String() + errOut.String()
		if !strings.Contains(text, "usage: mcplab "+cmd) || strings.Contains(text, "site "+cmd) {
			t.Errorf("%s -h says:\n%.300s\nwant \"usage: mcplab %s\" and no \"site %s\"", cmd, text, cmd, cmd)
		}
	}
}

// TestEmptyInput: an empty file (or whitespace only) is a usage error that
// says it is empty, for run and review alike, not a transcript parser's
// "no messages" or "invalid JSON: EOF".
func TestEmptyInput(t *testing.T) {
	f := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(f, []byte(" \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"run", "review"} {
		var out, errOut bytes.Buffer
		err := run([]string{cmd, f}, &out, &errOut)
		if err == nil || exitCode(err) != 2 || !strings.Contains(errOut.String(), f+" is empty") {
			t.Errorf("%s on an empty file: %v %q, want exit 2 saying it is empty", cmd, err, errOut.String())
		}
	}
}
