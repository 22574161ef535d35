package docgen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcplab/mcplab/engine/rulebook"
)

// Package is what docs/packages.md says of one package of the module: its
// import path, the first sentence of its doc comment (go list's Doc) and
// the module's packages it imports.
type Package struct {
	ImportPath string
	Doc        string
	Imports    []string
}

// Packages returns docs/packages.md: the module's packages grouped by the
// room they live in (engine/, templates/, wasm/, site/), each with what its
// own doc comment says (its citations of the design notes linked to
// docs/, rulebook.MarkdownCitations) and what of the module it imports, so
// the map of docs/architecture.md can be checked against the code as it
// is. module is the module path, trimmed from every name.
func Packages(module string, pkgs []Package) string {
	sorted := append([]Package(nil), pkgs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ImportPath < sorted[j].ImportPath })
	var b strings.Builder
	b.WriteString("# The packages\n\n")
	b.WriteString("<!-- Generated from each package's doc comment and imports by `go test ./site/internal/docgen -update`; edit the doc comments, not this file. -->\n\n")
	b.WriteString("Imports run down: `engine/` imports nothing above it, `templates/` draws what `engine/` decided, `wasm/` and `site/` sit on top. " +
		"Each room's house test keeps its own map (`engine/house_test.go`, `templates/house_test.go`, `wasm/house_test.go`, `site/internal/house_test.go`). See [architecture.md](architecture.md) for how data flows through them.\n\n")
	room := ""
	for _, p := range sorted {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if rel == "" {
			rel = "."
		}
		if r := strings.SplitN(rel, "/", 2)[0]; r != room {
			room = r
			fmt.Fprintf(&b, "## `%s/`\n\n| package | what it is | imports of the module |\n|---|---|---|\n", room)
		}
		var imports []string
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module+"/") {
				imports = append(imports, "`"+strings.TrimPrefix(imp, module+"/")+"`")
			}
		}
		sort.Strings(imports)
		doc := p.Doc
		if doc == "" {
			doc = "(no doc comment)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", rel, rulebook.MarkdownCitations(cell(doc)), strings.Join(imports, ", "))
		if next := nextRoom(sorted, p, module); next != room {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// nextRoom is the room of the package after p, or "" after the last.
func nextRoom(sorted []Package, p Package, module string) string {
	for i := range sorted {
		if sorted[i].ImportPath == p.ImportPath && i+1 < len(sorted) {
			rel := strings.TrimPrefix(strings.TrimPrefix(sorted[i+1].ImportPath, module), "/")
			return strings.SplitN(rel, "/", 2)[0]
		}
	}
	return ""
}
