package site

// Tests of the pages that had no share buttons: the
// index (share.js) and the import page (wasm/importshare.go) offer "Copy
// link" and "Copy embed", and what they put on the clipboard opens what
// the page shows.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/templates"
)

// catchClipboard replaces the page's navigator.clipboard.writeText with
// one that keeps the text in window.copied (the test reads what a reader
// would paste; a headless browser's clipboard is not the test's to read).
func catchClipboard(t *testing.T, ctx context.Context) {
	t.Helper()
	evalJSON[bool](t, ctx, `(navigator.clipboard.writeText = (text) => { window.copied = text; return Promise.resolve(); }, true)`)
}

// copied clicks the button with id and returns what it put on the
// clipboard.
func copied(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	evalJSON[bool](t, ctx, `(delete window.copied, true)`)
	waitFor(t, ctx, "#"+id+" to be enabled", fmt.Sprintf(`!document.getElementById(%q).disabled`, id))
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID(id))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "#"+id+" to copy", `typeof window.copied === "string"`)
	return evalJSON[string](t, ctx, `window.copied`)
}

// Rule (every page signals when it is ready, <html data-ready="1">, as
// the wasm does on the others): the index sets it once
// share.js has enabled its buttons, with nothing else to wait for; its
// copy buttons work from then on.
func TestIndexSetsReady(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/")
	waitReady(t, ctx)
	if n := evalJSON[int](t, ctx, `document.querySelectorAll("button[data-copy]:disabled").length`); n != 0 {
		t.Errorf("data-ready is set while %d copy button(s) are still disabled", n)
	}
	if n := evalJSON[int](t, ctx, `document.querySelectorAll("button[data-copy]").length`); n != 2 {
		t.Errorf("the index has %d copy buttons, want 2", n)
	}
}

// Rule (every page has copy-link and copy-embed): on the
// index, "Copy link" copies the page's address and "Copy embed" the
// iframe snippet templates.NewEmbed makes for the page with ?embed=1,
// byte for byte; the page says it copied. The embedded index opens.
func TestCopyLinkFromIndex(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/")
	waitFor(t, ctx, "the page to load", `document.readyState === "complete"`)
	catchClipboard(t, ctx)
	if got := copied(t, ctx, "page-copy-link"); got != siteURL+"/" {
		t.Errorf("Copy link on the index copied %q, want %q", got, siteURL+"/")
	}
	if got := evalJSON[string](t, ctx, `document.getElementById("page-share-status").textContent`); got != "Copied." {
		t.Errorf("after Copy link the page says %q, want Copied.", got)
	}
	want := templates.NewEmbed(siteURL+"/?embed=1", "mcplab: the life of an MCP request").HTML
	if got := copied(t, ctx, "page-copy-embed"); got != want {
		t.Errorf("Copy embed on the index copied\n%s\nwant\n%s", got, want)
	}
	navigate(t, ctx, siteURL+"/?embed=1")
	waitFor(t, ctx, "the embedded index", `document.readyState === "complete" && document.documentElement.dataset.embed === "1" && document.querySelectorAll(".scenario-card").length > 0`)
}

// Rule (and SCENARIO.md "Sharing": a link carries a
// scenario, not a transcript): on the import page, the page says a link
// cannot carry the transcript; "Copy link" copies the absolute playground
// link of the scenario that replays the pasted transcript, redacted (the
// transcript package's ShareFragment of the same import), and that link
// opens in a fresh tab and replays the transcript's violation; "Copy embed"
// copies NewEmbed's snippet of the same scenario with ?embed=1.
func TestCopyLinkFromImport(t *testing.T) {
	text := goSDKTranscripts["issue-7"]
	tr, err := transcript.Import([]byte(text), transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	frag, err := transcript.ShareFragment(tr, true)
	if err != nil {
		t.Fatal(err)
	}
	wantLink := siteURL + "/playground/#" + frag

	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	if help := evalJSON[string](t, ctx, `document.getElementById("imp-share-help")?.textContent ?? ""`); !strings.Contains(help, "cannot carry the transcript") {
		t.Errorf("the import page's share help says %q, want why a link cannot carry the transcript", help)
	}
	typeInto(t, ctx, "#imp-input", text)
	waitFor(t, ctx, "the import", `document.getElementById("lab-error").hidden && document.getElementById("events").textContent.includes("initialize")`)
	waitFor(t, ctx, "the scenario link of this transcript", fmt.Sprintf(`document.getElementById("imp-to-scenario").href.endsWith(%q)`, "#"+frag))
	catchClipboard(t, ctx)
	link := copied(t, ctx, "imp-copy-link")
	if link != wantLink {
		t.Fatalf("Copy link on the import page copied\n%.120s\nwant the redacted scenario's playground link\n%.120s", link, wantLink)
	}
	if l, err := scenario.ParseLink(link); err != nil || !strings.Contains(string(l.Scenario), transcript.Redacted) {
		t.Errorf("the copied link's scenario is not redacted (error %v)", err)
	}
	want := templates.NewEmbed(siteURL+"/playground/?embed=1#"+frag, "Replay of an imported MCP transcript").HTML
	if got := copied(t, ctx, "imp-copy-embed"); got != want {
		t.Errorf("Copy embed on the import page copied\n%.200s\nwant\n%.200s", got, want)
	}

	fresh, _ := openTab(t, siteURL)
	navigate(t, fresh, link)
	waitReady(t, fresh)
	if got := evalJSON[map[string]string](t, fresh, checksJS)["no-message-after-cancel"]; got != "fail" {
		t.Errorf("the copied link's playground: no-message-after-cancel %q, want fail (the transcript's violation)", got)
	}
}
