package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// metaCSP is the part of the Content-Security-Policy that a page can carry
// itself, in <meta http-equiv="Content-Security-Policy"> (every built page
// does, so it holds on any host): nothing leaves the origin, scripts only
// from files (the JSON data block is not a script; no inline script or
// event handler runs), WebAssembly compilation allowed, the engine worker
// only from the origin's worker.js (worker-src), no inline style, no
// <base>, no form submission.
const metaCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"

// csp is the Content-Security-Policy header of every response: metaCSP
// plus what a meta element cannot say (CSP 3, section 3.3: frame-ancestors
// is ignored there): the pages may be embedded anywhere.
const csp = metaCSP + "; frame-ancestors *"

// securityHeaders are sent with every response by site serve and, through
// the _headers file the build writes (headersFile), by a static host.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", csp},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "same-origin"},
}

// headersFile is the _headers file of the site root, in the format Netlify
// and Cloudflare Pages read (a path pattern, then its headers indented):
// securityHeaders for every path. Hosts that read no such file need the
// same headers set in their own configuration (README.md, "Hosting").
func headersFile() []byte {
	var b strings.Builder
	b.WriteString("# HTTP headers for a static host (Netlify, Cloudflare Pages); written by mcplab build.\n/*\n")
	for _, h := range securityHeaders {
		fmt.Fprintf(&b, "  %s: %s\n", h[0], h[1])
	}
	return []byte(b.String())
}

// contentTypes maps the site's file extensions to their MIME types, so the
// answer does not depend on the machine's mime.types.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
}

