package templates_test

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// source is templates/ parsed and type-checked: every non-test Go file,
// generated *_templ.go included, each named by the file a person edits
// (x_templ.go is x.templ's).
type source struct {
	fset  *token.FileSet
	files map[string]*ast.File // by name: "view.go", "charts.templ"
	info  *types.Info
	pkg   *types.Package
	lines map[string]int // hand-written files' line counts
}

var (
	loadOnce sync.Once
	loaded   *source
	loadErr  error
)

// load parses and type-checks templates/ once per test binary, importing
// its dependencies from the build cache's export data (go list -export).
func load(t *testing.T) *source {
	t.Helper()
	loadOnce.Do(func() { loaded, loadErr = parseAndCheck() })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

func parseAndCheck() (*source, error) {
	out, err := exec.Command("go", "list", "-deps", "-export", "-f", "{{if .Export}}{{.ImportPath}}={{.Export}}{{end}}", ".").Output()
	if err != nil {
		return nil, err
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "="); ok {
			exports[path] = file
		}
	}
	s := &source{fset: token.NewFileSet(), files: map[string]*ast.File{}, lines: map[string]int{}}
	names, err := filepath.Glob("*.go")
	if err != nil {
		return nil, err
	}
	var list []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(s.fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		key := name
		if base, ok := strings.CutSuffix(name, "_templ.go"); ok {
			key = base + ".templ"
		} else {
			s.lines[name] = s.fset.Position(f.End()).Line
		}
		s.files[key] = f
		list = append(list, f)
	}
	templs, err := filepath.Glob("*.templ")
	if err != nil {
		return nil, err
	}
	for _, name := range templs {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		s.lines[name] = bytes.Count(b, []byte("\n"))
	}
	imp := importer.ForCompiler(s.fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	s.info = &types.Info{Uses: map[*ast.Ident]types.Object{}}
	s.pkg, err = (&types.Config{Importer: imp}).Check("github.com/mcplab/mcplab/templates", s.fset, list, s.info)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// fileOf is the name of the file (as in source.files) that declares obj,
// or "" when templates does not declare it at top level (a local, a
// parameter, another package's name).
func (s *source) fileOf(obj types.Object) string {
	if obj == nil || obj.Pkg() != s.pkg || !obj.Pos().IsValid() {
		return ""
	}
	switch o := obj.(type) {
	case *types.Var:
		if !o.IsField() && o.Parent() != s.pkg.Scope() {
			return ""
		}
	case *types.Func:
		if sig, ok := o.Type().(*types.Signature); !ok || (sig.Recv() == nil && o.Parent() != s.pkg.Scope()) {
			return ""
		}
	case *types.TypeName, *types.Const:
		if o.Parent() != s.pkg.Scope() && o.Parent() != nil {
			return ""
		}
	default:
		return ""
	}
	name := filepath.Base(s.fset.Position(obj.Pos()).Filename)
	if base, ok := strings.CutSuffix(name, "_templ.go"); ok {
		return base + ".templ"
	}
	return name
}

// edges are the (user, declarer) pairs of files: user names a top-level
// declaration (or a field or method of one) that declarer holds.
func (s *source) edges() map[[2]string][]string {
	e := map[[2]string][]string{}
	for id, obj := range s.info.Uses {
		from := filepath.Base(s.fset.Position(id.Pos()).Filename)
		if base, ok := strings.CutSuffix(from, "_templ.go"); ok {
			from = base + ".templ"
		}
		to := s.fileOf(obj)
		if to == "" || to == from {
			continue
		}
		k := [2]string{from, to}
		if !slices.Contains(e[k], id.Name) {
			e[k] = append(e[k], id.Name)
		}
	}
	for _, names := range e {
		sort.Strings(names)
	}
	return e
}

// layers is templates/' file map, bottom first: a file may use the
// top-level declarations (and their fields and methods) of files of its
// own layer or lower ones. A .templ file counts as one file with its
// generated _templ.go.
//
//  1. format: numbers and text (widths, fitting, the axis step), links
//     under the site root, citations and the rules' headlines (format.go,
//     rules.go, cite.go, headlines.go).
//  2. shared models: the charts' frame, colours and axes (frame.go), what a
//     wire message is (wire.go), the request, check and event rows
//     (rows.go) and an imported transcript's rows (importview.go).
//  3. one view model per chart or panel: the timeline (timeline.go and the
//     label geometry, labels, deadlines, sessions and cursor beside it), the
//     herd and backoff, task lanes, ledger, verdict and cards, the
//     explorer's map, the review, the edited note.
//  4. page view models: View and Charts (what Output draws), the output's
//     parts, the controls and Try-its, Page, the playground's and the
//     import's models.
//  5. components: the templ components of the output (timeline, charts,
//     ledger, output).
//  6. pages: the page layouts (page, playground, review, rules, explore,
//     not found, docs) and the two panels pages embed that the browser also
//     re-renders (panels.go).
//  7. surface: the exported entries that build a view model and render it
//     (surface.go, whose package comment names the exported surface), and
//     the Drawings that choose which summary charts a binary links
//     (drawing.go).
var layers = map[string]int{
	"format.go":    1,
	"rules.go":     1,
	"cite.go":      1,
	"headlines.go": 1,

	"frame.go":      2,
	"wire.go":       2,
	"rows.go":       2,
	"importview.go": 2,

	"timeline.go":  3,
	"layout.go":    3,
	"labels.go":    3,
	"deadlines.go": 3,
	"sessions.go":  3,
	"cursor.go":    3,
	"herd.go":      3,
	"tasks.go":     3,
	"ledger.go":    3,
	"verdict.go":   3,
	"explore.go":   3,
	"review.go":    3,
	"edited.go":    3,

	"view.go":           4,
	"charts.go":         4,
	"output.go":         4,
	"controls.go":       4,
	"policycontrols.go": 4,
	"dedupe.go":         4,
	"uniquelabels.go":   4,
	"tryit.go":          4,
	"page.go":           4,
	"playground.go":     4,

	"timeline.templ": 5,
	"charts.templ":   5,
	"ledger.templ":   5,
	"output.templ":   5,

	"page.templ":       6,
	"playground.templ": 6,
	"review.templ":     6,
	"rules.templ":      6,
	"explore.templ":    6,
	"notfound.templ":   6,
	"docs.templ":       6,
	"panels.go":        6,

	"surface.go": 7,
	"drawing.go": 7,
}

// maxBackUp is how many (file, file) pairs may run back up the map (or
// into a file it does not place); the budget is 2, and none does.
const maxBackUp = 0

// Rule: a file uses only its own layer and the layers under it, so the
// package reads bottom up.
func TestFilesUseOnlyTheirOwnAndLowerLayers(t *testing.T) {
	s := load(t)
	for name := range s.files {
		if _, ok := layers[name]; !ok {
			t.Errorf("%s is not on templates/' map (house_test.go's layers)", name)
		}
	}
	for name := range layers {
		if _, ok := s.files[name]; !ok {
			t.Errorf("house_test.go's layers places %s, which templates/ does not have", name)
		}
	}
	e := s.edges()
	var up []string
	for k, names := range e {
		from, to := layers[k[0]], layers[k[1]]
		if from == 0 || to == 0 || to > from {
			up = append(up, k[0]+" (layer "+strconv.Itoa(from)+") uses "+k[1]+" (layer "+strconv.Itoa(to)+"): "+strings.Join(names, ", "))
		}
	}
	sort.Strings(up)
	for _, u := range up {
		t.Log(u)
	}
	if len(e) < 50 {
		t.Fatalf("only %d uses between files found: the resolution is not over the package", len(e))
	}
	if len(up) > maxBackUp {
		t.Errorf("%d uses run back up templates/' map, want at most %d", len(up), maxBackUp)
	}
}

// surfaceFile holds the package comment that names the exported surface.
const surfaceFile = "surface.go"

// alsoExported opens the surface comment's paragraph that names what is
// exported though site/ and wasm/ code does not name it.
const alsoExported = "Also exported"

// usedOutside is every name of templates that site/ and wasm/ name
// (templates.Name), tests left out, whatever a file's build constraints.
func usedOutside(t *testing.T) map[string]bool {
	t.Helper()
	const path = "github.com/mcplab/mcplab/templates"
	used := map[string]bool{}
	for _, dir := range []string{"site", "wasm"} {
		err := filepath.WalkDir(filepath.Join("..", dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			local := ""
			for _, imp := range f.Imports {
				if imp.Path.Value == strconv.Quote(path) {
					local = "templates"
					if imp.Name != nil {
						local = imp.Name.Name
					}
				}
			}
			if local == "" {
				return nil
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
						used[sel.Sel.Name] = true
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return used
}

// Rule: templates exports what site/ and wasm/ use, and its surface
// comment says so truly: it names every exported name, says how many
// there are, and names in its "Also exported" paragraph exactly those
// that site/ and wasm/ code does not name.
func TestSurfaceIsWhatSiteAndWasmUse(t *testing.T) {
	s := load(t)
	used := usedOutside(t)
	var exported []string
	for _, name := range s.pkg.Scope().Names() {
		if token.IsExported(name) {
			exported = append(exported, name)
		}
	}
	if len(used) < 20 || len(exported) < 20 {
		t.Fatalf("%d names used outside, %d exported: the reading is not over site/, wasm/ and templates/", len(used), len(exported))
	}
	f := s.files[surfaceFile]
	if f == nil || f.Doc == nil {
		t.Fatalf("%s has no package comment", surfaceFile)
	}
	doc := f.Doc.Text()
	all, also, _ := strings.Cut(doc, alsoExported)
	also, _, _ = strings.Cut(also, "\n\n")
	words := func(text string) map[string]bool {
		m := map[string]bool{}
		for _, w := range regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*\b`).FindAllString(text, -1) {
			m[w] = true
		}
		return m
	}
	named, alsoNamed := words(all+also), words(also)
	if m := regexp.MustCompile(`(\d+) names`).FindStringSubmatch(doc); m == nil || m[1] != strconv.Itoa(len(exported)) {
		t.Errorf("%s's comment says %q, want %d names", surfaceFile, m, len(exported))
	}
	for _, name := range exported {
		switch {
		case !named[name]:
			t.Errorf("%s is exported and %s's comment does not name it", name, surfaceFile)
		case !used[name] && !alsoNamed[name]:
			t.Errorf("%s is exported, site/ and wasm/ do not name it, and %s's %q paragraph does not say why: unexport it or say why", name, surfaceFile, alsoExported)
		case used[name] && alsoNamed[name]:
			t.Errorf("%s's %q paragraph names %s, which site/ or wasm/ names", surfaceFile, alsoExported, name)
		}
	}
	for name := range used {
		if s.pkg.Scope().Lookup(name) == nil {
			t.Errorf("site/ or wasm/ names templates.%s, which templates does not declare", name)
		}
	}
	for name := range alsoNamed {
		if obj := s.pkg.Scope().Lookup(name); obj == nil || !obj.Exported() {
			t.Errorf("%s's %q paragraph names %s, which templates does not export", surfaceFile, alsoExported, name)
		}
	}
}

// maxFuncLines bounds every hand-written function of templates/, as the
// house tests of site/ and wasm/ bound theirs; generated components are
// not hand-written.
const maxFuncLines = 80

// maxFileLines bounds every hand-written Go and templ file of templates/.
const maxFileLines = 700

// Rule: no hand-written function is over maxFuncLines lines, and no
// hand-written file over maxFileLines: a layout is small steps.
func TestFunctionsAndFilesAreSmall(t *testing.T) {
	s := load(t)
	n := 0
	for name, lines := range s.lines {
		if lines > maxFileLines {
			t.Errorf("%s is %d lines, want at most %d", name, lines, maxFileLines)
		}
	}
	for name, f := range s.files {
		if strings.HasSuffix(name, ".templ") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n++
			lines := s.fset.Position(fd.End()).Line - s.fset.Position(fd.Pos()).Line + 1
			if lines > maxFuncLines {
				t.Errorf("%s: %s is %d lines, want at most %d", name, fd.Name.Name, lines, maxFuncLines)
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d functions found: the test does not read the package", n)
	}
}
