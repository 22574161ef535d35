package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/templates"
)

// Rule: a transcript that fails to import says so in the page's status
// (not "Live") and keeps the last result of the reader's own, dimmed, or
// none: the built-in example the page opened with never stays behind the
// error as if it were the reader's. A stdio tee as logging wrappers write
// it (a time before each channel, [INFO] and [STDERR] lines) imports on the
// page as natively.
func TestImportFailedKeepsOwnOrNone(t *testing.T) {
	tee, err := os.ReadFile(filepath.Join("..", "engine", "transcript", "testdata", "stdio-tee-timed.log"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	const status = `[document.getElementById("lab-status").dataset.state ?? "", document.getElementById("lab-status").textContent]`
	const hasResult = `!!document.querySelector("#imp-result #lab-output")`
	const failed = `!document.getElementById("lab-error").hidden && document.getElementById("lab-error").textContent.includes("Cannot import")`

	// The example is on screen; the reader's first text does not import.
	typeInto(t, ctx, "#imp-input", "hello there\nnot a log")
	waitFor(t, ctx, "the error", failed)
	if st := evalJSON[[2]string](t, ctx, status); st[0] != "error" || strings.HasPrefix(st[1], "Live") {
		t.Errorf("status %q (%s) after a failed import, want the error state, not Live", st[1], st[0])
	}
	if evalJSON[bool](t, ctx, hasResult) {
		t.Error("the built-in example's result stays behind the error")
	}
	if msg := evalJSON[string](t, ctx, `document.getElementById("lab-error").textContent`); !strings.Contains(msg, "No result is shown") {
		t.Errorf("error %q, want it to say no result is shown", msg)
	}

	// The reader's tee imports: live again, its own result.
	typeInto(t, ctx, "#imp-input", string(tee))
	waitFor(t, ctx, "the tee judged", `document.getElementById("lab-error").hidden && !document.getElementById("imp-result").dataset.stale && `+hasResult+` && `+settledJS)
	if st := evalJSON[[2]string](t, ctx, status); st[0] != "live" {
		t.Errorf("status %q (%s) after an import, want live", st[1], st[0])
	}
	if src := evalJSON[string](t, ctx, `document.getElementById("imp-source").textContent`); !strings.Contains(src, "stdio") {
		t.Errorf("source %q, want the tee's stdio transport", src)
	}

	// Broken again: the reader's own result stays, dimmed, and says so.
	typeInto(t, ctx, "#imp-input", "still not a log")
	waitFor(t, ctx, "the error", failed)
	if st := evalJSON[[2]string](t, ctx, status); st[0] != "error" {
		t.Errorf("status %q (%s), want the error state", st[1], st[0])
	}
	if !evalJSON[bool](t, ctx, hasResult) || evalJSON[string](t, ctx, `document.getElementById("imp-result").dataset.stale ?? ""`) != "1" {
		t.Error("the reader's last result is not kept, dimmed")
	}
	if msg := evalJSON[string](t, ctx, `document.getElementById("lab-error").textContent`); !strings.Contains(msg, "last one of yours that imported") {
		t.Errorf("error %q, want it to say the result is the last one of the reader's", msg)
	}
}

// Rule: an empty box is not an error. Emptied after a transcript that did
// not import, the status says there is nothing to import yet and how to
// give one, in no error state, and the error box is hidden; a transcript
// pasted next is judged live as before.
func TestImportEmptyBoxIsNoError(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	const status = `[document.getElementById("lab-status").dataset.state ?? "", document.getElementById("lab-status").textContent]`
	typeInto(t, ctx, "#imp-input", "hello there\nnot a log")
	waitFor(t, ctx, "the error", `document.getElementById("lab-status").dataset.state === "error"`)

	// Empty the box: select everything and delete it, as a reader does.
	evalJSON[bool](t, ctx, `(() => { const e = document.getElementById("imp-input"); e.focus(); e.select(); return true; })()`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("\b")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the empty box's status", `document.getElementById("imp-input").value === "" && document.getElementById("lab-status").dataset.state !== "error"`)
	st := evalJSON[[2]string](t, ctx, status)
	if st[1] != templates.ImportEmptyStatus || strings.Contains(st[1], "error") {
		t.Errorf("status %q (%s) with an empty box, want %q", st[1], st[0], templates.ImportEmptyStatus)
	}
	if !evalJSON[bool](t, ctx, `document.getElementById("lab-error").hidden`) {
		t.Errorf("the error box shows %q with an empty box", evalJSON[string](t, ctx, `document.getElementById("lab-error").textContent`))
	}

	// The example loaded next is judged: live again.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("imp-example"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the example judged", `document.getElementById("lab-status").dataset.state === "live" && document.getElementById("lab-error").hidden`)
}
