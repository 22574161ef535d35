package site

// The command line of `mcplab probe` (package probe's tests drive the
// probe itself): bad flags are usage errors, and a report's outcome is
// the exit status.

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcplab/mcplab/site/internal/peertest"
	"github.com/mcplab/mcplab/site/internal/probe"
)

// Rule: a bad command line is a usage error (exit 2) that says what is wrong.
func TestProbeUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no server", nil, "probe needs a server"},
		{"args not an object", []string{"-args", "[1]", "--", "true"}, "-args must be a JSON object"},
		{"unknown situation", []string{"-only", "nope", "--", "true"}, `no situation is called "nope"`},
		{"unknown revision", []string{"-protocol", "2024-01-01", "--", "true"}, `-protocol: want auto, 2026-07-28, 2025-11-25, not "2024-01-01"`},
		{"flags after the URL", []string{"http://127.0.0.1:9/mcp", "-checks"}, "flags go before the URL"},
		{"not http", []string{"ftp://x/"}, "not ftp"},
		{"header on stdio", []string{"-header", "A: b", "--", "true"}, "-header is for a Streamable HTTP URL"},
		{"header without a colon", []string{"-header", "Authorization", "http://127.0.0.1:9/"}, "want 'Name: value'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(append([]string{"probe"}, tc.args...), &out, &errb)
			if exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v (exit %d), want exit 2 with %q", err, exitCode(err), tc.want)
			}
		})
	}
}

// Rule: the probe's outcome is the exit status: a situation that could
// not run is a failure (1), an option the server contradicts (a -tool it
// does not list) bad input (2).
func TestProbeExitStatuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no answer", []string{"-protocol", "2025-11-25", "-timeout", "1s", "--", "sh", peertest.Path("hang.sh"), filepath.Join(t.TempDir(), "child.pid")}, 1, "could not run to their end"},
		{"unknown tool", []string{"-tool", "nosuch", "--", "node", peertest.Path("fault.mjs")}, 2, `the server lists no tool "nosuch"`},
	} {
		var out, errb bytes.Buffer
		err := run(append([]string{"probe", "-out", t.TempDir()}, tc.args...), &out, &errb)
		if exitCode(err) != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%s: err = %v (exit %d), want exit %d saying %q\n%s", tc.name, err, exitCode(err), tc.code, tc.want, errb.String())
		}
	}
}

// probeRun runs `mcplab probe -out DIR args...` and returns its standard
// output, the situation lines by name (the line that starts with the
// name) and the error.
func probeRun(t *testing.T, args ...string) (string, map[string]string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(append([]string{"probe", "-out", t.TempDir()}, args...), &out, &errb)
	t.Logf("mcplab probe %s\n%s%s", strings.Join(args, " "), out.String(), errb.String())
	lines := peertest.SituationLines(out.String(), strings.Split(probe.Situations(), ", "))
	return out.String(), lines, err
}

// alive reports whether process pid is running (not a zombie).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// gone waits at most within for process pid to stop running (a signal
// lands asynchronously) and reports whether it has.
func gone(pid int, within time.Duration) bool {
	for deadline := time.Now().Add(within); alive(pid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return !alive(pid)
}
