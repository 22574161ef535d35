package site

// A scenario page opened with a share link to another scenario describes
// the scenario it runs: its heading, summary and controls
// are the link's, and a note says the link is not the page's own scenario.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mcplab/mcplab/engine/examples/examplestest"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// linkedControlsJS lists the page's controls as [id, label text, type,
// value, max] (max "" when the control has none).
const linkedControlsJS = `[...document.querySelectorAll("#lab-controls [data-path]")].map(el => {
	const label = document.querySelector('label[for="' + el.id + '"]');
	return [el.id, label ? label.textContent : "", el.type, el.type === "checkbox" ? String(el.checked) : el.value, el.getAttribute("max") ?? ""];
})`

// Rule (a page describes what it shows): scenario A's page opened with
// a #s= link
//   - to another built-in scenario (C) has C's title as its h1 and in the
//     document's title, C's notes as its summary and "Try it", a note that
//     the link holds another scenario than the page's, with a link to the
//     page's own that works from the keyboard, and exactly C's controls
//     (templates.NewControls: ids, labels, values and slider ranges), none
//     of A's; the run is C's;
//   - to A with another step (the page's title, other controls) is
//     headed "Shared scenario (edited from “A: …”)", its note says the
//     link holds an edited copy;
//   - to an untitled scenario is headed "Shared scenario";
//   - to A with a moved step (an edit the page's controls describe) keeps
//     A's heading and summary, with no note.
func TestScenarioPageDescribesTheLinkedScenario(t *testing.T) {
	a := examplestest.Get(t, scenarioA)
	c := examplestest.Get(t, "c-progress-then-maximum")
	ownHeading := strings.TrimSuffix(a.Title, " (stdio)")
	ci, _ := stepIndex(t, a.JSON, "cancel")
	moved, err := scenario.Edit(a.JSON, fmt.Sprintf("steps[%d].at", ci), scenario.ValueInteger, "330", false)
	if err != nil {
		t.Fatal(err)
	}
	extra := []byte(strings.Replace(string(a.JSON), `{"at": 100, "do": "progress"`, `{"at": 200, "do": "progress", "id": 7, "progress": 2, "total": 3}, {"at": 100, "do": "progress"`, 1))
	if string(extra) == string(a.JSON) {
		t.Fatal("scenario A has no progress step at 100 ms to add one beside")
	}
	untitled := []byte(strings.Replace(string(c.JSON), `"title": "`+c.Title+`",`, "", 1))
	if examplestest.DecodeExample(t, c).Title == "" || strings.Contains(string(untitled), c.Title) {
		t.Fatal("the untitled copy of C still has its title")
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		heading string // "" for the page's own
		note    string // what the note says the link holds
	}{
		{"another built-in scenario", c.JSON, c.Title, "another scenario than its own"},
		{"the page's scenario with another step", extra, "Shared scenario (edited from “" + ownHeading + "”)", "an edited copy of its scenario, with other controls"},
		{"an untitled scenario", untitled, "Shared scenario", "another scenario than its own"},
		{"the page's scenario edited", moved, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frag, err := scenario.ShareFragment(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			s, err := scenario.Decode(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			ctx, _ := openTab(t, siteURL)
			navigate(t, ctx, pageURL(scenarioA)+"#"+frag)
			waitReady(t, ctx)
			waitFor(t, ctx, "the run drawn", `!mcplabMorph.busy && !mcplabEngine.busy && !document.getElementById("lab-output").dataset.pending`)
			h1 := evalJSON[string](t, ctx, `document.querySelector("#lab h1").textContent`)
			note := evalJSON[string](t, ctx, `document.getElementById("lab-link-note")?.textContent ?? ""`)
			if tc.heading == "" {
				// The page's own scenario with a control moved: no link
				// note (it is the page's scenario), but the heading says
				// the run is an edit of it and what it now shows.
				if !strings.HasPrefix(h1, "Edited from “"+ownHeading+"”: this run shows ") || note != "" {
					t.Errorf("an edit of the page's scenario: h1 %q, note %q; want “Edited from “%s”: this run shows …” and no link note", h1, note, ownHeading)
				}
				checkControls(t, ctx, s, false)
				return
			}
			if h1 != tc.heading {
				t.Errorf("h1 %q, want %q", h1, tc.heading)
			}
			if title := evalJSON[string](t, ctx, `document.title`); title != tc.heading+" · mcplab" {
				t.Errorf("document title %q, want %q", title, tc.heading+" · mcplab")
			}
			if !strings.Contains(note, "opened with a link to "+tc.note+" (“"+ownHeading+"”): the heading, controls and output are the link's.") {
				t.Errorf("#lab-link-note says %q, want that the link holds %s (the page's %q)", note, tc.note, ownHeading)
			}
			summary := evalJSON[string](t, ctx, `[...document.querySelectorAll("#lab > p.summary, #lab > p.try")].filter(p => !p.hidden && p.id !== "lab-link-note").map(p => p.textContent).join(" | ")`)
			about, try := templates.SplitNotes(s.Notes)
			if tc.name == "another built-in scenario" && (!strings.Contains(summary, about) || !strings.Contains(summary, "Try it: "+try)) {
				t.Errorf("the visible summary says %q, want C's notes %q and Try it %q", summary, about, try)
			}
			ownAbout, _ := templates.SplitNotes(examplestest.DecodeExample(t, a).Notes)
			if strings.Contains(summary, ownAbout) {
				t.Errorf("the page still shows its own summary %q for another scenario", ownAbout)
			}
			if got := evalJSON[string](t, ctx, `JSON.parse(document.getElementById("scenario-json").textContent).title ?? ""`); got != s.Title {
				t.Errorf("the page runs the scenario titled %q, want the link's %q", got, s.Title)
			}
			checkControls(t, ctx, s, true)
			if tc.name != "another built-in scenario" {
				return
			}
			// The note's link, from the keyboard, opens the page's own.
			evalJSON[bool](t, ctx, `(document.querySelector("#lab-link-note a").focus(), document.activeElement.matches("#lab-link-note a"))`)
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "the page's own scenario", `location.hash === "" && document.readyState === "complete" && document.documentElement.dataset.ready === "1"`)
			if h1 := evalJSON[string](t, ctx, `document.querySelector("#lab h1").textContent`); h1 != ownHeading {
				t.Errorf("after the note's link h1 %q, want the page's own %q", h1, ownHeading)
			}
		})
	}
}

