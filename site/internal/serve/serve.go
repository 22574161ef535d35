// Package serve is the file server of a built site (`mcplab serve`):
// http.FileServerFS over the site's directory, plus what a static site of
// the lab needs around it: the security headers on every response
// (SecurityHeaders), the site's own 404 page, the brotli or gzip copy the
// build wrote beside a file when the request accepts it, and redirects
// that never leave the host. The build writes the same headers for static
// hosts (HeadersFile) and the same policy into every page (MetaCSP).
package serve

import (
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// MetaCSP is the part of the Content-Security-Policy that a page can carry
// itself, in <meta http-equiv="Content-Security-Policy"> (every built page
// does, so it holds on any host): nothing leaves the origin, scripts only
// from files (the JSON data block is not a script; no inline script or
// event handler runs), WebAssembly compilation allowed, the engine worker
// only from the origin's worker.js (worker-src), no inline style, no
// <base>, no form submission.
const MetaCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"

// CSP is the Content-Security-Policy header of every response: MetaCSP
// plus what a meta element cannot say (CSP 3, section 3.3: frame-ancestors
// is ignored there): the pages may be embedded anywhere.
const CSP = MetaCSP + "; frame-ancestors *"

// SecurityHeaders are sent with every response by Handler and, through the
// _headers file the build writes (HeadersFile), by a static host.
var SecurityHeaders = [][2]string{
	{"Content-Security-Policy", CSP},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "same-origin"},
}

// NotFoundPage is the site's page for an address it has no page at, at
// its root: Handler sends it with status 404, as GitHub Pages, Netlify and
// Cloudflare Pages do by convention.
const NotFoundPage = "404.html"

// Compressible reports whether the build writes .br and .gz copies of a
// file with this extension (text and WebAssembly; images are compressed
// already), so its responses vary with Accept-Encoding.
func Compressible(ext string) bool {
	switch ext {
	case ".html", ".css", ".js", ".wasm", ".json", ".svg":
		return true
	}
	return false
}

// HeadersFile is the _headers file of the site root, in the format Netlify
// and Cloudflare Pages read (a path pattern, then its headers indented):
// SecurityHeaders for every path. Hosts that read no such file need the
// same headers set in their own configuration (docs/building.md,
// "Hosting").
func HeadersFile() []byte {
	var b strings.Builder
	b.WriteString("# HTTP headers for a static host (Netlify, Cloudflare Pages); written by mcplab build.\n/*\n")
	for _, h := range SecurityHeaders {
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

// Handler serves the built site in root for GET and HEAD:
//
//   - a path ending in "/" serves its index.html; a directory without the
//     slash redirects to its cleaned path with the slash, always a path on
//     this host ("/s/", never "//host/..."); a directory without an
//     index.html is 404, never a listing; a path with a backslash is 404;
//   - Content-Type comes from the extension (application/wasm for .wasm);
//   - when the request accepts br and NAME.br exists beside NAME, the
//     brotli copy is served with Content-Encoding: br; else when it accepts
//     gzip and NAME.gz exists, the gzip copy with Content-Encoding: gzip;
//     every response of a compressible file carries Vary: Accept-Encoding;
//   - every response carries SecurityHeaders;
//   - paths with "..", hidden files and the .gz and .br files themselves
//     are 404;
//   - a 404 sends the site's own page (NotFoundPage, as text/html), or
//     Go's one-line text when the site has none.
//
// The bytes, ranges and conditional requests are http.FileServerFS's.
func Handler(root fs.FS) http.Handler {
	files := http.FileServerFS(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, sh := range SecurityHeaders {
			w.Header().Set(sh[0], sh[1])
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, redirect, ok := resolve(root, r.URL.Path)
		switch {
		case !ok:
			notFound(root, w, r)
		case redirect != "":
			if r.URL.RawQuery != "" {
				redirect += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, redirect, http.StatusMovedPermanently)
		default:
			serveFile(root, files, w, r, name)
		}
	})
}

// resolve maps a request path to the file it serves (an index.html for a
// directory), or to the redirect a directory without its slash gets, built
// from the cleaned name and never from the request: "//evil.example/..%2fs"
// must not become "//evil.example/../s/", which a browser reads as another
// host. ok is false for a path that is not served.
func resolve(root fs.FS, urlPath string) (name, redirect string, ok bool) {
	name = strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" {
		name = "."
	}
	if !fs.ValidPath(name) || strings.Contains(name, "\\") || strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") || hidden(name) {
		return "", "", false
	}
	st, err := fs.Stat(root, name)
	if err != nil {
		return "", "", false
	}
	if !st.IsDir() {
		return name, "", true
	}
	if !strings.HasSuffix(urlPath, "/") {
		if name == "." {
			return "", "/", true
		}
		return "", "/" + name + "/", true
	}
	index := path.Join(name, "index.html")
	if st, err := fs.Stat(root, index); err != nil || st.IsDir() {
		return "", "", false
	}
	return index, "", true
}

// serveFile sends name through the file server, its brotli or gzip copy
// when the request accepts one and the build wrote it, with the type of
// name itself and no-cache on pages (a rebuilt page is fetched again).
func serveFile(root fs.FS, files http.Handler, w http.ResponseWriter, r *http.Request, name string) {
	h := w.Header()
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
	if Compressible(ext) {
		h.Add("Vary", "Accept-Encoding")
		serveName = precompressed(root, name, r.Header.Get("Accept-Encoding"), h)
	}
	r2 := new(http.Request)
	*r2 = *r
	u := *r.URL
	u.Path, u.RawPath = "/"+serveName, ""
	if serveName == name && path.Base(name) == "index.html" {
		u.Path = "/" + strings.TrimSuffix(name, "index.html") // the file server redirects …/index.html to …/
	}
	r2.URL = &u
	files.ServeHTTP(w, r2)
}

// precompressed returns the copy of name to send for an Accept-Encoding
// header, setting Content-Encoding when it is a copy, or name itself.
func precompressed(root fs.FS, name, acceptEncoding string, h http.Header) string {
	for _, enc := range []struct{ coding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !accepts(acceptEncoding, enc.coding) {
			continue
		}
		if st, err := fs.Stat(root, name+enc.suffix); err == nil && !st.IsDir() {
			h.Set("Content-Encoding", enc.coding)
			return name + enc.suffix
		}
	}
	return name
}

// notFound sends the site's 404 page, or Go's text when it has none.
func notFound(root fs.FS, w http.ResponseWriter, r *http.Request) {
	page, err := fs.ReadFile(root, NotFoundPage)
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
// q > 0. "x-gzip" counts as "gzip" (RFC 9110, section 12.5.3).
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
