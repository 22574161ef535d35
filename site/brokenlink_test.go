package site

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
)

// Rule (hostile input): a playground opened from a link it
// cannot open shows the error and a neutral title, never the name of the
// prerendered default (scenario A) it was not asked for: "This link cannot
// be opened" when the link itself is broken (nothing runs: the editor keeps
// the default, as the error says), "The linked scenario is not valid" when the link holds a
// scenario that does not run (the editor shows it, underlined).
func TestPlaygroundBrokenLinkTitle(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	for _, tc := range []struct{ name, want, title string }{
		{"not base64", "This link cannot be opened", "This link cannot be opened"},
		{"semantically invalid", "steps[1].at: must be >= 0", "The linked scenario is not valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			link := ""
			for _, h := range hostileLinks {
				if h.name == tc.name {
					link = h.link[strings.IndexByte(h.link, '#'):]
				}
			}
			ctx, _ := openTab(t, siteURL)
			navigate(t, ctx, playgroundURL(link))
			waitReady(t, ctx)
			msg := evalJSON[string](t, ctx, `[document.getElementById("lab-error"), document.getElementById("pg-error")].filter(e => !e.hidden).map(e => e.textContent).join(" | ")`)
			if !strings.Contains(msg, tc.want) {
				t.Errorf("the page says %q, want it to show the error %q", msg, tc.want)
			}
			if got := evalJSON[string](t, ctx, `document.getElementById("pg-title").textContent`); got != tc.title || strings.Contains(got, ex.Title) {
				t.Errorf("the title says %q, want the neutral %q (not the default's %q)", got, tc.title, ex.Title)
			}
		})
	}
}

