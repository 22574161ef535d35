// Package trim builds a trimmed copy of the templ runtime for the site's
// js/wasm binaries.
//
// The templ runtime (github.com/a-h/templ and its runtime package) carries
// server-side helpers — CSSMiddleware, CSSHandler, the http.Handler of
// handler.go, FromGoHTML/ToGoHTML — that import net/http and html/template.
// The page never calls them, but package-level state in net/http (the default
// transport, TLS, HTTP/2) survives the linker's dead-code elimination, so
// linking them costs main.wasm about 3.7 MB raw and 0.6 MB brotli: the
// difference between a page over and under ARCHITECTURE.md's 1.5 MB transfer
// budget. At site build time, Modfile copies the packages of templ's module
// that the wasm links (from the module cache, whatever version go.mod names),
// trims the files that import those packages, and writes a go.mod that
// replaces templ by the copy; the site build compiles with `go build
// -modfile`. Nothing is patched by hand or kept in the repository, and the
// native build (prerendering, the server) uses templ unchanged. (`go build
// -overlay` would be simpler but refuses files in the module cache.)
//
// The trim is mechanical (trimDecls): first, the net/http interface types
// that a kept function needs are replaced by their definitions (heavyEquiv);
// then every top-level declaration that still names a heavy package is
// removed, and so, to a fixed point, is every declaration that names a
// removed one (methods follow their receiver type). TestModfile proves the
// result compiles for js/wasm and no longer depends on net/http or
// html/template; if a templ upgrade defeats the trim, Modfile returns an
// error and the site build warns and links templ whole.
package trim

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Module is the module Modfile replaces.
const Module = "github.com/a-h/templ"

// trimmedPackages are the packages whose files Modfile trims.
var trimmedPackages = map[string]bool{Module: true, Module + "/runtime": true}

// heavyImports are the import paths Modfile removes from trimmedPackages.
//
// regexp and templ's safehtml are heavy too: their package-level state (the
// regexps of safehtml's CSS sanitizers and of templ's JS function names,
// safehtml's table of sanitizers) links regexp and regexp/syntax, about
// 260 KB of main.wasm raw and 40 KB of brotli (the transfer
// budget), and the site's templates call none of them (no style={...}
// attribute, no script template, no css component); see stubs for the one
// entry point that stays reachable.
//
// crypto/sha256 is heavy too: its init registers the hash with package
// crypto, which links Go's FIPS 140 module (self-tests, DRBG, AES, HMAC,
// SHA-3, SHA-512), about 88 KB of playground.wasm's code, whether or not
// anything hashes. templ hashes only for css components, CSSID and
// JSUnsafeFuncCall, none of which the site's templates use; the engine
// hashes with its own engine/internal/sha256.
var heavyImports = map[string]bool{"net/http": true, "html/template": true, "regexp": true, Module + "/safehtml": true, "crypto/sha256": true}

// stubs replaces the body of a function ("importpath.Name" → the new body's
// statements) before the trim: a function that kept code reaches through a
// switch the compiler cannot prove dead, and that would otherwise name a
// heavy package. runtime.SanitizeStyleAttributeValues renders a dynamic
// style attribute (style={...}, or a spread attribute named style): every
// attribute expression's resolver switches on the attribute's context and
// calls it for a style context, which the site's templates never produce.
// In the trimmed copy it returns an error rather than unsanitized CSS, so a
// template that starts using one fails loudly in the browser.
//
// runtime.GetDevModeTextFileName names development mode's string file by
// a SHA-256 of the template's path (crypto/sha256 is heavy); the string
// loader that calls it runs only in development mode, a constant false in
// the copy (constants), so it returns no name rather than drop the loader.
var stubs = map[string]string{
	Module + "/runtime.SanitizeStyleAttributeValues": `return "", errors.New("templ: style attribute values are not supported by the site's trimmed templ (site/internal/trim, stubs)")`,
	Module + "/runtime.GetDevModeTextFileName":       `return ""`,
}

// heavyEquiv maps "importpath.Name" to a type expression with the same
// meaning, for heavy-package types that kept code uses only as interfaces:
// http.Flusher is documented as exactly interface{ Flush() }, and
// runtime.Buffer.Flush (which templ's buffer pool calls) asserts it.
var heavyEquiv = map[string]string{"net/http.Flusher": "interface{ Flush() }"}

// constants are package-level variables the copy turns into constants
// ("importpath.name" → the constant's value), so the compiler drops the
// code they guard. templ's runtime reads TEMPL_DEV_MODE from the
// environment into developmentMode, and WriteString, which every
// generated template calls, then reads strings from watched files on
// disk: a page has no environment and no disk, and linking the watcher
// (os, path/filepath, its string loader) costs main.wasm about 90 KB raw
// and 17 KB of brotli (the transfer budget).
var constants = map[string]string{Module + "/runtime.developmentMode": "false"}

