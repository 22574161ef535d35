package trim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// wasmPackage is the site's browser entry point, the package the trim is for.
const wasmPackage = "github.com/mcplab/mcplab/wasm/cmd/lab"

// TestModfile proves the trim described in the package doc: with
// its go.mod, the browser entry point (wasmPackage) compiles for js/wasm and
// depends on neither net/http nor html/template, which is what brings a page
// under ARCHITECTURE.md's 1.5 MB transfer budget; without it, it depends on
// both (so the test would notice a templ that stopped importing them, and
// the trim could go). It also proves the trim keeps runtime.Buffer.Flush,
// which templ's buffer pool calls, asserting interface{ Flush() } where the
// original asserted http.Flusher.
func TestModfile(t *testing.T) {
	root := t.TempDir()
	modfile, cached, err := Modfile(root, wasmPackage)
	if err != nil {
		t.Fatalf("Modfile: %v", err)
	}
	if cached {
		t.Errorf("Modfile in an empty root reported a cached copy")
	}
	dir := filepath.Dir(modfile)
	deps := func(extra ...string) map[string]bool {
		t.Helper()
		args := append([]string{"list", "-deps"}, extra...)
		cmd := exec.Command("go", append(args, wasmPackage)...)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		m := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			m[p] = true
		}
		return m
	}
	whole, trimmed := deps(), deps("-modfile", modfile)
	for _, p := range []string{"net/http", "html/template", "regexp", Module + "/safehtml", "crypto/sha256"} {
		if !whole[p] {
			t.Errorf("without the trim %s does not depend on %s any more: the trim may be unnecessary", wasmPackage, p)
		}
		if trimmed[p] {
			t.Errorf("with the trim %s still depends on %s", wasmPackage, p)
		}
	}
	var buffer string
	matches, _ := filepath.Glob(filepath.Join(dir, "templ", "runtime", "buffer.go"))
	for _, m := range matches {
		b, _ := os.ReadFile(m)
		buffer = string(b)
	}
	if !strings.Contains(buffer, "func (b *Buffer) Flush() error") || !regexp.MustCompile(`b\.Underlying\.\(interface\s*{\s*Flush\(\)\s*}\)`).MatchString(buffer) {
		t.Errorf("trimmed runtime/buffer.go lost Buffer.Flush or its flusher assertion:\n%s", buffer)
	}
	// templ's development mode is a constant false in the copy, so the
	// compiler drops the file watcher that WriteString would call.
	watch, _ := os.ReadFile(filepath.Join(dir, "templ", "runtime", "watchmode.go"))
	if !regexp.MustCompile(`(?m)^const developmentMode = false$`).Match(watch) {
		t.Errorf("trimmed runtime/watchmode.go does not declare const developmentMode = false (constants):\n%s", watch)
	}
	bin := filepath.Join(dir, "main.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-modfile", modfile, "-o", bin, wasmPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("trimmed build failed: %v\n%s", err, out)
	}

	// The copy is keyed by what it is made from: the same inputs reuse it
	// (the site build relies on this to skip the trim and keep go's build
	// cache warm), and nothing else is left in root.
	again, cached, err := Modfile(root, wasmPackage)
	if err != nil || !cached || again != modfile {
		t.Errorf("second Modfile = %q, cached %v, %v; want %q, cached true", again, cached, err, modfile)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("root holds %d entries after two calls, want the one copy", len(entries))
	}
}

// Rule: foldConstants turns the listed variable into a constant of the
// listed value, and a listed name that no file declares as a variable is an
// error (the trim would silently stop saving what it claims).
func TestFoldConstants(t *testing.T) {
	parse := func(src string) []*ast.File {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return []*ast.File{f}
	}
	files := parse("package runtime\n\nimport \"os\"\n\nvar developmentMode = os.Getenv(\"TEMPL_DEV_MODE\") == \"true\"\n")
	changed, err := foldConstants(Module+"/runtime", files)
	if err != nil || !changed[0] {
		t.Fatalf("foldConstants = %v, %v; want the file changed", changed, err)
	}
	g := files[0].Decls[1].(*ast.GenDecl)
	if v, ok := g.Specs[0].(*ast.ValueSpec).Values[0].(*ast.Ident); g.Tok != token.CONST || !ok || v.Name != "false" {
		t.Errorf("developmentMode is %v %#v, want const false", g.Tok, g.Specs[0].(*ast.ValueSpec).Values[0])
	}
	if _, err := foldConstants(Module+"/runtime", parse("package runtime\n\nvar other = 1\n")); err == nil {
		t.Errorf("foldConstants of a package without developmentMode gave no error")
	}
}

// Rule: stubBodies replaces the body of the listed functions (the style
// attribute sanitizer returns an error, the development mode's file namer
// no name, neither naming a heavy package), and a
// listed name that no file declares as a function is an error.
func TestStubBodies(t *testing.T) {
	parse := func(src string) []*ast.File {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return []*ast.File{f}
	}
	files := parse("package runtime\n\nimport \"errors\"\n\nfunc SanitizeStyleAttributeValues(values ...any) (string, error) {\n\treturn safehtml.Sanitize(values)\n}\n\nfunc GetDevModeTextFileName(templFileName string) string {\n\treturn hex.EncodeToString(sha256.Sum256([]byte(templFileName)))\n}\n")
	changed, err := stubBodies(Module+"/runtime", files)
	if err != nil || !changed[0] {
		t.Fatalf("stubBodies = %v, %v; want the file changed", changed, err)
	}
	if mentionsHeavy(files[0].Decls[1], map[string]string{"safehtml": Module + "/safehtml"}, nil) {
		t.Errorf("the stubbed SanitizeStyleAttributeValues still names safehtml")
	}
	if mentionsHeavy(files[0].Decls[2], map[string]string{"sha256": "crypto/sha256"}, nil) {
		t.Errorf("the stubbed GetDevModeTextFileName still names crypto/sha256")
	}
	ret, ok := files[0].Decls[1].(*ast.FuncDecl).Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 2 {
		t.Fatalf("stubbed body = %#v, want return \"\", errors.New(...)", files[0].Decls[1].(*ast.FuncDecl).Body.List)
	}
	if lit, ok := ret.Results[0].(*ast.BasicLit); !ok || lit.Value != `""` {
		t.Errorf("stub returns %#v first, want \"\"", ret.Results[0])
	}
	if _, err := stubBodies(Module+"/runtime", parse("package runtime\n\nfunc other() {}\n")); err == nil {
		t.Errorf("stubBodies of a package without SanitizeStyleAttributeValues gave no error")
	}
}

// Rule: the stub of runtime.SanitizeStyleAttributeValues is safe only while
// no template of the site renders a dynamic style attribute: generated code
// calls it for style={...} and reaches it through ResolveDynamic for spread
// attributes. This test fails when a template starts doing either, before
// the page would fail in the browser.
func TestNoTemplateNeedsTheStubs(t *testing.T) {
	gomod, err := goEnv("GOMOD")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(gomod), "templates", "*_templ.go"))
	if len(files) == 0 {
		t.Fatalf("no generated templates under %s", filepath.Dir(gomod))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range []string{"SanitizeStyleAttributeValues(", ".ResolveDynamic("} {
			if strings.Contains(string(b), call) {
				t.Errorf("%s calls %s, which the trimmed templ stubs (stubs in trim.go): a page would fail to render", f, call)
			}
		}
	}
}
