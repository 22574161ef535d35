package site

// Tests of the embed mode: a host page that iframes a lab page gets
// its ready and height messages and resizes the frame with the documented
// snippet; the keyboard is not trapped; the background follows the theme.

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mcplab/mcplab/templates"
)

// hostPage is a lesson page that embeds src with the HTML snippet of
// templates.NewEmbed at a small height, records every mcplab message it
// gets (window.msgs), and sizes the frame with templates.HostSnippet.
func hostPage(origin, src string) string {
	e := templates.NewEmbed(src, "Scenario A")
	iframe := strings.Replace(e.HTML, `height="`+fmt.Sprint(templates.EmbedHeight)+`"`, `height="150" id="lab"`, 1)
	return `<!doctype html><html><head><meta charset=utf-8><link rel=icon href="data:,"><title>A lesson</title></head><body>
<h1>A lesson about cancellation</h1>
<script>window.msgs = []; addEventListener("message", (e) => { if (e.data && String(e.data.type).startsWith("mcplab:")) window.msgs.push(e.data); });</script>
` + iframe + `
` + templates.HostSnippetFor(origin) + `
<p><button id="after">After the lab</button></p>
</body></html>`
}

// serveHost serves the host page at /lesson.html and everything else from
// the built site (a reverse proxy), so the lesson and the lab share one
// origin, as the watcher requires.
func serveHost(t *testing.T, src string) *httptest.Server {
	t.Helper()
	ensureSiteWritten(t) // before the tab's deadline starts: a cold build takes minutes
	target, err := url.Parse(siteURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/lesson.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(hostPage(srv.URL, src)))
	})
	mux.Handle("/", proxy)
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// Rule (Embed mode): an embedded page posts mcplab:ready and
// mcplab:height to its parent; the documented host snippet sizes the
// iframe to the page's height; Tab moves through the frame and out of it.
func TestEmbedHostPageResizes(t *testing.T) {
	for _, page := range []string{"/s/" + scenarioA + "/?embed=1", "/playground/?embed=1#example=" + scenarioA} {
		t.Run(strings.Trim(strings.SplitN(page, "?", 2)[0], "/"), func(t *testing.T) {
			srv := serveHost(t, page)
			ctx, _ := openTab(t, srv.URL)
			navigate(t, ctx, srv.URL+"/lesson.html")
			waitFor(t, ctx, "mcplab:ready from the frame", `window.msgs.some(m => m.type === "mcplab:ready")`)
			waitFor(t, ctx, "an mcplab:height over 150 px", `window.msgs.some(m => m.type === "mcplab:height" && m.height > 150)`)
			waitFor(t, ctx, "the iframe sized to the last height",
				`(() => { const h = window.msgs.filter(m => m.type === "mcplab:height").at(-1).height; return document.getElementById("lab").style.height === Math.ceil(h) + "px"; })()`)
			type sizes struct{ Frame, Content float64 }
			s := evalJSON[sizes](t, ctx, `(() => { const f = document.getElementById("lab"); return {Frame: f.getBoundingClientRect().height, Content: f.contentDocument.documentElement.getBoundingClientRect().height}; })()`)
			if d := s.Frame - s.Content; d < -1 || d > 1 {
				t.Errorf("iframe %v px high, its page %v px", s.Frame, s.Content)
			}
			if embedded := evalJSON[string](t, ctx, `document.getElementById("lab").contentDocument.documentElement.dataset.embed ?? ""`); embedded != "1" {
				t.Errorf("the framed page is not in embed mode")
			}
			if vis := evalJSON[bool](t, ctx, `(() => { const d = document.getElementById("lab").contentDocument; const h = d.querySelector(".site-header"); return !!h && h.getBoundingClientRect().height > 0; })()`); vis {
				t.Errorf("the embedded page still shows the site header")
			}
			// Never traps the keyboard: Tab goes into the frame and out again.
			inFrame, out := false, false
			for i := 0; i < 200 && !out; i++ {
				if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
					t.Fatal(err)
				}
				switch evalJSON[string](t, ctx, `document.activeElement?.id ?? ""`) {
				case "lab":
					inFrame = true
				case "after":
					out = true
				}
			}
			if !inFrame || !out {
				t.Errorf("Tab: entered the frame %v, reached the button after it %v", inFrame, out)
			}
		})
	}
}

