package engine_test

import (
	"bytes"
	"go/ast"
	gobuild "go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The house rules ("the house reads in an hour"), kept by a
// test so that a later change cannot quietly undo them: the runner is at
// most 1,300 lines, no hand-written Go or templ file exceeds 700 lines,
// and the engine's imports run down ARCHITECTURE.md's package map.

// maxRunnerLines bounds the runner (package engine's own files, tests
// excluded): ARCHITECTURE.md, "the runner is small (under ~1,300 lines)".
const maxRunnerLines = 1300

// maxFileLines bounds every hand-written Go or templ file of the
// repository ("no hand-written Go or templ file exceeds 700
// lines"); generated files (templ's *_templ.go, "Code generated") are not
// hand-written.
const maxFileLines = 700

func lines(t *testing.T, path string) (int, []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n")), b
}

func TestRunnerIsAtMost1300Lines(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		n, _ := lines(t, f)
		total += n
	}
	if total == 0 || total > maxRunnerLines {
		t.Errorf("the runner (engine/*.go without tests) is %d lines, want 1..%d", total, maxRunnerLines)
	}
}

func TestNoHandWrittenFileIsOver700Lines(t *testing.T) {
	root := ".."
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository's root is not %s: %v", root, err)
	}
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".templ")) || strings.HasSuffix(name, "_templ.go") {
			return nil
		}
		n, b := lines(t, path)
		if bytes.Contains(b[:min(len(b), 1024)], []byte("Code generated")) {
			return nil
		}
		seen++
		if n > maxFileLines {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s is %d lines, want at most %d: split it along its seams", rel, n, maxFileLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Fatalf("only %d hand-written files found under %s: the walk is not over the repository", seen, root)
	}
}

// engineRank orders the engine's packages as ARCHITECTURE.md's package map
// does, top to bottom; a package may import only packages ranked before
// it. The map's imports column puts review after the runner (review
// "imports the runner, checks"), and entry, the one entry that decodes,
// canonicalizes and runs, sits on the runner; explore, the race explorer,
// runs through entry and sits under review, whose race table it computes;
// rulebook, the rules reference, runs the built-ins through entry and
// judges them with checks and checks/schema (nothing in engine/ imports
// it), and cites the design notes through rulebook/notes, which knows
// only checks (templates links it without the runner); examples is data
// that opens share links (scenario's).
var engineRank = []string{
	"engine/internal/sha256",
	"engine/sim",
	"engine/jsonrpc",
	"engine/scenario",
	"engine/examples",
	"engine/trace",
	"engine/session",
	"engine/coordinator",
	"engine/handler",
	"engine/tasks",
	"engine/sse",
	"engine/ledger",
	"engine/ledger/sqlite",
	"engine/recovery",
	"engine/checks",
	"engine/checks/schema",
	"engine/rulebook/notes",
	"engine/transcript",
	"engine",
	"engine/entry",
	"engine/explore",
	"engine/review",
	"engine/rulebook",
	"engine/examples/examplestest",
}

func TestEngineImportsRunDownThePackageMap(t *testing.T) {
	const module = "github.com/mcplab/mcplab/"
	rank := map[string]int{}
	for i, p := range engineRank {
		rank[p] = i
	}
	for _, pkg := range engineRank {
		dir := filepath.Join("..", filepath.FromSlash(pkg))
		p, err := gobuild.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"engine") {
				if strings.HasPrefix(imp, module) {
					t.Errorf("%s imports %s: the engine imports nothing of the module outside engine/", pkg, imp)
				}
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			r, ok := rank[dep]
			if !ok {
				t.Errorf("%s imports %s, which the package map does not place", pkg, dep)
				continue
			}
			if r >= rank[pkg] {
				t.Errorf("%s imports %s, which sits below it in the package map: imports run down, never back up", pkg, dep)
			}
		}
	}
	// Every engine package is placed.
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || d.Name() == "testdata" {
			if d != nil && d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return err
		}
		if _, err := gobuild.ImportDir(path, 0); err != nil {
			return nil // no Go files here
		}
		name := "engine"
		if path != "." {
			name += "/" + filepath.ToSlash(path)
		}
		if _, ok := rank[name]; !ok {
			t.Errorf("package %s is not in engineRank: place it as ARCHITECTURE.md's map does", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTemplatesExportOnlyWhatSiteAndWasmUse keeps templates' exported
// surface to what its users need ("templates' exported surface
// is what site/ and wasm/ use"): every exported name of package templates
// is named as templates.Name in site/ or wasm/, or appears in the
// declaration of an exported name that is (a parameter or result type,
// a field's type).
func TestTemplatesExportOnlyWhatSiteAndWasmUse(t *testing.T) {
	fset := token.NewFileSet()
	decls := map[string]string{} // exported name -> its declaration's text
	files, err := filepath.Glob(filepath.Join("..", "templates", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		text := func(n ast.Node) string {
			return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv)) {
					key := d.Name.Name
					if d.Recv != nil {
						key = "(" + text(d.Recv.List[0].Type) + ")." + key
					}
					decls[key] = text(d.Type)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							decls[s.Name.Name] = text(s.Type)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								decls[n.Name] = text(s)
							}
						}
					}
				}
			}
		}
	}
	var users strings.Builder
	for _, dir := range []string{"site", "wasm"} {
		err := filepath.WalkDir(filepath.Join("..", dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
				b, err := os.ReadFile(path)
				users.Write(b)
				return err
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	used := map[string]bool{}
	all := users.String()
	for name := range decls {
		if strings.HasPrefix(name, "(") {
			used[name] = true // a method: used with its type
			continue
		}
		if strings.Contains(all, "templates."+name) && regexp.MustCompile(`\btemplates\.`+name+`\b`).MatchString(all) {
			used[name] = true
		}
	}
	word := map[string]*regexp.Regexp{}
	for name := range decls {
		word[name] = regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	}
	for changed := true; changed; {
		changed = false
		for name, decl := range decls {
			if !used[name] {
				continue
			}
			for other := range decls {
				if !used[other] && word[other].MatchString(decl) {
					used[other], changed = true, true
				}
			}
		}
	}
	if len(decls) < 20 {
		t.Fatalf("only %d exported names found in templates: the parse is not over the package", len(decls))
	}
	for name := range decls {
		if !used[name] {
			t.Errorf("templates exports %s, which neither site/ nor wasm/ uses: unexport it", name)
		}
	}
}

func exportedRecv(recv *ast.FieldList) bool {
	typ := recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}
