package wasm_test

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

// The house rules of the browser half (ARCHITECTURE.md, "Outside
// engine/"), kept by a test so a later change cannot quietly undo them:
// its imports run down its package map, and no hand-written function is
// over maxFuncLines lines. Every file is read whatever its build
// constraints (most of wasm/ builds only for js/wasm).

// module is the import path of the repository.
const module = "github.com/mcplab/mcplab/"

// layers is wasm/'s package map, bottom first: a package may import only
// packages of lower layers (ARCHITECTURE.md: protocol, then the worker
// over it, the JavaScript boundary, the page's DOM glue, one main per
// binary on top). The transcript importer's halves are packages of their
// own (worker/importer, page/importpage), so only import.wasm imports the
// transcript reader and runs its package's initialization.
var layers = map[string]int{
	"wasm/protocol":         1,
	"wasm/worker":           2,
	"wasm/jsledger":         2,
	"wasm/worker/importer":  3,
	"wasm/worker/explorer":  3,
	"wasm/bridge":           3,
	"wasm/page":             4,
	"wasm/page/importpage":  5,
	"wasm/page/explorepage": 5,
	"wasm/cmd/lab":          6,
	"wasm/cmd/playground":   6,
	"wasm/cmd/ledger":       6,
	"wasm/cmd/import":       6,
	"wasm/cmd/explore":      6,
}

// maxBackUp is how many imports may run back up (or sideways) the map:
// the house allows 2; there are none.
const maxBackUp = 0

// maxFuncLines bounds every hand-written function of wasm/.
const maxFuncLines = 80

// files calls fn with every hand-written Go file of wasm/ but tests,
// parsed, with its package directory relative to the repository.
func files(t *testing.T, fn func(pkg, path string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(filepath.Join("wasm", filepath.Dir(path))), path, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestImportsRunDownTheMap(t *testing.T) {
	backUp := 0
	files(t, func(pkg, path string, _ *token.FileSet, f *ast.File) {
		layer, ok := layers[pkg]
		if !ok {
			t.Errorf("%s: package %s is not on wasm/'s map (house_test.go's layers)", path, pkg)
			return
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module+"wasm/") {
				continue
			}
			to, ok := layers[strings.TrimPrefix(p, module)]
			if !ok || to >= layer {
				backUp++
				t.Logf("%s imports %s, which is not below it on the map", path, p)
			}
		}
	})
	if backUp > maxBackUp {
		t.Errorf("%d imports run back up wasm/'s map, want at most %d", backUp, maxBackUp)
	}
}

// Rule: the protocol is what both sides share, so it holds no syscall/js
// (tested natively), and neither does the worker.
func TestProtocolAndWorkerHaveNoJS(t *testing.T) {
	files(t, func(pkg, path string, _ *token.FileSet, f *ast.File) {
		if pkg != "wasm/protocol" && pkg != "wasm/worker" && pkg != "wasm/worker/importer" && pkg != "wasm/worker/explorer" {
			return
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"syscall/js"` {
				t.Errorf("%s imports syscall/js", path)
			}
		}
	})
}

func TestNoFunctionIsOver80Lines(t *testing.T) {
	n := 0
	files(t, func(_, path string, fset *token.FileSet, f *ast.File) {
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
