package build

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/rulebook"
	"github.com/mcplab/mcplab/templates"
)

// buildRules writes the rules reference from book, which holds the
// built-ins' runs: rules/index.html and rules/<id>/index.html per rule
// (the pages `run -checks` prints, ruleURL).
func buildRules(write func(rel string, data []byte) error, book *rulebook.Book) error {
	entries := book.Entries()
	html, err := render(templates.RulesIndex("../", entries))
	if err != nil {
		return fmt.Errorf("build: rules index: %w", err)
	}
	if err := write("rules/index.html", html); err != nil {
		return err
	}
	for _, e := range entries {
		html, err := render(templates.RulePage("../../", e))
		if err != nil {
			return fmt.Errorf("build: rule %s: %w", e.ID, err)
		}
		if err := write("rules/"+string(e.ID)+"/index.html", html); err != nil {
			return err
		}
	}
	return nil
}