// self is this file: part of the key of a trimmed copy, so a change to the
// trim makes a new copy rather than reusing one the old code wrote.
//
//go:embed trim.go
var self []byte

// listedPackage is the part of `go list -json` that Modfile reads.
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	EmbedFiles []string
	Module     *struct{ Path, Dir string }
}

// Modfile returns the path of a go.mod for `go build -modfile` that is the
// main module's plus a replace directive pointing templ at a trimmed copy of
// the templ packages that pkg (an import path) links for GOOS=js
// GOARCH=wasm, and reports whether that copy was already there.
//
// The copy and its go.mod (with the main module's go.sum beside it) live in
// root/<key>/, where key is a SHA-256 of everything the copy is made from:
// the main module's go.mod and go.sum, the directory (and so the version) and
// file list of every templ package linked, and this file's source. A copy
// is written to a temporary directory and renamed into place, so a
// directory named by a key is always complete and concurrent builds sharing
// root never see half a copy; an existing one is reused (its modification
// time is set to now, so a cache pruner can tell it is in use). The packages
// come from `go list -deps`, so the trim follows the templ version in go.mod.
// An error means the trim could not be made (the caller builds without it).
func Modfile(root, pkg string) (modfile string, cached bool, err error) {
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Dir,GoFiles,EmbedFiles,Module", pkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", false, fmt.Errorf("go list -deps %s: %v: %s", pkg, err, strings.TrimSpace(stderr.String()))
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			return "", false, fmt.Errorf("go list -deps: %w", err)
		}
		if p.Module != nil && p.Module.Path == Module {
			pkgs = append(pkgs, p)
		}
	}
	gomod, err := goEnv("GOMOD")
	if err != nil {
		return "", false, err
	}
	mod, err := os.ReadFile(gomod)
	if err != nil {
		return "", false, err
	}
	sum, err := os.ReadFile(filepath.Join(filepath.Dir(gomod), "go.sum"))
	if err != nil {
		return "", false, err
	}

	h := sha256.New()
	for _, b := range [][]byte{self, mod, sum} {
		fmt.Fprintf(h, "%d\n%s", len(b), b)
	}
	for _, p := range pkgs {
		fmt.Fprintf(h, "%q %q %q %q %q\n", p.ImportPath, p.Dir, p.Module.Dir, p.GoFiles, p.EmbedFiles)
	}
	key := hex.EncodeToString(h.Sum(nil))[:32]
	final := filepath.Join(root, key)
	modfile = filepath.Join(final, "go.mod")
	if st, err := os.Stat(modfile); err == nil && st.Mode().IsRegular() {
		now := time.Now()
		os.Chtimes(final, now, now)
		return modfile, true, nil
	}

	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", false, err
	}
	tmp, err := os.MkdirTemp(root, key+".tmp-")
	if err != nil {
		return "", false, err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := writeCopy(tmp, filepath.Join(final, "templ"), pkgs, mod, sum); err != nil {
		return "", false, err
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another build sharing root made the same copy first: use it.
		if st, err2 := os.Stat(modfile); err2 == nil && st.Mode().IsRegular() {
			return modfile, true, nil
		}
		return "", false, err
	}
	return modfile, false, nil
}

// writeCopy writes into dir the trimmed copy of pkgs (dir/templ/...), a
// go.mod that is mod plus `replace templ => replaceDir` (the copy's path
// once dir is renamed into place) and go.sum (sum).
func writeCopy(dir, replaceDir string, pkgs []listedPackage, mod, sum []byte) error {
	copyRoot := filepath.Join(dir, "templ")
	trimmedFiles := 0
	for _, p := range pkgs {
		rel, err := filepath.Rel(p.Module.Dir, p.Dir)
		if err != nil {
			return err
		}
		dst := filepath.Join(copyRoot, rel)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		if rel == "." {
			if err := copyFile(filepath.Join(p.Dir, "go.mod"), filepath.Join(dst, "go.mod")); err != nil {
				return err
			}
		}
		var trimmed map[string][]byte
		if trimmedPackages[p.ImportPath] {
			if trimmed, err = trimPackage(p.ImportPath, p.Dir, p.GoFiles); err != nil {
				return fmt.Errorf("%s: %w", p.ImportPath, err)
			}
			trimmedFiles += len(trimmed)
		}
		for _, name := range append(p.GoFiles, p.EmbedFiles...) {
			to := filepath.Join(dst, name)
			if src, ok := trimmed[name]; ok {
				err = os.WriteFile(to, src, 0o644)
			} else {
				err = copyFile(filepath.Join(p.Dir, name), to)
			}
			if err != nil {
				return err
			}
		}
	}
	if trimmedFiles == 0 {
		return fmt.Errorf("no file of %s imports %s: nothing to trim", strings.Join(slices.Sorted(maps.Keys(trimmedPackages)), ", "), strings.Join(slices.Sorted(maps.Keys(heavyImports)), ", "))
	}
	mod = fmt.Appendf(slices.Clip(mod), "\n// Added by site/internal/trim for the js/wasm build only.\nreplace %s => %s\n", Module, replaceDir)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}

