package site

// Self-tests of the browser harness against tiny pages served by the test
// itself: they prove that the watcher and the ready wait used by every page
// test catch what they claim to catch, so a green page test means something.

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// gif1x1 is a valid 1x1 transparent GIF.
var gif1x1 = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// servePage serves body as the HTML page at / (and a GIF at /pixel.gif) from
// a fresh test server, closed at cleanup.
func servePage(t *testing.T, body string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><html><head><meta charset=utf-8><link rel=icon href=\"data:,\"><title>t</title></head><body>" + body + "</body></html>"))
	})
	mux.HandleFunc("/pixel.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(gif1x1)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

const setReady = `<script>document.documentElement.dataset.ready = "1"</script>`

// Rule: a well-behaved page that signals ready passes with no problems, and
// the harness reads its DOM.
func TestHarnessCleanPage(t *testing.T) {
	srv := servePage(t, `<p id=msg>hello</p><img id=px src="/pixel.gif">`+setReady)
	ctx, w := openTab(t, srv.URL)
	navigate(t, ctx, srv.URL+"/")
	waitReady(t, ctx)
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("msg")))
	if err != nil {
		t.Fatal(err)
	}
	if got != "hello" {
		t.Errorf("#msg text = %q, want %q", got, "hello")
	}
	if len(w.Requests()) < 1 {
		t.Errorf("watcher saw no requests; the network listener is not working")
	}
}

// Rule: the ready wait fails on a page whose data-ready says something other
// than "1" (a page that reports a failed start must not pass).
func TestHarnessReadyRejectsOtherStates(t *testing.T) {
	srv := servePage(t, `<script>document.documentElement.dataset.ready = "error"</script>`)
	ctx, _ := openTab(t, srv.URL)
	navigate(t, ctx, srv.URL+"/")
	err := pollReady(ctx)
	if err == nil || !strings.Contains(err.Error(), `"error"`) {
		t.Fatalf("pollReady = %v, want an error naming the state \"error\"", err)
	}
}

// Rule: console errors, uncaught exceptions and requests to another origin
// are each reported by the watcher (and so fail a page test).
func TestHarnessCatchesProblems(t *testing.T) {
	other := servePage(t, "") // another origin: same host, another port
	tests := []struct {
		name string
		body string
		wait string // JS truthy once the page has done its thing
		want string // substring of the reported problem
	}{
		{"console error", `<script>console.error("boom-console")</script>` + setReady, "", "console.error: \"boom-console\""},
		{"uncaught exception", `<script>document.documentElement.dataset.ready = "1"; throw new Error("boom-throw")</script>`, "", "boom-throw"},
		{"unhandled rejection", `<script>document.documentElement.dataset.ready = "1"; Promise.reject(new Error("boom-reject"))</script>`, "", "boom-reject"},
		{"request to another origin", `<img id=px src="` + other.URL + `/pixel.gif">` + setReady,
			`document.getElementById("px").complete`, "request leaves the origin"},
		{"failed load", `<script src="/missing.js"></script>` + setReady, "", "404"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := servePage(t, tc.body)
			ctx, w := newTab(t, srv.URL)
			navigate(t, ctx, srv.URL+"/")
			waitReady(t, ctx)
			if tc.wait != "" {
				if _, err := pollJS[bool](ctx, tc.wait, readyTimeout); err != nil {
					t.Fatal(err)
				}
			}
			// One more round trip: events sent before its reply are in.
			evalJSON[int](t, ctx, `1`)
			problems := w.Problems()
			for _, p := range problems {
				if strings.Contains(p, tc.want) {
					return
				}
			}
			t.Errorf("watcher problems = %q, want one containing %q", problems, tc.want)
		})
	}
}
