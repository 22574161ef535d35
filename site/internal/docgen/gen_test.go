package docgen

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplab/mcplab/engine/scenario"
)

var update = flag.Bool("update", false, "rewrite the generated files of docs/")

// repoFile is a path from the repository's root; the test runs in
// site/internal/docgen.
func repoFile(name string) string { return filepath.Join("..", "..", "..", name) }

// checkGenerated compares a generated docs file with what its source says
// now, or rewrites it with -update.
func checkGenerated(t *testing.T, name, want string) {
	t.Helper()
	path := repoFile(name)
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test ./site/internal/docgen -update)", name, err)
	}
	if string(got) != want {
		t.Fatalf("%s is not what its source says now; run go test ./site/internal/docgen -update and commit it", name)
	}
}

// The format reference says what the schema says: a reader who follows
// docs/scenario.md writes a scenario the decoder accepts.
func TestScenarioReferenceUpToDate(t *testing.T) {
	doc, err := Scenario(scenario.Schema)
	if err != nil {
		t.Fatal(err)
	}
	checkGenerated(t, "docs/scenario.md", doc)
}

// Every top-level member and every step verb of the schema has its
// section, with ranges in the docs' number style.
func TestScenarioReferenceCoversTheSchema(t *testing.T) {
	doc, err := Scenario(scenario.Schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## `client`", "## `server`", "## `steps`", "### `call`", "### `cancel`",
		"`latencyMs.up` | integer 0–86,400,000 |",
		"`mcplab` (required) | `1` |",
		"`server.handlers.<name>",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/scenario.md lacks %q", want)
		}
	}
}

// A schema that is not JSON is an error, never a half-written file.
func TestScenarioReferenceRefusesBadSchema(t *testing.T) {
	if _, err := Scenario([]byte("{")); err == nil {
		t.Fatal("Scenario accepted a truncated schema")
	}
}

// listPackages runs go list over the module natively and, for the browser
// half, as js/wasm (its packages build only there); a package both lists
// name is taken from the browser's listing.
func listPackages(t *testing.T) (string, []Package) {
	t.Helper()
	byPath := map[string]Package{}
	module := ""
	for _, run := range []struct {
		env      []string
		patterns string
	}{{nil, "./..."}, {[]string{"GOOS=js", "GOARCH=wasm"}, "./wasm/..."}} {
		cmd := exec.Command("go", "list", "-e", "-json", run.patterns)
		cmd.Dir = repoFile(".")
		cmd.Env = append(os.Environ(), run.env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v", run.patterns, err)
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		for dec.More() {
			var p struct {
				ImportPath, Doc  string
				Imports, GoFiles []string
				Module           *struct{ Path string }
			}
			if err := dec.Decode(&p); err != nil {
				t.Fatal(err)
			}
			if p.Module != nil {
				module = p.Module.Path
			}
			if len(p.GoFiles) == 0 {
				continue // only tests here, or files for the other platform
			}
			byPath[p.ImportPath] = Package{ImportPath: p.ImportPath, Doc: p.Doc, Imports: p.Imports}
		}
	}
	var pkgs []Package
	for _, p := range byPath {
		pkgs = append(pkgs, p)
	}
	return module, pkgs
}

// The package map is what the packages say of themselves now.
func TestPackageMapUpToDate(t *testing.T) {
	module, pkgs := listPackages(t)
	doc := Packages(module, pkgs)
	for _, want := range []string{"## `engine/`", "| `engine/sim` |", "## `wasm/`", "| `wasm/protocol` |"} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/packages.md lacks %q", want)
		}
	}
	checkGenerated(t, "docs/packages.md", doc)
}
