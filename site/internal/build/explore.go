package build

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/examples"
	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
)

// exploreDefault is the scenario the explorer page opens on without a
// fragment (prerendered on it): lesson A, whose window shows the band
// where the cancellation and the completion cross.
const exploreDefault = "a-cancel-then-complete"

// explorePanel gives a scenario page its "Explore this race" link when its
// controls are times (explore.Suggest), and, when the scenario states its
// own window (own), that window's map prerendered natively, so a lesson
// shows its region without loading the explorer.
func explorePanel(p *templates.Page, data []byte, own, ledger bool) error {
	href, ok, err := templates.ExploreHref(p.Root+"explore/"+exploreQuery(ledger), data)
	if err != nil || !ok {
		return err
	}
	p.Explore = href
	if !own {
		return nil
	}
	rep, err := explore.Explore(data, explore.Options{Engine: runOptions})
	if err != nil {
		return fmt.Errorf("its explore window: %w", err)
	}
	p.Exploration = &templates.ExploreOut{Report: rep, LinkBase: p.Root + "playground/"}
	return nil
}

// buildExplore renders the explorer page on exploreDefault, explored
// natively, with the built-in scenarios that state a window to pick from
// (one with a ledger opens with ?ledger=1, where the workers load SQLite).
func buildExplore(write func(rel string, data []byte) error, exs []examples.Example) error {
	var choices []templates.ExploreChoice
	var first templates.ExploreOut
	var firstJSON []byte
	for _, ex := range exs {
		s, err := scenario.Decode(ex.JSON)
		if err != nil || s.Explore == nil {
			continue
		}
		frag, err := scenario.ShareFragment(ex.JSON)
		if err != nil {
			return fmt.Errorf("build: explore page: %s: %w", ex.Name, err)
		}
		choices = append(choices, templates.ExploreChoice{Name: ex.Name, Title: ex.Title, Href: exploreQuery(s.Ledger != nil) + "#" + frag})
		if ex.Name == exploreDefault {
			rep, err := explore.Explore(ex.JSON, explore.Options{Engine: runOptions})
			if err != nil {
				return fmt.Errorf("build: explore page: %w", err)
			}
			first, firstJSON = templates.ExploreOut{Report: rep, LinkBase: "../playground/"}, ex.JSON
		}
	}
	if first.Report == nil {
		return fmt.Errorf("build: explore page: no built-in scenario %s with an explore window", exploreDefault)
	}
	html, err := render(templates.ExplorePage(templates.Explore{Root: "../", Scenario: firstJSON, Out: first, Choices: choices}))
	if err != nil {
		return fmt.Errorf("build: explore page: %w", err)
	}
	return write("explore/index.html", html)
}

// exploreQuery is the explorer page's query for a scenario: ?ledger=1 for
// one with a ledger (its workers load the browser's SQLite), else none.
func exploreQuery(ledger bool) string {
	if ledger {
		return "?ledger=1"
	}
	return ""
}
