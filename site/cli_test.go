package site

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// TestHelpNamesEveryVerb (make help listed build|serve|run|links): make
// help and the Makefile's header comment name every verb mcplab runs, and
// `mcplab help VERB` prints that verb's own usage and flags on stdout (it
// printed the general usage), exit 0; an unknown verb is a usage error
// naming the verbs, exit 2.
func TestHelpNamesEveryVerb(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `@echo "make mcplab  build the command as bin/mcplab (mcplab ` + strings.Join(verbs, "|") + `)"`; !strings.Contains(string(mk), want) {
		t.Errorf("make help does not say %s", want)
	}
	header := regexp.MustCompile(`(?m)^#   make mcplab .*\n(#  .*\n)*`).FindString(string(mk))
	for _, v := range verbs {
		if !regexp.MustCompile(`\b` + v + `\b`).MatchString(header) {
			t.Errorf("the Makefile's header for make mcplab does not name %s: %q", v, header)
		}
		var out, errOut bytes.Buffer
		err := run([]string{"help", v}, &out, &errOut)
		if err != nil || !strings.HasPrefix(out.String(), "usage: mcplab "+v) || strings.Contains(out.String(), "commands:") || errOut.Len() > 0 {
			t.Errorf("mcplab help %s: %v, stdout %q, stderr %q; want its own usage on stdout", v, err, out.String(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"help", "run"}, &out, &errOut); err != nil || !strings.Contains(out.String(), "-max-timeout ms") {
		t.Errorf("mcplab help run: %v, %q; want run's flags", err, out.String())
	}
	out.Reset()
	err = run([]string{"help", "nope"}, &out, &errOut)
	if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), "error: help nope: not a command; want one of build, serve, run, review, explore, probe, proxy, mock, probe-client, links, version") {
		t.Errorf("mcplab help nope: exit %d, stderr %q; want 2 naming the commands", code, errOut.String())
	}
}

// TestVersionTakesNoArguments (`mcplab version extra` ignored its
// argument): an argument to version is a usage error, exit 2, and nothing
// is printed on stdout.
func TestVersionTakesNoArguments(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"version", "extra"}, &out, &errOut)
	if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), `error: version takes no arguments, got ["extra"]`) || out.Len() > 0 {
		t.Errorf("mcplab version extra: exit %d, stdout %q, stderr %q; want 2 and the argument named", code, out.String(), errOut.String())
	}
}

// TestServeSaysWhatToDo (serve suggested "go run ./site/cmd/mcplab build" to a
// user of bin/mcplab, and a busy port gave only the system's words): a
// directory without index.html names mcplab's own build command (and the
// checkout's form), exit 2; a port another server holds says so and how to
// choose another (-addr or PORT=), exit 1.
func TestServeSaysWhatToDo(t *testing.T) {
	t.Setenv("PORT", "")
	missing := filepath.Join(t.TempDir(), "nodist")
	var out, errOut bytes.Buffer
	err := run([]string{"serve", "-dir", missing}, &out, &errOut)
	want := "error: " + missing + " has no index.html: build the site first (mcplab build -out " + missing + ", or go run ./site/cmd/mcplab build -out " + missing + " in a checkout), or serve with -build"
	if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), want) {
		t.Errorf("serve -dir %s: exit %d, stderr %q; want 2 and %q", missing, code, errOut.String(), want)
	}

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html>"), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	errOut.Reset()
	err = run([]string{"serve", "-dir", dir, "-addr", "127.0.0.1:" + port}, &out, &errOut)
	want = "address already in use: another server runs on port " + port + ": stop it, or choose another port with -addr (-addr :8081) or PORT= (PORT=8081)"
	if code := exitCode(err); code != 1 || !strings.Contains(errOut.String(), want) {
		t.Errorf("serve on a busy port: exit %d, stderr %q; want 1 and %q", code, errOut.String(), want)
	}
}

