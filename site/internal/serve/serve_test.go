package serve

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rule: site serve never redirects to another host. A
// directory requested without its slash redirects to the cleaned path on
// this host; what the request path held ("//evil.example/..%2fs" made
// "//evil.example/../s/", which a browser reads as another host) never
// reaches Location, which is always one slash and the cleaned path.
func TestServeNeverRedirectsOffHost(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"index.html", "s/index.html", "s/a/index.html"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("<p>hi</p>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(os.DirFS(dir)))
	defer srv.Close()
	tests := []struct {
		path         string // sent as is
		wantStatus   int
		wantLocation string
	}{
		{"//evil.example/..%2fs", 301, "/s/"},
		{"//evil.example/%2e%2e/s", 301, "/s/"},
		{"///evil.example/../../s", 301, "/s/"},
		{"/s/a/..%2f..%2fs", 301, "/s/"},
		{"/s/a?x=1", 301, "/s/a/?x=1"},
		{"/s", 301, "/s/"},
		{"/%5Cevil.example/..%2fs", 301, "/s/"},
		{"/%5Cevil.example", 404, ""},
		{"/s/", 200, ""},
	}
	for _, tc := range tests {
		resp := rawGet(t, srv.Listener.Addr().String(), tc.path)
		loc := resp.Header.Get("Location")
		if resp.StatusCode != tc.wantStatus || loc != tc.wantLocation {
			t.Errorf("GET %s: %d Location %q, want %d Location %q", tc.path, resp.StatusCode, loc, tc.wantStatus, tc.wantLocation)
		}
		if loc != "" {
			base, _ := url.Parse(srv.URL + "/x/y")
			if u, err := base.Parse(loc); err != nil || u.Host != base.Host {
				t.Errorf("GET %s: Location %q resolves to host %q, want %q", tc.path, loc, u.Host, base.Host)
			}
		}
	}
}

// rawGet sends "GET path HTTP/1.1" to addr with path exactly as given (an
// http.Client would normalize it) and returns the response, body closed.
func rawGet(t *testing.T, addr, path string) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, addr)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	resp.Body.Close()
	return resp
}

// Rule (ARCHITECTURE.md): the server prefers the brotli copy when the
// client accepts br, else gzip, else the file itself, and says so in
// Content-Encoding with Vary: Accept-Encoding; the copies are not served
// by their own names.
func TestServePrefersBrotli(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"app.js": "plain", "app.js.br": "brotli", "app.js.gz": "gzip", "index.html": "<p>hi</p>"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(os.DirFS(dir)))
	defer srv.Close()
	tests := []struct {
		path, accept, wantBody, wantEncoding string
		wantStatus                           int
	}{
		{"/app.js", "gzip, deflate, br, zstd", "brotli", "br", 200},
		{"/app.js", "gzip", "gzip", "gzip", 200},
		{"/app.js", "br;q=0, gzip", "gzip", "gzip", 200},
		{"/app.js", "*", "brotli", "br", 200},
		{"/app.js", "identity", "plain", "", 200},
		{"/app.js.br", "br", "", "", 404},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest("GET", srv.URL+tc.path, nil)
		req.Header.Set("Accept-Encoding", tc.accept)
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gunzip
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		body.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.wantStatus {
			t.Errorf("%s (Accept-Encoding %q): status %d, want %d", tc.path, tc.accept, resp.StatusCode, tc.wantStatus)
			continue
		}
		if tc.wantStatus != 200 {
			continue
		}
		if body.String() != tc.wantBody || resp.Header.Get("Content-Encoding") != tc.wantEncoding || resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s (Accept-Encoding %q): body %q, Content-Encoding %q, Vary %q; want %q, %q, Accept-Encoding",
				tc.path, tc.accept, body.String(), resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"), tc.wantBody, tc.wantEncoding)
		}
	}
}

// Rule: a directory built without an index.html is 404, never a listing
// of its files (http.FileServerFS would list it); every answer carries
// the security headers; only GET and HEAD are served; a page is sent with
// no-cache and its own type, an index.html asked for by name is served as
// itself, not redirected.
func TestServeFilesAndRefusals(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<p>root</p>", "s/index.html": "<p>s</p>", "bare/app.wasm": "\x00asm", ".git/config": "secret"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(os.DirFS(dir)))
	defer srv.Close()
	tests := []struct {
		method, path string
		wantStatus   int
		wantType     string
		wantBody     string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", "<p>root</p>"},
		{"GET", "/s/", 200, "text/html; charset=utf-8", "<p>s</p>"},
		{"GET", "/s/index.html", 200, "text/html; charset=utf-8", "<p>s</p>"},
		{"GET", "/bare/app.wasm", 200, "application/wasm", "\x00asm"},
		{"GET", "/bare/", 404, "text/plain; charset=utf-8", ""},
		{"GET", "/.git/config", 404, "text/plain; charset=utf-8", ""},
		{"POST", "/", 405, "text/plain; charset=utf-8", ""},
		{"HEAD", "/s/", 200, "text/html; charset=utf-8", ""},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		body.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.wantStatus || resp.Header.Get("Content-Type") != tc.wantType {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.wantStatus, tc.wantType)
		}
		if tc.wantBody != "" && body.String() != tc.wantBody {
			t.Errorf("%s %s: body %q, want %q", tc.method, tc.path, body.String(), tc.wantBody)
		}
		if resp.Header.Get("Content-Security-Policy") != CSP || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: security headers missing: %v", tc.method, tc.path, resp.Header)
		}
		if strings.HasSuffix(tc.path, "/") && tc.wantStatus == 200 && resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s %s: Cache-Control %q, want no-cache", tc.method, tc.path, resp.Header.Get("Cache-Control"))
		}
	}
}

// Rule (RFC 9110, section 12.5.3): Accept-Encoding allows a coding listed
// with q > 0, or unlisted under a * with q > 0; q=0 refuses it.
func TestAccepts(t *testing.T) {
	tests := []struct {
		header, coding string
		want           bool
	}{
		{"gzip, br", "br", true},
		{"br;q=0, gzip", "br", false},
		{"*", "gzip", true},
		{"*;q=0", "gzip", false},
		{"x-gzip", "gzip", true},
		{"identity", "br", false},
		{"", "br", false},
	}
	for _, tc := range tests {
		if got := accepts(tc.header, tc.coding); got != tc.want {
			t.Errorf("accepts(%q, %q) = %v, want %v", tc.header, tc.coding, got, tc.want)
		}
	}
}
