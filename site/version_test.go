package site

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// Rule (README, "Commands"; the exit-4 message asks for a bug report):
// `mcplab version` prints one line naming the build to quote in a report:
// "mcplab VERSION (commit REV..., DATE) GOVERSION". A binary built from
// this git checkout names its commit (go build stamps it), and the
// toolchain it was built with; -version and --version say the same.
func TestVersionNamesTheBuild(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"version"}, &out, &errOut); err != nil {
		t.Fatalf("mcplab version: %v (%s)", err, errOut.String())
	}
	line := strings.TrimSpace(out.String())
	if !regexp.MustCompile(`^mcplab \S+ \((commit [0-9a-f]{12}(, modified)?(, \S+)?|commit unknown)\) ` + regexp.QuoteMeta(runtime.Version()) + `$`).MatchString(line) {
		t.Errorf("mcplab version printed %q", line)
	}
	for _, flag := range []string{"-version", "--version"} {
		var again bytes.Buffer
		if err := run([]string{flag}, &again, &errOut); err != nil || again.String() != out.String() {
			t.Errorf("mcplab %s: %q, %v; want what version prints", flag, again.String(), err)
		}
	}
	// A binary built in a git clone as make mcplab builds it
	// (-buildvcs=auto) knows its commit. Go stamps it only where the
	// repository's .git is a directory (a clone, not a git worktree, whose
	// .git is a file, nor an exported tree): there the line says
	// "commit unknown".
	bin := filepath.Join(t.TempDir(), "mcplab")
	if b, err := exec.Command("go", "build", "-buildvcs=auto", "-o", bin, "./cmd/mcplab").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	b, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "(commit unknown)"
	if top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output(); err == nil {
		if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err == nil && fi.IsDir() {
			rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
			if err != nil {
				t.Fatal(err)
			}
			want = "(commit " + string(rev[:12])
		}
	}
	if !strings.Contains(string(b), want) {
		t.Errorf("the built binary says %q, want it to say %s", b, want)
	}
}