// Rule (share links on a scenario page): a #s= link the page cannot
// open keeps saying so after the page's own scenario has run (the first
// run's answer once cleared it, so a broken link was silently ignored),
// until the reader changes a control; and a link whose scenario cannot run
// on this page (a ledger scenario on scenario A's page, which loads the
// build without SQLite) gives the page its own scenario back, live, with
// the reason and where to open the link instead, never dead controls.
func TestScenarioPageBrokenLinkSaysSo(t *testing.T) {
	ledger := examplestest.Get(t, "ledger-keyed-race")
	frag, err := scenario.ShareFragment(ledger.JSON)
	if err != nil {
		t.Fatal(err)
	}
	broken := ""
	for _, h := range hostileLinks {
		if h.name == "not base64" {
			broken = h.link[strings.IndexByte(h.link, '#'):]
		}
	}
	if broken == "" {
		t.Fatal("hostileLinks has no \"not base64\" link")
	}
	for _, tc := range []struct{ name, fragment, want string }{
		{"unreadable link", broken, "This link cannot be opened"},
		{"ledger link on a page without SQLite", "#" + frag, "This link cannot be run on this page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, _ := openTab(t, siteURL)
			navigate(t, ctx, pageURL(scenarioA)+tc.fragment)
			waitReady(t, ctx)
			if got := evalJSON[string](t, ctx, `document.documentElement.dataset.ready`); got != "1" {
				t.Fatalf("data-ready is %q, want 1: the page's own scenario runs", got)
			}
			msg := evalJSON[string](t, ctx, `(() => { const e = document.getElementById("lab-error"); return e.hidden ? "" : e.textContent; })()`)
			if !strings.Contains(msg, tc.want) || !strings.Contains(msg, "The page shows its own scenario") {
				t.Fatalf("#lab-error says %q after the first run, want %q and that the page shows its own scenario", msg, tc.want)
			}
			if disabled := evalJSON[bool](t, ctx, `document.getElementById("lab-controls").disabled`); disabled {
				t.Fatal("the controls stay disabled: the page is dead")
			}
			if title := evalJSON[string](t, ctx, `JSON.parse(document.getElementById("scenario-json").textContent).title`); !strings.HasPrefix(title, "A:") {
				t.Errorf("the page runs %q, want its own scenario A", title)
			}
			playHref := `document.getElementById("open-playground").href`
			if tc.fragment != broken {
				// The note says "Open in playground" opens the link with
				// SQLite: it does (?ledger=1 and the link's fragment).
				waitFor(t, ctx, "Open in playground pointing at the link", `!document.getElementById("lab-output").dataset.pending`)
				if href := evalJSON[string](t, ctx, playHref); !strings.Contains(href, "ledger=1") || !strings.HasSuffix(href, "#"+frag) {
					t.Errorf("Open in playground points at %q, want the linked scenario (#%.20s...) with ?ledger=1", href, frag)
				}
			}
			// A control change is the reader moving on: the note goes.
			evalJSON[bool](t, ctx, `(() => { const el = document.querySelector('#lab-controls input[type=range]:not(:disabled)'); el.value = String(Number(el.value) + 1); el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
			waitFor(t, ctx, "the note cleared by a control change", `document.getElementById("lab-error").hidden`)
			waitFor(t, ctx, "the change drawn", `!document.getElementById("lab-output").dataset.pending && !mcplabEngine.busy`)
			if href := evalJSON[string](t, ctx, playHref); strings.Contains(href, "ledger=1") || strings.Contains(href, frag) {
				t.Errorf("after a change Open in playground points at %q, want the page's edited scenario without ?ledger=1", href)
			}
		})
	}
}

// Rule (README "Playground": a damaged link shows no run at all, only why,
// never the default's output): the playground opened with a link it
// cannot decode (#s=!!!!) says why and shows "Nothing has run yet" where
// the output would be, with no output of the prerendered default (scenario
// A's headline, checks, timeline) and none of its controls, as an invalid
// or past-bound link does; the editor keeps the default's text, and an
// edit runs it.
func TestPlaygroundDamagedLinkRunsNothing(t *testing.T) {
	ex := examplestest.Get(t, scenarioA)
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, playgroundURL("#s=!!!!"))
	waitReady(t, ctx)
	msg := evalJSON[string](t, ctx, `(() => { const e = document.getElementById("lab-error"); return e.hidden ? "" : e.textContent; })()`)
	if !strings.Contains(msg, "This link cannot be opened") || !strings.Contains(msg, ex.Title) {
		t.Errorf("#lab-error says %q, want that the link cannot be opened and the editor shows %q", msg, ex.Title)
	}
	shown := evalJSON[[3]string](t, ctx, `[document.getElementById("pg-nothing")?.textContent ?? "", String(document.querySelectorAll("#lab-output #output, #lab-output [id^=outcome-], #lab-output #events").length), String(document.querySelectorAll("#lab-controls [data-path]").length)]`)
	if !strings.HasPrefix(shown[0], "Nothing has run yet.") || shown[1] != "0" || shown[2] != "0" {
		t.Errorf("#pg-nothing says %q, %s output blocks, %s controls; want \"Nothing has run yet. ...\", none of the default's output or controls", shown[0], shown[1], shown[2])
	}
	// the page said the same long message twice; the output points at
	// it instead.
	if strings.Contains(shown[0], "not base64url") || !strings.Contains(shown[0], "the message above says why") {
		t.Errorf("#pg-nothing says %q, want it to point at the message above, not repeat it", shown[0])
	}
	if status := evalJSON[string](t, ctx, `document.getElementById("lab-status").textContent`); !strings.Contains(status, "nothing has run yet") {
		t.Errorf("#lab-status says %q, want that nothing has run yet", status)
	}
	// An edit of the editor's text (the default's) runs it.
	evalJSON[bool](t, ctx, `(() => { const ed = document.getElementById("pg-editor"); ed.value = ed.value + " "; ed.dispatchEvent(new Event("input")); return true; })()`)
	waitFor(t, ctx, "the edited default's run", `!mcplabEngine.busy && !mcplabMorph.busy && !!document.querySelector("#outcome-0") && !document.getElementById("pg-nothing")`)
	if title := evalJSON[string](t, ctx, `document.getElementById("pg-title").textContent`); title != ex.Title {
		t.Errorf("after the edit ran the title says %q, want %q", title, ex.Title)
	}
}
