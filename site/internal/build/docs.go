package build

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcplab/mcplab/site/internal/docsite"
)

// buildDocs writes the pages of the repository's docs/ (package docsite):
// docs/index.html, the docs' index, from docs/README.md, and
// docs/<name>/index.html per other file of docs/ but rules.md, which the
// rules reference (buildRules) serves. The build runs in a checkout of the
// module, as compiling the wasm does: docs/ is read beside the main
// module's go.mod (`go env GOMOD`), so the pages say what the checkout's
// docs say. It returns how many pages it wrote.
func buildDocs(write func(rel string, data []byte) error) (int, error) {
	gomod, err := goEnv("GOMOD")
	if err != nil {
		return 0, err
	}
	pages, err := docsite.Render(os.DirFS(filepath.Join(filepath.Dir(gomod), "docs")))
	if err != nil {
		return 0, fmt.Errorf("build: %w", err)
	}
	for _, p := range pages {
		html, err := render(p.Component())
		if err != nil {
			return 0, fmt.Errorf("build: docs page %s: %w", p.File, err)
		}
		if err := write(p.Path+"index.html", html); err != nil {
			return 0, err
		}
	}
	return len(pages), nil
}