func cmdServe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "dist", "`directory` of a built site (site build)")
	addr := fs.String("addr", ":8080", "listen `address`; the PORT environment variable overrides its port")
	buildFirst := fs.Bool("build", false, "build the site into -dir first (as mcplab build), and serve as soon as its files are written while the .br and .gz copies are made (served uncompressed until then)")
	cacheDir := fs.String("cache", defaultCacheDir(), "with -build, the build cache `directory`; \"\" for none")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcplab serve [-dir dist] [-addr :8080] [-build [-cache DIR]]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return &usageError{fmt.Errorf("serve takes no arguments, got %q", fs.Args())}
	}
	// The address is settled before anything is built: a bad PORT is
	// named (net.Listen would say "lookup tcp/abc: unknown port").
	listen := *addr
	if port := os.Getenv("PORT"); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
			return &usageError{fmt.Errorf("PORT %q: not a port number (1-65535)", port)}
		}
		host, _, err := net.SplitHostPort(listen)
		if err != nil {
			return &usageError{fmt.Errorf("-addr %q: %w", listen, err)}
		}
		listen = net.JoinHostPort(host, port)
	}
	if *buildFirst {
		finish, err := writeSite(*dir, "", *cacheDir, stderr)
		if err != nil {
			return err
		}
		go func() {
			if err := finish(); err != nil {
				fmt.Fprintf(stderr, "%v\n(the files without a compressed copy are served uncompressed)\n", err)
			}
		}()
	}
	if st, err := os.Stat(path.Join(*dir, "index.html")); err != nil || st.IsDir() {
		return &usageError{fmt.Errorf("%s has no index.html: build the site first (mcplab build -out %s, or go run ./site build -out %s in a checkout), or serve with -build", *dir, *dir, *dir)}
	}
	ln, err := net.Listen("tcp", listen)
	if errors.Is(err, syscall.EADDRINUSE) {
		_, port, _ := net.SplitHostPort(listen)
		return fmt.Errorf("serve: %w: another server runs on port %s: stop it, or choose another port with -addr (-addr :8081) or PORT= (PORT=8081)", err, port)
	}
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	fmt.Fprintf(stdout, "serving %s at http://%s/\n", *dir, net.JoinHostPort(host, port))
	srv := &http.Server{Handler: newHandler(*dir), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// newHandler serves the built site in dir for GET and HEAD:
//
//   - a path ending in "/" serves its index.html; a directory without the
//     slash redirects to its cleaned path with the slash, always a path on
//     this host ("/s/", never "//host/..."); a path with a backslash is 404;
//   - Content-Type comes from the extension (application/wasm for .wasm);
//   - when the request accepts br and NAME.br exists beside NAME, the
//     brotli copy is served with Content-Encoding: br; else when it accepts
//     gzip and NAME.gz exists, the gzip copy with Content-Encoding: gzip;
//     every response of a compressible file carries Vary: Accept-Encoding;
//   - every response carries securityHeaders: the strict CSP (csp),
//     nosniff and a same-origin referrer policy;
//   - paths with "..", hidden files and the .gz and .br files themselves
//     are 404;
//   - a 404 sends the site's own page for it (notFoundPage, 404.html,
//     as text/html), or Go's one-line text when the directory has none.
//
// It is separate from the listener so tests wrap it in httptest.NewServer.
func newHandler(dir string) http.Handler {
	root := os.DirFS(dir)
	notFound := func(w http.ResponseWriter, r *http.Request) {
		page, err := fs.ReadFile(root, notFoundPage)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Length", strconv.Itoa(len(page)))
		w.WriteHeader(http.StatusNotFound)
		if r.Method != http.MethodHead {
			w.Write(page)
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, sh := range securityHeaders {
			h.Set(sh[0], sh[1])
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "."
		}
		if !fs.ValidPath(name) || strings.Contains(name, "\\") || strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") || hidden(name) {
			notFound(w, r)
			return
		}
		st, err := fs.Stat(root, name)
		if err != nil {
			notFound(w, r)
			return
		}
		if st.IsDir() {
			if !strings.HasSuffix(r.URL.Path, "/") {
				// From the cleaned name, not the request: "//evil.example/..%2fs"
				// must not become "//evil.example/../s/", which a browser
				// reads as another host.
				target := "/"
				if name != "." {
					target += name + "/"
				}
				if r.URL.RawQuery != "" {
					target += "?" + r.URL.RawQuery
				}
				http.Redirect(w, r, target, http.StatusMovedPermanently)
				return
			}
			name = path.Join(name, "index.html")
			if st, err = fs.Stat(root, name); err != nil || st.IsDir() {
				notFound(w, r)
				return
			}
		}
		ext := path.Ext(name)
		if ct, ok := contentTypes[ext]; ok {
			h.Set("Content-Type", ct)
		} else {
			h.Set("Content-Type", "application/octet-stream")
		}
		if ext == ".html" {
			h.Set("Cache-Control", "no-cache")
		}
		serveName := name
		if compressed[ext] {
			h.Add("Vary", "Accept-Encoding")
			ae := r.Header.Get("Accept-Encoding")
			for _, enc := range []struct{ coding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
				if !accepts(ae, enc.coding) {
					continue
				}
				if cst, err := fs.Stat(root, name+enc.suffix); err == nil && !cst.IsDir() {
					serveName, st = name+enc.suffix, cst
					h.Set("Content-Encoding", enc.coding)
					break
				}
			}
		}
		f, err := root.Open(serveName)
		if err != nil {
			notFound(w, r)
			return
		}
		defer f.Close()
		rs, ok := f.(io.ReadSeeker)
		if !ok {
			http.Error(w, "cannot seek "+serveName, http.StatusInternalServerError)
			return
		}
		http.ServeContent(w, r, name, st.ModTime(), rs)
	})
}

// hidden reports whether any element of the slash-separated path starts
// with a dot.
func hidden(name string) bool {
	for _, el := range strings.Split(name, "/") {
		if strings.HasPrefix(el, ".") && el != "." {
			return true
		}
	}
	return false
}

// accepts reports whether an Accept-Encoding header allows coding ("br" or
// "gzip"): coding is listed with q > 0, or it is not listed and * is, with
// q > 0. "x-gzip" counts as "gzip".
func accepts(header, coding string) bool {
	codingQ, starQ := -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(p, "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "x-gzip" {
			name = "gzip"
		}
		switch name {
		case coding:
			codingQ = q
		case "*":
			starQ = q
		}
	}
	if codingQ >= 0 {
		return codingQ > 0
	}
	return starQ > 0
}
