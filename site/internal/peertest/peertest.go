// Package peertest provides the real peers the live verbs' tests run
// (package probe's, probeclient's and the command's): the Go programs of
// site/testdata/probe/<name> (the Go SDK v1.8.0 server and client, the
// mark3labs/mcp-go client), built once per test binary, and the
// TypeScript SDK pinned by site/testdata/probe/ts/package-lock.json,
// installed there with npm ci. Tests in any directory find them by
// absolute path (Path), so the peers stay in one place.
package peertest

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// dir is site/testdata/probe, found from this file's own path.
var dir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "probe")
}()

// Path is the absolute path of elem under site/testdata/probe:
// Path("fault.mjs"), Path("ts", "client.mjs").
func Path(elem ...string) string {
	return filepath.Join(append([]string{dir}, elem...)...)
}

// binaries holds each test peer built from site/testdata/probe/<name>,
// once per test binary: the first test that needs one builds it, the
// others wait for it and share its path or its error.
var binaries = struct {
	sync.Mutex
	built map[string]*binary
}{built: map[string]*binary{}}

type binary struct {
	once sync.Once
	path string
	err  error
}

// Binary builds the Go program site/testdata/probe/<name> (go build, in
// the repository's module) once per test binary and returns its path; a
// failed build fails the test with the compiler's output.
func Binary(t testing.TB, name string) string {
	t.Helper()
	binaries.Lock()
	b := binaries.built[name]
	if b == nil {
		b = &binary{}
		binaries.built[name] = b
	}
	binaries.Unlock()
	b.once.Do(func() {
		tmp, err := os.MkdirTemp("", "mcplab-probe-"+name+"-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(tmp, name)
		cmd := exec.Command("go", "build", "-o", b.path, "./"+name)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = errors.New("go build ./testdata/probe/" + name + ": " + err.Error() + "\n" + string(out))
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

var (
	npmOnce sync.Once
	npmErr  error
)

// TypeScript installs the TypeScript SDK from the committed lockfile into
// site/testdata/probe/ts/node_modules with npm ci, unless the installed
// tree is already that lockfile's (npm writes
// node_modules/.package-lock.json). Test binaries running at once take
// turns (lockDir). A missing npm fails the test with what to install.
func TypeScript(t testing.TB) {
	t.Helper()
	npmOnce.Do(func() {
		if _, err := exec.LookPath("npm"); err != nil {
			npmErr = errors.New("npm is missing: the live tests run the TypeScript SDK's server and client; install Node.js and npm (apt-get install -y nodejs npm)")
			return
		}
		ts := Path("ts")
		unlock, err := lockDir(ts)
		if err != nil {
			npmErr = err
			return
		}
		defer unlock()
		if InstalledFromLock(ts) {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = ts
		if out, err := cmd.CombinedOutput(); err != nil {
			npmErr = errors.New("npm ci in " + ts + ": " + err.Error() + "\n" + string(out))
		}
	})
	if npmErr != nil {
		t.Fatal(npmErr)
	}
}

// InstalledFromLock reports whether dir/node_modules holds the packages of
// dir/package-lock.json (npm's hidden lockfile lists the same versions).
func InstalledFromLock(dir string) bool {
	lock, err1 := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	hidden, err2 := os.ReadFile(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if err1 != nil || err2 != nil {
		return false
	}
	return packageVersions(lock) == packageVersions(hidden) && packageVersions(lock) != ""
}

// packageVersions lists the "node_modules/...": version pairs of a lockfile.
func packageVersions(lock []byte) string {
	var b strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(lock))
	name := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, `"node_modules/`) {
			name = line
		}
		if name != "" && strings.HasPrefix(line, `"version":`) {
			b.WriteString(name + line + "\n")
			name = ""
		}
	}
	return b.String()
}