// goEnv returns `go env NAME`.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	v := strings.TrimSpace(string(out))
	if v == "" {
		return "", fmt.Errorf("go env %s is empty", name)
	}
	return v, nil
}

// copyFile copies the regular file from to the new file to.
func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// trimPackage parses the named files of the package importPath in pkgDir,
// folds its constants (foldConstants), trims them (trimDecls) and returns
// the new source of each file that changed, by base name. The result is
// checked: no changed file may still import a heavy package.
func trimPackage(importPath, pkgDir string, names []string) (map[string][]byte, error) {
	fset := token.NewFileSet()
	files := make([]*ast.File, len(names))
	for i, name := range names {
		f, err := parser.ParseFile(fset, filepath.Join(pkgDir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files[i] = f
	}
	changed, err := foldConstants(importPath, files)
	if err != nil {
		return nil, err
	}
	stubbed, err := stubBodies(importPath, files)
	if err != nil {
		return nil, err
	}
	for i, c := range stubbed {
		changed[i] = changed[i] || c
	}
	for i, c := range trimDecls(files) {
		changed[i] = changed[i] || c
	}
	out := map[string][]byte{}
	for i, f := range files {
		if !changed[i] {
			continue
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); heavyImports[p] {
				return nil, fmt.Errorf("%s still imports %s after trimming", names[i], p)
			}
		}
		// Free-floating comments go: those of removed declarations would be
		// reattached to whatever follows. Doc comments stay with their
		// declarations.
		f.Comments = nil
		var buf bytes.Buffer
		if err := format.Node(&buf, fset, f); err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
		out[names[i]] = buf.Bytes()
	}
	return out, nil
}

// foldConstants turns each package-level `var name = expr` of files (the
// package importPath) that constants names into `const name = value`, and
// reports which files changed. A name constants lists for this package
// that no file declares as such a variable is an error: the trim no
// longer does what it claims (a templ upgrade renamed it).
func foldConstants(importPath string, files []*ast.File) ([]bool, error) {
	changed := make([]bool, len(files))
	for key, value := range constants {
		name, ok := strings.CutPrefix(key, importPath+".")
		if !ok || strings.Contains(name, "/") {
			continue
		}
		found := false
		for i, f := range files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
					continue
				}
				vs := g.Specs[0].(*ast.ValueSpec)
				if len(vs.Names) != 1 || vs.Names[0].Name != name || len(vs.Values) != 1 {
					continue
				}
				v, err := parser.ParseExpr(value)
				if err != nil {
					return nil, fmt.Errorf("constants[%q]: %w", key, err)
				}
				g.Tok, vs.Type, vs.Values = token.CONST, nil, []ast.Expr{v}
				changed[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("no file declares var %s (one name, one value) to fold into a constant", key)
		}
	}
	return changed, nil
}

// stubBodies replaces the body of each function of files (the package
// importPath) that stubs names, and reports which files changed. A name
// stubs lists for this package that no file declares as a function is an
// error, as in foldConstants.
func stubBodies(importPath string, files []*ast.File) ([]bool, error) {
	changed := make([]bool, len(files))
	for key, body := range stubs {
		name, ok := strings.CutPrefix(key, importPath+".")
		if !ok || strings.Contains(name, "/") {
			continue
		}
		found := false
		for i, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || fd.Name.Name != name || fd.Body == nil {
					continue
				}
				stub, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc f() {\n"+body+"\n}\n", 0)
				if err != nil {
					return nil, fmt.Errorf("stubs[%q]: %w", key, err)
				}
				fd.Body.List = stub.Decls[0].(*ast.FuncDecl).Body.List
				changed[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("no file declares func %s to stub", key)
		}
	}
	return changed, nil
}

// trimDecls removes from files (one package) what names a heavyImports
// package, as described in the package doc, and reports which files changed.
// Names are matched syntactically: a removed package-level name removes every
// declaration that mentions an identifier of that name, which may remove more
// than needed (a local variable of the same name) but never less.
func trimDecls(files []*ast.File) []bool {
	changed := make([]bool, len(files))
	heavyNames := make([]map[string]string, len(files))
	for i := range files {
		heavyNames[i] = localHeavyNames(files[i])
		if len(heavyNames[i]) == 0 {
			continue
		}
		// Its heavy imports go even when no declaration names them any
		// more (a stub replaced the only use).
		changed[i] = true
		files[i] = substituteEquivalents(files[i], heavyNames[i])
	}
	removeHeavyDecls(files, heavyNames, changed)
	for i, f := range files {
		if changed[i] {
			dropUnusedImports(f)
		}
	}
	return changed
}