// TestLinksTakesNoArguments (`mcplab links extra` exited 0 ignoring
// its argument, while version refused one): an argument to links is a
// usage error in version's words, exit 2, and nothing is printed on
// stdout.
func TestLinksTakesNoArguments(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"links", "extra"}, &out, &errOut)
	if code := exitCode(err); code != 2 || !strings.Contains(errOut.String(), `error: links takes no arguments, got ["extra"]`) || out.Len() > 0 {
		t.Errorf("mcplab links extra: exit %d, stdout %q, stderr %q; want 2 and the argument named", code, out.String(), errOut.String())
	}
}

// fullWriter fails every write as a full disk does (`> /dev/full`).
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// TestWriteFailuresAreReported (`mcplab version > /dev/full`, `links`,
// `help X` and `-h` exited 0 in silence, while run and review said "error:
// write /dev/stdout: no space left on device" and exited 1): every verb
// that writes to stdout reports a failed write the same way, exit 1.
func TestWriteFailuresAreReported(t *testing.T) {
	cases := [][]string{{"version"}, {"links"}, {"-h"}, {"help"}, {"run", "#example=a-cancel-then-complete"}}
	for _, v := range verbs {
		cases = append(cases, []string{"help", v})
	}
	for _, args := range cases {
		var errOut bytes.Buffer
		err := run(args, fullWriter{}, &errOut)
		if code := exitCode(err); err == nil || code != 1 || errOut.String() != "error: write /dev/stdout: no space left on device\n" {
			t.Errorf("mcplab %s > /dev/full: exit %d, stderr %q; want 1 and the write error", strings.Join(args, " "), code, errOut.String())
		}
	}
}

// TestVerbUsageExitStatusesMatch (`mcplab run -h` listed exit
// statuses 0, 2, 3 and 4 but not 1, failure, which the top-level usage
// lists): a verb's usage that lists exit statuses lists each of the
// top-level usage's, in its words.
func TestVerbUsageExitStatusesMatch(t *testing.T) {
	top := regexp.MustCompile(`(?s)exit status: (.*)`).FindStringSubmatch(usage)
	if top == nil {
		t.Fatal("the top-level usage lists no exit status")
	}
	statuses := regexp.MustCompile(`\d [a-z][a-z ]*[a-z]`).FindAllString(strings.Join(strings.Fields(top[1]), " "), -1)
	if len(statuses) != 5 {
		t.Fatalf("the top-level usage's exit statuses: %q, want 0 to 4", statuses)
	}
	listed := 0
	for _, v := range verbs {
		var out, errOut bytes.Buffer
		if err := run([]string{"help", v}, &out, &errOut); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(out.String()), " ")
		if !strings.Contains(strings.ToLower(text), "exit status") {
			continue
		}
		listed++
		for _, s := range statuses {
			if !strings.Contains(text, s) {
				t.Errorf("mcplab help %s lists exit statuses without %q", v, s)
			}
		}
	}
	if listed == 0 {
		t.Error("no verb's usage lists exit statuses; run's does")
	}
}

// TestServeNamesABadPORT (`PORT=abc mcplab serve` said "lookup
// tcp/abc: unknown port" without naming PORT): a PORT that is not a port
// number (0 included: a server nobody can find) is a usage error naming
// the variable and its value, exit 2, before anything is built or served.
func TestServeNamesABadPORT(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nodist") // PORT is checked first: nothing is served
	for _, port := range []string{"abc", "0", "65536", "-1", "80 "} {
		t.Setenv("PORT", port)
		var out, errOut bytes.Buffer
		err := run([]string{"serve", "-dir", dir, "-addr", "127.0.0.1:0"}, &out, &errOut)
		want := fmt.Sprintf("error: PORT %q: not a port number (1-65535)\n", port)
		if code := exitCode(err); err == nil || code != 2 || errOut.String() != want || out.Len() > 0 {
			t.Errorf("PORT=%q mcplab serve: exit %d, stderr %q; want 2 and %q", port, code, errOut.String(), want)
		}
	}
}
