package build

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseBaseURL proves the base URL (-base-url) takes an absolute http(s) URL, adds the
// trailing slash, and refuses anything else with a message that shows the
// expected form.
func TestParseBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "",
		"https://lab.example":        "https://lab.example/",
		"https://lab.example/mcplab": "https://lab.example/mcplab/",
		"http://localhost:8080/":     "http://localhost:8080/",
	} {
		if got, err := ParseBaseURL(in); err != nil || got != want {
			t.Errorf("ParseBaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"lab.example", "/mcplab/", "ftp://lab.example/", "https://lab.example/?x=1", "https://lab.example/#top"} {
		if _, err := ParseBaseURL(bad); err == nil || !strings.Contains(err.Error(), "absolute http or https URL") {
			t.Errorf("ParseBaseURL(%q) error = %v; want one asking for an absolute http or https URL", bad, err)
		}
	}
}

// Rule: the 404 page links from the site root the build was told
// (-base-url's path), or "/".
func TestSiteRootPath(t *testing.T) {
	for in, want := range map[string]string{"": "/", "https://lab.example/": "/", "https://lab.example/mcplab/": "/mcplab/"} {
		if got := SiteRootPath(in); got != want {
			t.Errorf("SiteRootPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// Rule: a build whose output directory cannot be made fails at once with
// an error that names the directory, before it compiles or writes
// anything.
func TestStartNamesAnOutputItCannotMake(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dist")
	if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(file, "site")
	var log bytes.Buffer
	finish, err := Start(context.Background(), Options{Out: out, Log: &log})
	if err == nil || finish != nil || !strings.Contains(err.Error(), out) {
		t.Fatalf("Start(Out: %s) = %v; want no finish and an error naming %s", out, err, out)
	}
	if log.Len() != 0 {
		t.Errorf("the failed build printed %q; want nothing, since no phase ran", log.String())
	}
}

// The build compiles the simulator from mcplab's source, so run outside
// a checkout (an installed mcplab in another directory) it says so and
// where to run it, before it writes anything.
func TestStartOutsideACheckoutSaysWhereToRun(t *testing.T) {
	t.Chdir(t.TempDir())
	out := filepath.Join(t.TempDir(), "dist")
	_, err := Start(context.Background(), Options{Out: out})
	if err == nil || !strings.Contains(err.Error(), "not in a checkout of github.com/mcplab/mcplab") || !strings.Contains(err.Error(), "git clone") {
		t.Fatalf("Start outside a checkout: %v; want an error naming the checkout to run in", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("Start outside a checkout made %s (%v); want nothing written", out, statErr)
	}
}
