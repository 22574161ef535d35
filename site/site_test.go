package site

// The site under test: built once per test binary by the site command's own
// build, served by its own handler, and only when a test needs it.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/mcplab/mcplab/site/internal/build"
	"github.com/mcplab/mcplab/site/internal/serve"
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

	// The compressed copies follow the written site in the background
	// (build.Start): brotli at quality 11 of four 8 MB wasm binaries is a
	// minute or two of CPU on a cold cache, which the browser tests that
	// do not read the copies overlap. Until a file's copy is written the
	// server sends it uncompressed, as `make serve` does.
	compressOnce sync.Once
	finishSite   func() error
	compressErr  error
)

// startSite starts the server at siteURL and returns the function that
// stops it and removes the built site. The server builds the site on its
// first request; newTab builds it before opening a tab on it
// (ensureSiteWritten).
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
		waitCompressed() // build.Start's finish must run once; the copies write into siteDir
		if siteDir != "" {
			os.RemoveAll(siteDir)
		}
	}
}

// buildSite writes the site once into a temporary directory with the site
// command's own build (and its default cache), served with the command's
// own handler, so the tests see exactly what `make serve` serves. It
// returns once every file is written; the .br and .gz copies follow
// (waitCompressed). The build's progress goes to stderr.
func buildSite() error {
	siteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcplab-site-")
		if err != nil {
			siteErr = err
			return
		}
		siteDir = dir
		finish, err := build.Start(context.Background(), build.Options{Out: dir, BaseURL: testBaseURL, CacheDir: build.DefaultCacheDir(), Log: os.Stderr})
		if err != nil {
			siteErr = fmt.Errorf("cannot build the site: %w", err)
			return
		}
		finishSite = finish
		siteHandler = serve.Handler(os.DirFS(dir))
	})
	return siteErr
}

// waitCompressed waits until the written site's .br and .gz copies are
// written and returns the build's error, if any (nil if no test built
// the site).
func waitCompressed() error {
	compressOnce.Do(func() {
		if finishSite == nil {
			return
		}
		if err := finishSite(); err != nil {
			compressErr = fmt.Errorf("cannot build the site's compressed copies: %w", err)
		}
	})
	return compressErr
}

// ensureSiteWritten builds the site if no test has yet and fails the test
// if the build failed; the compressed copies may still be on their way, so
// a file may be served uncompressed. Enough for a test that does not look
// at the bytes on the wire or the files on disk (newTab).
func ensureSiteWritten(t *testing.T) {
	t.Helper()
	if err := buildSite(); err != nil {
		t.Fatal(err)
	}
}

// ensureSite builds the whole site, compressed copies included, if no
// test has yet and returns its directory; it fails the test if the build
// failed. A test that reads the built files, or the transfer of a page
// (which counts the brotli copies), calls it.
func ensureSite(t *testing.T) string {
	t.Helper()
	ensureSiteWritten(t)
	if err := waitCompressed(); err != nil {
		t.Fatal(err)
	}
	return siteDir
}

// pageURL is the page of built-in scenario name (site build writes
// s/<name>/index.html).
func pageURL(name string) string { return siteURL + "/s/" + name + "/" }