// checkControls fails t unless the page's controls are exactly s's
// (templates.NewControls of s): the same ids, each with its label, value
// and, with ranges, range (a slider's max; the page's own sliders keep
// their prerendered range, which the trace's end sets).
func checkControls(t *testing.T, ctx context.Context, s *scenario.Scenario, ranges bool) {
	t.Helper()
	want := map[string][4]string{}
	for _, g := range templates.NewControls(s, 0) {
		for _, c := range g.Controls {
			max := ""
			if ranges && c.Kind == "range" {
				max = fmt.Sprint(c.Max)
			}
			want[c.ID] = [4]string{c.Label, c.Kind, c.Value, max}
		}
	}
	got := evalJSON[[][5]string](t, ctx, linkedControlsJS)
	if len(got) != len(want) {
		t.Errorf("the page has %d controls, want the scenario's %d", len(got), len(want))
	}
	for _, g := range got {
		w, ok := want[g[0]]
		if !ok {
			t.Errorf("control %s (%q) is not one of the scenario's", g[0], g[1])
			continue
		}
		kind := g[2]
		if kind == "select-one" {
			kind = "select"
		}
		if g[1] != w[0] || kind != w[1] || g[3] != w[2] || (w[3] != "" && g[4] != w[3]) {
			t.Errorf("control %s: label %q, %s, value %q, max %q; want %q, %s, %q, max %q", g[0], g[1], kind, g[3], g[4], w[0], w[1], w[2], w[3])
		}
	}
}

