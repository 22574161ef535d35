package main

// The site under test: built once per test binary by the site command's own
// build, served by its own handler, and only when a test needs it.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
)

// siteURL is the base URL (no trailing slash) of the site under test: a
// server TestMain starts at once, which builds the site on first use
// (ensureSite), so tests that never touch it never build it.
var siteURL string

// testBaseURL is the -base-url the test site is built with: the oEmbed
// files name it; no page may fetch from it (the harness fails any request
// that leaves the origin).
const testBaseURL = "https://lab.example/mcplab/"

var (
	siteOnce    sync.Once
	siteDir     string
	siteHandler http.Handler
	siteErr     error
)

// startSite starts the server at siteURL and returns the function that
// stops it and removes the built site. The server builds the site on its
// first request; newTab builds it before opening a tab on it (ensureSite).
func startSite() (stop func()) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := buildSite(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		siteHandler.ServeHTTP(w, r)
	}))
	siteURL = srv.URL
	return func() {
		srv.Close()
		if siteDir != "" {
			os.RemoveAll(siteDir)
		}
	}
}

// buildSite builds the site once into a temporary directory with the site
// command's own build (and its default cache), served with the command's
// own handler, so the tests see exactly what `make serve` serves. The
// build's progress goes to stderr.
func buildSite() error {
	siteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcplab-site-")
		if err != nil {
			siteErr = err
			return
		}
		siteDir = dir
		if err := build(dir, testBaseURL, defaultCacheDir(), os.Stderr); err != nil {
			siteErr = fmt.Errorf("cannot build the site: %w", err)
			return
		}
		siteHandler = newHandler(dir)
	})
	return siteErr
}

// ensureSite builds the site if no test has yet and returns its directory;
// it fails the test if the build failed.
func ensureSite(t *testing.T) string {
	t.Helper()
	if err := buildSite(); err != nil {
		t.Fatal(err)
	}
	return siteDir
}

// pageURL is the page of built-in scenario name (site build writes
// s/<name>/index.html).
func pageURL(name string) string { return siteURL + "/s/" + name + "/" }
