package site

// Tests of the live verbs composed with one another as a user composes
// them: the probe launches `mcplab mock` or `mcplab proxy -- mcplab mock`
// as its stdio server, once per situation, each a real process (this test
// binary run as mcplab, asMcplabEnv), and every process's transcript is
// kept.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/site/internal/peertest"
)

// asMcplab is the command line that runs this test binary as mcplab.
func asMcplab(t *testing.T, args ...string) []string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"env", asMcplabEnv + "=1", self}, args...)
}

// transcriptsIn reads the transcripts named glob in dir.
func transcriptsIn(t *testing.T, dir, glob string) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, glob))
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
	}
	return out
}

// Rule (mock: it never replaces a transcript): the probe starts a fresh
// mock for its warm-up and for each situation, all with one -out
// directory; each writes its own file (mock.jsonl, mock-2.jsonl…), so
// the server's view of the cancelled call survives and convicts the
// broken handler as the probe does.
func TestMockUnderProbeKeepsEveryTranscript(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	argv := append([]string{"-protocol", "2025-11-25", "-only", "cancel-after-progress", "--"},
		asMcplab(t, "mock", "-out", out, "../engine/examples/broken-handler-answers-after-cancel.json")...)
	_, lines, _ := probeRun(t, argv...)
	peertest.WantVerdict(t, lines, "cancel-after-progress", "FAIL", "MESSAGE AFTER THE ACCEPTED CANCELLATION")
	files := transcriptsIn(t, out, "mock*.jsonl")
	if len(files) < 2 {
		t.Fatalf("%d mock transcripts, want one per mock the probe started (two or more): %v", len(files), files)
	}
	if _, ok := files[filepath.Join(out, "mock.jsonl")]; !ok {
		t.Errorf("no mock.jsonl among %d files", len(files))
	}
	convicted := 0
	for f, b := range files {
		v, _ := judge(t, f)
		if bytes.Contains(b, []byte("notifications/cancelled")) && v["no-message-after-cancel"] == "FAIL" {
			convicted++
		}
	}
	if convicted == 0 {
		t.Errorf("no mock transcript holds the cancelled call that no-message-after-cancel fails")
	}
}

// Rule (proxy: it records as messages pass, into -out made at start; the
// probe ends its server gently): `mcplab proxy -out DIR -- mcplab mock`
// as the probe's server leaves a proxy transcript per situation, each
// importable, one holding the cancellation the probe sent.
func TestProxyUnderProbeWritesItsTranscript(t *testing.T) {
	t.Parallel()
	out, mocks := filepath.Join(t.TempDir(), "made-by-the-proxy"), t.TempDir()
	argv := append([]string{"-protocol", "2025-11-25", "-only", "cancel-after-progress", "--"},
		asMcplab(t, append([]string{"proxy", "-out", out, "--"},
			asMcplab(t, "mock", "-out", mocks, "../engine/examples/broken-handler-answers-after-cancel.json")...)...)...)
	_, lines, _ := probeRun(t, argv...)
	peertest.WantVerdict(t, lines, "cancel-after-progress", "FAIL", "MESSAGE AFTER THE ACCEPTED CANCELLATION")
	files := transcriptsIn(t, out, "proxy*.jsonl")
	if len(files) < 2 {
		t.Fatalf("%d proxy transcripts in %s, want one per proxy the probe started (two or more)", len(files), out)
	}
	cancelled := false
	for f, b := range files {
		if _, err := judge(t, f); err != nil && exitCode(err) != 3 {
			t.Errorf("%s does not import: %v", f, err)
		}
		cancelled = cancelled || bytes.Contains(b, []byte("notifications/cancelled"))
	}
	if !cancelled {
		t.Errorf("no proxy transcript holds the probe's notifications/cancelled")
	}
	if n := len(transcriptsIn(t, mocks, "mock*.jsonl")); n < 2 {
		t.Errorf("%d mock transcripts behind the proxies, want two or more", n)
	}
}

// judge runs `mcplab run -checks` on a transcript and returns its checks'
// lines by rule ("pass", "FAIL" or "?") and run's error.
func judge(t *testing.T, file string, extra ...string) (map[string]string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(append(append([]string{"run", "-checks"}, extra...), file), &out, &errb)
	verdicts := map[string]string{}
	for _, l := range strings.Split(errb.String(), "\n") {
		f := strings.Fields(strings.TrimSuffix(l, ":"))
		if len(f) >= 2 && (f[0] == "pass" || f[0] == "FAIL" || f[0] == "?") {
			verdicts[strings.TrimSuffix(f[1], ":")] = f[0]
		}
	}
	return verdicts, err
}