// Rule (a link pasted into an open page is opened): a share link put
// into the address bar of a scenario page that is already open changes
// only the fragment; the page opens it as a fresh load does: C's page,
// given A's edited link, shows A's scenario (its title in the h1, the
// note that the link holds another scenario than the page's, A's run),
// and the page's own controls are gone.
func TestScenarioPageOpensAPastedLink(t *testing.T) {
	a := examplestest.Get(t, scenarioA)
	ci, _ := stepIndex(t, a.JSON, "cancel")
	moved, err := scenario.Edit(a.JSON, fmt.Sprintf("steps[%d].at", ci), scenario.ValueInteger, "330", false)
	if err != nil {
		t.Fatal(err)
	}
	frag, err := scenario.ShareFragment(moved)
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, pageURL("c-progress-then-maximum"))
	waitReady(t, ctx)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.documentElement.dataset.zzOld = "1"; location.hash = "`+frag+`"; return true; })()`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the page to load the link", `!document.documentElement.dataset.zzOld && document.documentElement.dataset.ready === "1"`)
	waitFor(t, ctx, "the run drawn", `!mcplabMorph.busy && !mcplabEngine.busy && !document.getElementById("lab-output").dataset.pending`)
	if h1 := evalJSON[string](t, ctx, `document.querySelector("#lab h1").textContent`); h1 != a.Title {
		t.Errorf("after the link was pasted the h1 says %q, want the link's %q", h1, a.Title)
	}
	if note := evalJSON[string](t, ctx, `document.getElementById("lab-link-note")?.textContent ?? ""`); !strings.Contains(note, "opened with a link to another scenario") {
		t.Errorf("#lab-link-note says %q, want that the link holds another scenario", note)
	}
	if got := evalJSON[string](t, ctx, `document.getElementById("scenario-json").textContent`); !strings.Contains(got, `"at": 330`) && !strings.Contains(got, `"at":330`) {
		t.Errorf("the page runs %.80q, want the link's edited A (its cancel at 330 ms)", got)
	}
}

// Rule (#example=NAME is the link of a built-in scenario): scenario
// A's page opened with #example=b-complete-then-cancel does what B's #s=
// link does: B's title in the h1, the note that the link holds another
// scenario than the page's, B's run; with #example=nosuch (no built-in has
// that name) it says, as for a damaged link, that the link cannot be
// opened and the page shows its own scenario, which runs.
func TestScenarioPageOpensAnExampleLink(t *testing.T) {
	a := examplestest.Get(t, scenarioA)
	b := examplestest.Get(t, "b-complete-then-cancel")
	ownHeading := strings.TrimSuffix(a.Title, " (stdio)")
	t.Run("another built-in", func(t *testing.T) {
		ctx, _ := openTab(t, siteURL)
		navigate(t, ctx, pageURL(scenarioA)+"#example="+b.Name)
		waitReady(t, ctx)
		waitFor(t, ctx, "the run drawn", `!mcplabMorph.busy && !mcplabEngine.busy && !document.getElementById("lab-output").dataset.pending`)
		if h1 := evalJSON[string](t, ctx, `document.querySelector("#lab h1").textContent`); h1 != b.Title {
			t.Errorf("h1 %q, want B's %q", h1, b.Title)
		}
		if note := evalJSON[string](t, ctx, `document.getElementById("lab-link-note")?.textContent ?? ""`); !strings.Contains(note, "opened with a link to another scenario than its own (“"+ownHeading+"”)") {
			t.Errorf("#lab-link-note says %q, want that the link holds another scenario than the page's", note)
		}
		if got := evalJSON[string](t, ctx, `JSON.parse(document.getElementById("scenario-json").textContent).title ?? ""`); got != b.Title {
			t.Errorf("the page runs %q, want B", got)
		}
		checkControls(t, ctx, examplestest.DecodeExample(t, b), true)
	})
	t.Run("no such built-in", func(t *testing.T) {
		ctx, _ := openTab(t, siteURL)
		navigate(t, ctx, pageURL(scenarioA)+"#example=nosuch")
		waitReady(t, ctx)
		msg := evalJSON[string](t, ctx, `(() => { const e = document.getElementById("lab-error"); return e.hidden ? "" : e.textContent; })()`)
		if !strings.Contains(msg, "This link cannot be opened") || !strings.Contains(msg, `"nosuch"`) || !strings.Contains(msg, "The page shows its own scenario") {
			t.Errorf("#lab-error says %q, want that the link (no built-in \"nosuch\") cannot be opened and the page shows its own scenario", msg)
		}
		if h1 := evalJSON[string](t, ctx, `document.querySelector("#lab h1").textContent`); h1 != ownHeading {
			t.Errorf("h1 %q, want the page's own %q", h1, ownHeading)
		}
	})
}
