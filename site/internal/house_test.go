package internal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The house rules of the command (ARCHITECTURE.md, "Outside engine/"),
// kept by a test so a later change cannot quietly undo them: site/ is a
// command over packages whose imports run down the map below, and no
// hand-written function of site/ is over maxFuncLines lines. The test
// lives in site/internal (which has no package of its own) so that
// `go test ./site/internal/...` runs it natively, without a browser.

// module is the import path of the repository.
const module = "github.com/mcplab/mcplab/"

// layers is site/'s package map, bottom first: a package may import only
// site/ packages of lower layers. At the bottom the packages that know no
// other (the file server, the docs generator, the docs' pages, the templ
// trim, the load average, the static assets, the real peers the live
// tests run); above them the live verbs' connection and recorder layer,
// what drives real peers over it (the probe of a server, the mock a
// client talks to) and probe-client over the mock, and the static site's
// build (over the file server's headers, the trim, the docs' pages and
// the assets); the command (site) and the benchmark commands on top.
var layers = map[string]int{
	"site/static":               0,
	"site/internal/loadavg":     0,
	"site/internal/trim":        0,
	"site/internal/serve":       0,
	"site/internal/docgen":      0,
	"site/internal/docsite":     0,
	"site/internal/junit":       0,
	"site/internal/peertest":    0,
	"site/internal/live":        1,
	"site/internal/build":       1,
	"site/internal/probe":       2,
	"site/internal/mock":        2,
	"site/internal/probeclient": 3,
	"site/internal/servetime":   3,
	"site/internal/wasmratio":   3,
	"site":                      4,
	"site/cmd/mcplab":           5,
}

// maxBackUp is how many imports may run back up (or sideways) the map.
const maxBackUp = 0

// maxFuncLines bounds every hand-written function of site/.
const maxFuncLines = 80

// maxFileLines bounds every hand-written file of site/, as engine/'s house
// test bounds its own.
const maxFileLines = 700

// files calls fn with every hand-written Go file of site/ but tests and
// test data, parsed, with its package directory relative to the
// repository.
func files(t *testing.T, fn func(pkg, path string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || d.Name() == "editor") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_templ.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := "site"
		if rel != "." {
			pkg = "site/" + filepath.ToSlash(rel)
		}
		fn(pkg, path, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Rule (ARCHITECTURE.md, "Outside engine/"): imports run down site/'s
// map; a package the map does not name is an error until it is placed.
func TestSiteImportsRunDownTheMap(t *testing.T) {
	backUp, read := 0, 0
	files(t, func(pkg, path string, _ *token.FileSet, f *ast.File) {
		read++
		layer, ok := layers[pkg]
		if !ok {
			t.Errorf("%s: package %s is not on site/'s map (site/internal/house_test.go's layers)", path, pkg)
			return
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module+"site/") {
				continue
			}
			to, ok := layers[strings.TrimPrefix(p, module)]
			if !ok || to >= layer {
				backUp++
				t.Logf("%s imports %s, which is not below it on the map", path, p)
			}
		}
	})
	if read == 0 {
		t.Fatal("no file read: the test reads nothing")
	}
	if backUp > maxBackUp {
		t.Errorf("%d imports run back up site/'s map, want at most %d", backUp, maxBackUp)
	}
}

// Rule: no hand-written function of site/ is over maxFuncLines lines, and
// no file over maxFileLines: a verb is small steps.
func TestSiteFunctionsAndFilesAreSmall(t *testing.T) {
	n := 0
	files(t, func(_, path string, fset *token.FileSet, f *ast.File) {
		if lines := fset.Position(f.End()).Line; lines > maxFileLines {
			t.Errorf("%s is %d lines, want at most %d", path, lines, maxFileLines)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n++
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if lines > maxFuncLines {
				t.Errorf("%s: %s is %d lines, want at most %d", path, fd.Name.Name, lines, maxFuncLines)
			}
		}
	})
	if n == 0 {
		t.Fatal("no function found: the test reads no file")
	}
}