// Rule: a lab framed by a page of another origin posts
// its messages to that origin, which it learns from ancestorOrigins (or the
// snippet's strict-origin referrer) rather than posting to "*": a frame that
// named the wrong origin would have its messages dropped, and the host's
// documented snippet, which accepts only the lab's origin, sizes the frame.
func TestEmbedCrossOriginParent(t *testing.T) {
	ensureSiteWritten(t)
	src := siteURL + "/s/" + scenarioA + "/?embed=1"
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(hostPage(siteURL, src)))
	}))
	defer host.Close()
	ctx, w := newTab(t, host.URL)
	navigate(t, ctx, host.URL+"/lesson.html")
	waitFor(t, ctx, "mcplab:ready from the cross-origin frame", `window.msgs.some(m => m.type === "mcplab:ready")`)
	waitFor(t, ctx, "the iframe sized by the host snippet", `parseFloat(document.getElementById("lab").style.height) > 150`)
	// The lab's own requests leave the host's origin, by design here.
	for _, p := range w.Problems() {
		if !strings.Contains(p, "request leaves the origin") || !strings.Contains(p, siteURL+"/") {
			t.Errorf("page problem: %s", p)
		}
	}
}

// background samples the page's background colour from a screenshot (a
// pixel near the top left, inside the page's padding).
func background(t *testing.T, shot []byte) [3]uint8 {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	r, g, b, _ := img.At(img.Bounds().Min.X+3, img.Bounds().Min.Y+3).RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// Rule (Embed mode): the embedded page follows ?theme=light|dark,
// else the reader's prefers-color-scheme, and sets color-scheme to match,
// so a dark lesson gets a dark frame. The screenshots are kept in
// $TMPDIR/mcplab-embed-*.png for a person to look at.
func TestEmbedThemeScreenshots(t *testing.T) {
	light, dark := [3]uint8{0xf7, 0xf7, 0xf5}, [3]uint8{0x14, 0x16, 0x1a} // app.css --bg
	tests := []struct {
		name, query, prefers string
		want                 [3]uint8
		scheme               string
	}{
		{"light", "&theme=light", "dark", light, "light"},
		{"dark", "&theme=dark", "light", dark, "dark"},
		{"prefers-dark", "", "dark", dark, "light dark"},
		{"prefers-light", "", "light", light, "light dark"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, _ := openTab(t, siteURL)
			if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: tc.prefers}}}); err != nil {
				t.Fatal(err)
			}
			navigate(t, ctx, pageURL(scenarioA)+"?embed=1"+tc.query)
			waitReady(t, ctx)
			if got := evalJSON[string](t, ctx, `getComputedStyle(document.documentElement).colorScheme`); got != tc.scheme {
				t.Errorf("color-scheme %q, want %q", got, tc.scheme)
			}
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(os.TempDir(), "mcplab-embed-"+tc.name+".png")
			if err := os.WriteFile(file, shot, 0o644); err == nil {
				t.Logf("screenshot: %s", file)
			}
			if got := background(t, shot); got != tc.want {
				t.Errorf("background %v, want %v", got, tc.want)
			}
		})
	}
}

// Rule (embed links): in the embed, every link that leaves the lab
// opens a new tab (target="_blank" rel="noopener"), as "Open in mcplab ↗"
// does: "Review this operation" no longer navigates inside the lesson's
// frame, also once an edit re-points it at the live review page.
func TestEmbedOutwardLinksOpenNewTab(t *testing.T) {
	ensureSiteWritten(t)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/s/"+scenarioA+"/?embed=1")
	waitFor(t, ctx, "the embedded lab ready", `document.documentElement.dataset.ready === "1"`)
	type link struct{ Text, Href, Target, Rel string }
	links := evalJSON[[]link](t, ctx, `[...document.querySelectorAll("a[href]")].filter(a => a.getClientRects().length > 0 && !a.getAttribute("href").startsWith("#")).map(a => ({Text: a.textContent.trim(), Href: a.getAttribute("href"), Target: a.target, Rel: a.rel}))`)
	review := false
	for _, l := range links {
		if l.Target != "_blank" || !strings.Contains(l.Rel, "noopener") {
			t.Errorf("embedded link %q (%s): target %q rel %q, want _blank noopener", l.Text, l.Href, l.Target, l.Rel)
		}
		review = review || l.Text == "Review this operation"
	}
	if !review {
		t.Errorf("the embed shows no “Review this operation” link: %v", links)
	}
	// A click marks a link the wasm wrote later too.
	if got := evalJSON[string](t, ctx, `(() => { const a = document.createElement("a"); a.href = "../../review/"; a.textContent = "later"; a.addEventListener("click", (e) => e.preventDefault()); document.body.append(a); a.click(); return a.target + " " + a.rel; })()`); got != "_blank noopener" {
		t.Errorf("a link added later, clicked: target and rel %q, want \"_blank noopener\"", got)
	}
}
