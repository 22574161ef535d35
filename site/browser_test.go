package site

// The browser harness: one headless Chromium per test binary, a fresh tab per
// test, and a watcher on every tab that fails the test on a console error, an
// uncaught exception or a request that leaves the origin (ARCHITECTURE.md,
// "Browser tests"). Waits are explicit signals polled with a timeout, never
// sleeps.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// installChromium is the one line that makes the browser tests runnable.
const installChromium = "apt-get update && apt-get install -y chromium"

// Timeouts for a cold machine: the first browser start and the first wasm
// compile are the slow parts.
const (
	browserStartTimeout = 60 * time.Second
	tabTimeout          = 90 * time.Second // everything one test does in its tab
	readyTimeout        = 30 * time.Second // navigation to data-ready="1"
)

// The browser and the site are started lazily, by the first test that
// needs each (newTab, ensureSite), so the tests that need neither (the
// command's flags, the server's headers, share links, the trim) run
// without Chromium and without building the site.
var (
	browserOnce sync.Once
	browserCtx  context.Context // owns the one Chromium of this test binary; tabs are its children
	browserErr  error
	stopBrowser = func() {}
)

func TestMain(m *testing.M) {
	flag.Parse()
	stopSite := startSite()
	code := m.Run()
	stopBrowser()
	stopSite()
	os.Exit(code)
}

// chromePath is $CHROME, else Debian's /usr/bin/chromium.
func chromePath() string {
	if p := os.Getenv("CHROME"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// ensureBrowser starts the shared browser the first time it is called and
// fails the test if it could not start. A missing browser fails every test
// that needs it with the install command: a browser test never skips
// itself.
func ensureBrowser(t *testing.T) {
	t.Helper()
	browserOnce.Do(func() { browserCtx, stopBrowser, browserErr = startBrowser() })
	if browserErr != nil {
		t.Fatal(browserErr)
	}
}

// startBrowser starts headless Chromium, trying browserStartTries times:
// on this machine Chromium once exited at start-up with nothing on its
// standard error but its usual noise, twice in a row, and started the next
// minute; every browser test of that run failed for it. The error names
// each try's failure.
func startBrowser() (context.Context, func(), error) {
	var errs []error
	for try := 1; try <= browserStartTries; try++ {
		ctx, stop, err := startBrowserOnce()
		if err == nil {
			return ctx, stop, nil
		}
		errs = append(errs, fmt.Errorf("try %d of %d: %w", try, browserStartTries, err))
		time.Sleep(2 * time.Second)
	}
	return nil, func() {}, errors.Join(errs...)
}

// browserStartTries is how many times startBrowser tries to start
// Chromium.
const browserStartTries = 3

// startBrowserOnce starts headless Chromium under browserStartTimeout and
// returns the context that owns it and the function that stops it.
func startBrowserOnce() (context.Context, func(), error) {
	chrome := chromePath()
	if st, err := os.Stat(chrome); err != nil || st.IsDir() {
		return nil, func() {}, fmt.Errorf("the browser tests need Chromium at %s (set CHROME to use another): run\n\t%s", chrome, installChromium)
	}
	userData, err := os.MkdirTemp("", "mcplab-chromium-")
	if err != nil {
		return nil, func() {}, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.UserDataDir(userData),
		// The machine's network is closed: keep Chromium from calling home.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(1280, 900),
		// Only used if the allocator talks websocket rather than the default
		// pipe; a cold Chromium can take longer than the 20 s default.
		chromedp.WSURLReadTimeout(browserStartTimeout),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	stop := func() {
		cancelBrowser()
		cancelAlloc()
		os.RemoveAll(userData)
	}

	// Start the browser under a deadline, without binding its life to it:
	// the first Do on ctx owns the browser, so it runs on ctx itself and the
	// deadline is enforced from outside.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			stop()
			return nil, func() {}, fmt.Errorf("cannot start %s: %v", chrome, err)
		}
	case <-time.After(browserStartTimeout):
		stop()
		return nil, func() {}, fmt.Errorf("%s did not start within %v", chrome, browserStartTimeout)
	}
	return ctx, stop, nil
}

// pageWatch records what must never happen on a page: console errors,
// uncaught exceptions, browser-log errors (failed loads, CSP violations) and
// requests to another origin. It is filled from chromedp.Listen, which runs
// on the tab's reader goroutine in arrival order, so every event that came
// before the reply to a command is recorded when that command returns.
type pageWatch struct {
	origin string // scheme://host:port of the site under test

	mu       sync.Mutex
	problems []string
	requests []string                     // every URL requested, in order
	docOf    map[network.RequestID]string // request -> URL of the document that made it
	docBytes map[string]float64           // document URL -> bytes received on the wire
}

// allowedURL reports whether a request for u stays on the machine and the
// origin: same scheme and host as the site, or a data:/blob:/about: URL that
// no network sees.
func (w *pageWatch) allowedURL(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	switch p.Scheme {
	case "data", "blob", "about":
		return true
	}
	return p.Scheme+"://"+p.Host == w.origin
}

func (w *pageWatch) add(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.problems = append(w.problems, fmt.Sprintf(format, args...))
}

// listen is the chromedp.Listen callback: fast, no commands, no panics.
func (w *pageWatch) listen(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		w.add("uncaught exception: %s", exceptionText(ev.ExceptionDetails))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			w.add("console.%s: %s", ev.Type, consoleText(ev.Args))
		}
	case *log.EventEntryAdded:
		if ev.Entry != nil && ev.Entry.Level == log.EntryLevelError {
			w.add("browser log error (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
		}
	case *network.EventLoadingFinished:
		w.mu.Lock()
		if doc, ok := w.docOf[ev.RequestID]; ok {
			if w.docBytes == nil {
				w.docBytes = map[string]float64{}
			}
			w.docBytes[doc] += ev.EncodedDataLength
		}
		w.mu.Unlock()
	case *network.EventRequestWillBeSent:
		if ev.Request == nil {
			return
		}
		w.mu.Lock()
		w.requests = append(w.requests, ev.Request.URL)
		if w.docOf == nil {
			w.docOf = map[network.RequestID]string{}
		}
		w.docOf[ev.RequestID] = ev.DocumentURL
		w.mu.Unlock()
		if !w.allowedURL(ev.Request.URL) {
			w.add("request leaves the origin %s: %s", w.origin, ev.Request.URL)
		}
	}
}