// localHeavyNames maps the local names of f's heavy imports to their paths.
func localHeavyNames(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !heavyImports[p] {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = p
	}
	return names
}

// substituteEquivalents replaces each selector of a heavy import that
// heavyEquiv has an equivalent for by that equivalent.
func substituteEquivalents(f *ast.File, heavy map[string]string) *ast.File {
	return astReplace(f, func(n ast.Node) ast.Expr {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || heavy[x.Name] == "" {
			return nil
		}
		eq, ok := heavyEquiv[heavy[x.Name]+"."+sel.Sel.Name]
		if !ok {
			return nil
		}
		e, err := parser.ParseExpr(eq)
		if err != nil {
			panic("trim: heavyEquiv entry is not an expression: " + eq)
		}
		return e
	})
}

// removeHeavyDecls removes every declaration that still mentions a heavy
// import or a declaration removed before it, until none does, marking
// the files it changed.
func removeHeavyDecls(files []*ast.File, heavyNames []map[string]string, changed []bool) {
	removed := map[string]bool{}
	for {
		progress := false
		for i, f := range files {
			kept := f.Decls[:0]
			for _, d := range f.Decls {
				if mentionsHeavy(d, heavyNames[i], removed) {
					for _, n := range declNames(d) {
						removed[n] = true
					}
					changed[i], progress = true, true
					continue
				}
				kept = append(kept, d)
			}
			f.Decls = kept
		}
		if !progress {
			return
		}
	}
}

// dropUnusedImports drops the imports no kept declaration of f uses any
// more, and rebuilds f.Imports from what is left.
func dropUnusedImports(f *ast.File) {
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				used[x.Name] = true
			}
		}
		return true
	})
	var kept []ast.Decl
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			kept = append(kept, d)
			continue
		}
		var specs []ast.Spec
		for _, s := range g.Specs {
			imp := s.(*ast.ImportSpec)
			p, _ := strconv.Unquote(imp.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if used[name] || name == "_" || name == "." {
				specs = append(specs, s)
			}
		}
		if len(specs) > 0 {
			g.Specs = specs
			kept = append(kept, g)
		}
	}
	f.Decls = kept
	f.Imports = nil
	for _, d := range kept {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			for _, s := range g.Specs {
				f.Imports = append(f.Imports, s.(*ast.ImportSpec))
			}
		}
	}
}

// mentionsHeavy reports whether declaration d (not an import) selects from a
// heavy import (heavy: local name → path), names a removed package-level
// identifier, or is a method of a removed type.
func mentionsHeavy(d ast.Decl, heavy map[string]string, removed map[string]bool) bool {
	if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
		return false
	}
	if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 {
		if removed[receiverType(fd.Recv.List[0].Type)] {
			return true
		}
	}
	found := false
	ast.Inspect(d, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && heavy[x.Name] != "" {
				found = true
				return false
			}
			// Only the left side can name a package-level identifier.
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && removed[id.Name] {
					found = true
				}
				return !found
			})
			return false
		case *ast.Ident:
			if removed[n.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// declNames returns the package-level names declaration d declares; a method
// declares "Type.Method", which nothing mentions, so removing it cascades
// only through its type.
func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) == 1 {
			return []string{receiverType(d.Recv.List[0].Type) + "." + d.Name.Name}
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name != "_" {
						names = append(names, n.Name)
					}
				}
			}
		}
		return names
	}
	return nil
}

// receiverType returns the base type name of a method receiver (T, *T, T[P]).
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// astReplace returns f with every expression for which repl returns a
// non-nil replacement replaced by it (in type assertions, fields, parameters
// and results: the places a type appears).
func astReplace(f *ast.File, repl func(ast.Node) ast.Expr) *ast.File {
	sub := func(e *ast.Expr) {
		if *e == nil {
			return
		}
		if r := repl(*e); r != nil {
			*e = r
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			sub(&n.Type)
		case *ast.Field:
			sub(&n.Type)
		case *ast.ValueSpec:
			sub(&n.Type)
		case *ast.CompositeLit:
			sub(&n.Type)
		case *ast.ArrayType:
			sub(&n.Elt)
		case *ast.MapType:
			sub(&n.Key)
			sub(&n.Value)
		case *ast.StarExpr:
			sub(&n.X)
		}
		return true
	})
	return f
}
