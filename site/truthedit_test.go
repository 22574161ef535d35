package site

// Browser tests of the words above a scenario page's output after an
// edit: the heading, the note under it, the summary's and "Try it"'s
// labels, the document title and the embed snippet's title name the run
// on screen, on the page, on the share link reopened and in the embed.

import (
	"context"
	"encoding/json"
	"html"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// editedJS reads the words above a scenario page's output.
const editedJS = `(() => ({
  heading: document.querySelector("#lab h1").textContent,
  title: document.title,
  note: document.getElementById("lab-edited-note")?.textContent ?? "",
  summaryLabel: document.querySelector("#lab > p.summary .original-label")?.textContent ?? "",
  try: document.querySelector("#lab > p.try > strong")?.textContent ?? "",
}))()`

type editedPage struct{ Heading, Title, Note, SummaryLabel, Try string }

// checkEdited fails unless the page on ctx says what want says.
func checkEdited(t *testing.T, ctx context.Context, where string, want templates.EditedWords) {
	t.Helper()
	wantJS, _ := json.Marshal(want.Heading)
	waitFor(t, ctx, where+": the edited heading", `document.querySelector("#lab h1").textContent === `+string(wantJS))
	got := evalJSON[editedPage](t, ctx, editedJS)
	wantPage := editedPage{want.Heading, want.Title, want.Note, want.Summary, want.Try}
	if got != wantPage {
		t.Errorf("%s: the page says\n%+v\nwant\n%+v", where, got, wantPage)
	}
}

// Rule (every word on a page is computed from the run on screen or marked
// as the original's): lesson A with its cancel moved to 325 ms, after the
// handler's completion, shows completion wins; its heading, document title,
// note, summary and "Try it" say the scenario was edited and what this run
// shows (templates.NewEditedWords of the native run's headline), and so do
// the share link reopened in a fresh tab (the same set of controls) and
// the embed its snippet opens, whose iframe title is the edited heading,
// not the original's "A: cancellation wins". Moving the cancel back to
// 300 ms gives the page its own words back.
func TestTruthEditedNotice(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	s := examplestest.DecodeExample(t, ex)
	edited, err := scenario.SetPath(ex.JSON, "steps[2].at", json.RawMessage(`325`))
	if err != nil {
		t.Fatal(err)
	}
	_, tr := nativeTrace(t, examples.Example{Name: ex.Name + "+325", JSON: edited})
	headline := templates.NewView(tr).Verdict.Text

	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL(scenarioA))
	waitReady(t, ctx)
	own := evalJSON[editedPage](t, ctx, editedJS)
	// The page's heading is the title without its transport, a control.
	if own.Heading == "" || !strings.HasPrefix(s.Title, own.Heading) || own.Note != "" || own.SummaryLabel != "" || own.Try != "Try it:" {
		t.Fatalf("unedited, the page says %+v: want its own title (%q), no note, no labels", own, s.Title)
	}
	want := templates.NewEditedWords(own.Heading, headline)
	if !strings.Contains(want.Heading, "completion wins") {
		t.Fatalf("the native run of A with the cancel at 325 ms heads %q: the case no longer shows completion winning", want.Heading)
	}
	catchClipboard(t, ctx)
	setControl(t, ctx, "steps[2].at", "325")
	checkEdited(t, ctx, "the edited page", want)

	snippet := copied(t, ctx, "lab-copy-embed")
	if !strings.Contains(snippet, ` title="`+html.EscapeString(want.Heading)+`"`) || strings.Contains(snippet, `title="A: cancellation wins`) {
		t.Errorf("Copy embed copied %s\nwant the iframe titled %q", snippet, want.Heading)
	}
	link := copied(t, ctx, "lab-copy-link")

	fresh, _ := openTab(t, siteURL)
	navigate(t, fresh, link)
	waitReady(t, fresh)
	checkEdited(t, fresh, "the share link reopened", want)

	src := html.UnescapeString(strings.SplitN(strings.SplitN(snippet, `src="`, 2)[1], `"`, 2)[0])
	embed, _ := openTab(t, siteURL)
	navigate(t, embed, src)
	waitReady(t, embed)
	checkEdited(t, embed, "the embed", want)

	setControl(t, ctx, "steps[2].at", "300")
	waitFor(t, ctx, "the page's own heading back", `document.querySelector("#lab h1").textContent === `+string(mustJSON(t, own.Heading)))
	if back := evalJSON[editedPage](t, ctx, editedJS); back != own {
		t.Errorf("back at the original's values the page says %+v, want its own words %+v", back, own)
	}
}