// PageBytes returns the bytes received on the wire (compressed, headers
// included) for the document at url and every request it made.
func (w *pageWatch) PageBytes(url string) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return int64(w.docBytes[url])
}

// Problems returns what went wrong so far.
func (w *pageWatch) Problems() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.problems)
}

// Requests returns every URL the page requested so far.
func (w *pageWatch) Requests() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.requests)
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "(no details)"
	}
	s := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		s += " " + d.Exception.Description
	}
	if d.URL != "" {
		s += fmt.Sprintf(" at %s:%d:%d", d.URL, d.LineNumber+1, d.ColumnNumber+1)
	}
	return s
}

func consoleText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		switch {
		case a == nil:
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// newTab opens a fresh tab in the shared browser with a watcher for origin
// already listening, so nothing the first navigation does is missed. The
// returned context carries the test's deadline; the tab closes at cleanup.
// The caller decides what the watcher's problems mean (see openTab).
func newTab(t *testing.T, origin string) (context.Context, *pageWatch) {
	t.Helper()
	if origin == siteURL {
		// Before the tab's deadline starts: a cold build takes minutes.
		// The compressed copies may follow while the test runs: a test
		// that measures transfer calls ensureSite first.
		ensureSiteWritten(t)
	}
	ensureBrowser(t)
	tabCtx, cancelTab := chromedp.NewContext(browserCtx)
	// The first Do opens the tab; it runs without the test deadline, which
	// would otherwise bind the tab's life to it.
	if err := chromedp.Do(tabCtx); err != nil {
		cancelTab()
		t.Fatalf("open tab: %v", err)
	}
	w := &pageWatch{origin: origin}
	if err := chromedp.Listen(tabCtx, w.listen); err != nil {
		cancelTab()
		t.Fatalf("listen: %v", err)
	}
	ctx, cancelDeadline := context.WithTimeout(tabCtx, tabTimeout)
	t.Cleanup(func() {
		cancelDeadline()
		if err := chromedp.Cancel(tabCtx); err != nil && !errors.Is(err, context.Canceled) {
			t.Logf("close tab: %v", err)
		}
		cancelTab()
	})
	return ctx, w
}

// openTab is newTab for a page that must behave: at cleanup the test fails
// on every problem the watcher saw (console error, exception, foreign
// request).
func openTab(t *testing.T, origin string) (context.Context, *pageWatch) {
	t.Helper()
	ctx, w := newTab(t, origin)
	t.Cleanup(func() {
		for _, p := range w.Problems() {
			t.Errorf("page problem: %s", p)
		}
	})
	return ctx, w
}

// waitReady waits until the page sets document.documentElement.dataset.ready
// and fails the test unless it is "1" (the wasm has run and rendered).
func waitReady(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := pollReady(ctx); err != nil {
		t.Fatal(err)
	}
}

// pollReady waits (bounded by readyTimeout) until the page sets
// document.documentElement.dataset.ready, and returns an error unless it is
// "1".
func pollReady(ctx context.Context) error {
	state, err := pollJS[string](ctx, `document.documentElement.dataset.ready`, readyTimeout)
	if err != nil {
		return fmt.Errorf("page never set data-ready: %w", err)
	}
	if state != "1" {
		return fmt.Errorf("data-ready = %q, want \"1\"", state)
	}
	return nil
}

// pollJS evaluates the JavaScript expression in the page until it is truthy
// and returns that value: checked at once, then on every DOM mutation and
// every animation frame, for at most timeout (a deadline inside the page,
// not a sleep in the test).
//
// It is chromedp.Poll without Poll's cached execution context id, which goes
// stale when a tab navigates twice ("Cannot find context with specified
// id"): Runtime.evaluate with no context id runs in the current document.
func pollJS[T any](ctx context.Context, expr string, timeout time.Duration) (T, error) {
	js := fmt.Sprintf(`new Promise((resolve) => {
  const check = () => { try { return (%s); } catch (e) { return undefined; } };
  let done = false;
  const obs = new MutationObserver(() => { const v = check(); if (v) finish({ok: true, value: v}); });
  const finish = (r) => { if (done) return; done = true; obs.disconnect(); clearTimeout(timer); resolve(r); };
  const timer = setTimeout(() => finish({ok: false, value: check() ?? null}), %d);
  obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  const tick = () => { if (done) return; const v = check(); if (v) finish({ok: true, value: v}); else requestAnimationFrame(tick); };
  tick();
})`, expr, timeout.Milliseconds())
	var zero T
	type result struct {
		OK    bool            `json:"ok"`
		Value json.RawMessage `json:"value"`
	}
	deadline := time.Now().Add(timeout)
	res, err := chromedp.Run(ctx, chromedp.Evaluate[result](js, chromedp.EvalAwaitPromise))
	// A navigation while the promise waits (a click that follows a link,
	// the wait being for the next page) destroys the document the promise
	// lives in: Chromium answers "Inspected target navigated or closed" or
	// "Execution context was destroyed". Wait again in the new document
	// until the deadline, rather than failing on the page change itself.
	for err != nil && navigatedAway(err) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		res, err = chromedp.Run(ctx, chromedp.Evaluate[result](js, chromedp.EvalAwaitPromise))
	}
	if err != nil {
		return zero, err
	}
	if !res.OK {
		return zero, fmt.Errorf("%s still falsy (%s) after %v", expr, res.Value, timeout)
	}
	var v T
	if err := json.Unmarshal(res.Value, &v); err != nil {
		return zero, fmt.Errorf("%s = %s: %w", expr, res.Value, err)
	}
	return v, nil
}

// navigatedAway reports whether err is Chromium's answer to an evaluation
// whose document was replaced by a navigation while it ran.
func navigatedAway(err error) bool {
	m := err.Error()
	return strings.Contains(m, "navigated or closed") || strings.Contains(m, "Execution context was destroyed") || strings.Contains(m, "Cannot find context")
}

// navigate loads url in the tab and fails the test if it cannot.
func navigate(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate %s: %v", url, err)
	}
}

// evalJSON evaluates expr in the page and decodes its JSON value into T.
func evalJSON[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}
