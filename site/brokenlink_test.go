package main

import (
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/examples"
)

// Rule (issue 13's QA, hostile input): a playground opened from a link it
// cannot open shows the error and a neutral title, never the name of the
// prerendered default (scenario A) it was not asked for: "This link cannot
// be opened" when the link itself is broken (the default runs below, as the
// error says), "The linked scenario is not valid" when the link holds a
// scenario that does not run (the editor shows it, underlined).
func TestPlaygroundBrokenLinkTitle(t *testing.T) {
	ex, _ := examples.Get(scenarioA)
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
